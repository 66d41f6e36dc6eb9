/*
 * CRC-32C with the crc32 instruction and VPCLMULQDQ folding side by side.  On cores where
 * the two run in different units (measured on AMD Zen 3: each alone tops out near 8
 * bytes a cycle), one loop feeding both covers more bytes a cycle than either.
 *
 * A pass of `it` iterations takes 128*it bytes B, then three streams A1, A2, A3 of
 * L = 8*QWORDS*it bytes each.  Each iteration folds 128 bytes of B into four 256-bit
 * accumulators (two 128-bit lanes each) and runs QWORDS crc32 instructions on each of
 * the three streams.  The incoming register is xored into B's first four bytes.
 *
 * Folding a reflected 128-bit lane 128 bytes (D = 1024 bits) forward takes CRC-32C's
 * fold_across_1024_bits (../fold_consts.h): congruent modulo G' = P * x^32, so modulo P.
 * The accumulators stay congruent modulo P to B's bytes read so far, laid out as a
 * 128-byte message, so the crc32 instruction over the stored accumulators gives the CRC
 * of B.  Then
 *     CRC = CRC(B) * x^(24L) + R(A1) * x^(16L) + R(A2) * x^(8L) + R(A3)   (mod P),
 * the shifts joined as in the 3-way kernel.  The last pass's streams also take the bytes
 * beyond its whole iterations, to within 24.  Inputs too short for the hybrid, and what
 * is left after its passes, go to one crc32 chain or to 256-bit folding (fold.h) by
 * length.
 */
#include "../cpu.h"
#include "crc32c_x86.h"
#include "fold.h"

#define TARGET_HYBRID __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.2")))

/* crc32 instructions per stream per iteration: 3*QWORDS*8 bytes beside 128 folded. */
#define QWORDS 6
#define ITER_BYTES (128 + 3 * 8 * QWORDS)
/* Longest pass: its streams, with up to ITER_BYTES/3 extra bytes each, must fit the
 * join table. */
#define ITERS_MAX (CRC32C_STREAM_MAX / (8 * QWORDS) - 2)
/* The choice by length, measured per call on an AMD EPYC (Zen 3), GB/s best of 31:
 * below FOLD_MIN one crc32 chain (at 160 B: chain 16.2, 256-bit folding 16.2; at 224 B:
 * 15.8 vs 18.6); from there 256-bit folding, ahead of the 3-way kernel up to 1.5 KiB
 * (23.7 vs 21.8 at 1 KiB); from HYBRID_MIN the hybrid (at 2 KiB: 21.9 vs folding 20.3 and
 * 3-way 21.5; at 3 KiB: 33.2 vs 25.1 and 23.6). */
#define FOLD_MIN 192
#define HYBRID_MIN 2048

static TARGET_HYBRID inline __m256i load256(const uint8_t *p)
{
    return _mm256_loadu_si256((const void *)p);
}

static TARGET_HYBRID inline __m256i fold(__m256i x, __m256i k, const uint8_t *next)
{
    return _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(x, k, 0x00),
                                             _mm256_clmulepi64_epi128(x, k, 0x11)),
                            load256(next));
}

/* CRC of the 128-byte message the accumulators hold: four 32-byte chains joined like
 * the 3-way streams, shorter than one 128-byte chain. */
static TARGET_HYBRID inline uint32_t crc_of_lanes(__m256i x0, __m256i x1, __m256i x2, __m256i x3,
                                                  const struct crc32_join *c)
{
    uint8_t lanes[128];
    _mm256_storeu_si256((void *)lanes, x0);
    _mm256_storeu_si256((void *)(lanes + 32), x1);
    _mm256_storeu_si256((void *)(lanes + 64), x2);
    _mm256_storeu_si256((void *)(lanes + 96), x3);
    uint64_t r[4] = {0, 0, 0, 0};
    for (int q = 0; q < 4; q++)
        for (int j = 0; j < 4; j++)
            r[j] = _mm_crc32_u64(r[j], crc32c_load64(lanes + 32 * j + 8 * q));
    const size_t j32 = 32 / 8 - 1;
    uint64_t shifted = crc32c_clmul32((uint32_t)r[0], c->join[j32].by_3l) ^
                       crc32c_clmul32((uint32_t)r[1], c->join[j32].by_2l) ^
                       crc32c_clmul32((uint32_t)r[2], c->join[j32].by_l);
    return (uint32_t)r[3] ^ (uint32_t)_mm_crc32_u64(0, shifted);
}

/* One pass: `it` iterations, then `extra` more bytes (a multiple of 8) on each stream. */
static TARGET_HYBRID uint32_t hybrid_pass(uint32_t crc, const uint8_t *p, size_t it, size_t extra,
                                          const struct crc32_join *c, __m256i k)
{
    const size_t l = 8 * QWORDS * it + extra;
    const uint8_t *b = p, *a = p + 128 * it;
    __m256i x0 = _mm256_xor_si256(load256(b), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)crc)));
    __m256i x1 = load256(b + 32), x2 = load256(b + 64), x3 = load256(b + 96);
    uint64_t s0 = 0, s1 = 0, s2 = 0;
    for (size_t i = 1;; i++) {
        for (int q = 0; q < QWORDS; q++, a += 8) {
            s0 = _mm_crc32_u64(s0, crc32c_load64(a));
            s1 = _mm_crc32_u64(s1, crc32c_load64(a + l));
            s2 = _mm_crc32_u64(s2, crc32c_load64(a + 2 * l));
        }
        if (i == it)
            break;
        b += 128;
        x0 = fold(x0, k, b);
        x1 = fold(x1, k, b + 32);
        x2 = fold(x2, k, b + 64);
        x3 = fold(x3, k, b + 96);
    }
    for (const uint8_t *end = a + extra; a < end; a += 8) {
        s0 = _mm_crc32_u64(s0, crc32c_load64(a));
        s1 = _mm_crc32_u64(s1, crc32c_load64(a + l));
        s2 = _mm_crc32_u64(s2, crc32c_load64(a + 2 * l));
    }
    uint32_t crc_b = crc_of_lanes(x0, x1, x2, x3, c);
    const size_t j = l / 8 - 1;
    uint64_t shifted = crc32c_clmul32(crc_b, c->join[j].by_3l) ^
                       crc32c_clmul32((uint32_t)s0, c->join[j].by_2l) ^
                       crc32c_clmul32((uint32_t)s1, c->join[j].by_l);
    return (uint32_t)s2 ^ (uint32_t)_mm_crc32_u64(0, shifted);
}

/* Below HYBRID_MIN: one chain or 256-bit folding, a tail call for the latter. */
static TARGET_HYBRID inline uint64_t short_or_middle(const crcforge_model *m, uint64_t reg,
                                                     const uint8_t *p, size_t n)
{
    if (n < FOLD_MIN)
        return crc32c_chain((uint32_t)reg, p, n);
    return fold_update_x86_vpclmul_avx2(m, reg, p, n);
}

/* Full passes, then one pass over the rest (if long enough) whose streams also take
 * what is left beyond whole iterations, to within 24 bytes; then the 3-way kernel. */
static TARGET_HYBRID __attribute__((noinline)) uint64_t hybrid_long(const crcforge_model *m,
                                                                   uint32_t crc,
                                                                   const uint8_t *p, size_t n)
{
    const struct crc32_join *c = crc32_join_of(crc_model_crc32c);
    const struct fold_consts *f = fold_consts_peek(crc_model_crc32c);
    if (f == NULL)
        f = fold_consts_build(crc_model_crc32c);
    const __m256i k = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const void *)&f->fold_across_1024_bits));
    for (; n >= ITERS_MAX * ITER_BYTES; n -= ITERS_MAX * ITER_BYTES, p += ITERS_MAX * ITER_BYTES)
        crc = hybrid_pass(crc, p, ITERS_MAX, 0, c, k);
    if (n >= HYBRID_MIN) {
        size_t it = n / ITER_BYTES, extra = (n - it * ITER_BYTES) / 24 * 8;
        crc = hybrid_pass(crc, p, it, extra, c, k);
        p += it * ITER_BYTES + 3 * extra;
        n -= it * ITER_BYTES + 3 * extra;
    }
    return short_or_middle(m, crc, p, n);
}

/* By length: one chain, 256-bit folding, or the hybrid; short inputs pay one comparison. */
static TARGET_HYBRID uint64_t crc32c_x86_avx2_hybrid(const crcforge_model *m, uint64_t reg,
                                                     const uint8_t *p, size_t n)
{
    if (n < FOLD_MIN)
        return crc32c_chain((uint32_t)reg, p, n);
    if (n < HYBRID_MIN)
        return fold_update_x86_vpclmul_avx2(m, reg, p, n);
    return hybrid_long(m, (uint32_t)reg, p, n);
}

const struct crc_impl crc_impl_crc32c_x86_avx2_hybrid = {
    .name = "crc32c_x86_avx2_hybrid", .features = CRC_CPU_SSE42 | CRC_FEATURES_x86_vpclmul_avx2,
    .supports = crc32c_serves, .update = crc32c_x86_avx2_hybrid, .crc32_below = FOLD_MIN};
