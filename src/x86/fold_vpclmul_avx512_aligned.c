/* SPDX-License-Identifier: MIT */
/* fold_x86_vpclmul_avx512 with the accumulators' loads aligned to 64 bytes from 2 KiB
 * (fold_template.h, ALIGNED_FROM; the tests emulate it as well, fold_emulated_avx512.h):
 * a candidate where split loads cost (offset by one, Intel lost 0.85x to isa-l at
 * 64 KiB-1 MiB); the sweep of each CPU decides. */
#define SUFFIX x86_vpclmul_avx512_aligned
#include "../compiler.h"
#define ATTRIBUTES                                                                         \
    CRC_TARGET("avx512f,avx512bw,avx512vl,avx512vbmi,vpclmulqdq,pclmul,avx2,sse4.1") CODE_ALIGNED
#define FEATURES CRC_FEATURES_x86_vpclmul_avx512
#define VL 64
#define USE_AVX512 1
#define ALIGNED_FROM CRC_FOLD_ALIGNED_FROM
#include "fold_template.h"
