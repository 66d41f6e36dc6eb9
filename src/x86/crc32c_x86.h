/*
 * Pieces shared by the CRC-32C kernels on the crc32 instruction (crc32c_sse42.c) and the
 * hybrid that runs it beside VPCLMULQDQ folding (crc32c_hybrid.c).  The constants are
 * derived once from the polynomial (crc32c_sse42.c); see there for the mathematics.
 */
#ifndef CRCFORGE_X86_CRC32C_X86_H
#define CRCFORGE_X86_CRC32C_X86_H

#include <immintrin.h>
#include <stdatomic.h>
#include <string.h>

#include "impls.h"

#define TARGET_SSE42 __attribute__((target("sse4.2")))
#define TARGET_SSE42_PCLMUL __attribute__((target("sse4.2,pclmul")))

/* Longest stream of one joined pass, in bytes: a join costs ~15 cycles against 3*L/8
 * cycles of crc32 instructions, so 4 KiB streams keep it under 1%, and three streams
 * 4 KiB apart stay well inside L1. */
#define CRC32C_STREAM_MAX 4096
/* Below this many bytes one chain beats three plus a join: measured per call on an AMD
 * EPYC (Zen 3), independent calls (1-way 12.2 GB/s vs 3-way 11.6 at 224 B, 15.1 vs 16.7
 * at 256 B).  One chain gains from running ahead into the next call, so the crossover
 * lies above the ~100 B a single dependent stream would give. */
#define CRC32C_THREEWAY_MIN 240

struct crc32c_x86_consts {
    /* join[L/8 - 1]: x^(8kL-33) mod P, reflected, shifting a stream's CRC past k later
     * streams of L bytes (see crc32c_sse42.c). */
    struct {
        uint32_t by_l, by_2l, by_3l;
    } join[CRC32C_STREAM_MAX / 8];
    /* Folding a reflected 128-bit lane 128 bytes forward: x^(63+1024) and x^(1024-1)
     * mod P as reflected 64-bit values, for its low and high qword. */
    uint64_t fold_128_lo, fold_128_hi;
};

/* The model's update is CRC-32C's: its width, poly and bit order (init, refout and
 * xorout stay outside the update). */
int crc32c_serves(const crcforge_model *m);

extern struct crc32c_x86_consts crc32c_x86_consts_table;
extern atomic_int crc32c_x86_consts_ready;
void crc32c_x86_consts_build(void); /* idempotent and thread-safe */

static inline const struct crc32c_x86_consts *crc32c_x86_consts(void)
{
    if (!atomic_load_explicit(&crc32c_x86_consts_ready, memory_order_acquire))
        crc32c_x86_consts_build();
    return &crc32c_x86_consts_table;
}

static inline uint64_t crc32c_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static TARGET_SSE42 inline uint32_t crc32c_chain(uint32_t crc, const uint8_t *p, size_t n)
{
    uint64_t c = crc;
    /* Unrolled: fewer instructions per byte let the core run ahead into the next call's
     * independent chain, which is where short inputs gain. */
    for (; n >= 32; n -= 32, p += 32) {
        c = _mm_crc32_u64(c, crc32c_load64(p));
        c = _mm_crc32_u64(c, crc32c_load64(p + 8));
        c = _mm_crc32_u64(c, crc32c_load64(p + 16));
        c = _mm_crc32_u64(c, crc32c_load64(p + 24));
    }
    for (; n >= 8; n -= 8, p += 8)
        c = _mm_crc32_u64(c, crc32c_load64(p));
    crc = (uint32_t)c;
    if ((n & 7) == 0) /* one branch for whole words, the common case */
        return crc;
    if (n & 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        crc = _mm_crc32_u32(crc, v);
        p += 4;
    }
    if (n & 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        crc = _mm_crc32_u16(crc, v);
        p += 2;
    }
    if (n & 1)
        crc = _mm_crc32_u8(crc, *p);
    return crc;
}

/* A 32-bit reflected CRC times a reflected constant K: the 64-bit word whose polynomial,
 * as crc32 input, is CRC * K * x (crc32c_sse42.c). */
static TARGET_SSE42_PCLMUL inline uint64_t crc32c_clmul32(uint32_t a, uint32_t k)
{
    __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)k),
                                        0x00);
    return (uint64_t)_mm_cvtsi128_si64(prod);
}

#endif /* CRCFORGE_X86_CRC32C_X86_H */
