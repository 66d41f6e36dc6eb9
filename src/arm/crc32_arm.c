/*
 * CRC-32C and CRC-32 (zlib) on the ARMv8 CRC32 instructions.
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
#include "../bytes.h"
#include "../cpu.h"
#include "../fold_consts.h"
#include "impls.h"
#include "vec128.h"

#define TARGET_CRC CRC_ARM_TARGET_CRC
#define TARGET_CRC_PMULL CRC_ARM_TARGET_CRC_PMULL
#define INLINE static inline __attribute__((always_inline))

enum { CASTAGNOLI, ZLIB };

TARGET_CRC INLINE uint32_t step8(int poly, uint32_t r, const uint8_t *p)
{
    uint64_t v = crc_load_le64(p);
    return poly == CASTAGNOLI ? crc_arm_crc32cd(r, v) : crc_arm_crc32d(r, v);
}

TARGET_CRC INLINE uint32_t one_way(int poly, uint32_t r, const uint8_t *p, size_t n)
{
    for (; n >= 32; p += 32, n -= 32) {
        r = step8(poly, r, p);
        r = step8(poly, r, p + 8);
        r = step8(poly, r, p + 16);
        r = step8(poly, r, p + 24);
    }
    for (; n >= 8; p += 8, n -= 8)
        r = step8(poly, r, p);
    if (n & 4) {
        uint32_t v = crc_load_le32(p);
        r = poly == CASTAGNOLI ? crc_arm_crc32cw(r, v) : crc_arm_crc32w(r, v);
        p += 4;
    }
    if (n & 2) {
        uint16_t v = (uint16_t)(p[0] | p[1] << 8);
        r = poly == CASTAGNOLI ? crc_arm_crc32ch(r, v) : crc_arm_crc32h(r, v);
        p += 2;
    }
    if (n & 1)
        r = poly == CASTAGNOLI ? crc_arm_crc32cb(r, *p) : crc_arm_crc32b(r, *p);
    return r;
}

/* Stream lengths of the 3-way blocks, longest first: long streams make the join's cost
 * negligible; the shorter one keeps inputs of a few hundred bytes off the single chain. */
enum { LONG_STREAM = 1024, SHORT_STREAM = 128 };

static inline const crcforge_model *model_of(int poly)
{
    return poly == CASTAGNOLI ? crc_model_crc32c : crc_model_crc32;
}

/* r*x^(8L) mod P, with k = x^(8L-33) mod P (see the top of the file). */
TARGET_CRC_PMULL INLINE uint32_t shift(int poly, uint32_t r, uint32_t k)
{
    uint64_t product = vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64(r, k)), 0);
    return poly == CASTAGNOLI ? crc_arm_crc32cd(0, product) : crc_arm_crc32d(0, product);
}

/* One block of three streams of len bytes each (a constant at each call, so that the
 * loads take immediate offsets and pair up). */
TARGET_CRC_PMULL INLINE uint32_t three_streams(int poly, uint32_t r, const uint8_t *p,
                                               const size_t len, const struct crc32_join *j)
{
    uint32_t a = r, b = 0, c = 0;
    for (size_t i = 0; i < len; i += 16) {
        a = step8(poly, a, p + i);
        b = step8(poly, b, p + len + i);
        c = step8(poly, c, p + 2 * len + i);
        a = step8(poly, a, p + i + 8);
        b = step8(poly, b, p + len + i + 8);
        c = step8(poly, c, p + 2 * len + i + 8);
    }
    return shift(poly, a, j->join[len / 8 - 1].by_2l) ^ shift(poly, b, j->join[len / 8 - 1].by_l) ^
           c;
}

TARGET_CRC_PMULL INLINE uint32_t three_way(int poly, uint32_t r, const uint8_t *p, size_t n)
{
    const struct crc32_join *j = crc32_join_of(model_of(poly));
    for (; n >= 3 * LONG_STREAM; p += 3 * LONG_STREAM, n -= 3 * LONG_STREAM)
        r = three_streams(poly, r, p, LONG_STREAM, j);
    for (; n >= 3 * SHORT_STREAM; p += 3 * SHORT_STREAM, n -= 3 * SHORT_STREAM)
        r = three_streams(poly, r, p, SHORT_STREAM, j);
    return one_way(poly, r, p, n);
}

/* The registry's update functions, one per polynomial and kernel. */
#define UPDATE_FUNCTION(name, target, kernel, poly)                                      \
    target static uint64_t name(const crcforge_model *m, uint64_t reg, const uint8_t *p,  \
                                size_t n)                                                \
    {                                                                                    \
        (void)m;                                                                         \
        return kernel(poly, (uint32_t)reg, p, n);                                        \
    }
UPDATE_FUNCTION(crc32c_arm_crc32, TARGET_CRC, one_way, CASTAGNOLI)
UPDATE_FUNCTION(crc32_arm_crc32, TARGET_CRC, one_way, ZLIB)
UPDATE_FUNCTION(crc32c_arm_crc32_3way, TARGET_CRC_PMULL, three_way, CASTAGNOLI)
UPDATE_FUNCTION(crc32_arm_crc32_3way, TARGET_CRC_PMULL, three_way, ZLIB)

/* The register only depends on the polynomial and the input bit order. */
static int is_castagnoli(const crcforge_model *m)
{
    return m->p.width == 32 && m->p.refin && m->p.poly == crc_model_crc32c->p.poly;
}

static int is_zlib(const crcforge_model *m)
{
    return m->p.width == 32 && m->p.refin && m->p.poly == crc_model_crc32->p.poly;
}

const struct crc_impl crc_impl_crc32c_arm_crc32_3way = {
    .name = "crc32c_arm_crc32_3way", .features = CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL,
    .supports = is_castagnoli, .update = crc32c_arm_crc32_3way};
const struct crc_impl crc_impl_crc32_arm_crc32_3way = {
    .name = "crc32_arm_crc32_3way", .features = CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL,
    .supports = is_zlib, .update = crc32_arm_crc32_3way};
const struct crc_impl crc_impl_crc32c_arm_crc32 = {
    .name = "crc32c_arm_crc32", .features = CRC_CPU_ARM_CRC32, .supports = is_castagnoli,
    .update = crc32c_arm_crc32};
const struct crc_impl crc_impl_crc32_arm_crc32 = {
    .name = "crc32_arm_crc32", .features = CRC_CPU_ARM_CRC32, .supports = is_zlib,
    .update = crc32_arm_crc32};
