/*
 * The PMULL folding kernel, written once and included by one .c file per tier.  It
 * serves every model of width 8..64 in both bit orders through struct fold_consts, the
 * constants the x86 kernels use (../fold_consts.h has the mathematics: the register is a
 * 64-bit CRC modulo G' = G*x^(64-n), each 128-bit lane is folded forward with two
 * carry-less multiplies, the last lane is reduced with three more).  Little-endian
 * aarch64: a 16-byte load gives the lane x86's movdqu gives, so the constants and the
 * lane arithmetic are the same; PMULL/PMULL2 multiply the low/high qwords.
 *
 * Parameters (all #undef'd at the end):
 *   SUFFIX      names the entry point fold_update_SUFFIX
 *   ATTRIBUTES  the target attribute enabling what the tier executes:
 *                 !USE_EOR3: target("+crypto")                  (PMULL)
 *                 USE_EOR3:  target("arch=armv8.2-a+crypto+sha3") (PMULL, EOR3)
 *   USE_EOR3    1 to xor the two products and the next lane in one EOR3
 *
 * A pass over n >= 16 bytes: eight accumulators while 128 bytes remain (the multiplier's
 * latency hidden behind independent chains), a tree 8 -> 4 -> 2 -> 1, one lane 16 bytes
 * at a time, the last 1..15 bytes merged with one overlapping load of the final 16 bytes
 * (no byte outside [p, p+n) is read), and the final reduction.  Under 16 bytes: the
 * byte-table loop.
 */
#include <arm_neon.h>

#include "../fold_consts.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define ALWAYS_INLINE inline __attribute__((always_inline))

static ATTRIBUTES ALWAYS_INLINE uint64x2_t load_pair(const struct fold_pair *k)
{
    return vld1q_u64(&k->low);
}

/* a.low*k.low and a.high*k.high, carry-less, as 128-bit values. */
static ATTRIBUTES ALWAYS_INLINE uint64x2_t clmul_low(uint64x2_t a, uint64x2_t k)
{
    return vreinterpretq_u64_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), 0),
                                            vgetq_lane_p64(vreinterpretq_p64_u64(k), 0)));
}

static ATTRIBUTES ALWAYS_INLINE uint64x2_t clmul_high(uint64x2_t a, uint64x2_t k)
{
    return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a),
                                                 vreinterpretq_p64_u64(k)));
}

/* The product of two qwords, carry-less. */
static ATTRIBUTES ALWAYS_INLINE uint64x2_t clmul(uint64_t a, uint64_t b)
{
    return vreinterpretq_u64_p128(vmull_p64(a, b));
}

/* a folded across the distance of k, onto b. */
static ATTRIBUTES ALWAYS_INLINE uint64x2_t fold(uint64x2_t a, uint64x2_t k, uint64x2_t b)
{
#if USE_EOR3
    return veor3q_u64(clmul_low(a, k), clmul_high(a, k), b);
#else
    return veorq_u64(veorq_u64(clmul_low(a, k), clmul_high(a, k)), b);
#endif
}

/* The lane of 16 message bytes: as loaded (reflected) or bytes reversed (MSB-first). */
static ATTRIBUTES ALWAYS_INLINE uint64x2_t load_lane(const uint8_t *p, uint8x16_t bswap,
                                                     const int msb)
{
    uint8x16_t d = vld1q_u8(p);
    return vreinterpretq_u64_u8(msb ? vqtbl1q_u8(d, bswap) : d);
}

/* Byte moves within a lane through TBL (an index of 16 or more gives 0, like pshufb's
 * 0x80); select takes b where the index has its top bit set, a elsewhere. */
static ATTRIBUTES ALWAYS_INLINE uint64x2_t move_bytes(uint64x2_t a, uint8x16_t idx)
{
    return vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(a), idx));
}

static ATTRIBUTES ALWAYS_INLINE uint64x2_t select_bytes(uint8x16_t idx, uint64x2_t b, uint64x2_t a)
{
    return vreinterpretq_u64_u8(vbslq_u8(vcltzq_s8(vreinterpretq_s8_u8(idx)),
                                         vreinterpretq_u8_u64(b), vreinterpretq_u8_u64(a)));
}

/*
 * Index vectors for TBL: the 16 bytes at shift_table + 16 + s move a lane's bytes down by
 * s (byte i takes byte i + s, zero past the end); those at shift_table + s move them up by
 * 16 - s (byte i takes byte i + s - 16, zero below, the top bit set where zero).
 */
static const uint8_t shift_table[48] __attribute__((aligned(16))) = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

/*
 * The message so far ends with lane x, followed by the last t bytes (1..15), which end at
 * `end`.  Re-cut it as (t bytes, folded forward 128 bits) and the final 16 bytes, using
 * one load of the 16 bytes before `end` (all inside the message).  Reflected lanes hold
 * message bytes in order; MSB-first lanes hold them reversed.
 */
static ATTRIBUTES ALWAYS_INLINE uint64x2_t fold_tail(uint64x2_t x, const uint8_t *end, size_t t,
                                                     uint64x2_t k128, uint8x16_t bswap,
                                                     const int msb)
{
    uint64x2_t last = load_lane(end - 16, bswap, msb);
    if (msb) {
        uint8x16_t up = vld1q_u8(shift_table + 16 - t), down = vld1q_u8(shift_table + 32 - t);
        uint64x2_t merged = select_bytes(up, last, move_bytes(x, up));
        return fold(move_bytes(x, down), k128, merged);
    }
    uint8x16_t up = vld1q_u8(shift_table + t), down = vld1q_u8(shift_table + 16 + t);
    uint64x2_t merged = select_bytes(up, move_bytes(x, down), last);
    return fold(move_bytes(x, up), k128, merged);
}

/* (A * x^64) mod G' for the last lane A, as the register (see ../fold_consts.h). */
static ATTRIBUTES ALWAYS_INLINE uint64_t final_reduction(uint64x2_t a, const struct fold_consts *c,
                                                         const int msb)
{
    const uint64_t a_low = vgetq_lane_u64(a, 0), a_high = vgetq_lane_u64(a, 1);
    if (msb) {
        /* B = A.high * reduce_128 ^ A.low * x^64; q = Bh ^ high64(Bh * barrett_quotient) */
        uint64x2_t b = veorq_u64(clmul(a_high, c->reduce_128), vcombine_u64(vdup_n_u64(0),
                                                                          vget_low_u64(a)));
        uint64_t bh = vgetq_lane_u64(b, 1);
        uint64_t q = bh ^ vgetq_lane_u64(clmul(bh, c->barrett_quotient), 1);
        uint64_t r = vgetq_lane_u64(b, 0) ^ vgetq_lane_u64(clmul(q, c->barrett_poly), 0);
        return r >> (64 - c->width);
    }
    /* B = A.low * reduce_128 ^ A.high (moved to the low qword) */
    uint64x2_t b = veorq_u64(clmul(a_low, c->reduce_128), vcombine_u64(vget_high_u64(a),
                                                                      vdup_n_u64(0)));
    uint64_t q = vgetq_lane_u64(clmul(vgetq_lane_u64(b, 0), c->barrett_quotient), 0);
    uint64_t r = vgetq_lane_u64(b, 1) ^ vgetq_lane_u64(clmul(q, c->barrett_poly), 1);
    return r ^ (q & c->barrett_poly_x0);
}

/* n >= 16.  msb is a constant at each call, so each bit order gets its own loop. */
static ATTRIBUTES ALWAYS_INLINE uint64_t fold_pass(const struct fold_consts *c, uint64_t reg,
                                                   const uint8_t *p, size_t n, const int msb)
{
    static const uint8_t reverse[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    const uint8x16_t bswap = vld1q_u8(reverse);
    const uint64x2_t reg128 = msb ? vcombine_u64(vdup_n_u64(0),
                                                 vdup_n_u64(reg << (64 - c->width)))
                                  : vcombine_u64(vdup_n_u64(reg), vdup_n_u64(0));
    uint64x2_t x;
    if (n >= 128) {
        uint64x2_t a0 = veorq_u64(load_lane(p, bswap, msb), reg128);
        uint64x2_t a1 = load_lane(p + 16, bswap, msb), a2 = load_lane(p + 32, bswap, msb),
                   a3 = load_lane(p + 48, bswap, msb), a4 = load_lane(p + 64, bswap, msb),
                   a5 = load_lane(p + 80, bswap, msb), a6 = load_lane(p + 96, bswap, msb),
                   a7 = load_lane(p + 112, bswap, msb);
        p += 128;
        n -= 128;
        const uint64x2_t k8 = load_pair(&c->fold_across_1024_bits);
        while (n >= 128) {
            a0 = fold(a0, k8, load_lane(p, bswap, msb));
            a1 = fold(a1, k8, load_lane(p + 16, bswap, msb));
            a2 = fold(a2, k8, load_lane(p + 32, bswap, msb));
            a3 = fold(a3, k8, load_lane(p + 48, bswap, msb));
            a4 = fold(a4, k8, load_lane(p + 64, bswap, msb));
            a5 = fold(a5, k8, load_lane(p + 80, bswap, msb));
            a6 = fold(a6, k8, load_lane(p + 96, bswap, msb));
            a7 = fold(a7, k8, load_lane(p + 112, bswap, msb));
            p += 128;
            n -= 128;
        }
        const uint64x2_t k4 = load_pair(&c->fold_across_512_bits);
        a4 = fold(a0, k4, a4);
        a5 = fold(a1, k4, a5);
        a6 = fold(a2, k4, a6);
        a7 = fold(a3, k4, a7);
        const uint64x2_t k2 = load_pair(&c->fold_across_256_bits);
        a6 = fold(a4, k2, a6);
        a7 = fold(a5, k2, a7);
        x = fold(a6, load_pair(&c->fold_across_128_bits), a7);
    } else {
        x = veorq_u64(load_lane(p, bswap, msb), reg128);
        p += 16;
        n -= 16;
    }
    const uint64x2_t k1 = load_pair(&c->fold_across_128_bits);
    for (; n >= 16; p += 16, n -= 16)
        x = fold(x, k1, load_lane(p, bswap, msb));
    if (n > 0)
        x = fold_tail(x, p + n, n, k1, bswap, msb);
    return final_reduction(x, c, msb);
}

/* The update function of the registry (internal.h's signature). */
static ATTRIBUTES uint64_t CAT(fold_update_, SUFFIX)(const crcforge_model *m, uint64_t reg,
                                                      const uint8_t *p, size_t n)
{
    if (n < 16)
        return crc_bytewise_update(m, reg, p, n);
    const struct fold_consts *c = fold_consts_peek(m);
    if (__builtin_expect(c == NULL, 0))
        c = fold_consts_build(m); /* first use of this model */
    if (c->lsb_first)
        return fold_pass(c, reg, p, n, 0);
    return fold_pass(c, reg, p, n, 1);
}

#undef CAT
#undef CAT_
#undef ALWAYS_INLINE
#undef SUFFIX
#undef ATTRIBUTES
#undef USE_EOR3
