/* SPDX-License-Identifier: MIT */
/* Dispatch (dispatch.c): a model's selection, resolved once and published. */
#ifndef CRCFORGE_DISPATCH_INTERNAL_H
#define CRCFORGE_DISPATCH_INTERNAL_H

#include "internal.h"

/* Resolves m's selection (the forced path, the tuning's bands, or the registry's best
 * first), publishes it and returns it. */
const struct crc_selection *crc_resolve(const crcforge_model *m);

/* impl alone for every length, its kernels handed the parameters of the tuning in use
 * (an untuned path, none): a stream pinned to one path (crcforge_init_impl).  impl must
 * be runnable. */
const struct crc_selection *crc_pinned(const struct crc_impl *impl);

/* The parameters of the tuning in use (CRCFORGE_TUNE's applied), which dispatch hands
 * every path but the untuned. */
const struct crc_params *crc_params_in_use(void);

#endif /* CRCFORGE_DISPATCH_INTERNAL_H */
