/* SPDX-License-Identifier: MIT */
/*
 * crc(A||B) from crc(A), crc(B) and len(B), for any model, without touching the data.
 *
 * The register is linear in its start value: running B from register r gives
 *   R(r, B) = r * x^(8|B|) mod P  xor  R(0, B),
 * so R(reg_A, B) = reg_B xor (reg_A xor init) * x^(8|B|) mod P.  x^(8|B|) mod P is the
 * product of the x^(8*2^k) mod P of the model's constants (fold_consts.h) over the set
 * bits k of |B|: O(log |B|) multiplications modulo P: bit by bit here (gf2.h), with
 * carry-less multiplies and a Barrett reduction where the CPU has them
 * (x86/combine_clmul.c).
 */
#include "combine.h"
#include "cpu.h"
#include "fold_consts.h"
#include "internal.h"

static const struct fold_consts *consts_of(const crcforge_model *m)
{
    const struct fold_consts *c = fold_consts_peek(m);
    return c != NULL ? c : fold_consts_build(m);
}

static uint64_t shift_bitwise(const struct fold_consts *c, const crcforge_params *p,
                              uint64_t a, uint64_t len)
{
    for (int k = 0; len != 0 && a != 0; k++, len >>= 1)
        if (len & 1)
            a = crc_mulmod(a, c->x8_pow2k[k], p);
    return a;
}

/* a * x^(8*len) mod P, MSB-first. */
static uint64_t shift_msb_first(const crcforge_model *m, uint64_t a, uint64_t len)
{
    const struct fold_consts *c = consts_of(m);
#if defined(__x86_64__)
    if (crc_cpu_has(CRC_CPU_PCLMUL))
        return crc_x86_shift_clmul(c, a, len);
#endif
    return shift_bitwise(c, &m->p, a, len);
}

uint64_t crc_shift_register(const crcforge_model *m, uint64_t reg, uint64_t len)
{
    const unsigned w = m->p.width;
    if (!m->p.refin)
        return shift_msb_first(m, reg, len);
    return crc_reflect(shift_msb_first(m, crc_reflect(reg, w), len), w);
}

/* Value -> register in MSB-first order and back: the register is in input order and
 * the value in output order, so MSB-first it is reflected exactly when refout is. */
static uint64_t value_to_msb_first(const crcforge_params *p, uint64_t value)
{
    uint64_t v = (value ^ p->xorout) & crc_width_mask(p->width);
    return p->refout ? crc_reflect(v, p->width) : v;
}

uint64_t crcforge_combine(const crcforge_model *m, uint64_t crc1, uint64_t crc2, uint64_t len2)
{
    const crcforge_params *p = &m->p;
    uint64_t a = value_to_msb_first(p, crc1), b = value_to_msb_first(p, crc2);
    uint64_t r = b ^ shift_msb_first(m, a ^ p->init, len2);
    return (p->refout ? crc_reflect(r, p->width) : r) ^ p->xorout;
}
