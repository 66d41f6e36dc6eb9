/* SPDX-License-Identifier: MIT */
/*
 * Paths by input length, where a tuning table gives bands (x86: src/x86/tuning.h): for a
 * model of a class the table serves, a registry-like record whose update walks the
 * table's bands, each a registry path.  Part of dispatch (dispatch.c asks it before the
 * registry's best-first list); the table is data, read from crc_x86_tuning().
 */
#ifndef CRCFORGE_BANDS_H
#define CRCFORGE_BANDS_H

#include "internal.h"

#if defined(__x86_64__)
/* The banded record of the table in use for m, or NULL when the table has none that this
 * CPU can run for m (dispatch then takes the registry's best-first choice). */
const struct crc_impl *crc_banded_impl(const crcforge_model *m);

/* Forget the records in use (crcforge_impl_force, after the table's reset). */
void crc_bands_reset(void);
#endif

#endif /* CRCFORGE_BANDS_H */
