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

/* The kernels' parameters: what the tuning decides inside a path, fixed when dispatch
 * resolves a selection (x86-64: the tuning table in use with CRCFORGE_TUNE's values,
 * x86/tuning.h; aarch64: the hybrids' shape and limit, arm/tuning.h) and handed to every
 * update and value entry, which read no tuning of their own.  Each kernel reads its own
 * fields; a build's other fields stay 0. */
struct crc_params {
    /* x86-64 (x86/tuning.h): folding (x86/fold_template.h, and the VPCLMULQDQ CRC-32C
     * paths past 4 KiB), the CRC-32C hybrids' qwords and where the CRC-32C kernels change
     * their way. */
    uint32_t fold_parallel_max, fold_accumulators, hybrid_qwords;
    uint32_t crc32c_threeway_min, crc32c_hybrid256_min, crc32c_hybrid512_min;
    /* aarch64 (arm/tuning.h): the hybrids' shape (an index of crc_arm_hybrid_shapes) and
     * the length from which their passes run. */
    uint32_t arm_hybrid_shape, arm_hybrid_min;
};

typedef uint64_t (*crc_update_fn)(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                  size_t n, const struct crc_params *k);

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
    /* The selection: crc_unresolved until dispatch.c resolves it. */
    _Atomic(const struct crc_selection *) impl;
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
    uint32_t (*w32)(uint32_t crc, const void *buf, size_t len,
                    const struct crc_params *k); /* CRC-32C, CRC-32 */
    uint64_t (*w64)(uint64_t crc, const void *buf, size_t len,
                    const struct crc_params *k); /* CRC-64/NVME, CRC-64/XZ */
};
typedef union crc_value_fn crc_value_entries[CRC_FIXED_COUNT];

/* One implementation path, a record of the registry (registry.c), defined beside its
 * kernels: its name, the features it executes, which models it serves and its functions.
 * Records are written with designated initializers; what they leave out is 0. */
struct crc_impl {
    const char *name;
    uint32_t features;                        /* CRC_CPU_* bits of all it executes */
    int (*supports)(const crcforge_model *m); /* the path exists for this model */
    crc_update_fn update;
    /* Optional: the value entries of the fixed algorithms it serves, of every length. */
    crc_value_entries value;
    /* Optional: builds the derived data that the value entries read without a check;
     * dispatch calls it before it selects the path. */
    void (*prepare)(void);
    /* For a path serving CRC-32C on x86-64: inputs shorter than this, under the
     * parameters k, are exactly one chain of the crc32 instruction from the register
     * (crcforge_crc32c then runs it itself). */
    uint32_t (*crc32_below)(const struct crc_params *k);
    /* Optional: short-key operations for cluster key slots (keyslot.h), for a path
     * serving CRC-16/XMODEM. */
    const struct crc_keyslot_ops *keyslot;
    /* 1: its kernels read no parameter, so that a selection of it alone reads no tuning
     * (nor the CPU, where the build guarantees the path's features). */
    int untuned;
};

/* Most bands of paths by length a selection has (x86/tuning.h's tables give them). */
#define CRC_BANDS_MAX 6

/* Lengths below `below` (SIZE_MAX: every length left) on one path: its update, and its
 * value entries where it has them (NULL otherwise). */
struct crc_band {
    size_t below;
    crc_update_fn update;
    crc_value_entries value;
};

/* What a model's selection points at, built by dispatch when it resolves (or, for bands
 * by length, by the tuning, bands.c) and never changed after: the paths serving each band
 * of lengths and the parameters their kernels are handed.  The fixed entries (api.c) read
 * the first fields on every call. */
struct crc_selection {
    /* First: the band walk, handed the parameters, has the selection (crc_selection_of). */
    struct crc_params params;
    /* CRC-32C on x86-64: lengths below this run one crc32 chain in crcforge_crc32c. */
    size_t crc32_below;
    /* Lengths below this take value[] (the first band's value entries); 0: none.  (Both
     * of the length's width: the fixed entries compare the length with them in memory.) */
    size_t value_below;
    crc_value_entries value;
    /* Every length: the one band's update, or the band walk (bands.h). */
    crc_update_fn update;
    unsigned bands;
    struct crc_band band[CRC_BANDS_MAX];
    const char *name; /* the path's, or "PATH<BELOW,...,PATH" */
    uint32_t features;
    const struct crc_keyslot_ops *keyslot;
};

/* The parameters handed to a value entry, held in the register of its fourth argument by
 * an empty asm: GCC otherwise loads the entry's address into another register before the
 * jump, one instruction more a call.  (SysV x86-64: rcx.) */
#if defined(__x86_64__) && !defined(_WIN32) && defined(__GNUC__)
#define CRC_HAND_ON(k) __asm__("" : "+c"(k))
#else
#define CRC_HAND_ON(k) ((void)0)
#endif

/* The selection whose parameters k are. */
static inline const struct crc_selection *crc_selection_of(const struct crc_params *k)
{
    return (const struct crc_selection *)(const void *)k;
}
_Static_assert(offsetof(struct crc_selection, params) == 0, "a selection starts with its parameters");

/* The band serving n bytes. */
static inline const struct crc_band *crc_band_of(const struct crc_selection *s, size_t n)
{
    const struct crc_band *b = s->band;
    while (n >= b->below)
        b++;
    return b;
}

/* catalogue.c */
extern CRC_HIDDEN struct crcforge_model crc_catalogue[];
extern CRC_HIDDEN const size_t crc_catalogue_count;

/* The five fixed algorithms, entries of crc_catalogue (catalogue.c). */
extern struct crcforge_model *const crc_model_crc32c;
extern struct crcforge_model *const crc_model_crc32;
extern struct crcforge_model *const crc_model_crc64_nvme;
extern struct crcforge_model *const crc_model_crc64_xz;
extern struct crcforge_model *const crc_model_crc16_xmodem;
/* Does the model compute CRC-32C's (CRC-16/XMODEM's) register: its width, poly and bit
 * order (init, refout and xorout stay outside the update)? */
int crc32c_serves(const crcforge_model *m);
int crc16_xmodem_serves(const crcforge_model *m);
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
    const struct crc_selection *pinned; /* NULL: the model's selection */
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
/* (Their parameters are none: k may be NULL.) */
uint64_t crc_table_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n,
                          const struct crc_params *k);
uint64_t crc_bytewise_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n,
                             const struct crc_params *k);
extern const struct crc_impl crc_impl_portable;

/* combine.c: reg * x^(8*len) mod P, in the model's register form. */
uint64_t crc_shift_register(const crcforge_model *m, uint64_t reg, uint64_t len);

/* The stand-in every selection starts at (dispatch.c): its update resolves the model's
 * selection and forwards to it, so that the hot path loads and calls without a test. */
extern CRC_HIDDEN const struct crc_selection crc_unresolved;

/* Whether this CPU (less any mask) and OS can run the path. */
static inline int crc_impl_runnable(const struct crc_impl *impl)
{
    return crc_cpu_has(impl->features);
}

/* The model's selection, possibly the stand-in (dispatch.h) whose update resolves first. */
static inline const struct crc_selection *crc_selected(const crcforge_model *m)
{
    return atomic_load_explicit(&((crcforge_model *)m)->impl, memory_order_acquire);
}

#endif /* CRCFORGE_INTERNAL_H */
