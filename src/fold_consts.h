/* SPDX-License-Identifier: MIT */
/*
 * The one layout of derived constants: everything a kernel multiplies by, computed at run
 * time from a model's polynomial (with gf2.h's arithmetic) into one struct per model,
 * built on first use (crc_once): the folding kernels of every ISA (x86/fold_template.h,
 * arm/fold_template.h), the short CRC-16 kernels (crc16_short.h) and combine (combine.c)
 * all read it; the kernels on the crc32 instruction have tables of their own below: the
 * joins of its streams (struct crc32_join) and, for CRC-32C's vector paths, lane
 * multipliers onto the last lane (struct crc32_lanes).
 * Architecture-neutral: plain uint64_t; a kernel loads a `struct fold_pair` as one
 * 128-bit vector (low qword first) and broadcasts it to wider vectors.
 *
 * The trick that makes one kernel serve every width (Linux lib/crc does the same): a CRC
 * of width n with generator G is computed as a 64-bit CRC with G' = G * x^(64-n), a
 * degree-64 polynomial.  For any message M, (M * x^64) mod G' = x^(64-n) * ((M * x^n) mod G),
 * so the 64-bit register is the n-bit one shifted to the top (MSB-first), and in the
 * reflected domain the two registers are the same number.  Below, "mod G'" everywhere.
 * scripts/fold_consts.py derives every field independently from these definitions;
 * tests/library/test_fold_consts.py compares the two.
 *
 * What a kernel needs to know:
 *  - Data vectors.  Each 128-bit lane holds 16 message bytes.  Reflected models (lsb_first):
 *    loaded as is; the lane is the bit-reflection of the 128-bit polynomial A = hi*x^64 + lo,
 *    the low qword holding reflect64(hi).  MSB-first models: bytes reversed in the lane
 *    (pshufb / rev64+ext), so the lane is A itself, the high qword holding hi.
 *  - Folding A forward over D bits (onto the lane D bits later in the message):
 *        A * x^D  ==  clmul(lane.low, fold.low) ^ clmul(lane.high, fold.high)   (mod G')
 *    with the same instruction sequence for both bit orders; the 128-bit product is xored
 *    into the later lane.  (A carry-less product of two reflected 64-bit operands is the
 *    reflection of the product times x, so the reflected constants use x^(D-1).)
 *  - Start: the register (in the model's bit order, right-aligned as in internal.h) is xored
 *    into the first 8 message bytes: reflected, into the low qword of the first lane as
 *    loaded; MSB-first, `reg << (64 - width)` into the high qword of the byte-reversed lane.
 *  - End: the last 128-bit lane A gives the register (A * x^64) mod G' in three multiplies,
 *    see reduce_128 and barrett_* below and the kernels' final_reduction().  MSB-first: the
 *    result is shifted right by 64 - width.  Reflected: it is the register as is.
 *  - Or every lane straight to the end: the lane with i lanes after it times its
 *    reduce_lanes pair (D = 128 i + 64) lands in the 128-bit value B that Barrett reduces,
 *    so that all the lanes of a message (up to FOLD_REDUCE_LANES of them) are multiplied
 *    independently and their products xored.
 */
#ifndef CRCFORGE_FOLD_CONSTS_H
#define CRCFORGE_FOLD_CONSTS_H

#include <stdint.h>

#include "internal.h"

/* Lanes a message can have for reduce_lanes: 4 KiB. */
#define FOLD_REDUCE_LANES 256

/* Multipliers of a 128-bit lane's low and high qword (in that order in memory). */
struct fold_pair {
    uint64_t low;
    uint64_t high;
};

struct fold_consts {
    /*
     * The first step of the end (see reduce_128 below) for every lane of a message at
     * once, with no intermediate fold: the lane with i lanes after it is folded across
     * D = 128 i + 64 bits straight into B (fold pairs as for fold_across_* below), and B
     * is the xor of the products.  Entry FOLD_REDUCE_LANES - 1 - i holds the pair of
     * D = 128 i + 64, so that the pairs of a vector's lanes lie in memory in the order of
     * its lanes: a vector with j vectors of L lanes after it takes its L pairs in one load
     * from entry FOLD_REDUCE_LANES - L(j+1).  MSB-first, the last four entries, read from
     * the last, hold x^64, x^128, ..., x^512 mod G' in order: the short CRC-16 kernels'
     * word multipliers.  First in the struct and cache-line aligned (crc_once allocates
     * so): a vector's pairs never straddle two lines.
     */
    _Alignas(64) struct fold_pair reduce_lanes[FOLD_REDUCE_LANES];
    /*
     * Folds across D bits, D = 128 << k.
     *   MSB-first: low = x^D mod G',              high = x^(D+64) mod G'
     *   reflected: low = reflect64(x^(D+63) mod G'), high = reflect64(x^(D-1) mod G')
     */
    struct fold_pair fold_across_128_bits;
    struct fold_pair fold_across_256_bits;
    struct fold_pair fold_across_512_bits;
    struct fold_pair fold_across_1024_bits;
    struct fold_pair fold_across_2048_bits;
    struct fold_pair fold_across_4096_bits;
    /*
     * First step of the end: A * x^64 = A.hi * x^128 + A.lo * x^64 == B (mod G'), with
     * B = A.hi * (x^128 mod G') + A.lo * x^64, a 128-bit polynomial:
     *   MSB-first: B = clmul(A.high, reduce_128) ^ (A.low << 64),  reduce_128 = x^128 mod G'
     *   reflected: B = clmul(A.low, reduce_128) ^ (A.high >> 64),
     *              reduce_128 = reflect64(x^127 mod G')
     * Then (A * x^64) mod G' = B mod G'.  Write B = Bh*x^64 + Bl (MSB-first: Bh = B.high;
     * reflected: B.low holds reflect64(Bh), B.high reflect64(Bl)).
     */
    uint64_t reduce_128;
    /*
     * Barrett reduction of B to 64 bits: quotient q = floor(Bh * x^64 / G'), remainder
     * Bl ^ low64(q * (G' - x^64)).
     *   MSB-first: barrett_quotient = floor(x^128 / G') - x^64  (the x^64 term is implicit:
     *                q = Bh ^ high64(clmul(Bh, barrett_quotient)));
     *              barrett_poly = G' - x^64 = poly << (64 - width);
     *              register = Bl ^ low64(clmul(q, barrett_poly)).
     *   reflected: barrett_quotient = reflect64(floor(x^127 / G'))
     *                (reflect64(q) = low64(clmul(reflect64(Bh), barrett_quotient)));
     *                floor(x^127 / G') is floor(x^128 / G') / x, rounded down;
     *              barrett_poly = reflect64((G' - G'(0)) / x), i.e. bit b = coefficient
     *                64 - b of G';  barrett_poly_x0 = all ones when G' has the term x^0
     *                (width 64, odd poly), else 0;
     *              register = reflect64(Bl) ^ high64(clmul(reflect64(q), barrett_poly))
     *                         ^ (reflect64(q) & barrett_poly_x0).
     * barrett_quotient and barrett_poly are adjacent: one 128-bit load takes both.
     */
    uint64_t barrett_quotient;
    uint64_t barrett_poly;
    uint64_t barrett_poly_x0;
    unsigned width;
    int lsb_first; /* refin: the reflected domain */
    /*
     * combine.c multiplies MSB-first whatever the bit order: x8_pow2k[k] = x^(8*2^k) mod P
     * (not lifted), and the MSB-first Barrett pair of G' (for an MSB-first model equal to
     * barrett_quotient and barrett_poly).
     */
    uint64_t x8_pow2k[64];
    uint64_t msb_barrett_quotient;
    uint64_t msb_barrett_poly;
};

/* Does the folding engine serve this model (width 8..64)?  (The constants themselves are
 * defined for every width 1..64: combine uses them for all.) */
int fold_supported(const crcforge_model *m);
/* ... and is MSB-first (refin 0): what the kernels on an MSB-first model's mirror serve. */
int fold_msb_first_supported(const crcforge_model *m);

/* The model's constants if built, else NULL (an acquire load: no lock on the hot path). */
static inline const struct fold_consts *fold_consts_peek(const crcforge_model *m)
{
    return crc_once_peek(&m->consts);
}

/* Builds the constants on first use (crc_once) and returns the published ones.  Kernels
 * call it out of line when fold_consts_peek gives NULL, so that their hot path makes no
 * call. */
const struct fold_consts *fold_consts_build(const crcforge_model *m);

/*
 * An MSB-first model's constants are followed by those of its mirror, the reflected
 * model of the same polynomial (refin 1), built with them: a kernel that reverses the
 * bits of every byte of an MSB-first message folds it as the mirror's message
 * (x86/fold_template.h, GFNI_BITREV).  Only for a model with lsb_first 0.
 */
static inline const struct fold_consts *fold_consts_mirror(const struct fold_consts *c)
{
    return c + 1;
}

/* Computes the constants into *c (the tests' hook; fold_consts_build publishes this). */
void fold_consts_compute(struct fold_consts *c, const crcforge_params *p);

/*
 * Joining streams of the crc32 instruction (x86 SSE4.2, ARMv8 CRC32) for a reflected
 * 32-bit model: a pass over k+1 streams of L bytes runs them as independent chains, then
 * shifts each CRC past the streams after it and xors.  For a 32-bit reflected register a
 * (polynomial A) and a reflected 32-bit constant K, a carry-less multiply yields a 64-bit
 * word whose polynomial, read as crc32 input data, is A*K*x; the crc32 instruction on it
 * from 0 computes D * x^32 mod P; so K = x^(8kL-33) mod P shifts a by k streams.
 */
#define CRC32_JOIN_MAX 4096 /* longest stream, bytes */
struct crc32_join {
    /* join[L/8 - 1]: K for k = 1, 2, 3, reflected, for streams of L = 8, 16, ... bytes. */
    struct {
        uint32_t by_l, by_2l, by_3l;
    } join[CRC32_JOIN_MAX / 8];
};

/* The join table of a reflected 32-bit model (its polynomial's), built on first use
 * (crc32_join_build, out of line: the kernels' hot path makes no call). */
const struct crc32_join *crc32_join_build(const crcforge_model *m);
static inline const struct crc32_join *crc32_join_of(const crcforge_model *m)
{
    const struct crc32_join *j = crc_once_peek(&m->join);
    return j != NULL ? j : crc32_join_build(m);
}
void crc32_join_compute(struct crc32_join *j, const crcforge_params *p);

/*
 * Every 16-byte lane of a message multiplied straight onto its last lane, for the CRC-32C
 * kernels that end on the crc32 instruction (x86/crc32c_vpclmul_template.h): the products
 * are independent, their xor is one lane T congruent to the message modulo P, and the
 * crc32 instruction on T's two qwords from 0 gives the message's CRC from 0 (it reduces
 * modulo P, so these constants need no lift to G').  For a lane d lanes before the last
 * (D = 128 d bits), as in struct fold_consts' folding, reflected:
 *     low = reflect64(x^(D+63) mod P),  high = reflect64(x^(D-1) mod P)
 *     clmul(lane.low, low) ^ clmul(lane.high, high) == A * x^D   (mod P)
 * with x^-1 mod P = (P - 1) / x for the last lane itself (P has the term 1), so that it
 * takes the same two multiplies as the others.  lane[CRC32_LANES_MAX - 1 - d] holds the
 * pair for d: the lanes of a message of N lanes take lane[CRC32_LANES_MAX - N ...] in
 * order, one vector load per vector of lanes; a fold across d lanes broadcasts one pair.
 */
#define CRC32_LANES_MAX 256 /* lanes: a message of up to 4 KiB */
struct crc32_lanes {
    struct fold_pair lane[CRC32_LANES_MAX];
    /* shift[N - 1] = reflect32(x^(128N - 33) mod P): a CRC shifted past N lanes, as
     * struct crc32_join shifts one (crc32q(0, clmul(crc, K)) = crc * K * x^33 mod P). */
    uint32_t shift[CRC32_LANES_MAX];
};

/* CRC-32C's lane table, in static storage (64-byte aligned, so that no vector load of it
 * straddles two cache lines) and filled on first use: the kernels address it as a constant,
 * with no load of a pointer before their loads of it.  crc32c_lanes_state is 2 once it
 * is filled (1 while the first user fills it). */
extern CRC_HIDDEN struct crc32_lanes crc32c_lanes_table;
extern CRC_HIDDEN atomic_int crc32c_lanes_state;
/* Fills the table on first use (other callers meanwhile wait, once, microseconds) and
 * returns it; out of line, so that the kernels' hot path makes no call. */
const struct crc32_lanes *crc32c_lanes_build(void);
/* The same, for a path record's prepare (internal.h). */
void crc32c_lanes_prepare(void);
static inline int crc32c_lanes_ready(void)
{
    return atomic_load_explicit(&crc32c_lanes_state, memory_order_acquire) == 2;
}
/* The table, or NULL before its first use (then call crc32c_lanes_build). */
static inline const struct crc32_lanes *crc32c_lanes_peek(void)
{
    return crc32c_lanes_ready() ? &crc32c_lanes_table : NULL;
}
/* The table of a reflected 32-bit model with an odd polynomial (the tests' hook). */
void crc32_lanes_compute(struct crc32_lanes *l, const crcforge_params *p);

/*
 * Byte-shuffle controls (pshufb on x86, tbl on ARM: an index of 0x80 writes a zero byte).
 * crc_shift_table: 32 bytes 0x80, the indices 0..15, 16 bytes 0x80.  Its 16 bytes at
 * +16+o (o in -16..32, CRC_SHIFT_MASK(o)) make byte i of a lane take byte i + o - 16,
 * zero outside 0..15: o <= 16 moves the bytes up by 16 - o, o >= 16 down by o - 16.
 * crc_reverse_window: the 16 bytes at +16-k keep the first k bytes of a 16-byte load,
 * reversed (the first byte most significant) and right-aligned, and zero the rest.
 */
extern const uint8_t crc_shift_table[64];
#define CRC_SHIFT_MASK(o) (crc_shift_table + 16 + (o))
/* crc_byte_index_window: the byte indices 0..63 twice: its 64 bytes at +h (h in 0..64),
 * as vpermb's indices (their low 6 bits), make byte i of a 64-byte vector take byte
 * (i + h) mod 64. */
extern const uint8_t crc_byte_index_window[128];
extern const uint8_t crc_reverse_window[32];

#endif /* CRCFORGE_FOLD_CONSTS_H */
