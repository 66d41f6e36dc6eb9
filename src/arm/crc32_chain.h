/* SPDX-License-Identifier: MIT */
/*
 * CRC-32C and CRC-32 (zlib) on the ARMv8 CRC32 instructions: one chain, and three chains
 * joined, shared by the paths on the instruction alone (crc32_arm.c) and by the hybrids
 * that run it beside PMULL vectors (crc32_hybrid_template.h), which end on them.
 *
 * crc32cx/crc32x fold 8 bytes into a reflected 32-bit register: exactly the register
 * of internal.h for these two models, so no conversion is needed.  On common cores the
 * instruction has a latency of 2 to 3 cycles and a throughput of one a cycle, so one
 * dependent chain leaves the unit idle most of the time.  The 3-way kernel (the technique of
 * MySQL's and the Linux kernel's ARM CRC-32C) cuts a block into three equal streams,
 * runs their chains interleaved, and joins them:
 *
 *     crc(r, A||B||C) = crc(r, A)*x^(8*2L) ^ crc(0, B)*x^(8*L) ^ crc(0, C)   (mod P)
 *
 * for streams of L bytes.  A multiplication by x^(8L) costs one PMULL and one crc32x:
 * for a register R (reflected, 32 bits) and K = x^(8L-33) mod P (reflected), the
 * 63-bit carry-less product R*K is the polynomial x*R*K in the reflected 64-bit
 * order, and crc32x(0, v) computes v*x^32 mod P, so the result is R*x^(8L) mod P.
 * K is the model's join constant (struct crc32_join, ../fold_consts.h).
 */
#ifndef CRCFORGE_ARM_CRC32_CHAIN_H
#define CRCFORGE_ARM_CRC32_CHAIN_H

#include "../bytes.h"
#include "../fold_consts.h"
#include "vec128.h"

#define CRC_ARM_INLINE static ALWAYS_INLINE

/* The two polynomials of the instruction. */
enum crc_arm_poly { CRC_ARM_CASTAGNOLI, CRC_ARM_ZLIB };

CRC_ARM_TARGET_CRC CRC_ARM_INLINE uint32_t crc_arm_step8(int poly, uint32_t r, const uint8_t *p)
{
    uint64_t v = crc_load_le64(p);
    return poly == CRC_ARM_CASTAGNOLI ? crc_arm_crc32cd(r, v) : crc_arm_crc32d(r, v);
}

/* Two qwords of one 16-byte load (one ldp). */
CRC_ARM_TARGET_CRC CRC_ARM_INLINE uint32_t crc_arm_step16(int poly, uint32_t r, const uint8_t *p)
{
    struct {
        uint64_t lo, hi;
    } v;
    memcpy(&v, p, 16);
#if defined(CRC_HOST_BE)
    v.lo = CRC_BSWAP64(v.lo);
    v.hi = CRC_BSWAP64(v.hi);
#endif
    return poly == CRC_ARM_CASTAGNOLI ? crc_arm_crc32cd(crc_arm_crc32cd(r, v.lo), v.hi)
                                      : crc_arm_crc32d(crc_arm_crc32d(r, v.lo), v.hi);
}

/* Four qwords in two ldp (GCC 12 splits the second pair of four plain loads into two
 * loads, behind the pointer's increment: two instructions more a 64-byte call). */
CRC_ARM_TARGET_CRC CRC_ARM_INLINE uint32_t crc_arm_step32(int poly, uint32_t r, const uint8_t *p)
{
#if defined(CRC_HOST_LE)
    uint64_t v0, v1, v2, v3;
    __asm__("ldp %[v0], %[v1], [%[p]]\n\t"
            "ldp %[v2], %[v3], [%[p], #16]"
            : [v0] "=&r"(v0), [v1] "=&r"(v1), [v2] "=&r"(v2), [v3] "=&r"(v3)
            : [p] "r"(p), "m"(*(const uint8_t(*)[32])p));
    if (poly == CRC_ARM_CASTAGNOLI)
        return crc_arm_crc32cd(crc_arm_crc32cd(crc_arm_crc32cd(crc_arm_crc32cd(r, v0), v1), v2),
                               v3);
    return crc_arm_crc32d(crc_arm_crc32d(crc_arm_crc32d(crc_arm_crc32d(r, v0), v1), v2), v3);
#else
    return crc_arm_step16(poly, crc_arm_step16(poly, r, p), p + 16);
#endif
}

/* One chain.  Written for few instructions at short lengths (a 64-byte call is mostly its
 * count): 32 bytes an iteration up to an end pointer (no count kept), then one test per
 * bit of the length left. */
CRC_ARM_TARGET_CRC CRC_ARM_INLINE uint32_t crc_arm_one_way(int poly, uint32_t r,
                                                            const uint8_t *p, size_t n)
{
    const uint8_t *const end = p + (n & ~(size_t)31);
    while (p != end) {
        r = crc_arm_step32(poly, r, p);
        p += 32;
    }
    if (n & 16) {
        r = crc_arm_step16(poly, r, p);
        p += 16;
    }
    if (n & 8) {
        r = crc_arm_step8(poly, r, p);
        p += 8;
    }
    if (n & 4) {
        uint32_t v = crc_load_le32(p);
        r = poly == CRC_ARM_CASTAGNOLI ? crc_arm_crc32cw(r, v) : crc_arm_crc32w(r, v);
        p += 4;
    }
    if (n & 2) {
        uint16_t v = (uint16_t)(p[0] | p[1] << 8);
        r = poly == CRC_ARM_CASTAGNOLI ? crc_arm_crc32ch(r, v) : crc_arm_crc32h(r, v);
        p += 2;
    }
    if (n & 1)
        r = poly == CRC_ARM_CASTAGNOLI ? crc_arm_crc32cb(r, *p) : crc_arm_crc32b(r, *p);
    return r;
}

/* Stream lengths of the 3-way blocks, longest first: long streams make the join's cost
 * negligible; the shorter one keeps inputs of a few hundred bytes off the single chain. */
enum { CRC_ARM_LONG_STREAM = 1024, CRC_ARM_SHORT_STREAM = 128 };

/* The models whose register is the instruction's: the polynomial and the input bit order
 * (init, refout and xorout stay outside the update). */
static inline int crc_arm_is_castagnoli(const crcforge_model *m)
{
    return m->p.width == 32 && m->p.refin && m->p.poly == crc_model_crc32c->p.poly;
}

static inline int crc_arm_is_zlib(const crcforge_model *m)
{
    return m->p.width == 32 && m->p.refin && m->p.poly == crc_model_crc32->p.poly;
}

static inline const crcforge_model *crc_arm_model_of(int poly)
{
    return poly == CRC_ARM_CASTAGNOLI ? crc_model_crc32c : crc_model_crc32;
}

/* r*x^(8L) mod P, with k = x^(8L-33) mod P (see the top of the file). */
CRC_ARM_TARGET_CRC_PMULL CRC_ARM_INLINE uint32_t crc_arm_shift(int poly, uint32_t r, uint32_t k)
{
    uint64_t product = vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64(r, k)), 0);
    return poly == CRC_ARM_CASTAGNOLI ? crc_arm_crc32cd(0, product) : crc_arm_crc32d(0, product);
}

/* One block of three streams of len bytes each (a constant at each call, so that the
 * loads take immediate offsets and pair up). */
CRC_ARM_TARGET_CRC_PMULL CRC_ARM_INLINE uint32_t crc_arm_three_streams(int poly, uint32_t r,
                                                                        const uint8_t *p,
                                                                        const size_t len,
                                                                        const struct crc32_join *j)
{
    uint32_t a = r, b = 0, c = 0;
    for (size_t i = 0; i < len; i += 16) {
        a = crc_arm_step8(poly, a, p + i);
        b = crc_arm_step8(poly, b, p + len + i);
        c = crc_arm_step8(poly, c, p + 2 * len + i);
        a = crc_arm_step8(poly, a, p + i + 8);
        b = crc_arm_step8(poly, b, p + len + i + 8);
        c = crc_arm_step8(poly, c, p + 2 * len + i + 8);
    }
    return crc_arm_shift(poly, a, j->join[len / 8 - 1].by_2l) ^
           crc_arm_shift(poly, b, j->join[len / 8 - 1].by_l) ^ c;
}

CRC_ARM_TARGET_CRC_PMULL CRC_ARM_INLINE uint32_t crc_arm_three_way(int poly, uint32_t r,
                                                                    const uint8_t *p, size_t n)
{
    const size_t whole = 3 * CRC_ARM_LONG_STREAM, part = 3 * CRC_ARM_SHORT_STREAM;
    if (n >= part) {
        const struct crc32_join *j = crc32_join_of(crc_arm_model_of(poly));
        for (; n >= whole; p += whole, n -= whole)
            r = crc_arm_three_streams(poly, r, p, CRC_ARM_LONG_STREAM, j);
        for (; n >= part; p += part, n -= part)
            r = crc_arm_three_streams(poly, r, p, CRC_ARM_SHORT_STREAM, j);
    }
    return crc_arm_one_way(poly, r, p, n);
}

#endif /* CRCFORGE_ARM_CRC32_CHAIN_H */
