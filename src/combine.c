/*
 * crc(A||B) from crc(A), crc(B) and len(B), for any model, without touching the data.
 *
 * The register is linear in its start value: running B from register r gives
 *   R(r, B) = r * x^(8|B|) mod P  xor  R(0, B),
 * so R(reg_A, B) = reg_B xor (reg_A xor init) * x^(8|B|) mod P.  x^(8|B|) mod P is the
 * product of the precomputed x^(8*2^k) mod P over the set bits k of |B|: O(log |B|)
 * multiplications modulo P: bit by bit here, with carry-less multiplies and a Barrett
 * reduction where the CPU has them (x86/combine_clmul.c).
 */
#include <stdlib.h>

#include "combine.h"
#include "cpu.h"
#include "fold_consts.h"
#include "internal.h"

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
    fresh->lifted_poly = fold_lifted_poly(p);
    fresh->barrett = fold_xpow_div(128, fresh->lifted_poly);
    return CRC_PUBLISH_ONCE(&mm->powers, fresh);
}

void crc_powers_release(crcforge_model *m)
{
    free(atomic_exchange(&m->powers, NULL));
}

/* Bit reversal of the low `width` bits, without a loop (crc_reflect, the reference's,
 * stays the plain one). */
static uint64_t reflect_fast(uint64_t v, unsigned width)
{
    v = __builtin_bswap64(v);
    v = (v >> 4 & 0x0f0f0f0f0f0f0f0full) | (v & 0x0f0f0f0f0f0f0f0full) << 4;
    v = (v >> 2 & 0x3333333333333333ull) | (v & 0x3333333333333333ull) << 2;
    v = (v >> 1 & 0x5555555555555555ull) | (v & 0x5555555555555555ull) << 1;
    return v >> (64 - width);
}

static uint64_t shift_bitwise(const struct combine_powers *pw, const crcforge_params *p,
                              uint64_t a, uint64_t len)
{
    for (int k = 0; len != 0 && a != 0; k++, len >>= 1)
        if (len & 1)
            a = crc_mulmod(a, pw->x8_pow2k[k], p);
    return a;
}

/* a * x^(8*len) mod P, MSB-first. */
static uint64_t shift_msb_first(const crcforge_model *m, uint64_t a, uint64_t len)
{
    const struct combine_powers *pw = powers_of(m);
#if defined(__x86_64__)
    if (crc_cpu_has(CRC_CPU_PCLMUL))
        return crc_x86_shift_clmul(pw, m->p.width, a, len);
#endif
    return shift_bitwise(pw, &m->p, a, len);
}

uint64_t crc_shift_register(const crcforge_model *m, uint64_t reg, uint64_t len)
{
    const unsigned w = m->p.width;
    if (!m->p.refin)
        return shift_msb_first(m, reg, len);
    return reflect_fast(shift_msb_first(m, reflect_fast(reg, w), len), w);
}

/* Value -> register in MSB-first order and back: the register is in input order and
 * the value in output order, so MSB-first it is reflected exactly when refout is. */
static uint64_t value_to_msb_first(const crcforge_params *p, uint64_t value)
{
    uint64_t v = (value ^ p->xorout) & crc_width_mask(p->width);
    return p->refout ? reflect_fast(v, p->width) : v;
}

uint64_t crcforge_combine(const crcforge_model *m, uint64_t crc1, uint64_t crc2, uint64_t len2)
{
    const crcforge_params *p = &m->p;
    uint64_t a = value_to_msb_first(p, crc1), b = value_to_msb_first(p, crc2);
    uint64_t r = b ^ shift_msb_first(m, a ^ p->init, len2);
    return (p->refout ? reflect_fast(r, p->width) : r) ^ p->xorout;
}
