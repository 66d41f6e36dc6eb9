/* SPDX-License-Identifier: MIT */
/*
 * 128-bit carry-less vector operations on x86 (SSE4.1, PCLMULQDQ): the names the code
 * written once for x86 and ARM uses (../fold_lanes.h, ../crc16_short.h); arm/vec128.h
 * defines the same over NEON.  Callers enable the instructions with target attributes.
 */
#ifndef CRCFORGE_X86_VEC128_H
#define CRCFORGE_X86_VEC128_H

#include <immintrin.h>

typedef __m128i vec_t;
#define V_LOAD(q) _mm_loadu_si128((const __m128i *)(const void *)(q))
#define V_PAIR(lo, hi) _mm_set_epi64x((long long)(hi), (long long)(lo)) /* qwords */
#define V_XOR _mm_xor_si128
#define V_OR _mm_or_si128
/* Bytes of x picked by idx; an index with its top bit set gives 0. */
#define V_SHUFFLE _mm_shuffle_epi8
/* The carry-less product of qword ia of a and qword ib of b (ia, ib constants). */
#define V_CLMUL(a, ia, b, ib) _mm_clmulepi64_si128(a, b, (ia) | (ib) << 4)
#define V_LOW_UP(x) _mm_slli_si128(x, 8)    /* low qword moved up, zero below */
#define V_HIGH_DOWN(x) _mm_srli_si128(x, 8) /* high qword moved down, zero above */
#define V_LOW64(x) ((uint64_t)_mm_cvtsi128_si64(x))
#define V_HIGH64(x) ((uint64_t)_mm_extract_epi64(x, 1))
/* The 16 bytes in reverse order: the byte-reflected lane of an MSB-first model. */
#define V_BSWAP_MASK() _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define V_BRACES(x) _mm_cmpeq_epi8(x, _mm_set1_epi8('{')) /* 0xff where a byte is '{' */
#define V_ANY(x) (_mm_movemask_epi8(x) != 0)              /* a byte has its top bit set */
#define V_WORD3(x) _mm_extract_epi16(x, 3)                /* bits 48..63 */

#endif /* CRCFORGE_X86_VEC128_H */
