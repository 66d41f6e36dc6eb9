/* SPDX-License-Identifier: MIT */
/*
 * The registry: every implementation path compiled in, best first, each a record defined
 * beside its kernels (struct crc_impl, internal.h).  It knows what each path is and
 * serves; which path runs for a model is dispatch's choice (dispatch.c), by the tuning's
 * tables where they give one (bands.c, x86/tuning.c, arm/tuning.c).
 */
#ifndef CRCFORGE_REGISTRY_H
#define CRCFORGE_REGISTRY_H

#include "internal.h"

/* Best first; "portable" serves every model and ends the list. */
extern const struct crc_impl *const crc_registry[];
extern const size_t crc_registry_size;

/* The record named name, or NULL. */
const struct crc_impl *crc_impl_lookup(const char *name);
/* Why a path cannot be used (unknown name: NULL, CPU cannot run it), or NULL. */
const char *crc_impl_unusable(const struct crc_impl *impl);

#endif /* CRCFORGE_REGISTRY_H */
