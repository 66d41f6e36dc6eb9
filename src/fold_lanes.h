/* SPDX-License-Identifier: MIT */
/*
 * The 128-bit lane steps of the folding kernels, written once for every ISA over the
 * vector operations of x86/vec128.h or arm/vec128.h (included first, with ATTRIBUTES, the
 * template's target attribute, defined): the constants are those of fold_consts.h, whose
 * header gives the mathematics.  Included by x86/fold_template.h and arm/fold_template.h,
 * whose bodies fold whole vectors; these steps take what is not whole vectors:
 *   short_pass   1..15 bytes, with no lane load (none may leave the buffer);
 *   head_pass    the partial block at the start of a longer message, then whole lanes;
 *   lanes_pass   16 <= n < LANES_MAX: the head, the last lane, the reduction;
 *   two_lanes_pass  the same for 16 <= n <= 32, with no loop (where LANES_MAX is 33 or less);
 *   barrett, final_reduction   the end, from a 128-bit value or the last lane.
 */
#include <string.h>

#include "fold_consts.h"

/*
 * B mod G' for a 128-bit B = Bh*x^64 + Bl in the lane convention (MSB-first: the high qword
 * is Bh; reflected: the low qword is reflect64(Bh)), as the register: Barrett reduction
 * with the constants of fold_consts.h.  MSB-first: shifted back down to the model's width.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t barrett(vec_t b, const struct fold_consts *c,
                                                 const int msb)
{
    /* barrett_quotient (low qword) and barrett_poly (high): one load */
    const vec_t k = V_LOAD(&c->barrett_quotient);
    if (msb) {
        /* high qword: q = Bh ^ high64(Bh * barrett_quotient) */
        vec_t q = V_XOR(V_CLMUL(b, 1, k, 0), b);
        vec_t r = V_XOR(V_CLMUL(q, 1, k, 1), b);
        return V_LOW64(r) >> (64 - c->width);
    }
    vec_t q = V_CLMUL(b, 0, k, 0); /* low qword: reflect64(q) */
    vec_t r = V_XOR(V_CLMUL(q, 0, k, 1), b);
    return V_HIGH64(r) ^ (V_LOW64(q) & c->barrett_poly_x0);
}

/* (A * x^64) mod G' for the last lane A, as the register: A * x^64 == B (mod G') with
 * B = A.hi * (x^128 mod G') + A.lo * x^64, then Barrett. */
static ATTRIBUTES ALWAYS_INLINE uint64_t final_reduction(vec_t a, const struct fold_consts *c,
                                                         const int msb)
{
    const vec_t k = V_PAIR(c->reduce_128, 0);
    if (msb)
        return barrett(V_XOR(V_CLMUL(a, 1, k, 0), V_LOW_UP(a)), c, 1);
    return barrett(V_XOR(V_CLMUL(a, 0, k, 0), V_HIGH_DOWN(a)), c, 0);
}

static ATTRIBUTES ALWAYS_INLINE vec_t lane_of(unsigned __int128 v)
{
    return V_PAIR((uint64_t)v, (uint64_t)(v >> 64));
}

/* The n (1..8) bytes at p as a little-endian number, reading only those bytes. */
static inline uint64_t load_le_upto8(const uint8_t *p, size_t n)
{
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4); /* overlaps a: the shared bytes are equal */
        return a | (uint64_t)b << (8 * (n - 4));
    }
    return p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) | (uint64_t)p[n - 1] << (8 * (n - 1));
}

/*
 * 1..15 bytes without any lane load (that would read outside the buffer): the bytes and
 * the register are assembled in general registers into one 128-bit polynomial and reduced
 * with two or three multiplies, whatever the length (measured against the byte table on
 * x86: see fold_record.h).
 * The register after M (n bytes) from r is (r * x^(8n) + M * x^64) mod G'.
 *  n <= 8: W = r * x^(8n) + M * x^64 has under 128 bits: Barrett on W directly.
 *  n > 8:  X = M + r * x^(8n-64) (r meets the first 8 bytes): (X * x^64) mod G'.
 * In the reflected domain the little-endian number L of the bytes is reflect(M), and a
 * shift towards the high end of the lane stands for a division by a power of x.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t short_pass(const struct fold_consts *c, uint64_t reg,
                                                    const uint8_t *p, size_t n, const int msb)
{
    const unsigned bits = 8 * (unsigned)n;
    if (n <= 8) {
        uint64_t l = load_le_upto8(p, n);
        if (!msb)
            return barrett(lane_of((unsigned __int128)(reg ^ l) << (64 - bits)), c, 0);
        uint64_t r = reg << (64 - c->width);
        uint64_t m = CRC_BSWAP64(l) >> (64 - bits);
        return barrett(lane_of((unsigned __int128)r << bits ^ (unsigned __int128)m << 64), c, 1);
    }
    uint64_t lo, hi;
    memcpy(&lo, p, 8);
    memcpy(&hi, p + n - 8, 8); /* bytes n-8..n-1; its top n-8 bytes are bytes 8..n-1 */
    unsigned __int128 l = (unsigned __int128)(hi >> (128 - bits)) << 64 | lo;
    if (!msb)
        return final_reduction(lane_of((l ^ reg) << (128 - bits)), c, 0);
    unsigned __int128 x = ((unsigned __int128)CRC_BSWAP64(lo) << 64 |
                           CRC_BSWAP64((uint64_t)(l >> 64))) >> (128 - bits);
    x ^= (unsigned __int128)(reg << (64 - c->width)) << (bits - 64);
    return final_reduction(lane_of(x), c, 1);
}

/* The control making byte i of a lane take byte i + o - 16, zero outside the lane
 * (CRC_SHIFT_MASK, fold_consts.h): o in -16..32. */
static ATTRIBUTES ALWAYS_INLINE vec_t shift_mask(ptrdiff_t o)
{
    return V_LOAD(CRC_SHIFT_MASK(o));
}

/* The lane of 16 message bytes: as loaded (reflected) or bytes reversed (MSB-first). */
static ATTRIBUTES ALWAYS_INLINE vec_t load_lane(const uint8_t *q, const int msb)
{
    vec_t d = V_LOAD(q);
    return msb ? V_SHUFFLE(d, V_BSWAP_MASK()) : d;
}

/* a folded across 128 bits: the value to xor into the next lane. */
static ATTRIBUTES ALWAYS_INLINE vec_t fold_forward(vec_t a, const struct fold_consts *c)
{
    const vec_t k = V_LOAD(&c->fold_across_128_bits);
    return V_XOR(V_CLMUL(a, 0, k, 0), V_CLMUL(a, 1, k, 1));
}

/*
 * The head of a message of n >= 16 bytes: its first `head` bytes (n - head a multiple of
 * 16), with the register.  Returns the "carry": a lane value to xor into the lane that
 * starts at p + head, standing for everything before it, so that what follows is whole
 * lanes.  Without a head the carry is just the register in its lane position.
 *
 * The first t = head % 16 bytes (if any) become a virtual lane Z ending where the next
 * lane starts: t message bytes after 16 - t zero bytes, the register xored over the
 * first 8 message bytes, the register bytes beyond t going to the next lane instead.  The
 * loads stay inside [p, p + n): a lane at p, then lanes at p + t onwards.
 * Reflected lanes hold message bytes in order; MSB-first lanes hold them reversed, so the
 * shifts go the other way.
 */
static ATTRIBUTES ALWAYS_INLINE vec_t head_pass(const struct fold_consts *c, uint64_t reg,
                                                const uint8_t *p, size_t head, const int msb)
{
    const vec_t reg128 = msb ? V_PAIR(0, reg << (64 - c->width)) : V_PAIR(reg, 0);
    const size_t t = head % 16;
    vec_t carry = reg128;
    if (t != 0) {
        vec_t x = V_XOR(load_lane(p, msb), reg128);
        vec_t z = V_SHUFFLE(x, shift_mask(msb ? 32 - t : t));
        vec_t rest = V_SHUFFLE(reg128, shift_mask(msb ? 16 - t : 16 + t));
        carry = V_XOR(fold_forward(z, c), rest);
    }
    for (const uint8_t *q = p + t; q < p + head; q += 16)
        carry = fold_forward(V_XOR(load_lane(q, msb), carry), c);
    return carry;
}

/* 16 <= n <= 32: the first n - 16 bytes (1 to 16) as head_pass takes them, then the last
 * lane; 16 bytes, the one lane. */
static ATTRIBUTES ALWAYS_INLINE uint64_t two_lanes_pass(const struct fold_consts *c,
                                                        uint64_t reg, const uint8_t *p,
                                                        size_t n, const int msb)
{
    const vec_t reg128 = msb ? V_PAIR(0, reg << (64 - c->width)) : V_PAIR(reg, 0);
    const size_t t = n - 16;
    const vec_t x = V_XOR(load_lane(p, msb), reg128);
    if (t == 0)
        return final_reduction(x, c, msb);
    const vec_t z = V_SHUFFLE(x, shift_mask(msb ? 32 - t : t));
    const vec_t rest = V_SHUFFLE(reg128, shift_mask(msb ? 16 - t : 16 + t));
    const vec_t carry = V_XOR(fold_forward(z, c), rest);
    return final_reduction(V_XOR(load_lane(p + t, msb), carry), c, msb);
}

/* 16 <= n < LANES_MAX: the head, then the last lane reduced. */
static ATTRIBUTES ALWAYS_INLINE uint64_t lanes_pass(const struct fold_consts *c, uint64_t reg,
                                                    const uint8_t *p, size_t n, const int msb)
{
    vec_t carry = head_pass(c, reg, p, n - 16, msb);
    return final_reduction(V_XOR(load_lane(p + n - 16, msb), carry), c, msb);
}
