/* SPDX-License-Identifier: MIT */
/*
 * CRC-32C on the SSE4.2 `crc32` instruction, which computes exactly the reflected
 * CRC-32C register (no inversion), so the register of internal.h goes in and out as is.
 *
 * 1-way: one dependency chain, 8 bytes per instruction; the instruction's latency (3
 * cycles on current cores) against its throughput (1 per cycle) leaves 2/3 of the unit
 * idle, which only matters once the input is long enough to hide a join.
 *
 * 3-way (the technique of Intel's "Fast CRC Computation for iSCSI Polynomial Using CRC32
 * Instruction" and RocksDB's crc32c.cc): cut a pass of 3*L bytes into three blocks A, B, C
 * of L bytes, run three independent chains (A from the incoming register, B and C from 0)
 * and join them by linearity:
 *     R(r, A||B||C) = R(r, A) * x^(16L) + R(0, B) * x^(8L) + R(0, C)   (mod P).
 * The shifts are carry-less multiplies by CRC-32C's join constants (struct crc32_join,
 * ../fold_consts.h): crc32q(0, clmul(a, k)) = A * K * x^33 mod P, and K = x^(8L-33) mod P
 * shifts a by L bytes.
 */
#include "../cpu.h"
#include "crc32c_x86.h"

static TARGET_SSE42 uint64_t crc32c_x86_sse42(const crcforge_model *m, uint64_t reg,
                                              const uint8_t *p, size_t n,
                                              const struct crc_params *k)
{
    (void)m, (void)k;
    return crcforge_crc32c_chain_((uint32_t)reg, p, n);
}

/* One pass over 3*l bytes (l a multiple of 8, 8 <= l <= CRC32C_STREAM_MAX). */
static TARGET_SSE42_PCLMUL inline uint32_t pass_3way(uint32_t crc, const uint8_t *p, size_t l,
                                                     const struct crc32_join *k)
{
    uint64_t a = crc, b = 0, c = 0;
    const uint8_t *const end = p + l;
    /* Two qwords a stream an iteration: at medium lengths the loop's own instructions
     * compete with the crc32s for the front end (Zen 3, 256-768 B: 4-8% faster). */
    if (l % 16 != 0) {
        a = _mm_crc32_u64(a, crc32c_load64(p));
        b = _mm_crc32_u64(b, crc32c_load64(p + l));
        c = _mm_crc32_u64(c, crc32c_load64(p + 2 * l));
        p += 8;
    }
    for (; p < end; p += 16) {
        a = _mm_crc32_u64(a, crc32c_load64(p));
        b = _mm_crc32_u64(b, crc32c_load64(p + l));
        c = _mm_crc32_u64(c, crc32c_load64(p + 2 * l));
        a = _mm_crc32_u64(a, crc32c_load64(p + 8));
        b = _mm_crc32_u64(b, crc32c_load64(p + l + 8));
        c = _mm_crc32_u64(c, crc32c_load64(p + 2 * l + 8));
    }
    uint64_t shifted = crc32c_clmul32((uint32_t)a, k->join[l / 8 - 1].by_2l) ^
                       crc32c_clmul32((uint32_t)b, k->join[l / 8 - 1].by_l);
    return (uint32_t)c ^ (uint32_t)_mm_crc32_u64(0, shifted);
}

/* Whole passes, then one over the rest if it is at least `least` bytes (the parameter
 * crc32c_threeway_min, n >= least), the last bytes below 24 on one chain. */
static TARGET_SSE42_PCLMUL CRC_NOINLINE uint32_t crc32c_3way_long(uint32_t crc,
                                                                               const uint8_t *p,
                                                                               size_t n,
                                                                               size_t least)
{
    const struct crc32_join *k = crc32_join_of(crc_model_crc32c);
    for (; n >= 3 * CRC32C_STREAM_MAX; n -= 3 * CRC32C_STREAM_MAX, p += 3 * CRC32C_STREAM_MAX)
        crc = pass_3way(crc, p, CRC32C_STREAM_MAX, k);
    if (n >= least) {
        size_t l = n / 24 * 8;
        crc = pass_3way(crc, p, l, k);
        p += 3 * l;
        n -= 3 * l;
    }
    return crcforge_crc32c_chain_(crc, p, n);
}

/* Short inputs pay no prologue for the long path: it is a separate function. */
static TARGET_SSE42_PCLMUL uint64_t crc32c_x86_sse42_3way(const crcforge_model *m, uint64_t reg,
                                                          const uint8_t *p, size_t n,
                                                          const struct crc_params *k)
{
    (void)m;
    if (n < k->crc32c_threeway_min)
        return crcforge_crc32c_chain_((uint32_t)reg, p, n);
    return crc32c_3way_long((uint32_t)reg, p, n, k->crc32c_threeway_min);
}

/* The CRC-32C value entry (crcforge_crc32c's form), which crcforge_crc32c calls past the
 * chain it runs itself below crc32c_threeway_min (crc32_below): straight to the passes,
 * with no test of that length again (they run one chain for any shorter input). */
static TARGET_SSE42_PCLMUL uint32_t crc32c_x86_sse42_3way_crc32c(uint32_t crc, const void *buf,
                                                                 size_t n,
                                                                 const struct crc_params *k)
{
    return ~crc32c_3way_long(~crc, buf, n, k->crc32c_threeway_min);
}

static uint32_t every_length(const struct crc_params *k)
{
    (void)k;
    return UINT32_MAX;
}

/* Where it stops running one chain: the parameter's length. */
static uint32_t below_threeway(const struct crc_params *k)
{
    return k->crc32c_threeway_min;
}

const struct crc_impl crc_impl_crc32c_x86_sse42 = {
    .name = "crc32c_x86_sse42", .features = CRC_CPU_SSE42, .supports = crc32c_serves,
    .update = crc32c_x86_sse42, .crc32_below = every_length, .untuned = 1};

const struct crc_impl crc_impl_crc32c_x86_sse42_3way = {
    .name = "crc32c_x86_sse42_3way", .features = CRC_CPU_SSE42 | CRC_CPU_PCLMUL,
    .supports = crc32c_serves, .update = crc32c_x86_sse42_3way, .crc32_below = below_threeway,
    .value = {[CRC_FIXED_CRC32C] = {.w32 = crc32c_x86_sse42_3way_crc32c}}};
