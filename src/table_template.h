/* SPDX-License-Identifier: MIT */
/*
 * Slicing-by-16 for one table entry size, included by table.c once per size.
 * Parameters: ENTRY (uint32_t or uint64_t), ENTRY_BITS (32 or 64), LOAD_LE and LOAD_BE
 * (loads of one ENTRY from the stream), SUFFIX (names the functions).
 *
 * Reflected models keep the register right-aligned: the low byte meets the next data
 * byte.  MSB-first models keep it left-aligned in ENTRY_BITS, so the top byte meets the
 * next data byte whatever the width; both are shifted back at the end.
 * table[k][b] is the register after the byte b followed by k zero bytes.
 */
#include "compiler.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define LANES (16 * 8 / ENTRY_BITS) /* entries per 16-byte step */

static void CAT(build_tables_, SUFFIX)(ENTRY (*t)[256], const crcforge_params *p)
{
    const unsigned shift = ENTRY_BITS - p->width;
    const ENTRY rpoly = (ENTRY)crc_reflect(p->poly, p->width);
    const ENTRY lpoly = (ENTRY)(p->poly << shift);
    const ENTRY top = (ENTRY)1 << (ENTRY_BITS - 1);

    for (unsigned b = 0; b < 256; b++) {
        ENTRY r;
        if (p->refin) {
            r = b;
            for (int i = 0; i < 8; i++)
                r = (r & 1) ? (r >> 1) ^ rpoly : r >> 1;
        } else {
            r = (ENTRY)b << (ENTRY_BITS - 8);
            for (int i = 0; i < 8; i++)
                r = (r & top) ? (ENTRY)(r << 1) ^ lpoly : (ENTRY)(r << 1);
        }
        t[0][b] = r;
    }
    for (unsigned k = 1; k < 16; k++) {
        for (unsigned b = 0; b < 256; b++) {
            ENTRY r = t[k - 1][b];
            t[k][b] = p->refin ? (r >> 8) ^ t[0][r & 0xff]
                               : (ENTRY)(r << 8) ^ t[0][r >> (ENTRY_BITS - 8)];
        }
    }
}

/* One byte through the table, either bit order (msb a constant at each use). */
static ALWAYS_INLINE ENTRY CAT(step_, SUFFIX)(const ENTRY *t0, ENTRY r,
                                              uint8_t b, const int msb)
{
    if (msb)
        return (ENTRY)(r << 8) ^ t0[((r >> (ENTRY_BITS - 8)) ^ b) & 0xff];
    return (r >> 8) ^ t0[(r ^ b) & 0xff];
}

/* One table lookup a byte: the classic loop. */
static ALWAYS_INLINE ENTRY
CAT(bytewise_, SUFFIX)(ENTRY (*t)[256], ENTRY r, const uint8_t *p, size_t n, const int msb)
{
    while (n--)
        r = CAT(step_, SUFFIX)(t[0], r, *p++, msb);
    return r;
}

/* Sixteen bytes a step, then the rest a byte at a time; msb is a constant at each call,
 * so each bit order compiles to its own loop. */
static ALWAYS_INLINE ENTRY
CAT(slice16_, SUFFIX)(ENTRY (*t)[256], ENTRY r, const uint8_t *p, size_t n, const int msb)
{
    while (n >= 16) {
        ENTRY w[LANES];
        w[0] = r ^ (msb ? LOAD_BE(p) : LOAD_LE(p));
        UNROLL_ALL
        for (int i = 1; i < LANES; i++)
            w[i] = msb ? LOAD_BE(p + i * (ENTRY_BITS / 8)) : LOAD_LE(p + i * (ENTRY_BITS / 8));
        /* Lanes not depending on r first, into four accumulators: the loop-carried
         * path is then one lane's lookups and a short xor tree.  Byte j of a lane (in
         * stream order) sits at bit 8j when reflected, at the top minus 8j MSB-first. */
        ENTRY acc[4] = {0, 0, 0, 0};
        UNROLL_ALL
        for (int i = LANES - 1; i >= 0; i--)
            UNROLL_ALL
            for (int j = 0; j < ENTRY_BITS / 8; j++) {
                const int at = msb ? ENTRY_BITS - 8 - 8 * j : 8 * j;
                acc[j & 3] ^= t[15 - i * (ENTRY_BITS / 8) - j][(w[i] >> at) & 0xff];
            }
        r = (acc[0] ^ acc[1]) ^ (acc[2] ^ acc[3]);
        p += 16;
        n -= 16;
    }
    while (n--)
        r = CAT(step_, SUFFIX)(t[0], r, *p++, msb);
    return r;
}

static ENTRY CAT(update_refl_, SUFFIX)(ENTRY (*t)[256], ENTRY r, const uint8_t *p, size_t n)
{
    return CAT(slice16_, SUFFIX)(t, r, p, n, 0);
}

static ENTRY CAT(update_msb_, SUFFIX)(ENTRY (*t)[256], ENTRY r, const uint8_t *p, size_t n)
{
    return CAT(slice16_, SUFFIX)(t, r, p, n, 1);
}

#undef LANES
#undef CAT
#undef CAT_
#undef ENTRY
#undef ENTRY_BITS
#undef LOAD_LE
#undef LOAD_BE
#undef SUFFIX
