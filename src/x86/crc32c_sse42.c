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
#include <immintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "../cpu.h"
#include "impls.h"

#define TARGET_SSE42 __attribute__((target("sse4.2")))
#define TARGET_SSE42_PCLMUL __attribute__((target("sse4.2,pclmul")))

/* Longest block of one 3-way pass: the join costs ~15 cycles against 3*L/8 cycles of
 * crc32 instructions, so 4 KiB blocks keep it under 1%, and three streams 4 KiB apart
 * stay well inside L1. */
#define STREAM_MAX 4096
/* Below this many bytes one chain beats three plus a join: measured per call on an AMD
 * EPYC (Zen 3), independent calls (1-way 12.2 GB/s vs 3-way 11.6 at 224 B, 15.1 vs 16.7
 * at 256 B).  One chain gains from running ahead into the next call, so the crossover
 * lies above the ~100 B a single dependent stream would give. */
#define THREEWAY_MIN 240

static int serves_crc32c(const crcforge_model *m)
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

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t load32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint16_t load16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static TARGET_SSE42 inline uint32_t crc32c_chain(uint32_t crc, const uint8_t *p, size_t n)
{
    uint64_t c = crc;
    /* Unrolled: fewer instructions per byte let the core run ahead into the next call's
     * independent chain, which is where short inputs gain. */
    for (; n >= 32; n -= 32, p += 32) {
        c = _mm_crc32_u64(c, load64(p));
        c = _mm_crc32_u64(c, load64(p + 8));
        c = _mm_crc32_u64(c, load64(p + 16));
        c = _mm_crc32_u64(c, load64(p + 24));
    }
    for (; n >= 8; n -= 8, p += 8)
        c = _mm_crc32_u64(c, load64(p));
    crc = (uint32_t)c;
    if (n & 4) {
        crc = _mm_crc32_u32(crc, load32(p));
        p += 4;
    }
    if (n & 2) {
        crc = _mm_crc32_u16(crc, load16(p));
        p += 2;
    }
    if (n & 1)
        crc = _mm_crc32_u8(crc, *p);
    return crc;
}

static TARGET_SSE42 uint64_t crc32c_x86_sse42(const crcforge_model *m, uint64_t reg,
                                              const uint8_t *p, size_t n)
{
    (void)m;
    return crc32c_chain((uint32_t)reg, p, n);
}

/* shift[L/8 - 1] for a pass of three L-byte blocks: x^(8L-33) and x^(16L-33) mod P,
 * reflected, computed once from the polynomial. */
struct join_consts {
    uint32_t by_l, by_2l;
};
static struct join_consts join[STREAM_MAX / 8];
static pthread_once_t join_once = PTHREAD_ONCE_INIT;
static atomic_int join_ready; /* set after join[] is filled: skips the pthread_once call */

static void compute_join_consts(void)
{
    const crcforge_params *p = &crc_model_crc32c->p;
    uint64_t by_l = crc_xpow_mod(8 * 8 - 33, p), by_2l = crc_xpow_mod(16 * 8 - 33, p);
    const uint64_t x64 = crc_xpow_mod(64, p), x128 = crc_xpow_mod(128, p);
    for (size_t i = 0; i < STREAM_MAX / 8; i++) { /* L = 8 * (i + 1) */
        join[i].by_l = (uint32_t)crc_reflect(by_l, 32);
        join[i].by_2l = (uint32_t)crc_reflect(by_2l, 32);
        by_l = crc_mulmod(by_l, x64, p);
        by_2l = crc_mulmod(by_2l, x128, p);
    }
    atomic_store_explicit(&join_ready, 1, memory_order_release);
}

static TARGET_SSE42_PCLMUL inline uint64_t clmul32(uint32_t a, uint32_t k)
{
    __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)k),
                                        0x00);
    return (uint64_t)_mm_cvtsi128_si64(prod);
}

/* One pass over 3*l bytes (l a multiple of 8, 8 <= l <= STREAM_MAX). */
static TARGET_SSE42_PCLMUL inline uint32_t pass_3way(uint32_t crc, const uint8_t *p, size_t l)
{
    uint64_t a = crc, b = 0, c = 0;
    for (const uint8_t *end = p + l; p < end; p += 8) {
        a = _mm_crc32_u64(a, load64(p));
        b = _mm_crc32_u64(b, load64(p + l));
        c = _mm_crc32_u64(c, load64(p + 2 * l));
    }
    const struct join_consts *k = &join[l / 8 - 1];
    uint64_t shifted = clmul32((uint32_t)a, k->by_2l) ^ clmul32((uint32_t)b, k->by_l);
    return (uint32_t)c ^ (uint32_t)_mm_crc32_u64(0, shifted);
}

/* Whole passes, then the rest below 24 bytes on one chain (n >= THREEWAY_MIN). */
static TARGET_SSE42_PCLMUL __attribute__((noinline)) uint32_t crc32c_3way_long(uint32_t crc,
                                                                               const uint8_t *p,
                                                                               size_t n)
{
    if (!atomic_load_explicit(&join_ready, memory_order_acquire))
        pthread_once(&join_once, compute_join_consts);
    for (; n >= 3 * STREAM_MAX; n -= 3 * STREAM_MAX, p += 3 * STREAM_MAX)
        crc = pass_3way(crc, p, STREAM_MAX);
    if (n >= THREEWAY_MIN) {
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
    if (n < THREEWAY_MIN)
        return crc32c_chain((uint32_t)reg, p, n);
    return crc32c_3way_long((uint32_t)reg, p, n);
}

const struct crc_impl crc_impl_crc32c_x86_sse42 = {
    "crc32c_x86_sse42", has_sse42, serves_crc32c, crc32c_x86_sse42,
};

const struct crc_impl crc_impl_crc32c_x86_sse42_3way = {
    "crc32c_x86_sse42_3way", has_sse42_pclmul, serves_crc32c, crc32c_x86_sse42_3way,
};
