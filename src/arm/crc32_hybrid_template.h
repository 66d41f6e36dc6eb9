/* SPDX-License-Identifier: MIT */
/*
 * CRC-32C and CRC-32 with PMULL accumulators beside crc32 chains, written once and
 * included by one .c file per tier (crc32_hybrid_pmull.c, crc32_hybrid_eor3.c): on cores
 * where the crc32 instruction and the vector multiplier issue to different pipes, both
 * run at once.
 *
 * A pass of `it` iterations with shape (V accumulators, S chains, Q qwords; crc32_hybrid.h)
 * takes 16*V*it bytes B, then S streams A1..AS of L = 8*Q*it bytes each.  Each iteration
 * folds V vectors of B into the V accumulators (each across 16*V bytes, the lane table's
 * pair of d = V, struct crc32_lanes in ../fold_consts.h) and runs Q crc32 instructions on
 * each stream.  The incoming register is xored into B's first four bytes; at the end each
 * accumulator is multiplied by its own distance to B's last lane (the lane table again:
 * every product independent), their xor T is congruent to B modulo P, and the crc32
 * instruction on T's two qwords from 0 gives R(reg, B).  Then, for S = 3,
 *     CRC = R(reg, B) * x^(24L) + R(A1) * x^(16L) + R(A2) * x^(8L) + R(A3)   (mod P),
 * the shifts by struct crc32_join (crc32_chain.h), which bounds L to CRC32_JOIN_MAX.
 * Passes run while the parameter arm_hybrid_min's bytes (struct crc_params) and one iteration are
 * left; what they leave runs on three joined chains, then one (crc32_chain.h).
 *
 * Parameters (all #undef'd at the end):
 *   SUFFIX      the tier's name: records crc_impl_crc32c_arm_SUFFIX, crc_impl_crc32_arm_SUFFIX,
 *               and crc_arm_SUFFIX_with (crc32_hybrid.h)
 *   FEATURES    the CRC_CPU_* bits of everything the tier executes
 *   ATTRIBUTES  the target attribute enabling them (CRC_ARM_TARGET_CRC_PMULL, or with SHA3
 *               CRC_ARM_TARGET_CRC_PMULL_SHA3)
 *   USE_EOR3    1 to xor two products and a vector in one EOR3
 */
#include "../compiler.h"
#include "../cpu.h"
#include "crc32_chain.h"
#include "crc32_hybrid.h"
#include "impls.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FN(name) CAT(CAT(crc_arm_, SUFFIX), CAT(_, name))

/* Inputs this short run on one chain from the value entries, inline: no frame. */
#define CHAIN_BELOW 256

/* a*x^D ^ b, for k the lane pair of D (two products and b in one EOR3 where there is one). */
static ATTRIBUTES ALWAYS_INLINE vec_t times(vec_t a, vec_t k, vec_t b)
{
#if USE_EOR3
    return CRC_ARM_EOR3(V_CLMUL(a, 0, k, 0), V_CLMUL(a, 1, k, 1), b);
#else
    return V_XOR(V_XOR(V_CLMUL(a, 0, k, 0), V_CLMUL(a, 1, k, 1)), b);
#endif
}

static ATTRIBUTES ALWAYS_INLINE uint32_t crc_of_lane(const int poly, vec_t t)
{
    return poly == CRC_ARM_CASTAGNOLI
               ? crc_arm_crc32cd(crc_arm_crc32cd(0, V_LOW64(t)), V_HIGH64(t))
               : crc_arm_crc32d(crc_arm_crc32d(0, V_LOW64(t)), V_HIGH64(t));
}

/* Q qwords on each of the S streams at s0, s1, s2 into their chains c. */
static ATTRIBUTES ALWAYS_INLINE void chains(const int poly, uint32_t *c, const uint8_t *s0,
                                            const uint8_t *s1, const uint8_t *s2, const int S,
                                            const int Q)
{
    UNROLL_ALL
    for (int q = 0; q < Q; q++) {
        c[0] = crc_arm_step8(poly, c[0], s0 + 8 * q);
        if (S > 1)
            c[1] = crc_arm_step8(poly, c[1], s1 + 8 * q);
        if (S > 2)
            c[2] = crc_arm_step8(poly, c[2], s2 + 8 * q);
    }
}

/* One pass of it >= 1 iterations at p: the register after it (see the top of the file). */
static ATTRIBUTES ALWAYS_INLINE uint32_t pass(const int poly, uint32_t r, const uint8_t *p,
                                              const size_t it, const struct crc32_lanes *lanes,
                                              const struct crc32_join *j, const int V,
                                              const int S, const int Q)
{
    const size_t L = 8 * (size_t)Q * it;
    /* A pointer a stream and an end rather than a count: the loads take immediate offsets
     * and pair up, and the loop spends one compare. */
    const uint8_t *s0 = p + 16 * (size_t)V * it, *s1 = s0 + L, *s2 = s1 + L;
    const uint8_t *const end = s0 - 16 * V;
    vec_t a[CRC_ARM_HYBRID_ACCUMULATORS_MAX];
    uint32_t c[3] = {0, 0, 0};
    UNROLL_ALL
    for (int i = 0; i < V; i++)
        a[i] = V_LOAD(p + 16 * i);
    a[0] = V_XOR(a[0], V_PAIR(r, 0));
    const vec_t k = V_LOAD(&lanes->lane[CRC32_LANES_MAX - 1 - V]);
    chains(poly, c, s0, s1, s2, S, Q);
    NO_UNROLL
    while (p != end) {
        p += 16 * V;
        s0 += 8 * Q;
        s1 += 8 * Q;
        s2 += 8 * Q;
        UNROLL_ALL
        for (int i = 0; i < V; i++)
            a[i] = times(a[i], k, V_LOAD(p + 16 * i));
        chains(poly, c, s0, s1, s2, S, Q);
    }
    /* Accumulator i has V - 1 - i lanes after it: two sums, so that no xor waits long. */
    vec_t sum[2] = {V_PAIR(0, 0), V_PAIR(0, 0)};
    UNROLL_ALL
    for (int i = 0; i < V; i++)
        sum[i % 2] = times(a[i], V_LOAD(&lanes->lane[CRC32_LANES_MAX - V + i]), sum[i % 2]);
    const uint32_t b = crc_of_lane(poly, V_XOR(sum[0], sum[1]));
    const size_t at = L / 8 - 1;
    if (S == 1)
        return crc_arm_shift(poly, b, j->join[at].by_l) ^ c[0];
    if (S == 2)
        return crc_arm_shift(poly, b, j->join[at].by_2l) ^
               crc_arm_shift(poly, c[0], j->join[at].by_l) ^ c[1];
    return crc_arm_shift(poly, b, j->join[at].by_3l) ^
           crc_arm_shift(poly, c[0], j->join[at].by_2l) ^
           crc_arm_shift(poly, c[1], j->join[at].by_l) ^ c[2];
}

static ALWAYS_INLINE const struct crc32_lanes *lanes_of(const int poly)
{
    if (poly == CRC_ARM_CASTAGNOLI) {
        const struct crc32_lanes *l = crc32c_lanes_peek();
        return l != NULL ? l : crc32c_lanes_build();
    }
    const struct crc32_lanes *l = crc_once_peek(&crc32_zlib_lanes);
    return l != NULL ? l : crc32_zlib_lanes_build();
}

/* The register after p[0..n): passes while min bytes and an iteration are left, then three
 * chains joined and one. */
static ATTRIBUTES ALWAYS_INLINE uint32_t passes(const int poly, uint32_t r, const uint8_t *p,
                                                size_t n, size_t min, const int V, const int S,
                                                const int Q)
{
    const size_t block = 16 * (size_t)V + 8 * (size_t)Q * (size_t)S;
    const size_t most = CRC32_JOIN_MAX / (8 * (size_t)Q); /* iterations a pass */
    if (min < block)
        min = block;
    if (n >= min) {
        const struct crc32_lanes *lanes = lanes_of(poly);
        const struct crc32_join *j = crc32_join_of(crc_arm_model_of(poly));
        do {
            size_t it = n / block;
            if (it > most)
                it = most;
            r = pass(poly, r, p, it, lanes, j, V, S, Q);
            p += it * block;
            n -= it * block;
        } while (n >= min);
    }
    return crc_arm_three_way(poly, r, p, n);
}

/* One function a shape and polynomial, each with its accumulators in registers. */
#define SHAPE_NAME(poly, V, S, Q) FN(CAT(poly, CAT(_v, CAT(V, CAT(s, CAT(S, CAT(q, Q)))))))
#define SHAPE_FUNCTIONS(V, S, Q)                                                          \
    static ATTRIBUTES CODE_ALIGNED CRC_NOINLINE uint32_t SHAPE_NAME(                      \
        castagnoli, V, S, Q)(uint32_t r, const uint8_t *p, size_t n, size_t min)          \
    {                                                                                     \
        return passes(CRC_ARM_CASTAGNOLI, r, p, n, min, V, S, Q);                         \
    }                                                                                     \
    static ATTRIBUTES CODE_ALIGNED CRC_NOINLINE uint32_t SHAPE_NAME(                      \
        zlib, V, S, Q)(uint32_t r, const uint8_t *p, size_t n, size_t min)                \
    {                                                                                     \
        return passes(CRC_ARM_ZLIB, r, p, n, min, V, S, Q);                               \
    }
CRC_ARM_HYBRID_SHAPES(SHAPE_FUNCTIONS)
#undef SHAPE_FUNCTIONS

typedef uint32_t (*shape_fn)(uint32_t r, const uint8_t *p, size_t n, size_t min);
#define CASTAGNOLI_ENTRY(V, S, Q) SHAPE_NAME(castagnoli, V, S, Q),
#define ZLIB_ENTRY(V, S, Q) SHAPE_NAME(zlib, V, S, Q),
static const shape_fn FN(shape_functions)[2][CRC_ARM_HYBRID_SHAPE_COUNT] = {
    {CRC_ARM_HYBRID_SHAPES(CASTAGNOLI_ENTRY)}, {CRC_ARM_HYBRID_SHAPES(ZLIB_ENTRY)}};
#undef CASTAGNOLI_ENTRY
#undef ZLIB_ENTRY
#undef SHAPE_NAME

uint64_t FN(with)(int poly, uint64_t reg, const uint8_t *p, size_t n, size_t shape, size_t min)
{
    return FN(shape_functions)[poly != CRC_ARM_CASTAGNOLI][shape]((uint32_t)reg, p, n, min);
}

/* With the parameters' shape and limit. */
static CODE_ALIGNED CRC_NOINLINE uint32_t FN(tuned)(const int poly, uint32_t r,
                                                    const uint8_t *p, size_t n,
                                                    const struct crc_params *k)
{
    return FN(shape_functions)[poly != CRC_ARM_CASTAGNOLI][k->arm_hybrid_shape](
        r, p, n, k->arm_hybrid_min);
}

/* The updates, and the value entries (api.c calls them in crcforge_crc32c's and
 * crcforge_crc32's place): short inputs on one chain here, with no frame; longer ones
 * through a function that takes the value too, so that the call is a jump. */
#define ENTRIES(name, poly)                                                               \
    static ATTRIBUTES CODE_ALIGNED uint64_t FN(CAT(update_, name))(               \
        const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n,                \
        const struct crc_params *k)                                                       \
    {                                                                                     \
        (void)m;                                                                          \
        if (n < CHAIN_BELOW)                                                              \
            return crc_arm_one_way(poly, (uint32_t)reg, p, n);                            \
        return FN(tuned)(poly, (uint32_t)reg, p, n, k);                                   \
    }                                                                                     \
    static CODE_ALIGNED CRC_NOINLINE uint32_t FN(                                         \
        CAT(value_long_, name))(uint32_t crc, const void *buf, size_t len,                \
                                const struct crc_params *k)                               \
    {                                                                                     \
        return ~FN(tuned)(poly, ~crc, buf, len, k);                                       \
    }                                                                                     \
    static ATTRIBUTES CODE_ALIGNED uint32_t FN(CAT(value_, name))(                \
        uint32_t crc, const void *buf, size_t len, const struct crc_params *k)            \
    {                                                                                     \
        if (len < CHAIN_BELOW)                                                            \
            return ~crc_arm_one_way(poly, ~crc, buf, len);                                \
        return FN(CAT(value_long_, name))(crc, buf, len, k);                              \
    }
ENTRIES(crc32c, CRC_ARM_CASTAGNOLI)
ENTRIES(crc32, CRC_ARM_ZLIB)
#undef ENTRIES

const struct crc_impl CAT(crc_impl_crc32c_arm_, SUFFIX) = {
    .name = "crc32c_arm_" CRC_ARM_STRINGIFY(SUFFIX), .features = FEATURES,
    .supports = crc_arm_is_castagnoli, .update = FN(update_crc32c),
    .value = {[CRC_FIXED_CRC32C] = {.w32 = FN(value_crc32c)}}};
const struct crc_impl CAT(crc_impl_crc32_arm_, SUFFIX) = {
    .name = "crc32_arm_" CRC_ARM_STRINGIFY(SUFFIX), .features = FEATURES,
    .supports = crc_arm_is_zlib, .update = FN(update_crc32),
    .value = {[CRC_FIXED_CRC32] = {.w32 = FN(value_crc32)}}};

#undef CHAIN_BELOW
#undef FN
#undef CAT
#undef CAT_
#undef SUFFIX
#undef FEATURES
#undef ATTRIBUTES
#undef USE_EOR3
