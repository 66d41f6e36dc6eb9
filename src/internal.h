/* SPDX-License-Identifier: MIT */
/*
 * Library-internal declarations shared by the engines, the dispatcher and the tests.
 *
 * The register: every engine works on the CRC register in the model's own bit order,
 * right-aligned in the low `width` bits of a uint64_t: for a reflected model (refin)
 * the register is bit-reversed, bit 0 holding the coefficient of x^(width-1).  An
 * update function takes that register and returns it after the data; init, refout and
 * xorout are applied only by the public entry points (api.c; combine.c for combining).
 *
 * Two shapes of first use, no lock and no pthread anywhere:
 *  - derived data (tables, constants, the CPU's features) is pure: crc_once computes
 *    it and publishes it with a compare-and-swap; a racing builder's equal copy is freed;
 *  - a selection (the path serving a model, the forced path) is an atomic pointer that
 *    starts at a stand-in for "not chosen yet" and is resolved on first use (dispatch.c).
 */
#ifndef CRCFORGE_INTERNAL_H
#define CRCFORGE_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "compiler.h"
#include "crcforge_dispatch.h"
#include "cpu.h"
#include "gf2.h"

typedef uint64_t (*crc_update_fn)(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                  size_t n);

/* A slot of derived data: NULL until crc_once publishes it. */
typedef _Atomic(const void *) crc_once_slot;

struct crcforge_model {
    const char *name;
    const char *const *aliases; /* NULL-terminated */
    crcforge_params p;
    uint64_t check;
    uint64_t residue;
    int custom; /* from crcforge_model_new: owned by the caller */
    /* Derived data, built on first use (crc_once): the portable engine's tables
     * (table.c), the carry-less constants (struct fold_consts) and, for the models of
     * the crc32 instruction, its stream joins (struct crc32_join; both fold_consts.h). */
    crc_once_slot tables;
    crc_once_slot consts;
    crc_once_slot join;
    /* The selected path: crc_impl_unresolved until dispatch.c resolves it. */
    _Atomic(const struct crc_impl *) impl;
};

/* once.c: *slot's object, computed on first use by fill(obj, arg) into `size` fresh bytes
 * and published with a compare-and-swap; the loser of a race frees its copy.  fill must
 * be pure (every thread fills the same bytes).  Aborts when memory runs out. */
const void *crc_once(crc_once_slot *slot, size_t size, void (*fill)(void *obj, const void *arg),
                     const void *arg);
static inline const void *crc_once_peek(const crc_once_slot *slot)
{
    return atomic_load_explicit((crc_once_slot *)slot, memory_order_acquire);
}
void crc_once_release(crc_once_slot *slot); /* frees a custom model's data */

struct crc_keyslot_ops;

/* The fixed algorithms whose public entries (api.c) call a path's value entry. */
enum crc_fixed {
    CRC_FIXED_CRC32C,
    CRC_FIXED_CRC32,
    CRC_FIXED_CRC64_NVME,
    CRC_FIXED_CRC64_XZ,
    CRC_FIXED_COUNT
};

/* A value entry: a fixed algorithm's public entry itself (the CRC value in and out, the
 * register's inversions inside), of the algorithm's own type, so that the public entry
 * passes its call on with a jump (a conversion of the result would cost it a frame). */
union crc_value_fn {
    uint32_t (*w32)(uint32_t crc, const void *buf, size_t len); /* CRC-32C, CRC-32 */
    uint64_t (*w64)(uint64_t crc, const void *buf, size_t len); /* CRC-64/NVME, CRC-64/XZ */
};
typedef union crc_value_fn crc_value_entries[CRC_FIXED_COUNT];

/* One implementation path: a name, the features it executes, which models it serves,
 * its update.  Records are written with designated initializers; what they leave out is 0. */
struct crc_impl {
    const char *name;
    uint32_t features;                        /* CRC_CPU_* bits of all it executes */
    int (*supports)(const crcforge_model *m); /* the path exists for this model */
    crc_update_fn update;
    /* Optional (NULL otherwise): the path's short-key operations for cluster key slots
     * (keyslot.h), for a path serving CRC-16/XMODEM. */
    const struct crc_keyslot_ops *keyslot;
    /* For a path serving CRC-32C: inputs shorter than this (UINT32_MAX: every input) are
     * one chain of the crc32 instruction from the register, which crcforge_crc32c then
     * runs itself (api.c) instead of calling the path; 0 elsewhere. */
    uint32_t crc32_below;
    /* Optional: the path's value entries, value[CRC_FIXED_...], for lengths below
     * value_below (0: none), which the fixed algorithms' public entries then call in their
     * place, so that a call costs no frame of its own.  A path with value_below > 0 has
     * the entry of every fixed algorithm it serves.  A banded record takes its first
     * band's. */
    uint32_t value_below;
    crc_value_entries value;
    /* Optional: builds the derived data that value entries read without a check;
     * dispatch calls it before it selects the path for a model. */
    void (*prepare)(void);
    /* A selection of paths by input length (an x86 tuning table's bands; NULL otherwise):
     * band i serves lengths below band_below[i] (0: every length left) with
     * band_update[i], so that the fixed entries call the band's path themselves rather
     * than through the record's update, which walks the same bands. */
    const uint32_t *band_below;
    const crc_update_fn *band_update;
    /* ... and each band's value entries, prepared (NULL where its path has none of every
     * length, value_below UINT32_MAX). */
    const crc_value_entries *band_value;
    /* ... and the second band's lengths, second_from up to second_from + second_span (0:
     * none, or its path has no value entries), which the fixed entries past value_below
     * try before they walk the bands, with band_value[1]. */
    uint32_t second_from, second_span;
    /* Optional: where a tuning table sets how far the path runs the crc32 chain, that
     * length under the table in use (crc32_below is then the least any table gives):
     * dispatch asks it when it builds the table's bands.  (Last: the fixed entries read
     * the fields before it.) */
    uint32_t (*crc32_below_tuned)(void);
};

/* catalogue.c */
extern CRC_HIDDEN struct crcforge_model crc_catalogue[];
extern CRC_HIDDEN const size_t crc_catalogue_count;

/* The five fixed algorithms, entries of crc_catalogue (catalogue.c). */
extern struct crcforge_model *const crc_model_crc32c;
extern struct crcforge_model *const crc_model_crc32;
extern struct crcforge_model *const crc_model_crc64_nvme;
extern struct crcforge_model *const crc_model_crc64_xz;
extern struct crcforge_model *const crc_model_crc16_xmodem;
/* Their places in crc_catalogue, as constants: the fixed entries and the value entries
 * address their models with no load (AMD Zen 4, crcforge_crc32c, 128 B calls: 8% faster).
 * test_catalogue checks them. */
#define CRC_CATALOGUE_INDEX_CRC32C 98
#define CRC_CATALOGUE_INDEX_CRC32 99
#define CRC_CATALOGUE_INDEX_CRC64_NVME 108
#define CRC_CATALOGUE_INDEX_CRC64_XZ 111

/* api.c: a model's start register, and register -> CRC value. */
uint64_t crc_init_register(const crcforge_model *m);
uint64_t crc_register_to_value(const crcforge_model *m, uint64_t reg);

/* What a crcforge_state holds.  The public type is storage of a fixed size, so that none
 * of these fields is part of the ABI.  That storage is declared as the public type and
 * read and written as this one: may_alias keeps the compiler's type-based alias analysis
 * from assuming the two apart. */
struct CRC_MAY_ALIAS crc_state {
    const crcforge_model *model;
    const struct crc_impl *impl; /* NULL: the model's selected path */
    uint64_t reg;
};
_Static_assert(sizeof(struct crc_state) <= sizeof(crcforge_state),
               "crcforge_state is too small for struct crc_state");
_Static_assert(_Alignof(struct crc_state) <= _Alignof(crcforge_state),
               "crcforge_state is not aligned for struct crc_state");

static inline struct crc_state *crc_state_of(crcforge_state *s)
{
    return (struct crc_state *)(void *)s;
}

static inline const struct crc_state *crc_state_in(const crcforge_state *s)
{
    return (const struct crc_state *)(const void *)s;
}

/* reference.c: bit at a time, the oracle of the tests. */
uint64_t crc_reference_update(const crcforge_params *p, uint64_t reg, const uint8_t *data,
                              size_t n);
uint64_t crc_reference(const crcforge_params *p, const void *data, size_t n);

/* table.c: the portable engine. */
uint64_t crc_table_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n);
uint64_t crc_bytewise_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n);
extern const struct crc_impl crc_impl_portable;

/* combine.c: reg * x^(8*len) mod P, in the model's register form. */
uint64_t crc_shift_register(const crcforge_model *m, uint64_t reg, uint64_t len);

/* dispatch.c */
/* The stand-in every selection starts at: its update resolves the model's path and
 * forwards to it, so that the hot path loads and calls without a test. */
extern CRC_HIDDEN const struct crc_impl crc_impl_unresolved;
const struct crc_impl *crc_impl_resolve(const crcforge_model *m);
const struct crc_impl *crc_impl_lookup(const char *name);
/* Why a path cannot be used (unknown name, CPU cannot run it), or NULL. */
const char *crc_impl_unusable(const struct crc_impl *impl);

/* Whether this CPU (less any mask) and OS can run the path. */
static inline int crc_impl_runnable(const struct crc_impl *impl)
{
    return crc_cpu_has(impl->features);
}

/* The model's selected path, possibly the stand-in (whose functions resolve first). */
static inline const struct crc_impl *crc_selected(const crcforge_model *m)
{
    return atomic_load_explicit(&((crcforge_model *)m)->impl, memory_order_acquire);
}

#endif /* CRCFORGE_INTERNAL_H */
