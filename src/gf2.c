/* SPDX-License-Identifier: MIT */
/* Polynomial arithmetic over GF(2) (gf2.h). */
#include "compiler.h"
#include "gf2.h"

uint64_t crc_width_mask(unsigned width)
{
    return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

/* Swap halves, then bytes, nibbles, bit pairs and bits: no loop. */
uint64_t crc_reflect(uint64_t v, unsigned width)
{
    v = CRC_BSWAP64(v);
    v = (v >> 4 & 0x0f0f0f0f0f0f0f0full) | (v & 0x0f0f0f0f0f0f0f0full) << 4;
    v = (v >> 2 & 0x3333333333333333ull) | (v & 0x3333333333333333ull) << 2;
    v = (v >> 1 & 0x5555555555555555ull) | (v & 0x5555555555555555ull) << 1;
    return v >> (64 - width);
}

/* Horner on b's bits, reducing after each doubling. */
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

uint64_t crc_xpow_mod(uint64_t e, const crcforge_params *p)
{
    /* x reduced: P may be of degree 1. */
    const uint64_t x = p->width > 1 ? 2 : p->poly;
    uint64_t r = 1, base = x;
    for (; e != 0; e >>= 1) {
        if (e & 1)
            r = crc_mulmod(r, base, p);
        base = crc_mulmod(base, base, p);
    }
    return r;
}

uint64_t gf2_lifted_poly(const crcforge_params *p)
{
    return p->poly << (64 - p->width);
}

uint64_t gf2_xpow_mod_lifted(unsigned k, const crcforge_params *p)
{
    const unsigned s = 64 - p->width;
    return crc_xpow_mod(k - s, p) << s;
}

/* Long division of x^128 by G' = x^64 + low: x^(j+1) = x * (q*G' + r), so each step the
 * quotient takes in the top bit of the remainder. */
uint64_t gf2_barrett_quotient(const crcforge_params *p)
{
    const uint64_t low = gf2_lifted_poly(p);
    uint64_t q = 0, r = low; /* x^64 = 1 * G' + low; the leading 1 drops off the top */
    for (unsigned j = 64; j < 128; j++) {
        uint64_t top = r >> 63;
        q = (q << 1) | top;
        r = (r << 1) ^ (top ? low : 0);
    }
    return q;
}
