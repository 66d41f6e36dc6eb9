/* SPDX-License-Identifier: MIT */
/* 128-bit PCLMULQDQ folding (SSE4.1 for pshufb, pblendvb, pextrq). */
#define SUFFIX x86_pclmul
#include "../compiler.h"
#define ATTRIBUTES CRC_TARGET("sse4.1,pclmul") CODE_ALIGNED
#define FEATURES CRC_FEATURES_x86_pclmul
#define VL 16
#define USE_AVX512 0
#include "fold_template.h"
