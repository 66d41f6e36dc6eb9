/* SPDX-License-Identifier: MIT */
/*
 * Pieces shared by the CRC-32C kernels on the crc32 instruction (crc32c_sse42.c) and those
 * that run it beside VPCLMULQDQ vectors (crc32c_vpclmul_template.h).  Their constants are
 * CRC-32C's stream joins (struct crc32_join) and lane multipliers (struct crc32_lanes),
 * both in ../fold_consts.h, which gives the mathematics.
 */
#ifndef CRCFORGE_X86_CRC32C_X86_H
#define CRCFORGE_X86_CRC32C_X86_H

#include <immintrin.h>
#include <string.h>

#include "../compiler.h"
#include "../fold_consts.h"
#include "impls.h"

#define TARGET_SSE42 CRC_TARGET("sse4.2,crc32") CODE_ALIGNED
#define TARGET_SSE42_PCLMUL CRC_TARGET("sse4.2,crc32,pclmul") CODE_ALIGNED

/* Longest stream of one joined pass, in bytes: a join costs ~15 cycles against 3*L/8
 * cycles of crc32 instructions, so 4 KiB streams keep it under 1%, and three streams
 * 4 KiB apart stay well inside L1. */
#define CRC32C_STREAM_MAX CRC32_JOIN_MAX

/* Where the kernels change their way depends on the CPU: the tuning table's
 * crc32c_threeway_min, crc32c_hybrid256_min and crc32c_hybrid512_min (tuning.h). */

/* What the VPCLMULQDQ paths execute (their records' features). */
#define CRC_FEATURES_x86_crc32c_avx2                                                      \
    (CRC_CPU_SSE41 | CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)
#define CRC_FEATURES_x86_crc32c_avx512 (CRC_FEATURES_x86_crc32c_avx2 | CRC_CPU_AVX512F)

/* The VPCLMULQDQ paths with their kernel parameters given instead of the tuning table's
 * (crc32c_vpclmul_template.h; for the tests): `acc` accumulators past 4 KiB (1, 2, 4, 8),
 * `q` crc32 qwords per stream per iteration of the hybrid (1..CRC_HYBRID_QWORDS_MAX); where
 * the hybrid's loop starts is still the table's (crc32c_hybrid256_min, crc32c_hybrid512_min). */
uint64_t crc32c_x86_vpclmul_avx2_with(uint64_t reg, const uint8_t *p, size_t n, unsigned acc);
uint64_t crc32c_x86_avx2_hybrid_with(uint64_t reg, const uint8_t *p, size_t n, unsigned q);
uint64_t crc32c_x86_vpclmul_avx512_with(uint64_t reg, const uint8_t *p, size_t n,
                                        unsigned acc);
uint64_t crc32c_x86_avx512_hybrid_with(uint64_t reg, const uint8_t *p, size_t n, unsigned q);

/* The model's update is CRC-32C's: its width, poly and bit order (init, refout and
 * xorout stay outside the update). */
int crc32c_serves(const crcforge_model *m);

static inline uint64_t crc32c_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The last n & 7 bytes (n < 8) on the chain. */
static TARGET_SSE42 inline uint32_t crc32c_bytes(uint32_t crc, const uint8_t *p, size_t n)
{
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
    return crc32c_bytes((uint32_t)c, p, n);
}

/* A 32-bit reflected CRC times a reflected constant K: the 64-bit word whose polynomial,
 * as crc32 input, is CRC * K * x (struct crc32_join). */
static TARGET_SSE42_PCLMUL inline uint64_t crc32c_clmul32(uint32_t a, uint32_t k)
{
    __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)k),
                                        0x00);
    return (uint64_t)_mm_cvtsi128_si64(prod);
}

#endif /* CRCFORGE_X86_CRC32C_X86_H */
