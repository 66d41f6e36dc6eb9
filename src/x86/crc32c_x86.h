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

/* The ranges of their parameters (struct crc_params, given by the tuning tables,
 * tuning.h): what the kernels and their constants are built for (tuning.c refuses
 * CRCFORGE_TUNE values outside them, test_tuning checks every table). */
#define CRC_HYBRID_QWORDS_MAX 16
/* One pass of three streams of one qword at least; three streams of CRC32C_STREAM_MAX are
 * a whole pass, which runs whatever the limit. */
#define CRC32C_THREEWAY_MIN_LEAST 24
#define CRC32C_THREEWAY_MIN_MOST (3 * 4096)
/* One iteration of the longest hybrid pass at least (four 512-bit vectors beside three
 * streams of CRC_HYBRID_QWORDS_MAX qwords); at most, 256-bit, what SPLIT's table of shapes
 * covers (its lanes and streams within the 4 KiB of the lane and join tables), 512-bit,
 * what MEDIUM covers (every lane multiplied straight to the end: the lane table's 4 KiB). */
#define CRC32C_HYBRID_MIN_LEAST (4 * 64 + 24 * CRC_HYBRID_QWORDS_MAX)
#define CRC32C_HYBRID256_MIN_MOST 3072
#define CRC32C_HYBRID512_MIN_MOST (16 * CRC32_LANES_MAX + 1)

/* From this length the hybrid aligns its vector loads, the bytes up to alignment on one
 * crc32 chain first; shorter inputs take unaligned loads.  On AMD Zen 4, 1 and 7 bytes past
 * alignment, no lead against the lead: 512-bit 1.06-1.09x at 4.25-6 KiB, 1.01-1.03x at 8-16
 * KiB, 1.00x at 32 KiB, 0.98-0.99x at 64-256 KiB; 256-bit 1.01-1.02x at 4.25-8 KiB, 1.00x
 * from 16 KiB. */
#define CRC32C_HYBRID_ALIGN_MIN 32768

/* What the VPCLMULQDQ paths execute (their records' features). */
#define CRC_FEATURES_x86_crc32c_avx2                                                      \
    (CRC_CPU_SSE41 | CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)
#define CRC_FEATURES_x86_crc32c_avx512 (CRC_FEATURES_x86_crc32c_avx2 | CRC_CPU_AVX512F)

static inline uint64_t crc32c_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The chain of the crc32 instruction is the public header's, crcforge_crc32c_chain_ (one
 * chain for the inline path, crcforge_crc32c and these kernels). */

/* A 32-bit reflected CRC times a reflected constant K: the 64-bit word whose polynomial,
 * as crc32 input, is CRC * K * x (struct crc32_join). */
static TARGET_SSE42_PCLMUL inline uint64_t crc32c_clmul32(uint32_t a, uint32_t k)
{
    __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)k),
                                        0x00);
    return (uint64_t)_mm_cvtsi128_si64(prod);
}

#endif /* CRCFORGE_X86_CRC32C_X86_H */
