/* SPDX-License-Identifier: MIT */
/*
 * CRC-32C on 512-bit VPCLMULQDQ vectors (AVX-512F) and the crc32 instruction: the parallel
 * reduction for short and medium inputs and the hybrid of folding and three crc32 chains
 * for long ones (crc32c_vpclmul_template.h).
 */
#define PARALLEL crc32c_x86_vpclmul_avx512
#define HYBRID crc32c_x86_avx512_hybrid
#define FEATURES CRC_FEATURES_x86_crc32c_avx512
#include "../compiler.h"
#define ATTRIBUTES CRC_TARGET("avx512f,vpclmulqdq,pclmul,avx2,sse4.2,crc32") CODE_ALIGNED
#define VL 64
#include "crc32c_vpclmul_template.h"
