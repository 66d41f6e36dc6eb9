/*
 * Folding and Barrett constants from a model's polynomial (derivations in fold_consts.h).
 * Polynomials over GF(2) are held MSB-first in integers; G' = G * x^(64 - width) has degree
 * 64, and every residue mod G' fits in 64 bits.  scripts/fold_consts.py derives the same
 * numbers independently; tests/library/test_fold_consts.py compares the two.
 */
#include <stdlib.h>

#include "fold_consts.h"

int fold_supported(const crcforge_model *m)
{
    return m->p.width >= 8 && m->p.width <= 64;
}

uint64_t fold_xpow_mod(unsigned k, uint64_t low)
{
    if (k < 64)
        return (uint64_t)1 << k;
    uint64_t r = low; /* x^64 mod G' */
    for (unsigned i = 64; i < k; i++)
        r = (r << 1) ^ ((r >> 63) ? low : 0);
    return r;
}

/* Dividing x^(j+1) = x * (q*G' + r): the quotient gains the top bit of r. */
uint64_t fold_xpow_div(unsigned k, uint64_t low)
{
    uint64_t q = 1, r = low; /* x^64 = 1 * G' + low */
    for (unsigned j = 64; j < k; j++) {
        uint64_t top = r >> 63;
        q = (q << 1) | top;
        r = (r << 1) ^ (top ? low : 0);
    }
    return q;
}

static struct fold_pair fold_pair_for(unsigned d, uint64_t low, int lsb_first)
{
    struct fold_pair f;
    if (lsb_first) {
        f.low = crc_reflect(fold_xpow_mod(d + 63, low), 64);
        f.high = crc_reflect(fold_xpow_mod(d - 1, low), 64);
    } else {
        f.low = fold_xpow_mod(d, low);
        f.high = fold_xpow_mod(d + 64, low);
    }
    return f;
}

void fold_consts_compute(struct fold_consts *c, const crcforge_params *p)
{
    const uint64_t low = fold_lifted_poly(p); /* G' - x^64 */
    const int lsb = p->refin != 0;
    c->width = p->width;
    c->lsb_first = lsb;
    c->fold_across_128_bits = fold_pair_for(128, low, lsb);
    c->fold_across_256_bits = fold_pair_for(256, low, lsb);
    c->fold_across_512_bits = fold_pair_for(512, low, lsb);
    c->fold_across_1024_bits = fold_pair_for(1024, low, lsb);
    c->fold_across_2048_bits = fold_pair_for(2048, low, lsb);
    c->fold_across_4096_bits = fold_pair_for(4096, low, lsb);
    for (unsigned i = 0; i < 4; i++)
        c->reduce_lanes[i] = fold_pair_for(64 + 128 * (3 - i), low, lsb);
    if (lsb) {
        c->reduce_128 = crc_reflect(fold_xpow_mod(127, low), 64);
        c->barrett_quotient = crc_reflect(fold_xpow_div(127, low), 64);
        /* Coefficients 64..1 of G' at bits 0..63: bit b is coefficient 64 - b. */
        c->barrett_poly = crc_reflect((low >> 1) | (uint64_t)1 << 63, 64);
        c->barrett_poly_x0 = (low & 1) ? ~(uint64_t)0 : 0;
    } else {
        c->reduce_128 = fold_xpow_mod(128, low);
        c->barrett_quotient = fold_xpow_div(128, low);
        c->barrett_poly = low;
        c->barrett_poly_x0 = 0;
    }
}

const struct fold_consts *fold_consts_build(const crcforge_model *m)
{
    crcforge_model *mm = (crcforge_model *)m;
    struct fold_consts *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        abort(); /* a few hundred bytes once per model: nothing sensible to return instead */
    fold_consts_compute(fresh, &m->p);
    return CRC_PUBLISH_ONCE(&mm->fold, fresh);
}

void fold_consts_release(crcforge_model *m)
{
    free(atomic_exchange(&m->fold, NULL));
}
