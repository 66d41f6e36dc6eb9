/* SPDX-License-Identifier: MIT */
/*
 * CRC-32C on VPCLMULQDQ vectors ending on the crc32 instruction, written once and included
 * by one .c file per vector length (crc32c_avx2.c, crc32c_avx512.c).  Two paths:
 *
 * PARALLEL (short and medium inputs, any length): the first n % VL bytes (the head) run on
 * the crc32 instruction from the incoming register, r = R(reg, head), while the rest, m
 * whole vectors, is reduced in one step: every 16-byte lane multiplied by its own
 * distance to the last lane (struct crc32_lanes, ../fold_consts.h), all products
 * independent, xored into one lane T; T's two qwords through the crc32 instruction from 0
 * give R(0, rest) (T is congruent to the rest modulo P).  The head is joined by a
 * carry-less shift over the rest, as the 3-way kernel joins its streams (crc32c_sse42.c):
 *     R(reg, head || rest) = r * x^(8 |rest|) + R(0, rest)   (mod P);
 * with no head, the register is xored into the first vector instead, as it starts a
 * message.  Past CRC32_LANES_MAX lanes (4 KiB), `acc` vector accumulators fold the rest in
 * a loop (r xored into the first), and the accumulators and the vectors left after the
 * loop end the same way: each lane times its distance to the last.
 *
 * HYBRID (long inputs, past the folding ceiling): folding and three crc32 chains side by
 * side, on cores where the two run in different units.  The first bytes up to VL
 * alignment run on one chain (the folded loads then never straddle cache lines).  A pass
 * of `it` iterations takes 4*VL*it bytes B, then three streams A1, A2, A3 of L = 8*q*it
 * bytes each (q crc32 qwords per stream per iteration, the parameter hybrid_qwords:
 * per 256 bytes folded with 512-bit vectors, per 128 with 256-bit ones; the parameters,
 * struct crc_params, are handed to the update and the value entry).  Each iteration
 * folds 4 vectors of B into four accumulators and runs q crc32 instructions on each
 * stream.  The incoming register is xored into B's first four bytes; the accumulators end
 * as PARALLEL's do, giving R(reg, B), and
 *     CRC = R(reg, B) * x^(24L) + R(A1) * x^(16L) + R(A2) * x^(8L) + R(A3)   (mod P),
 * the shifts by struct crc32_join.  Whole passes are as long as the join table allows,
 * the last one takes the whole iterations left; below the parameter HYBRID_LIMIT
 * (crc32c_hybrid256_min or crc32c_hybrid512_min), and for what the passes leave,
 * the hybrid takes, after the head n % 16 (head()):
 *  - up to SHORT_MOST lanes, SHORT: one straight-line function for every number of
 *    lanes, whole vectors then a short crc32 chain that ends on T;
 *  - above, MEDIUM (512-bit): the same for any number of vectors; or SPLIT (256-bit): one
 *    pass of vectors beside three crc32 streams without accumulators.
 * crcforge_crc32c calls the hybrid's value entry (HYBRID_crc32c) in its own place.
 *
 * Parameters (all #undef'd at the end):
 *   PARALLEL    the parallel path's name (an identifier): its record crc_impl_PARALLEL
 *   HYBRID      the same for the hybrid: crc_impl_HYBRID
 *   FEATURES    the CRC_CPU_* bits of everything the paths execute
 *   ATTRIBUTES  the target attribute enabling them:
 *                 VL 32: "avx2,vpclmulqdq,pclmul,sse4.2,crc32"
 *                 VL 64: "avx512f,vpclmulqdq,pclmul,avx2,sse4.2,crc32"
 *   VL          vector length in bytes, 32 or 64
 *   PIN(x)      optional: keeps the vector x in a register (an empty asm by default; the
 *               tests' emulated vectors, which are no register, define it empty)
 */
#include <immintrin.h>

#include "../compiler.h"
#include "../cpu.h"
#include "../fold_consts.h"
#include "crc32c_x86.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STRINGIFY_(a) #a
#define STRINGIFY(a) STRINGIFY_(a)

#define LANES (VL / 16) /* 16-byte lanes a vector */
#if VL == 32
typedef __m256i wide_t;
#define WLOAD(q) _mm256_loadu_si256((const void *)(q))
#define WCLMUL(a, b, imm) _mm256_clmulepi64_epi128(a, b, imm)
#define WXOR(a, b) _mm256_xor_si256(a, b)
#define WXOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define WBROADCAST(x) _mm256_broadcastsi128_si256(x)
#define WFROM128(x) _mm256_zextsi128_si256(x)
#define WZERO() _mm256_setzero_si256()
#elif VL == 64
typedef __m512i wide_t;
#define WLOAD(q) _mm512_loadu_si512((const void *)(q))
#define WCLMUL(a, b, imm) _mm512_clmulepi64_epi128(a, b, imm)
#define WXOR(a, b) _mm512_xor_si512(a, b)
#define WXOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define WBROADCAST(x) _mm512_broadcast_i32x4(x)
#define WFROM128(x) _mm512_zextsi128_si512(x)
#define WZERO() _mm512_setzero_si512()
#else
#error "VL must be 32 or 64"
#endif

/* A loaded constant kept in a register: compilers otherwise fold its load into both
 * multiplies, two loads of the table a vector (measured on AMD Zen 4, 512-bit, 2 KiB:
 * 48 GB/s with the folded loads, 53 with one). */
#ifndef PIN
#define PIN(x) __asm__("" : "+v"(x))
#endif

/* Lanes of v times their constants (LANES pairs at k), xored onto s. */
static ATTRIBUTES ALWAYS_INLINE wide_t times(wide_t v, const struct fold_pair *k, wide_t s)
{
    wide_t c = WLOAD(k);
    PIN(c);
    return WXOR3(WCLMUL(v, c, 0x00), WCLMUL(v, c, 0x11), s);
}

/* v folded across the distance of the broadcast pair k, onto b. */
static ATTRIBUTES ALWAYS_INLINE wide_t fold(wide_t v, wide_t k, wide_t b)
{
    return WXOR3(WCLMUL(v, k, 0x00), WCLMUL(v, k, 0x11), b);
}

/* The register a 32-bit value (a CRC register) is when xored into a message's first
 * bytes: the low dword of the first lane. */
static ATTRIBUTES ALWAYS_INLINE wide_t from_register(uint32_t r)
{
    return WFROM128(_mm_cvtsi32_si128((int)r));
}

/* The lanes of s xored into one lane T. */
static ATTRIBUTES ALWAYS_INLINE __m128i one_lane(wide_t s)
{
#if VL == 64
    const __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1));
#else
    const __m256i y = s;
#endif
    return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
}

/* R(0, T) for the lanes of s xored into one lane T: the crc32 instruction over its two
 * qwords (fold_consts.h, struct crc32_lanes). */
static ATTRIBUTES ALWAYS_INLINE uint32_t crc_of_lanes(wide_t s)
{
    const __m128i t = one_lane(s);
    return (uint32_t)_mm_crc32_u64(_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(t)),
                                   (uint64_t)_mm_extract_epi64(t, 1));
}

/* The lanes of m >= 1 vectors at p, the first xored with `first`, each times its
 * constants from k on (LANES pairs a vector), xored together: two sums, so that the xors
 * do not form one long chain. */
static ATTRIBUTES ALWAYS_INLINE wide_t lanes_sum(const uint8_t *p, size_t m,
                                                 const struct fold_pair *k, wide_t first)
{
    wide_t s0 = times(WXOR(WLOAD(p), first), k, WZERO()), s1 = WZERO();
    size_t j = 1;
    if (m > 1) {
        s1 = times(WLOAD(p + VL), k + LANES, s1);
        j = 2;
    }
    for (; j + 2 <= m; j += 2) {
        s0 = times(WLOAD(p + j * VL), k + j * LANES, s0);
        s1 = times(WLOAD(p + (j + 1) * VL), k + (j + 1) * LANES, s1);
    }
    if (j < m)
        s0 = times(WLOAD(p + j * VL), k + j * LANES, s0);
    return WXOR(s0, s1);
}

/* Accumulators a[0..count), consecutive vectors of a message, each lane times its
 * constants from d on (LANES pairs a vector), xored together in two sums. */
static ATTRIBUTES ALWAYS_INLINE wide_t accumulators_sum(const wide_t *a, const int count,
                                                        const struct fold_pair *d)
{
    wide_t s[2] = {WZERO(), WZERO()};
    UNROLL_ALL
    for (int i = 0; i < count; i++)
        s[i % 2] = times(a[i], d + i * LANES, s[i % 2]);
    return WXOR(s[0], s[1]);
}

/* R(crc, p[0..n)) for n a multiple of VL above CRC32_LANES_MAX lanes: `acc` accumulators
 * (a constant at each call) fold the input, then end with the vectors left after them. */
static ATTRIBUTES ALWAYS_INLINE uint32_t fold_loop(uint32_t crc, const uint8_t *p, size_t n,
                                                   const struct crc32_lanes *lanes, const int acc)
{
    wide_t a[8];
    UNROLL_ALL
    for (int i = 0; i < acc; i++)
        a[i] = WLOAD(p + i * VL);
    a[0] = WXOR(a[0], from_register(crc));
    const wide_t k = WBROADCAST(
        _mm_loadu_si128((const void *)&lanes->lane[CRC32_LANES_MAX - 1 - acc * LANES]));
    for (p += acc * VL, n -= acc * VL; n >= (size_t)acc * VL; p += acc * VL, n -= acc * VL) {
        UNROLL_ALL
        for (int i = 0; i < acc; i++)
            a[i] = fold(a[i], k, WLOAD(p + i * VL));
    }
    /* The accumulators are acc vectors of a message that the m vectors left end. */
    const size_t m = n / VL;
    const struct fold_pair *d = &lanes->lane[CRC32_LANES_MAX - (acc + m) * LANES];
    wide_t s = accumulators_sum(a, acc, d);
    if (m > 0)
        s = WXOR(s, lanes_sum(p, m, d + acc * LANES, WZERO()));
    return crc_of_lanes(s);
}

/* Past CRC32_LANES_MAX lanes: `acc` accumulators (1, 2, 4 or 8).
 * (The register's width, so that the caller's call is a tail call.) */
static ATTRIBUTES CRC_NOINLINE uint64_t fold_long(uint32_t crc, const uint8_t *p,
                                                               size_t n,
                                                               const struct crc32_lanes *lanes,
                                                               unsigned acc)
{
    switch (acc) {
    case 1:
        return fold_loop(crc, p, n, lanes, 1);
    case 2:
        return fold_loop(crc, p, n, lanes, 2);
    case 4:
        return fold_loop(crc, p, n, lanes, 4);
    default:
        return fold_loop(crc, p, n, lanes, 8);
    }
}

static ATTRIBUTES uint64_t parallel_first_use(uint64_t reg, const uint8_t *p, size_t n,
                                              unsigned acc);

/* Any n: the head on one chain, then the rest in one step, or through fold_long. */
static ATTRIBUTES ALWAYS_INLINE uint64_t parallel(uint64_t reg, const uint8_t *p, size_t n,
                                                  unsigned acc)
{
    const struct crc32_lanes *lanes = crc32c_lanes_peek();
    if (lanes == NULL)
        return parallel_first_use(reg, p, n, acc);
    const size_t head = n % VL, lanes_n = n / 16;
    if (lanes_n > CRC32_LANES_MAX) {
        const uint32_t crc = crcforge_crc32c_chain_((uint32_t)reg, p, head);
        return fold_long(crc, p + head, n - head, lanes, acc);
    }
    if (n < VL)
        return crcforge_crc32c_chain_((uint32_t)reg, p, n);
    const struct fold_pair *k = &lanes->lane[CRC32_LANES_MAX - lanes_n / LANES * LANES];
    /* Whole vectors: the register starts the first, as it starts a message. */
    if (head == 0)
        return crc_of_lanes(lanes_sum(p, n / VL, k, from_register((uint32_t)reg)));
    const uint32_t crc = crcforge_crc32c_chain_((uint32_t)reg, p, head);
    const uint32_t rest = crc_of_lanes(lanes_sum(p + head, n / VL, k, WZERO()));
    return rest ^ (uint32_t)_mm_crc32_u64(
                      0, crc32c_clmul32(crc, lanes->shift[lanes_n / LANES * LANES - 1]));
}

/* The table built, then the update started again: the update itself makes no call. */
static ATTRIBUTES CRC_NOINLINE CRC_COLD uint64_t
parallel_first_use(uint64_t reg, const uint8_t *p, size_t n, unsigned acc)
{
    crc32c_lanes_build();
    return parallel(reg, p, n, acc);
}

static ATTRIBUTES uint64_t PARALLEL(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                    size_t n, const struct crc_params *k)
{
    (void)m;
    return parallel(reg, p, n, k->fold_accumulators);
}

/* The CRC value of any n. */
static ATTRIBUTES CRC_NOINLINE uint32_t parallel_value(uint32_t crc, const uint8_t *p,
                                                      size_t n, unsigned acc)
{
    return ~(uint32_t)parallel(~crc, p, n, acc);
}

/* The record's CRC-32C value entry (crcforge_crc32c's form), so that crcforge_crc32c passes
 * its calls on to the path, a band's too, with no frame of its own: whole vectors up to the
 * lane table's 4 KiB here, leaf code; other lengths apart (their head and accumulators keep
 * a frame).  AMD Zen 4, the zen4 table's band of this path, paired rounds against the band
 * called through the update: 192-2048 B 1-4% faster, 160 B as fast. */
static ATTRIBUTES uint32_t CAT(PARALLEL, _crc32c)(uint32_t crc, const void *buf, size_t n,
                                                  const struct crc_params *params)
{
    if (CRC_UNLIKELY(n % VL != 0 || n - VL >= 16 * CRC32_LANES_MAX || !crc32c_lanes_ready()))
        return parallel_value(crc, buf, n, params->fold_accumulators);
    const struct fold_pair *k = &crc32c_lanes_table.lane[CRC32_LANES_MAX - n / 16];
    return ~crc_of_lanes(lanes_sum(buf, n / VL, k, from_register(~crc)));
}

/* ------------------------------------------------------------------------------------
 * HYBRID
 * ---------------------------------------------------------------------------------- */

/* The parameter where the loop of passes starts (a crossover of the CPU's units,
 * struct crc_params); below it MEDIUM (512-bit, up to the lane table's 4 KiB) or SPLIT (256-bit,
 * up to HYBRID_END, what its shape table covers) take the input. */
#if VL == 64
#define HYBRID_LIMIT crc32c_hybrid512_min
#else
#define HYBRID_LIMIT crc32c_hybrid256_min
#define HYBRID_END CRC32C_HYBRID256_MIN_MOST
#endif
/* Accumulators: 8 (twice the qwords an iteration) measured 60-61 GB/s against 67-68 for
 * 4 on AMD Zen 4 (512-bit, q = 5, 64 KiB-1 MiB). */
#define HYBRID_ACC 4

/* One crc32 qword on each stream: at a, a + l, a + 2l. */
static ATTRIBUTES ALWAYS_INLINE void streams_qword(uint64_t *s, const uint8_t *a, size_t l)
{
    s[0] = _mm_crc32_u64(s[0], crc32c_load64(a));
    s[1] = _mm_crc32_u64(s[1], crc32c_load64(a + l));
    s[2] = _mm_crc32_u64(s[2], crc32c_load64(a + 2 * l));
}

/* One pass: `it` iterations of HYBRID_ACC vectors and q qwords a stream.  With
 * `interleave` (q a constant), each
 * iteration's qwords are spread between its folds in program order: on AMD Zen 4
 * (512-bit, 64 KiB-1 MiB) 73-74 GB/s against 70-71 for q = 4, 69-71 against 66-67 for
 * q = 5; with q a variable, the loops it takes cost more than it gains. */
static ATTRIBUTES ALWAYS_INLINE uint32_t hybrid_pass(uint32_t crc, const uint8_t *p, size_t it,
                                                     const unsigned q,
                                                     const int interleave, const int late,
                                                     const struct crc32_lanes *lanes,
                                                     const struct crc32_join *join)
{
    const size_t l = 8 * q * it;
    const uint8_t *b = p, *a = p + HYBRID_ACC * VL * it;
    const wide_t k = WBROADCAST(
        _mm_loadu_si128((const void *)&lanes->lane[CRC32_LANES_MAX - 1 - HYBRID_ACC * LANES]));
    wide_t x[HYBRID_ACC];
    UNROLL_ALL
    for (int i = 0; i < HYBRID_ACC; i++)
        x[i] = WLOAD(b + i * VL);
    /* With `late`, where the lane table shifts past B, the register joins R(0, B) at the
     * end: xored into the first vector, it would hold that accumulator's folds until it is
     * known (after the chain of an unaligned input's lead, hybrid_long).  A register known
     * at the start goes in first: on AMD Zen 3 (256-bit, 2-2.1 KiB aligned) the join at
     * the end cost 10-20%. */
    const size_t b_lanes = HYBRID_ACC * LANES * it;
    const int join_late = late && b_lanes <= CRC32_LANES_MAX;
    /* The register waits for the end in a vector register: in a general one, live across
     * the loop beside the streams, GCC 12 ran short and moved a stream through a vector
     * register every iteration (AMD Zen 4, 512-bit, 8-16 KiB: 6% slower, aligned too). */
    __m128i reg = _mm_cvtsi32_si128((int)crc);
    PIN(reg);
    if (!join_late)
        x[0] = WXOR(x[0], WFROM128(reg));
    uint64_t s[3] = {0, 0, 0};
    for (size_t i = 1; i < it; i++) {
        b += HYBRID_ACC * VL;
        if (!interleave) {
            for (unsigned j = 0; j < q; j++, a += 8)
                streams_qword(s, a, l);
            UNROLL_ALL
            for (int v = 0; v < HYBRID_ACC; v++)
                x[v] = fold(x[v], k, WLOAD(b + v * VL));
            continue;
        }
        unsigned j = 0;
        UNROLL_ALL
        for (int v = 0; v < HYBRID_ACC; v++) {
            x[v] = fold(x[v], k, WLOAD(b + v * VL));
            for (; j < (v + 1) * q / HYBRID_ACC; j++, a += 8)
                streams_qword(s, a, l);
        }
    }
    /* The last iteration's qwords. */
    for (const uint8_t *end = a + 8 * q; a < end; a += 8)
        streams_qword(s, a, l);
    uint32_t crc_b = crc_of_lanes(
        accumulators_sum(x, HYBRID_ACC, &lanes->lane[CRC32_LANES_MAX - HYBRID_ACC * LANES]));
    if (join_late) {
        PIN(reg);
        const __m128i shift = _mm_cvtsi32_si128((int)lanes->shift[b_lanes - 1]);
        crc_b ^= (uint32_t)_mm_crc32_u64(
            0, (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(reg, shift, 0x00)));
    }
    const size_t j = l / 8 - 1;
    const uint64_t shifted = crc32c_clmul32(crc_b, join->join[j].by_3l) ^
                             crc32c_clmul32((uint32_t)s[0], join->join[j].by_2l) ^
                             crc32c_clmul32((uint32_t)s[1], join->join[j].by_l);
    return (uint32_t)s[2] ^ (uint32_t)_mm_crc32_u64(0, shifted);
}

/* The longest pass, in iterations, whose streams fit the join table: a multiple of 8, so
 * that a whole pass (8 * 3 * 8q stream bytes) keeps the next one on VL bytes. */
static inline size_t hybrid_iters_max(unsigned q)
{
    return CRC32_JOIN_MAX / (8 * q) / 8 * 8;
}

/* The passes of q over p[0..n) that fit, the rest left in *p, *n: whole passes of
 * hybrid_iters_max(q) iterations (the streams' distance a constant when q is), then one
 * pass of the whole iterations left if they are `least` bytes or more (the parameter
 * HYBRID_LIMIT); the rest, under an iteration, goes to SHORT or MEDIUM (on AMD Zen 4,
 * 512-bit, 3-8 KiB: 1-10% faster than the streams taking it beyond the iterations).
 * `interleave` and `late` (the register known late: the last pass joins it at its end): see
 * hybrid_pass. */
static ATTRIBUTES ALWAYS_INLINE uint32_t hybrid_passes(uint32_t crc, const uint8_t **p, size_t *n,
                                                       size_t least, const unsigned q,
                                                       const int interleave, const int late,
                                                       const struct crc32_lanes *lanes,
                                                       const struct crc32_join *join)
{
    const size_t iter_bytes = HYBRID_ACC * VL + 24 * q, iters_max = hybrid_iters_max(q);
    for (; *n >= iters_max * iter_bytes; *n -= iters_max * iter_bytes, *p += iters_max * iter_bytes)
        crc = hybrid_pass(crc, *p, iters_max, q, interleave, 0, lanes, join);
    if (*n >= least) {
        const size_t it = *n / iter_bytes;
        crc = hybrid_pass(crc, *p, it, q, interleave, late, lanes, join);
        *p += it * iter_bytes;
        *n -= it * iter_bytes;
    }
    return crc;
}

/* The passes for any q (a loop over q), and for each q of HYBRID_PASSES_FOR (the crc32
 * instructions of an iteration unrolled and interleaved), each a function of its own:
 * inlined into one, GCC 12 ran short of registers in some and moved the chains' values
 * through vector registers, which halved their speed. */
typedef uint32_t (*hybrid_passes_fn)(uint32_t crc, const uint8_t **p, size_t *n, size_t least,
                                     unsigned q, int late, const struct crc32_lanes *lanes,
                                     const struct crc32_join *join);
static ATTRIBUTES CRC_NOINLINE uint32_t
hybrid_passes_any(uint32_t crc, const uint8_t **p, size_t *n, size_t least, unsigned q, int late,
                  const struct crc32_lanes *lanes, const struct crc32_join *join)
{
    return hybrid_passes(crc, p, n, least, q, 0, late, lanes, join);
}
#define HYBRID_PASSES_FOR(value)                                                            \
    static ATTRIBUTES CRC_NOINLINE uint32_t CAT(hybrid_passes_, value)(                     \
        uint32_t crc, const uint8_t **p, size_t *n, size_t least, unsigned q, int late,     \
        const struct crc32_lanes *lanes, const struct crc32_join *join)                     \
    {                                                                                       \
        (void)q;                                                                            \
        return hybrid_passes(crc, p, n, least, value, 1, late, lanes, join);                \
    }
/* q = 2..6: from Sapphire Rapids' balance (one 512-bit multiply a cycle: 8 cycles to fold
 * 256 bytes beside 3 * 8/3 crc32 instructions) to the 256-bit default. */
HYBRID_PASSES_FOR(2)
HYBRID_PASSES_FOR(3)
HYBRID_PASSES_FOR(4)
HYBRID_PASSES_FOR(5)
HYBRID_PASSES_FOR(6)

#if VL == 32
/* ------------------------------------------------------------------------------------
 * SPLIT (the 256-bit hybrid from SHORT's lanes to its loop: on AMD Zen 4 held to AVX2,
 * against ISA-L 2.32.1's crc32_iscsi_avx2, 1.12-1.39x at 640 B-2.5 KiB where MEDIUM's
 * single chain gave 1.01-1.10x)
 * ---------------------------------------------------------------------------------- */

/* qwords a stream an iteration of two vectors.  Measured on AMD Zen 3 (256-bit, a
 * stand-alone pass of each shape against isa-l's three chains): 2, 3 and 4 alike
 * (1.39-1.53x isa-l's from 272 B to 1.4 KiB); 2 has the finest steps (112 B) and the
 * shortest pass. */
#define SPLIT_Q 2
/* One iteration, and each stream's last two qwords. */
#define SPLIT_MIN (2 * VL + 24 * SPLIT_Q + 48)
/* Even: SPLIT_Q it is then even, and split_pass's e2 never negative. */
_Static_assert(SPLIT_Q % 2 == 0, "SPLIT_Q even");

/* The shape of the pass over n bytes (n >= SPLIT_MIN): `it` iterations, then streams of
 * qs qwords (SPLIT_Q it + 2 + as many more as the rest holds), C also the w < 3 whole
 * qwords left beyond, the chain the last n % 8 bytes.  A table by n / 8: the divisions
 * stood before the first loads of two of the streams, on the critical path of a call,
 * 1-2 ns at 160-500 bytes on Zen 3. */
#define SPLIT_ITER_BYTES (2 * VL + 24 * SPLIT_Q)
#define SPLIT_IT(n) (((n) - 48) / SPLIT_ITER_BYTES)
#define SPLIT_QS(n) (SPLIT_Q * SPLIT_IT(n) + 2 + ((n) - 48 - SPLIT_IT(n) * SPLIT_ITER_BYTES) / 24)
/* The lanes' message: the vectors, A, B and C to T's end (qs less an odd qword). */
#define SPLIT_NL(n) ((2 * VL * SPLIT_IT(n) + 16 * SPLIT_QS(n) + 8 * (SPLIT_QS(n) & ~1)) / 16)
#define SPLIT_SHAPE(i)                                                                    \
    {(uint8_t)(8 * (i) >= SPLIT_MIN ? SPLIT_IT(8 * (i)) : 0),                             \
     (uint8_t)(8 * (i) >= SPLIT_MIN ? SPLIT_QS(8 * (i)) : 0),                             \
     (uint8_t)(8 * (i) >= SPLIT_MIN ? SPLIT_NL(8 * (i)) : 0)},
#define SPLIT_SHAPES4(i)                                                                  \
    SPLIT_SHAPE(i) SPLIT_SHAPE((i) + 1) SPLIT_SHAPE((i) + 2) SPLIT_SHAPE((i) + 3)
#define SPLIT_SHAPES16(i)                                                                 \
    SPLIT_SHAPES4(i) SPLIT_SHAPES4((i) + 4) SPLIT_SHAPES4((i) + 8) SPLIT_SHAPES4((i) + 12)
#define SPLIT_SHAPES64(i)                                                                 \
    SPLIT_SHAPES16(i) SPLIT_SHAPES16((i) + 16) SPLIT_SHAPES16((i) + 32) SPLIT_SHAPES16((i) + 48)
static const struct {
    uint8_t it, qs, lanes; /* lanes: of the lanes' message, to its last (T's place) */
} split_shapes[HYBRID_END / 8] = {
    SPLIT_SHAPES64(0)
#if HYBRID_END > 512
        SPLIT_SHAPES64(64)
#endif
#if HYBRID_END > 1024
            SPLIT_SHAPES64(128)
#endif
#if HYBRID_END > 1536
                SPLIT_SHAPES64(192)
#endif
#if HYBRID_END > 2048
                    SPLIT_SHAPES64(256)
#endif
#if HYBRID_END > 2560
                        SPLIT_SHAPES64(320)
#endif
};
/* Whole blocks of 64 entries; lanes (fewer than 256) and streams within their tables' 4 KiB. */
_Static_assert(HYBRID_END % 512 == 0 && HYBRID_END <= 3072, "split_shapes covers HYBRID_END");

/* Lanes of v times their constants at k, onto s, the constants read by the multiplies:
 * each vector has its own, and keeping them in registers (times()) cost the split pass
 * 0.4 ns an iteration on Zen 3 (1056 B: 38.3 vs 34.8 ns). */
static ATTRIBUTES ALWAYS_INLINE wide_t split_times(wide_t v, const struct fold_pair *k, wide_t s)
{
    return WXOR3(WCLMUL(v, WLOAD(k), 0x00), WCLMUL(v, WLOAD(k), 0x11), s);
}

/*
 * SPLIT_MIN <= n < HYBRID_END in one pass: the first 2*VL*it bytes V as vectors, every
 * lane multiplied straight to the end of the lanes' message (PARALLEL's products), beside
 * three crc32 streams A, B, C of qs qwords on what follows (C w more), the last n % 8
 * bytes on the chain after C.  The two kinds of work are interleaved in program order,
 * two vectors to each SPLIT_Q qwords a stream, so that neither fills the scheduler while
 * the other waits: vectors first, then the three chains, ran no faster than the chains
 * alone (Zen 3).  The lanes' sum T stands for V (and the register, xored into its first
 * bytes) as the last lane of a message ending after C's qword f + 1, f = qs - 2 less an
 * odd qword, so that the lanes lie whole lanes before it; T goes into C's qwords f and
 * f + 1, and the join of A and B (struct crc32_join) into C's very last, so that no value
 * is reduced on its own:
 *     R(reg, V || A || B || C) = R(0, A) x^(8 (|B| + |C|)) + R(0, B) x^(8 |C|)
 *                                + R(0, C ^ T ^ join)   (mod P).
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t split_pass(uint64_t reg, const uint8_t *p, size_t n,
                                                    const struct crc32_lanes *lanes,
                                                    const struct crc32_join *join)
{
    const size_t it = split_shapes[n / 8].it, qs = split_shapes[n / 8].qs, l = 8 * qs;
    const struct fold_pair *k = &lanes->lane[CRC32_LANES_MAX - split_shapes[n / 8].lanes];
    const size_t vbytes = 2 * VL * it, w = n / 8 - vbytes / 8 - 3 * qs;
    /* An odd qs: one qword a stream after T's, so that C's before them stay even in
     * number.  e2: the qwords a stream runs between the iterations and the last ones. */
    const size_t odd = qs & 1, e2 = qs - SPLIT_Q * it - 2 - odd;
    const uint8_t *v = p, *a = p + vbytes;
    uint64_t s[3] = {0, 0, 0};
    /* The first vector apart, with the register: the loop takes no register to clear. */
    wide_t t0 = split_times(WXOR(WLOAD(v), from_register((uint32_t)reg)), k, WZERO());
    wide_t t1 = WZERO();
    for (size_t i = 0; i < it; i++, v += 2 * VL, k += 2 * LANES) {
        UNROLL_ALL
        for (int j = 0; j < SPLIT_Q; j++, a += 8) {
            streams_qword(s, a, l);
            if (j == 0 && i != 0)
                t0 = split_times(WLOAD(v), k, t0);
            if (j == SPLIT_Q - 1)
                t1 = split_times(WLOAD(v + VL), k + LANES, t1);
        }
    }
    for (size_t i = 0; i < e2; i++, a += 8)
        streams_qword(s, a, l);
    /* A and B to their ends, joined past the streams after them; C's last qwords with T,
     * the join in its very last. */
    s[0] = _mm_crc32_u64(s[0], crc32c_load64(a));
    s[1] = _mm_crc32_u64(s[1], crc32c_load64(a + l));
    s[0] = _mm_crc32_u64(s[0], crc32c_load64(a + 8));
    s[1] = _mm_crc32_u64(s[1], crc32c_load64(a + l + 8));
    if (odd) {
        s[0] = _mm_crc32_u64(s[0], crc32c_load64(a + 16));
        s[1] = _mm_crc32_u64(s[1], crc32c_load64(a + l + 16));
    }
    const __m128i t = one_lane(WXOR(t0, t1));
    const uint64_t shifted = crc32c_clmul32((uint32_t)s[0], join->join[2 * qs + w - 1].by_l) ^
                             crc32c_clmul32((uint32_t)s[1], join->join[qs + w - 1].by_l);
    const uint8_t *c = a + 2 * l, *const c_end = p + vbytes + 3 * l + 8 * w;
    s[2] = _mm_crc32_u64(s[2], crc32c_load64(c) ^ (uint64_t)_mm_cvtsi128_si64(t));
    uint64_t last = crc32c_load64(c + 8) ^ (uint64_t)_mm_extract_epi64(t, 1);
    for (c += 16; c < c_end; c += 8) { /* odd + w more */
        s[2] = _mm_crc32_u64(s[2], last);
        last = crc32c_load64(c);
    }
    s[2] = _mm_crc32_u64(s[2], last ^ shifted);
    return crcforge_crc32c_rest_(s[2], c_end, n & 7);
}

/* The CRC value. */
static ATTRIBUTES CRC_NOINLINE uint32_t split(uint32_t crc, const uint8_t *p,
                                                           size_t n)
{
    return ~(uint32_t)split_pass(~crc, p, n, &crc32c_lanes_table,
                                 crc32_join_of(crc_model_crc32c));
}

#endif

/* ------------------------------------------------------------------------------------
 * SHORT and MEDIUM (the hybrid below its loop)
 *
 * Measured on AMD Zen 4 (512-bit, calls of one length in a loop, against ISA-L 2.32.1's
 * crc32_iscsi_by16_10): below a few KiB a call costs about a quarter of a cycle for every
 * instruction it executes and more for every taken branch, on top of what its multiplies
 * take, so general loops with counts from the length lost 25-35% at 256 bytes to the same
 * work in straight lines.  Inputs up to SHORT_MOST lanes therefore take SHORT: one
 * straight-line function for every number of lanes, reached through a table.  Longer ones
 * take MEDIUM (512-bit): the same layout, one line entered at the input's first vector, or
 * SPLIT (256-bit, above).  SHORT and MEDIUM lay the input out as vectors V first (each
 * lane multiplied straight to the message's last lane, as in PARALLEL; in SHORT two
 * vectors at a time, short_lanes) and a chain of crc32 qwords last,
 * its last two xored with T (the lanes' sum): T's lane is the message's last, so no
 * product is reduced on its own.  An input whose length is not a multiple of 16 first runs
 * its head (n % 16 bytes) into the register (head()).
 * ---------------------------------------------------------------------------------- */

/* n % 16 = h < 16 bytes at p (n >= 16) into the CRC value crc: the head with the register
 * xored into its first bytes, moved to the end of a zeroed lane (CRC_SHIFT_MASK), runs
 * two crc32 qwords from 0 (leading zeros leave 0 unchanged); the register's bytes past
 * the head (h < 4) go on to the bytes after it, as the register they enter with. */
static ATTRIBUTES ALWAYS_INLINE uint32_t head(uint32_t crc, const uint8_t *p, size_t h)
{
    const uint32_t reg = ~crc;
    const __m128i x = _mm_shuffle_epi8(_mm_xor_si128(_mm_loadu_si128((const void *)p),
                                                     _mm_cvtsi32_si128((int)reg)),
                                       _mm_loadu_si128((const void *)CRC_SHIFT_MASK(h)));
    const uint32_t r = (uint32_t)_mm_crc32_u64(_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(x)),
                                               (uint64_t)_mm_extract_epi64(x, 1));
    return ~(r ^ (h < 4 ? reg >> (8 * h) : 0));
}

/* R(reg, p[0..16 lanes)): `lanes - chain / 2` lanes of whole vectors from p, each lane
 * times its distance to the last lane, then `chain` crc32 qwords from 0, T xored into the
 * last two (chain 0: T alone).  From SHORT_PAIRS_FROM vectors on, they go in pairs (the
 * first alone when their number is odd): the first of two folded onto the second by one
 * constant kept in a register, their sum times the second's constants, which halves the
 * loads of constants; the chain's qwords spread among them.  Measured on AMD Zen 4 in
 * crcforge bench's paired rounds against the fastest peer (ISA-L 2.32.1), against each
 * vector times its own constants with the chain first: 512-bit, 320-448 B 1.00-1.07x ->
 * 1.06-1.11x, 640-896 B 1.03-1.08x -> 1.05-1.10x, 1008 B 1.10 -> 1.29x (offset by one
 * 0.93 -> 1.25x); in the latency loop 0.93-0.96x as fast at 512-896 B, 1.17x at 1008 B;
 * 256-bit (against crc32_iscsi_avx2), 320-512 B 3-15% faster.  With fewer vectors the
 * fold's multiply on the way to T cost more than the loads it saves (256 B, 3 vectors of
 * 64 or 4 of 32 bytes: 3% slower). */
#define SHORT_PAIRS_FROM (VL == 64 ? 4 : 5)
static ATTRIBUTES ALWAYS_INLINE uint32_t short_lanes(uint32_t reg, const uint8_t *p,
                                                      const int lanes, const int chain)
{
    const int m = (lanes - chain / 2) / LANES; /* whole vectors: the chain makes them so */
    const struct fold_pair *k = &crc32c_lanes_table.lane[CRC32_LANES_MAX - lanes];
    const uint8_t *c = p + VL * m;
    uint64_t r = 0;
    __m128i t;
    if (m < SHORT_PAIRS_FROM) {
        UNROLL_ALL
        for (int i = 0; i < chain - 2; i++)
            r = _mm_crc32_u64(r, crc32c_load64(c + 8 * i));
        wide_t s[4] = {WZERO(), WZERO(), WZERO(), WZERO()};
        UNROLL_ALL
        for (int i = 0; i < m; i++)
            s[i % 4] = times(i == 0 ? WXOR(WLOAD(p), from_register(reg)) : WLOAD(p + VL * i),
                             k + LANES * i, s[i % 4]);
        t = one_lane(WXOR3(s[0], s[1], WXOR(s[2], s[3])));
    } else {
        wide_t k1 = WBROADCAST(_mm_loadu_si128(
            (const void *)&crc32c_lanes_table.lane[CRC32_LANES_MAX - 1 - LANES]));
        PIN(k1);
        int e = 0; /* the chain's qwords run so far */
        wide_t s = WZERO(), h = WXOR(WLOAD(p), from_register(reg));
        if (m % 2)
            s = times(h, k, s);
        UNROLL_ALL
        for (int i = m % 2; i < m; i++) {
            if ((m - i) % 2 == 0)
                h = i == 0 ? h : WLOAD(p + VL * i);
            else
                s = times(fold(h, k1, WLOAD(p + VL * i)), k + LANES * i, s);
            UNROLL_ALL
            for (; e < (i + 1) * (chain - 2) / m; e++)
                r = _mm_crc32_u64(r, crc32c_load64(c + 8 * e));
        }
        t = one_lane(s);
    }
    const uint64_t t0 = (uint64_t)_mm_cvtsi128_si64(t), t1 = (uint64_t)_mm_extract_epi64(t, 1);
    if (chain == 0)
        return (uint32_t)_mm_crc32_u64(_mm_crc32_u64(0, t0), t1);
    r = _mm_crc32_u64(r, crc32c_load64(c + 8 * (chain - 2)) ^ t0);
    return (uint32_t)_mm_crc32_u64(r, crc32c_load64(c + 8 * (chain - 1)) ^ t1);
}

/* SHORT's lanes, and its chain's qwords for a length of L lanes: whole vectors before the
 * chain (its length takes L % LANES lanes), and a chain as long as the vectors' latency
 * allows without standing on the critical path.  512-bit, measured on AMD Zen 4 against
 * by16_10 at 64 B-1 KiB with chains of 0, 4, 8, 12 and 16 qwords, whole vectors: the best
 * was none at 64 B, 8 qwords at 128-448 B (1.19-1.36x), 16 from 512 B (1.10-1.24x);
 * lengths that left a partial vector (masked) were 5-10% slower.  256-bit, against ISA-L's
 * crc32_iscsi_avx2: 16 qwords from 256 B (1.31x there against 1.03x for 8), and SHORT up
 * to 1 KiB: on AMD Zen 3 against ISA-L's fastest there (crc32_iscsi_01, paired), 640-1008
 * B 0.88-0.96x on SPLIT -> 1.03-1.10x (offset by one 1.04-1.23x -> 1.19-1.33x), once
 * its pair loop of up to 28 vectors is unrolled whole (UNROLL_ALL).  1 KiB itself, against
 * SPLIT in the same process (placement_bench): -2% to +12% with the shared host's state,
 * 0.99x and 1.06x in the medians of two runs; llvm-mca's Ice Lake and Sapphire Rapids models: 28% fewer
 * cycles (151 -> 109, 161 -> 121).  With the vectors in pairs
 * (short_lanes), 512-bit, in crcforge bench's paired rounds against the fastest peer, 24
 * qwords against 16 from 832 B, whole vectors: 832-960 B 1.05-1.10x -> 1.10-1.13x; not at
 * 768 B (0.94-0.99x as fast), nor 16 against 8 at 384-448 B (0.97x). */
#if VL == 64
#define SHORT_MOST 63
#define SHORT_CHAIN(L)                                                                    \
    ((L) < 8    ? 2 * ((L) % 4)                                                           \
     : (L) < 32 ? 8 + 2 * ((L) % 4)                                                       \
     : (L) < 52 || (L) % 4 ? 16 + 2 * ((L) % 4)                                           \
                           : 24)
#define SHORT_LIST(X)                                                                     \
    X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18)    \
    X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)    \
    X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46)    \
    X(47) X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60)    \
    X(61) X(62) X(63)
#else
#define SHORT_MOST 64
#define SHORT_CHAIN(L) ((L) < 8 ? 2 * ((L) % 2) : (L) < 16 ? 8 + 2 * ((L) % 2) : 16 + 2 * ((L) % 2))
#define SHORT_LIST(X)                                                                     \
    X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)      \
    X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30)    \
    X(31) X(32) X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44)    \
    X(45) X(46) X(47) X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56) X(57) X(58)    \
    X(59) X(60) X(61) X(62) X(63) X(64)
#endif
/* The entry's one test takes SHORT for every multiple of 16 below 16 SHORT_LANES bytes (a
 * power of two); what SHORT takes beyond, up to SHORT_MOST lanes, it takes after a compare. */
#define SHORT_LANES 64
_Static_assert(SHORT_MOST >= SHORT_LANES - 1, "SHORT takes every length the one test sends");

/* The CRC value (crcforge_crc32c's form) of 16 L bytes, L = LANES .. SHORT_MOST, and
 * below a vector the crc32 chain. */
typedef uint32_t (*short_fn)(uint32_t crc, const uint8_t *p, size_t n);
#define SHORT_BLOCK(L)                                                                    \
    static ATTRIBUTES uint32_t short_##L(uint32_t crc, const uint8_t *p, size_t n)        \
    {                                                                                     \
        (void)n;                                                                          \
        return ~short_lanes(~crc, p, L, SHORT_CHAIN(L));                                  \
    }
SHORT_LIST(SHORT_BLOCK)
static ATTRIBUTES uint32_t short_chain(uint32_t crc, const uint8_t *p, size_t n)
{
    return ~crcforge_crc32c_chain_(~crc, p, n);
}
#define SHORT_ENTRY(L) [L] = short_##L,
static const short_fn short_blocks[SHORT_MOST + 1] = {
    [0 ... LANES - 1] = short_chain, SHORT_LIST(SHORT_ENTRY)};

#if VL == 64
/* MEDIUM: SHORT's layout for any number of vectors, MEDIUM_CHAIN qwords and the lanes
 * beyond whole vectors on the chain.  Measured on AMD Zen 4 (512-bit, 1-4 KiB, against
 * by16_10): a chain of 16 qwords 1.00-1.09x, 24 0.91-1.05x, 32 0.76-0.94x; three streams
 * of crc32 qwords beside the vectors in a loop (a third to a quarter of the input) were
 * slower, 0.81-0.95x at 1-2 KiB, for all the shares and interleavings tried; so were
 * SPLIT's pass with 512-bit vectors (0.65-0.97x at 1-3 KiB) and a second chain of 16
 * qwords joined into this one's last (0.72-0.93x at 1-4 KiB, against 0.87-0.99x for this
 * layout in the same runs).  Beside vectors that each load their own constants, the crc32
 * instruction's work adds to theirs more than it overlaps: 16 such vectors took 65
 * cycles, 76 with 48 crc32 instructions on three chains beside them (48 alone).  In pairs
 * (as SHORT's, short_lanes) it overlaps, and a chain one qword longer for every vector was
 * 1.03-1.08x as fast at 1.5-4 KiB while the shared host ran fast, but 0.91-0.96x at 1-3
 * KiB in its slow state (most likely another tenant busy on the same physical core):
 * MEDIUM keeps its layout, which leans on the crc32 unit less. */
#define MEDIUM_CHAIN 16

/* MEDIUM's vectors in one straight line for every length, entered at the input's first
 * through a jump table (cases that fall through): vector j before the chain lies VL j bytes
 * before it, its constants LANES j pairs before the chain's, whatever the length, so the
 * line takes no count, step or branch; the chain's qwords run one beside each of the last
 * MEDIUM_CHAIN - 2 vectors.  Measured on AMD Zen 4 at 1 KiB, independent calls of a length
 * known only at run time: 64 cycles a call, against 68 for the vectors in a loop after the
 * chain, and 61.5 for that loop compiled for 1 KiB alone (ISA-L's by16_10: 68.5). */
#define MEDIUM_VECTORS_MAX ((16 * CRC32_LANES_MAX - 8 * MEDIUM_CHAIN) / VL - 1)
_Static_assert(CRC32C_HYBRID512_MIN_MOST - 1 <= 16 * CRC32_LANES_MAX,
               "MEDIUM's line holds the vectors of every length it takes");
#define MEDIUM_VECTORS(X)                                                                 \
    X(61) X(60) X(59) X(58) X(57) X(56) X(55) X(54) X(53) X(52) X(51) X(50) X(49) X(48)    \
    X(47) X(46) X(45) X(44) X(43) X(42) X(41) X(40) X(39) X(38) X(37) X(36) X(35) X(34)    \
    X(33) X(32) X(31) X(30) X(29) X(28) X(27) X(26) X(25) X(24) X(23) X(22) X(21) X(20)    \
    X(19) X(18) X(17) X(16) X(15) X(14) X(13) X(12) X(11) X(10) X(9) X(8) X(7) X(6) X(5)  \
    X(4) X(3) X(2) X(1)
_Static_assert(MEDIUM_VECTORS_MAX == 61, "MEDIUM_VECTORS lists every vector of the line");
#define MEDIUM_VECTOR(j)                                                                  \
    case j:                                                                               \
        s[(j) % 4] = times(WLOAD(c - VL * (j)), k - LANES * (j), s[(j) % 4]);             \
        if ((j) <= MEDIUM_CHAIN - 2)                                                      \
            r = _mm_crc32_u64(r, crc32c_load64(q + 8 * (MEDIUM_CHAIN - 2 - (j))));        \
        CRC_FALLTHROUGH;

/* The CRC value, n a multiple of 16, 16 SHORT_MOST < n <= 4 KiB: m vectors, the first with
 * the register, then the chain c: first the lanes beyond whole vectors, then from q its
 * MEDIUM_CHAIN qwords, T xored into the last two. */
static ATTRIBUTES CRC_NOINLINE uint32_t medium(uint32_t crc, const uint8_t *p,
                                                              size_t n)
{
    const uint32_t reg = ~crc;
    const size_t lanes = n / 16, extra = lanes % LANES;
    const size_t m = (lanes - MEDIUM_CHAIN / 2 - extra) / LANES; /* 14 .. 62 */
    const uint8_t *c = p + VL * m, *q = c + 16 * extra;
    /* The constants of the lane before the chain. */
    const struct fold_pair *k =
        &crc32c_lanes_table.lane[CRC32_LANES_MAX - MEDIUM_CHAIN / 2 - extra];
    wide_t s[4] = {WZERO(), WZERO(), WZERO(),
                   times(WXOR(WLOAD(p), from_register(reg)), k - LANES * m, WZERO())};
    uint64_t r = 0;
    for (const uint8_t *e = c; e < q; e += 8)
        r = _mm_crc32_u64(r, crc32c_load64(e));
    /* The chain's first qwords, beside no vector of the line for the shortest inputs. */
    for (size_t i = 0; i + m <= MEDIUM_CHAIN - 2; i++)
        r = _mm_crc32_u64(r, crc32c_load64(q + 8 * i));
    switch (m - 1) {
        MEDIUM_VECTORS(MEDIUM_VECTOR)
    default:
        break;
    }
    const __m128i t = one_lane(WXOR3(s[0], s[1], WXOR(s[2], s[3])));
    r = _mm_crc32_u64(r, crc32c_load64(q + 8 * (MEDIUM_CHAIN - 2)) ^
                             (uint64_t)_mm_cvtsi128_si64(t));
    return ~(uint32_t)_mm_crc32_u64(r, crc32c_load64(q + 8 * (MEDIUM_CHAIN - 1)) ^
                                           (uint64_t)_mm_extract_epi64(t, 1));
}
#endif

static ATTRIBUTES CRC_NOINLINE uint32_t hybrid_long(uint32_t crc, const uint8_t *p,
                                                   size_t n, const struct crc_params *k);

/* crcforge_crc32c on the hybrid: the head, then SHORT's block for the lanes left, or
 * below the parameter HYBRID_LIMIT, MEDIUM or SPLIT, or the loop.  Every call a tail call,
 * so that the value entry keeps no frame. */
static ATTRIBUTES ALWAYS_INLINE uint32_t hybrid_value_past(uint32_t crc, const uint8_t *p,
                                                           size_t n,
                                                           const struct crc_params *k);
static ATTRIBUTES ALWAYS_INLINE uint32_t hybrid_value(uint32_t crc, const uint8_t *p, size_t n,
                                                      const struct crc_params *k)
{
    if (CRC_LIKELY((n & ~(size_t)(16 * SHORT_LANES - 16)) == 0)) /* one test */
        return short_blocks[n / 16](crc, p, n);
    return hybrid_value_past(crc, p, n, k);
}

/* What follows SHORT's first blocks. */
static ATTRIBUTES ALWAYS_INLINE uint32_t hybrid_value_past(uint32_t crc, const uint8_t *p,
                                                           size_t n,
                                                           const struct crc_params *k)
{
    if (CRC_UNLIKELY(n & 15)) {
        if (n < 16)
            return ~crcforge_crc32c_chain_(~crc, p, n);
        crc = head(crc, p, n & 15);
        p += n & 15;
        n &= ~(size_t)15;
    }
    if (n <= 16 * SHORT_MOST)
        return short_blocks[n / 16](crc, p, n);
    if (n < k->HYBRID_LIMIT)
#if VL == 32
        return split(crc, p, n);
#else
        return medium(crc, p, n);
#endif
    return hybrid_long(crc, p, n, k);
}

/* The value entry past SHORT's first blocks. */
static ATTRIBUTES CRC_NOINLINE uint32_t value_past(uint32_t crc, const uint8_t *p, size_t n,
                                                  const struct crc_params *k)
{
    return hybrid_value_past(crc, p, n, k);
}

/* The record's CRC-32C value entry: the lane table is built before (crc32c_lanes_prepare).
 * SHORT's first blocks here and the rest apart, so that the parameters, live only there,
 * cost the short inputs no register moves (GCC 12 moved them out of the way of the jump
 * table's index: AMD Zen 4, 256 B 4.5% slower). */
static ATTRIBUTES uint32_t CAT(HYBRID, _crc32c)(uint32_t crc, const void *buf, size_t n,
                                                const struct crc_params *k)
{
    if (CRC_LIKELY((n & ~(size_t)(16 * SHORT_LANES - 16)) == 0))
        return short_blocks[n / 16](crc, buf, n);
    return value_past(crc, buf, n, k);
}

/* The CRC value, n >= least (the parameter HYBRID_LIMIT), q (hybrid_qwords) qwords: from
 * CRC32C_HYBRID_ALIGN_MIN bytes the folded vectors' loads aligned (no load straddles two
 * cache lines: on AMD Zen 4 at 1 MiB from 1 byte past 64-byte alignment, 67.3-67.5 GB/s
 * unaligned against 68.4-68.9 aligned, and nothing lost on aligned buffers; shorter, the
 * lead's chain costs more than the split loads), the passes, and what they leave as the
 * value entry takes it. */
static ATTRIBUTES CRC_NOINLINE uint32_t hybrid_long(uint32_t crc, const uint8_t *p,
                                                   size_t n, const struct crc_params *k)
{
    const unsigned q = k->hybrid_qwords;
    const size_t least = k->HYBRID_LIMIT;
    const struct crc32_join *join = crc32_join_of(crc_model_crc32c);
    size_t lead = (size_t)-(uintptr_t)p % VL;
    if (n < CRC32C_HYBRID_ALIGN_MIN || n - lead < least)
        lead = 0; /* short, or no pass would follow the lead's chain: unaligned loads */
    uint32_t reg = crcforge_crc32c_chain_(~crc, p, lead);
    p += lead;
    n -= lead;
    static const hybrid_passes_fn passes[] = {hybrid_passes_2, hybrid_passes_3, hybrid_passes_4,
                                               hybrid_passes_5, hybrid_passes_6};
    reg = (q >= 2 && q <= 6 ? passes[q - 2] : hybrid_passes_any)(reg, &p, &n, least, q, lead != 0,
                                                                  &crc32c_lanes_table, join);
    return hybrid_value(~reg, p, n, k);
}

static ATTRIBUTES uint64_t HYBRID(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                  size_t n, const struct crc_params *k)
{
    (void)m;
    if (CRC_UNLIKELY(!crc32c_lanes_ready()))
        crc32c_lanes_build();
    return (uint32_t)~hybrid_value(~(uint32_t)reg, p, n, k);
}

/* Both run inputs shorter than a vector on one crc32 chain (crc32_below); the hybrid up to
 * 64 bytes (AMD Zen 4, 64 B: the chain 1.00x ISA-L's by16_10, one 512-bit vector 0.79x; 80
 * B: 1.13x against 1.19x). */
static uint32_t CAT(chain_below_, PARALLEL)(const struct crc_params *k)
{
    (void)k;
    return VL;
}
static uint32_t CAT(chain_below_, HYBRID)(const struct crc_params *k)
{
    (void)k;
    return 65;
}
const struct crc_impl CAT(crc_impl_, PARALLEL) = {
    .name = STRINGIFY(PARALLEL), .features = FEATURES, .supports = crc32c_serves,
    .update = PARALLEL, .crc32_below = CAT(chain_below_, PARALLEL),
    .value = {[CRC_FIXED_CRC32C] = {.w32 = CAT(PARALLEL, _crc32c)}}};
const struct crc_impl CAT(crc_impl_, HYBRID) = {
    .name = STRINGIFY(HYBRID), .features = FEATURES, .supports = crc32c_serves,
    .update = HYBRID, .crc32_below = CAT(chain_below_, HYBRID),
    .value = {[CRC_FIXED_CRC32C] = {.w32 = CAT(HYBRID, _crc32c)}},
    .prepare = crc32c_lanes_prepare};

#undef CAT_
#undef CAT
#undef STRINGIFY_
#undef STRINGIFY
#undef LANES
#undef WLOAD
#undef WCLMUL
#undef WXOR
#undef WXOR3
#undef WBROADCAST
#undef WFROM128
#undef WZERO
#undef PIN
#undef HYBRID_LIMIT
#undef HYBRID_END
#undef HYBRID_ACC
#undef HYBRID_PASSES_FOR
#undef SHORT_LANES
#undef SHORT_MOST
#undef SHORT_CHAIN
#undef SHORT_LIST
#undef SHORT_BLOCK
#undef SHORT_ENTRY
#undef MEDIUM_CHAIN
#undef SHORT_PAIRS_FROM
#undef MEDIUM_VECTORS_MAX
#undef MEDIUM_VECTORS
#undef MEDIUM_VECTOR
#undef SPLIT_Q
#undef SPLIT_MIN
#undef SPLIT_ITER_BYTES
#undef SPLIT_IT
#undef SPLIT_QS
#undef SPLIT_NL
#undef SPLIT_SHAPE
#undef SPLIT_SHAPES4
#undef SPLIT_SHAPES16
#undef SPLIT_SHAPES64
#undef PARALLEL
#undef HYBRID
#undef FEATURES
#undef ATTRIBUTES
#undef VL
