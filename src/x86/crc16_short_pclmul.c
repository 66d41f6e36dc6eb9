/*
 * CRC-16/XMODEM of 0..64 bytes with PCLMULQDQ: the whole key in at most four 128-bit
 * lanes, one carry-less multiply per 64-bit word, one Barrett reduction.
 *
 * The key M, first byte most significant, is split into 64-bit words w_0..w_{m-1}
 * (w_0 zero-padded on the left: XMODEM starts from zero, so leading zeros are free).
 * Then M x^16 = sum_j w_{m-1-j} x^(64j+16), and with k_j = x^(64j+16) mod P (degree
 * < 16) the sum A = w_{m-1} x^16 + sum_{j>=1} w_{m-1-j} k_j has degree < 80 and the
 * same remainder.  Every product is taken against k_j x^48, so a 128-bit lane holds
 * A x^48: its high qword is A_hi = floor(A / x^16), bits 48..63 are A_lo = A mod x^16.
 * All the products are independent.
 *
 * Barrett (exact over GF(2)): with mu = floor(x^80 / P) = x^64 + mu',
 * q = floor(A_hi mu / x^64) = A_hi + floor(A_hi mu' / x^64) = floor(A / P), and
 * A mod P = A_lo + (q (P - x^16) mod x^16); both terms of q are multiplied by
 * (P - x^16) x^48 so that the answer appears at bits 48..63 again, no shifts needed.
 *
 * Loads never leave [p, p+n): 16-byte loads only when n >= 16 (the first, partial,
 * block is a load at p shuffled down to its bytes), 8/4/1-byte overlapping loads below.
 */
#include <immintrin.h>

#include "../bytes.h"
#include "../cpu.h"

#define TARGET __attribute__((target("pclmul,ssse3,sse4.1")))

static int pclmul_runnable(void)
{
    return crc_cpu_has(CRC_CPU_PCLMUL | CRC_CPU_SSE41);
}

typedef __m128i vec_t;
#define V_LOAD(q) _mm_loadu_si128((const __m128i *)(const void *)(q))
#define V_PAIR(lo, hi) _mm_set_epi64x((long long)(hi), (long long)(lo))
#define V_XOR _mm_xor_si128
#define V_OR _mm_or_si128
#define V_SHUFFLE _mm_shuffle_epi8
#define V_BRACES(x) _mm_cmpeq_epi8(x, _mm_set1_epi8('{'))
#define V_ANY(x) (_mm_movemask_epi8(x) != 0)
#define V_CLMUL(a, ia, b, ib) _mm_clmulepi64_si128(a, b, (ia) | (ib) << 4)
#define V_LOW_UP(x) _mm_slli_si128(x, 8)
#define V_WORD3(x) _mm_extract_epi16(x, 3)

#define IMPL crc16_short_pclmul
#define NAME "pclmul"
#define RUNNABLE pclmul_runnable
#include "../crc16_short_entries.h" /* the body and the entry points */
