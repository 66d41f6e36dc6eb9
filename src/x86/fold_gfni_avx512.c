/* SPDX-License-Identifier: MIT */
/* MSB-first models on 512-bit VPCLMULQDQ folding of their mirror: each byte's bits
 * reversed with GFNI (fold_template.h, GFNI_BITREV), so that no byte shuffle per vector
 * competes with the multiplies for Intel's port 5. */
#define SUFFIX x86_gfni_avx512
#include "../compiler.h"
#define ATTRIBUTES                                                                         \
    CRC_TARGET("gfni,avx512f,avx512bw,avx512vl,avx512vbmi,vpclmulqdq,pclmul,avx2,sse4.1") CODE_ALIGNED
#define FEATURES CRC_FEATURES_x86_gfni_avx512
#define VL 64
#define USE_AVX512 1
#define GFNI_BITREV 1
#include "fold_template.h"
