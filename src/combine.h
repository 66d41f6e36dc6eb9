/*
 * combine.c's per-model powers of x, and the carry-less multiply path that uses them.
 *
 * For the carry-less path every width is lifted to 64: with s = 64 - width and
 * P' = P * x^s, (a * x^s) * b mod P' = (a * b mod P) * x^s, so one Barrett reduction by
 * a degree-64 P' serves every width 1..64.
 */
#ifndef CRCFORGE_COMBINE_H
#define CRCFORGE_COMBINE_H

#include <stdint.h>

struct combine_powers {
    uint64_t x8_pow2k[64]; /* x^(8*2^k) mod P, MSB-first notation */
    uint64_t lifted_poly;  /* P' = P * x^(64-width), less its x^64 term */
    uint64_t barrett;      /* floor(x^128 / P'), less its x^64 term */
};

/* a * x^(8*len) mod P (MSB-first a, width 1..64) with PCLMULQDQ; only when the CPU has
 * it (src/x86/combine_clmul.c). */
uint64_t crc_x86_shift_clmul(const struct combine_powers *pw, unsigned width, uint64_t a,
                             uint64_t len);

#endif /* CRCFORGE_COMBINE_H */
