/* SPDX-License-Identifier: MIT */
/* The aligned 512-bit tier's logic (fold_vpclmul_avx512_aligned.c) emulated on AVX2
 * (fold_emulated_avx512.h): its own translation unit, since the template's steps are
 * defined once per unit. */
#if defined(__x86_64__)
#define EMU_ALIGNED 1
#include "fold_emulated_avx512.h"
#endif
