/* SPDX-License-Identifier: MIT */
/*
 * Polynomial arithmetic over GF(2), the one place for it: polynomials are held in
 * integers MSB-first (bit i the coefficient of x^i); a model's generator is
 * P = x^width + poly.  Everything the kernels' constants (fold_consts.c), combine
 * (combine.c) and the catalogue's residues need is derived from these few functions.
 *
 * The lift that lets one 64-bit kernel serve every width: G' = P * x^(64-width) has
 * degree 64, and x^k mod G' = (x^(k-64+width) mod P) * x^(64-width) for k >= 64 - width.
 */
#ifndef CRCFORGE_GF2_H
#define CRCFORGE_GF2_H

#include <stdint.h>

#include "crcforge.h"

/* The low `width` bits set (width 1..64). */
uint64_t crc_width_mask(unsigned width);
/* The low `width` bits of v in reverse order (width 1..64). */
uint64_t crc_reflect(uint64_t v, unsigned width);

/* a * b mod P (a, b reduced). */
uint64_t crc_mulmod(uint64_t a, uint64_t b, const crcforge_params *p);
/* x^e mod P, by square-and-multiply: any e. */
uint64_t crc_xpow_mod(uint64_t e, const crcforge_params *p);

/* G' - x^64 = poly * x^(64-width). */
uint64_t gf2_lifted_poly(const crcforge_params *p);
/* x^k mod G', k >= 63. */
uint64_t gf2_xpow_mod_lifted(unsigned k, const crcforge_params *p);
/* Barrett's quotient floor(x^128 / G') less its x^64 term: the one derivation every
 * Barrett reduction of the library starts from. */
uint64_t gf2_barrett_quotient(const crcforge_params *p);

#endif /* CRCFORGE_GF2_H */
