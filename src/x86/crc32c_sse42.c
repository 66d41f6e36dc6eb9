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
 * The shifts are carry-less multiplies.  With a 32-bit reflected register a (polynomial
 * A(x)) and a reflected 32-bit constant k (polynomial K(x)), PCLMULQDQ yields a 64-bit
 * word whose polynomial, read as crc32 input data, is A*K*x; crc32q(0, d) computes
 * D * x^32 mod P; so crc32q(0, clmul(a, k)) = A * K * x^33 mod P, and K = x^(8L-33) mod P
 * shifts a by L bytes.  The constants are derived below from the polynomial.
 */
#include <pthread.h>

#include "../cpu.h"
#include "crc32c_x86.h"

int crc32c_serves(const crcforge_model *m)
{
    const crcforge_params *c = &crc_model_crc32c->p;
    /* The register convention keeps init, refout and xorout out of the update. */
    return m->p.width == c->width && m->p.poly == c->poly && m->p.refin == c->refin;
}

static int has_sse42(void)
{
    return crc_cpu_has(CRC_CPU_SSE42);
}

static int has_sse42_pclmul(void)
{
    return crc_cpu_has(CRC_CPU_SSE42 | CRC_CPU_PCLMUL);
}

static TARGET_SSE42 uint64_t crc32c_x86_sse42(const crcforge_model *m, uint64_t reg,
                                              const uint8_t *p, size_t n)
{
    (void)m;
    return crc32c_chain((uint32_t)reg, p, n);
}

struct crc32c_x86_consts crc32c_x86_consts_table;
atomic_int crc32c_x86_consts_ready; /* set once the table is filled */
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static void build_consts(void)
{
    const crcforge_params *p = &crc_model_crc32c->p;
    struct crc32c_x86_consts *c = &crc32c_x86_consts_table;
    uint64_t by_l = crc_xpow_mod(8 * 8 - 33, p), by_2l = crc_xpow_mod(16 * 8 - 33, p),
             by_3l = crc_xpow_mod(24 * 8 - 33, p);
    const uint64_t x64 = crc_xpow_mod(64, p), x128 = crc_xpow_mod(128, p),
                   x192 = crc_xpow_mod(192, p);
    for (size_t i = 0; i < CRC32C_STREAM_MAX / 8; i++) { /* L = 8 * (i + 1) */
        c->join[i].by_l = (uint32_t)crc_reflect(by_l, 32);
        c->join[i].by_2l = (uint32_t)crc_reflect(by_2l, 32);
        c->join[i].by_3l = (uint32_t)crc_reflect(by_3l, 32);
        by_l = crc_mulmod(by_l, x64, p);
        by_2l = crc_mulmod(by_2l, x128, p);
        by_3l = crc_mulmod(by_3l, x192, p);
    }
    c->fold_128_lo = crc_reflect(crc_xpow_mod(63 + 1024, p), 64);
    c->fold_128_hi = crc_reflect(crc_xpow_mod(1024 - 1, p), 64);
    atomic_store_explicit(&crc32c_x86_consts_ready, 1, memory_order_release);
}

void crc32c_x86_consts_build(void)
{
    pthread_once(&consts_once, build_consts);
}

/* One pass over 3*l bytes (l a multiple of 8, 8 <= l <= CRC32C_STREAM_MAX). */
static TARGET_SSE42_PCLMUL inline uint32_t pass_3way(uint32_t crc, const uint8_t *p, size_t l)
{
    uint64_t a = crc, b = 0, c = 0;
    for (const uint8_t *end = p + l; p < end; p += 8) {
        a = _mm_crc32_u64(a, crc32c_load64(p));
        b = _mm_crc32_u64(b, crc32c_load64(p + l));
        c = _mm_crc32_u64(c, crc32c_load64(p + 2 * l));
    }
    const struct crc32c_x86_consts *k = crc32c_x86_consts();
    uint64_t shifted = crc32c_clmul32((uint32_t)a, k->join[l / 8 - 1].by_2l) ^
                       crc32c_clmul32((uint32_t)b, k->join[l / 8 - 1].by_l);
    return (uint32_t)c ^ (uint32_t)_mm_crc32_u64(0, shifted);
}

/* Whole passes, then the rest below 24 bytes on one chain (n >= CRC32C_THREEWAY_MIN). */
static TARGET_SSE42_PCLMUL __attribute__((noinline)) uint32_t crc32c_3way_long(uint32_t crc,
                                                                               const uint8_t *p,
                                                                               size_t n)
{
    for (; n >= 3 * CRC32C_STREAM_MAX; n -= 3 * CRC32C_STREAM_MAX, p += 3 * CRC32C_STREAM_MAX)
        crc = pass_3way(crc, p, CRC32C_STREAM_MAX);
    if (n >= CRC32C_THREEWAY_MIN) {
        size_t l = n / 24 * 8;
        crc = pass_3way(crc, p, l);
        p += 3 * l;
        n -= 3 * l;
    }
    return crc32c_chain(crc, p, n);
}

/* Short inputs pay no prologue for the long path: it is a separate function. */
static TARGET_SSE42_PCLMUL uint64_t crc32c_x86_sse42_3way(const crcforge_model *m, uint64_t reg,
                                                          const uint8_t *p, size_t n)
{
    (void)m;
    if (n < CRC32C_THREEWAY_MIN)
        return crc32c_chain((uint32_t)reg, p, n);
    return crc32c_3way_long((uint32_t)reg, p, n);
}

const struct crc_impl crc_impl_crc32c_x86_sse42 = {
    "crc32c_x86_sse42", has_sse42, crc32c_serves, crc32c_x86_sse42,
};

const struct crc_impl crc_impl_crc32c_x86_sse42_3way = {
    "crc32c_x86_sse42_3way", has_sse42_pclmul, crc32c_serves, crc32c_x86_sse42_3way,
};
