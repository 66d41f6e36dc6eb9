/*
 * Folding and Barrett constants for carry-less-multiply CRC kernels (x86 PCLMULQDQ /
 * VPCLMULQDQ, ARM PMULL), computed at run time from any model of width 8..64, either bit
 * order.  Architecture-neutral: plain uint64_t; a kernel loads a `struct fold_pair` as one
 * 128-bit vector (low qword first) and broadcasts it to wider vectors.
 *
 * The trick that makes one kernel serve every width (Linux lib/crc does the same): a CRC
 * of width n with generator G is computed as a 64-bit CRC with G' = G * x^(64-n), a
 * degree-64 polynomial.  For any message M, (M * x^64) mod G' = x^(64-n) * ((M * x^n) mod G),
 * so the 64-bit register is the n-bit one shifted to the top (MSB-first), and in the
 * reflected domain the two registers are the same number.  Below, "mod G'" everywhere.
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
 */
#ifndef CRCFORGE_FOLD_CONSTS_H
#define CRCFORGE_FOLD_CONSTS_H

#include <stdint.h>

#include "internal.h"

/* Multipliers of a 128-bit lane's low and high qword (in that order in memory). */
struct fold_pair {
    uint64_t low;
    uint64_t high;
};

struct fold_consts {
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
     * The same first step for a whole vector ending the message, with no intermediate
     * fold: lane i of its last 64 bytes (i = 3 the final lane) is folded across
     * D = 64 + 128 * (3 - i) bits straight into B (fold pairs as above, D = 448, 320, 192,
     * 64), and B is the xor of the products.  A 256-bit vector uses entries 2 and 3, a
     * 512-bit one all four, each as one load.
     */
    struct fold_pair reduce_lanes[4];
    /*
     * Barrett reduction of B to 64 bits: quotient q = floor(Bh * x^64 / G'), remainder
     * Bl ^ low64(q * (G' - x^64)).
     *   MSB-first: barrett_quotient = floor(x^128 / G') - x^64  (the x^64 term is implicit:
     *                q = Bh ^ high64(clmul(Bh, barrett_quotient)));
     *              barrett_poly = G' - x^64 = poly << (64 - width);
     *              register = Bl ^ low64(clmul(q, barrett_poly)).
     *   reflected: barrett_quotient = reflect64(floor(x^127 / G'))
     *                (reflect64(q) = low64(clmul(reflect64(Bh), barrett_quotient)));
     *              barrett_poly = reflect64((G' - G'(0)) / x), i.e. bit b = coefficient
     *                64 - b of G';  barrett_poly_x0 = all ones when G' has the term x^0
     *                (width 64, odd poly), else 0;
     *              register = reflect64(Bl) ^ high64(clmul(reflect64(q), barrett_poly))
     *                         ^ (reflect64(q) & barrett_poly_x0).
     */
    uint64_t barrett_quotient;
    uint64_t barrett_poly;
    uint64_t barrett_poly_x0;
    unsigned width;
    int lsb_first; /* refin: the reflected domain */
};

/*
 * Arithmetic modulo G' = x^64 + low (low = G' - x^64, MSB-first), also used by combine.c
 * (its Barrett constants) and crc16_short.c (its folding constants).
 */
/* G' - x^64 for a model's generator G: poly * x^(64 - width), any width 1..64. */
static inline uint64_t fold_lifted_poly(const crcforge_params *p)
{
    return p->poly << (64 - p->width);
}
/* x^k mod G'. */
uint64_t fold_xpow_mod(unsigned k, uint64_t low);
/* floor(x^k / G') for 64 <= k <= 128, without its x^64 term when k = 128 (it has degree
 * k - 64). */
uint64_t fold_xpow_div(unsigned k, uint64_t low);

/* Does the folding engine serve this model (width 8..64)? */
int fold_supported(const crcforge_model *m);

/* The model's constants if built, else NULL (an acquire load: no lock on the hot path).
 * fold_supported(m) must hold. */
static inline const struct fold_consts *fold_consts_peek(const crcforge_model *m)
{
    return atomic_load_explicit(&((crcforge_model *)m)->fold, memory_order_acquire);
}

/* Builds the constants on first use and publishes them with a compare-and-swap (a racing
 * builder's copy is discarded); returns the published ones.  Kernels call it out of line
 * when fold_consts_peek gives NULL, so that their hot path makes no call. */
const struct fold_consts *fold_consts_build(const crcforge_model *m);

/* Computes the constants into *c (the tests' hook; fold_consts_build caches this). */
void fold_consts_compute(struct fold_consts *c, const crcforge_params *p);

void fold_consts_release(crcforge_model *m);

#endif /* CRCFORGE_FOLD_CONSTS_H */
