/*
 * crc(A||B) from crc(A), crc(B) and len(B), for any model, without touching the data.
 *
 * The register is linear in its start value: running B from register r gives
 *   R(r, B) = r * x^(8|B|) mod P  xor  R(0, B),
 * so R(reg_A, B) = reg_B xor (reg_A xor init) * x^(8|B|) mod P.  x^(8|B|) mod P is the
 * product of the precomputed x^(8*2^k) mod P over the set bits k of |B|: O(log |B|)
 * multiplications modulo P.
 */
#include <stdlib.h>

#include "internal.h"

struct combine_powers {
    uint64_t x8_pow2k[64]; /* x^(8*2^k) mod P, MSB-first notation */
};

/* a * b mod P over GF(2), MSB-first notation, Horner on b's bits. */
uint64_t crc_mulmod(uint64_t a, uint64_t b, const crcforge_params *p)
{
    const uint64_t mask = crc_width_mask(p->width);
    uint64_t r = 0;
    for (int i = (int)p->width - 1; i >= 0; i--) {
        uint64_t carry = (r >> (p->width - 1)) & 1;
        r = (r << 1) & mask;
        if (carry)
            r ^= p->poly;
        if ((b >> i) & 1)
            r ^= a;
    }
    return r;
}

/* v * x mod P, MSB-first notation (P may be of degree below 8, so one step at a time). */
static uint64_t times_x(uint64_t v, const crcforge_params *p)
{
    uint64_t carry = (v >> (p->width - 1)) & 1;
    v = (v << 1) & crc_width_mask(p->width);
    return carry ? v ^ p->poly : v;
}

uint64_t crc_xpow_mod(uint64_t e, const crcforge_params *p)
{
    uint64_t r = 1, base = times_x(1, p); /* x reduced: P may be of degree 1 */
    for (; e != 0; e >>= 1) {
        if (e & 1)
            r = crc_mulmod(r, base, p);
        base = crc_mulmod(base, base, p);
    }
    return r;
}

static const struct combine_powers *powers_of(const crcforge_model *m)
{
    crcforge_model *mm = (crcforge_model *)m;
    struct combine_powers *pw = atomic_load_explicit(&mm->powers, memory_order_acquire);
    if (pw != NULL)
        return pw;
    struct combine_powers *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        abort();
    const crcforge_params *p = &m->p;
    fresh->x8_pow2k[0] = crc_xpow_mod(8, p);
    for (int k = 1; k < 64; k++)
        fresh->x8_pow2k[k] = crc_mulmod(fresh->x8_pow2k[k - 1], fresh->x8_pow2k[k - 1], p);
    struct combine_powers *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(&mm->powers, &expected, fresh,
                                                memory_order_acq_rel, memory_order_acquire))
        return fresh;
    free(fresh);
    return expected;
}

void crc_powers_release(crcforge_model *m)
{
    free(atomic_exchange(&m->powers, NULL));
}

uint64_t crc_shift_register(const crcforge_model *m, uint64_t reg, uint64_t len)
{
    const struct combine_powers *pw = powers_of(m);
    uint64_t a = m->p.refin ? crc_reflect(reg, m->p.width) : reg;
    for (int k = 0; len != 0 && a != 0; k++, len >>= 1)
        if (len & 1)
            a = crc_mulmod(a, pw->x8_pow2k[k], &m->p);
    return m->p.refin ? crc_reflect(a, m->p.width) : a;
}

uint64_t crcforge_combine(const crcforge_model *m, uint64_t crc1, uint64_t crc2, uint64_t len2)
{
    uint64_t reg_a = crc_value_to_register(m, crc1);
    uint64_t reg_b = crc_value_to_register(m, crc2);
    uint64_t reg = reg_b ^ crc_shift_register(m, reg_a ^ crc_init_register(m), len2);
    return crc_register_to_value(m, reg);
}
