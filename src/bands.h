/* SPDX-License-Identifier: MIT */
/*
 * Selections of paths by input length (struct crc_selection, internal.h): a path alone, or
 * on x86-64 the bands of the tuning table in use (x86/tuning.h), for a model of a class
 * the table serves.  Part of the tuning: the table is data, read from crc_x86_tuning();
 * dispatch (dispatch.c) asks for a selection when it resolves a model.
 */
#ifndef CRCFORGE_BANDS_H
#define CRCFORGE_BANDS_H

#include "internal.h"

/* The update of a selection of several bands: the band n falls in (crc_band_of), its
 * path's update called with the same parameters. */
uint64_t crc_band_walk(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n,
                       const struct crc_params *k);

/* *s: impl alone for every length, its kernels handed k. */
void crc_selection_single(struct crc_selection *s, const struct crc_impl *impl,
                          const struct crc_params *k);

#if defined(__x86_64__)
/* The banded selection of the table in use for m, or NULL when the table has none that this
 * CPU can run for m (dispatch then takes the registry's best-first choice). */
const struct crc_selection *crc_banded(const crcforge_model *m);

/* Forget the selections in use (crcforge_impl_force, after the table's reset). */
void crc_bands_reset(void);
#endif

#endif /* CRCFORGE_BANDS_H */
