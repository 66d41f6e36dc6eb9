/* SPDX-License-Identifier: MIT */
/*
 * The PMULL folding kernel, written once and included by one .c file per tier.  It
 * serves every model of width 8..64 in both bit orders through struct fold_consts, the
 * constants the x86 kernels use (../fold_consts.h has the mathematics: the register is a
 * 64-bit CRC modulo G' = G*x^(64-n), each 128-bit lane is folded forward with two
 * carry-less multiplies, the last lane is reduced with three more).  Little-endian
 * aarch64: a 16-byte load gives the lane x86's movdqu gives, so the constants and the
 * lane steps (../fold_lanes.h, over vec128.h) are the same; PMULL/PMULL2 multiply the
 * low/high qwords.
 *
 * Parameters (../fold_record.h's contract, all #undef'd at the end):
 *   SUFFIX      names the tier: crc_impl_fold_SUFFIX, "fold_SUFFIX", fold_update_SUFFIX
 *   FEATURES    the CRC_CPU_* bits of everything the tier executes
 *   ATTRIBUTES  the target attribute enabling what the tier executes:
 *                 !USE_EOR3: CRC_ARM_TARGET_PMULL        (PMULL)
 *                 USE_EOR3:  CRC_ARM_TARGET_PMULL_SHA3   (PMULL, EOR3)
 *   USE_EOR3    1 to xor the two products and the next lane in one EOR3
 *
 * A pass over n >= LANES_MAX bytes: the head (the partial block first, head_pass), then
 * eight accumulators while 128 bytes remain (the multiplier's latency hidden behind
 * independent chains), a tree 8 -> 4 -> 2 -> 1, one lane 16 bytes at a time, and the
 * final reduction.  Shorter inputs take fold_record.h's lane steps.
 */
#include "../compiler.h"
#include "../cpu.h"
#include "impls.h"
#include "vec128.h"
#include "../fold_lanes.h"

#define LANES_MAX 32

/* a folded across the distance of k, onto b. */
static ATTRIBUTES ALWAYS_INLINE vec_t fold(vec_t a, vec_t k, vec_t b)
{
#if USE_EOR3
    return CRC_ARM_EOR3(V_CLMUL(a, 0, k, 0), V_CLMUL(a, 1, k, 1), b);
#else
    return V_XOR(V_XOR(V_CLMUL(a, 0, k, 0), V_CLMUL(a, 1, k, 1)), b);
#endif
}

/* n >= LANES_MAX.  msb is a constant at each call, so each bit order gets its own loop.
 * (No parameter of k applies to it.) */
static ATTRIBUTES ALWAYS_INLINE uint64_t fold_pass(const struct fold_consts *c, uint64_t reg,
                                                   const uint8_t *p, size_t n, const int msb,
                                                   const struct crc_params *k)
{
    (void)k;
    const size_t head = n % 16;
    const vec_t carry = head_pass(c, reg, p, head, msb);
    p += head;
    n -= head;
    vec_t x;
    if (n >= 128) {
        vec_t a0 = V_XOR(load_lane(p, msb), carry);
        vec_t a1 = load_lane(p + 16, msb), a2 = load_lane(p + 32, msb),
              a3 = load_lane(p + 48, msb), a4 = load_lane(p + 64, msb),
              a5 = load_lane(p + 80, msb), a6 = load_lane(p + 96, msb),
              a7 = load_lane(p + 112, msb);
        p += 128;
        n -= 128;
        const vec_t k8 = V_LOAD(&c->fold_across_1024_bits);
        while (n >= 128) {
            a0 = fold(a0, k8, load_lane(p, msb));
            a1 = fold(a1, k8, load_lane(p + 16, msb));
            a2 = fold(a2, k8, load_lane(p + 32, msb));
            a3 = fold(a3, k8, load_lane(p + 48, msb));
            a4 = fold(a4, k8, load_lane(p + 64, msb));
            a5 = fold(a5, k8, load_lane(p + 80, msb));
            a6 = fold(a6, k8, load_lane(p + 96, msb));
            a7 = fold(a7, k8, load_lane(p + 112, msb));
            p += 128;
            n -= 128;
        }
        const vec_t k4 = V_LOAD(&c->fold_across_512_bits);
        a4 = fold(a0, k4, a4);
        a5 = fold(a1, k4, a5);
        a6 = fold(a2, k4, a6);
        a7 = fold(a3, k4, a7);
        const vec_t k2 = V_LOAD(&c->fold_across_256_bits);
        a6 = fold(a4, k2, a6);
        a7 = fold(a5, k2, a7);
        x = fold(a6, V_LOAD(&c->fold_across_128_bits), a7);
    } else {
        x = V_XOR(load_lane(p, msb), carry);
        p += 16;
        n -= 16;
    }
    const vec_t k1 = V_LOAD(&c->fold_across_128_bits);
    for (; n >= 16; p += 16, n -= 16)
        x = fold(x, k1, load_lane(p, msb));
    return final_reduction(x, c, msb);
}

#include "../fold_record.h"

#undef LANES_MAX
#undef SUFFIX
#undef FEATURES
#undef ATTRIBUTES
#undef USE_EOR3
