/* SPDX-License-Identifier: MIT */
/* 512-bit VPCLMULQDQ folding with AVX-512 (F for zmm, BW for vpshufb on zmm, VL for
 * vpternlogq on xmm and ymm, VBMI for vpermb, which places the head). */
#define SUFFIX x86_vpclmul_avx512
#include "../compiler.h"
#define ATTRIBUTES                                                                         \
    CRC_TARGET("avx512f,avx512bw,avx512vl,avx512vbmi,vpclmulqdq,pclmul,avx2,sse4.1") CODE_ALIGNED
#define FEATURES CRC_FEATURES_x86_vpclmul_avx512
#define VL 64
#define USE_AVX512 1
#include "fold_template.h"
