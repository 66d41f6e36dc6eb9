/* SPDX-License-Identifier: MIT */
/*
 * combine.c's carry-less multiply path (x86/combine_clmul.c).
 *
 * Every width is lifted to 64: with s = 64 - width and P' = P * x^s,
 * (a * x^s) * b mod P' = (a * b mod P) * x^s, so one Barrett reduction by the degree-64
 * P' (fold_consts.h's MSB-first Barrett pair) serves every width 1..64.
 */
#ifndef CRCFORGE_COMBINE_H
#define CRCFORGE_COMBINE_H

#include <stdint.h>

struct fold_consts;

/* a * x^(8*len) mod P (MSB-first a, width 1..64) with PCLMULQDQ; only when the CPU has
 * it. */
uint64_t crc_x86_shift_clmul(const struct fold_consts *c, uint64_t a, uint64_t len);

#endif /* CRCFORGE_COMBINE_H */
