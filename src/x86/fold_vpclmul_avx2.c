/* SPDX-License-Identifier: MIT */
/* 256-bit VPCLMULQDQ folding with AVX2, for CPUs without AVX-512. */
#define SUFFIX x86_vpclmul_avx2
#include "../compiler.h"
#define ATTRIBUTES CRC_TARGET("avx2,vpclmulqdq,pclmul,sse4.1") CODE_ALIGNED
#define FEATURES CRC_FEATURES_x86_vpclmul_avx2
#define VL 32
#define USE_AVX512 0
#include "fold_template.h"
