/* SPDX-License-Identifier: MIT */
/*
 * The derived constants of fold_consts.h from a model's polynomial, with gf2.h's
 * arithmetic.  scripts/fold_consts.py derives the same numbers independently;
 * tests/library/test_fold_consts.py compares the two.
 */
#include "fold_consts.h"

int fold_supported(const crcforge_model *m)
{
    return m->p.width >= 8 && m->p.width <= 64;
}

int fold_msb_first_supported(const crcforge_model *m)
{
    return fold_supported(m) && !m->p.refin;
}

static struct fold_pair fold_pair_for(unsigned d, const crcforge_params *p)
{
    struct fold_pair f;
    if (p->refin) {
        f.low = crc_reflect(gf2_xpow_mod_lifted(d + 63, p), 64);
        f.high = crc_reflect(gf2_xpow_mod_lifted(d - 1, p), 64);
    } else {
        f.low = gf2_xpow_mod_lifted(d, p);
        f.high = gf2_xpow_mod_lifted(d + 64, p);
    }
    return f;
}

void fold_consts_compute(struct fold_consts *c, const crcforge_params *p)
{
    const uint64_t low = gf2_lifted_poly(p); /* G' - x^64 */
    const uint64_t quotient = gf2_barrett_quotient(p);
    const int lsb = p->refin != 0;
    c->width = p->width;
    c->lsb_first = lsb;
    c->fold_across_128_bits = fold_pair_for(128, p);
    c->fold_across_256_bits = fold_pair_for(256, p);
    c->fold_across_512_bits = fold_pair_for(512, p);
    c->fold_across_1024_bits = fold_pair_for(1024, p);
    c->fold_across_2048_bits = fold_pair_for(2048, p);
    c->fold_across_4096_bits = fold_pair_for(4096, p);
    for (unsigned i = 0; i < FOLD_REDUCE_LANES; i++)
        c->reduce_lanes[FOLD_REDUCE_LANES - 1 - i] = fold_pair_for(128 * i + 64, p);
    if (lsb) {
        c->reduce_128 = crc_reflect(gf2_xpow_mod_lifted(127, p), 64);
        /* floor(x^127 / G') = floor(x^128 / G') / x: the x^64 term becomes bit 63. */
        c->barrett_quotient = crc_reflect((uint64_t)1 << 63 | quotient >> 1, 64);
        /* Coefficients 64..1 of G' at bits 0..63: bit b is coefficient 64 - b. */
        c->barrett_poly = crc_reflect((low >> 1) | (uint64_t)1 << 63, 64);
        c->barrett_poly_x0 = (low & 1) ? ~(uint64_t)0 : 0;
    } else {
        c->reduce_128 = gf2_xpow_mod_lifted(128, p);
        c->barrett_quotient = quotient;
        c->barrett_poly = low;
        c->barrett_poly_x0 = 0;
    }
    c->x8_pow2k[0] = crc_xpow_mod(8, p);
    for (int k = 1; k < 64; k++)
        c->x8_pow2k[k] = crc_mulmod(c->x8_pow2k[k - 1], c->x8_pow2k[k - 1], p);
    c->msb_barrett_quotient = quotient;
    c->msb_barrett_poly = low;
}

/* The model's constants, and an MSB-first model's mirror after them (fold_consts_mirror). */
static void fill_fold_consts(void *obj, const void *model)
{
    struct fold_consts *c = obj;
    const crcforge_params *p = &((const crcforge_model *)model)->p;
    fold_consts_compute(c, p);
    if (!p->refin) {
        crcforge_params mirror = *p;
        mirror.refin = mirror.refout = 1;
        fold_consts_compute(c + 1, &mirror);
    }
}

const struct fold_consts *fold_consts_build(const crcforge_model *m)
{
    return crc_once((crc_once_slot *)&m->consts,
                    (m->p.refin ? 1 : 2) * sizeof(struct fold_consts), fill_fold_consts, m);
}

void crc32_join_compute(struct crc32_join *j, const crcforge_params *p)
{
    uint64_t by_l = crc_xpow_mod(8 * 8 - 33, p), by_2l = crc_xpow_mod(16 * 8 - 33, p),
             by_3l = crc_xpow_mod(24 * 8 - 33, p);
    const uint64_t x64 = crc_xpow_mod(64, p), x128 = crc_xpow_mod(128, p),
                   x192 = crc_xpow_mod(192, p);
    for (size_t i = 0; i < CRC32_JOIN_MAX / 8; i++) { /* L = 8 * (i + 1) */
        j->join[i].by_l = (uint32_t)crc_reflect(by_l, 32);
        j->join[i].by_2l = (uint32_t)crc_reflect(by_2l, 32);
        j->join[i].by_3l = (uint32_t)crc_reflect(by_3l, 32);
        by_l = crc_mulmod(by_l, x64, p);
        by_2l = crc_mulmod(by_2l, x128, p);
        by_3l = crc_mulmod(by_3l, x192, p);
    }
}

static void fill_join(void *j, const void *m)
{
    crc32_join_compute(j, &((const crcforge_model *)m)->p);
}

const struct crc32_join *crc32_join_build(const crcforge_model *m)
{
    return crc_once((crc_once_slot *)&m->join, sizeof(struct crc32_join), fill_join, m);
}

void crc32_lanes_compute(struct crc32_lanes *l, const crcforge_params *p)
{
    /* x^-1 mod P = (P - 1) / x: x^(width-1) + poly / x. */
    const uint64_t x_inverse = (uint64_t)1 << (p->width - 1) | p->poly >> 1;
    const uint64_t x128 = crc_xpow_mod(128, p);
    uint64_t low = crc_xpow_mod(63, p), high = x_inverse; /* d = 0 */
    uint64_t shift = crc_xpow_mod(128 - 33, p);
    for (size_t d = 0; d < CRC32_LANES_MAX; d++) {
        l->lane[CRC32_LANES_MAX - 1 - d].low = crc_reflect(low, 64);
        l->lane[CRC32_LANES_MAX - 1 - d].high = crc_reflect(high, 64);
        l->shift[d] = (uint32_t)crc_reflect(shift, 32);
        low = crc_mulmod(low, x128, p);
        high = crc_mulmod(high, x128, p);
        shift = crc_mulmod(shift, x128, p);
    }
}

_Alignas(64) struct crc32_lanes crc32c_lanes_table;
atomic_int crc32c_lanes_state;

const struct crc32_lanes *crc32c_lanes_build(void)
{
    int empty = 0;
    if (atomic_compare_exchange_strong_explicit(&crc32c_lanes_state, &empty, 1,
                                                memory_order_acquire, memory_order_acquire)) {
        crc32_lanes_compute(&crc32c_lanes_table, &crc_model_crc32c->p);
        atomic_store_explicit(&crc32c_lanes_state, 2, memory_order_release);
    }
    while (!crc32c_lanes_ready())
        ; /* another thread fills it */
    return &crc32c_lanes_table;
}

void crc32c_lanes_prepare(void)
{
    crc32c_lanes_build();
}

#define CRC_X16 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
_Alignas(16) const uint8_t crc_shift_table[64] = {
    CRC_X16, CRC_X16,
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15,
    CRC_X16,
};
#undef CRC_X16

#define CRC_INDICES64                                                                    \
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,     \
        24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,   \
        45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63
_Alignas(64) const uint8_t crc_byte_index_window[128] = {CRC_INDICES64, CRC_INDICES64};
#undef CRC_INDICES64

_Alignas(16) const uint8_t crc_reverse_window[32] = {
    15,   14,   13,   12,   11,   10,   9,    8,    7,    6,    5,    4,    3,    2,    1,    0,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};
