/* SPDX-License-Identifier: MIT */
/*
 * a * x^(8*len) mod P with PCLMULQDQ, for combine (see combine.h for the lift of every
 * width to 64).  The accumulator is kept lifted, acc = a * x^s; each set bit k of len
 * multiplies it by x^(8*2^k) mod P (unlifted), and the 128-bit product T = acc * b,
 * of degree < 127, is reduced modulo P' = x^64 + L by Barrett:
 *     q = floor(T_hi * floor(x^128 / P') / x^64) = hi(T_hi * mu) xor T_hi,
 *     T mod P' = T_lo xor lo(q * L),
 * with mu = floor(x^128 / P') less its x^64 term (fold_consts.h's MSB-first Barrett pair).
 */
#include <immintrin.h>

#include "../combine.h"
#include "../compiler.h"
#include "../fold_consts.h"

#define TARGET_PCLMUL CRC_TARGET("pclmul")

static TARGET_PCLMUL inline __m128i clmul(uint64_t a, uint64_t b)
{
    return _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b),
                                0x00);
}

static inline uint64_t lo64(__m128i v)
{
    return (uint64_t)_mm_cvtsi128_si64(v);
}

static inline uint64_t hi64(__m128i v)
{
    return (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
}

/* acc * b mod P', acc lifted, b < 2^64 unlifted: the result is lifted. */
static TARGET_PCLMUL inline uint64_t mulmod_lifted(uint64_t acc, uint64_t b,
                                                  const struct fold_consts *c)
{
    __m128i t = clmul(acc, b);
    uint64_t t_hi = hi64(t);
    uint64_t q = hi64(clmul(t_hi, c->msb_barrett_quotient)) ^ t_hi;
    return lo64(t) ^ lo64(clmul(q, c->msb_barrett_poly));
}

static TARGET_PCLMUL uint64_t shift_clmul(const struct fold_consts *c, uint64_t a, uint64_t len)
{
    const unsigned s = 64 - c->width;
    uint64_t acc = a << s;
    for (; len != 0; len &= len - 1)
        acc = mulmod_lifted(acc, c->x8_pow2k[CRC_CTZ64(len)], c);
    return acc >> s;
}

uint64_t crc_x86_shift_clmul(const struct fold_consts *c, uint64_t a, uint64_t len)
{
    return shift_clmul(c, a, len);
}
