/* SPDX-License-Identifier: MIT */
/* The GFNI tier's logic emulated on AVX2 (fold_emulated_avx512.h): its own translation
 * unit, since the template's steps are defined once per unit. */
#if defined(__x86_64__)
#define EMU_GFNI_BITREV 1
#include "fold_emulated_avx512.h"
#endif
