/*
 * Library-internal declarations shared by the engines, the dispatcher and the tests.
 *
 * The register: every engine works on the CRC register in the model's own bit order,
 * right-aligned in the low `width` bits of a uint64_t: for a reflected model (refin)
 * the register is bit-reversed, bit 0 holding the coefficient of x^(width-1).  An
 * update function takes that register and returns it after the data; init, refout and
 * xorout are applied only by the public entry points (api.c; combine.c for combining).
 */
#ifndef CRCFORGE_INTERNAL_H
#define CRCFORGE_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "crcforge.h"

typedef uint64_t (*crc_update_fn)(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                  size_t n);

struct crc_tables;    /* table.c */
struct fold_consts;   /* fold_consts.h */
struct combine_powers; /* combine.c */

struct crcforge_model {
    const char *name;
    const char *const *aliases; /* NULL-terminated */
    crcforge_params p;
    uint64_t check;
    uint64_t residue;
    int custom; /* from crcforge_model_new: owned by the caller */
    /* Engine state, built on first use and published with a compare-and-swap so that
     * concurrent first uses are safe without a lock. */
    _Atomic(struct crc_tables *) tables;
    _Atomic(struct fold_consts *) fold;
    _Atomic(struct combine_powers *) powers;
    _Atomic(const struct crc_impl *) impl; /* dispatched path; NULL until resolved */
};

/* One implementation path: a name, a CPU check, which models it serves, its update. */
struct crc_impl {
    const char *name;
    int (*runnable)(void);                      /* CPU and OS can run it */
    int (*supports)(const crcforge_model *m);   /* the path exists for this model */
    crc_update_fn update;
};

/* Lazily built per-model state (tables, fold constants, combine powers): publishes `fresh`
 * in the atomic pointer `*slot` unless a racing first use got there first, and evaluates
 * to the published pointer, freeing the losing copy.  No lock on any path. */
#define CRC_PUBLISH_ONCE(slot, fresh)                                                       \
    __extension__({                                                                         \
        __typeof__(fresh) crc_fresh_ = (fresh), crc_published_ = NULL;                      \
        if (atomic_compare_exchange_strong_explicit((slot), &crc_published_, crc_fresh_,    \
                                                    memory_order_acq_rel,                   \
                                                    memory_order_acquire))                  \
            crc_published_ = crc_fresh_;                                                    \
        else                                                                                \
            free(crc_fresh_);                                                               \
        crc_published_;                                                                     \
    })

/* catalogue.c */
extern struct crcforge_model crc_catalogue[];
extern const size_t crc_catalogue_count;

/* The five fixed algorithms, entries of crc_catalogue (catalogue.c). */
extern struct crcforge_model *const crc_model_crc32c;
extern struct crcforge_model *const crc_model_crc32;
extern struct crcforge_model *const crc_model_crc64_nvme;
extern struct crcforge_model *const crc_model_crc64_xz;
extern struct crcforge_model *const crc_model_crc16_xmodem;

/* bits.c: small helpers on polynomials in MSB-first notation. */
uint64_t crc_width_mask(unsigned width);
uint64_t crc_reflect(uint64_t v, unsigned width);
/* A model's start register, and register -> CRC value. */
uint64_t crc_init_register(const crcforge_model *m);
uint64_t crc_register_to_value(const crcforge_model *m, uint64_t reg);

/* reference.c: bit at a time, the oracle of the tests. */
uint64_t crc_reference_update(const crcforge_params *p, uint64_t reg, const uint8_t *data,
                              size_t n);
uint64_t crc_reference(const crcforge_params *p, const void *data, size_t n);

/* table.c: the portable engine. */
uint64_t crc_table_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n);
uint64_t crc_bytewise_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n);
extern const struct crc_impl crc_impl_portable;

void crc_tables_release(crcforge_model *m);

/* combine.c: reg * x^(8*len) mod P, in the model's register form. */
uint64_t crc_mulmod(uint64_t a, uint64_t b, const crcforge_params *p); /* MSB-first */
uint64_t crc_xpow_mod(uint64_t e, const crcforge_params *p);            /* x^e mod P */
uint64_t crc_shift_register(const crcforge_model *m, uint64_t reg, uint64_t len);
void crc_powers_release(crcforge_model *m);

/* dispatch.c */
const struct crc_impl *crc_impl_resolve(const crcforge_model *m);
/* Whether a path is forced (CRCFORGE_IMPL, crcforge_impl_force): entry points with a
 * fast path of their own (short CRC-16/XMODEM, key slots) then step aside for it. */
int crc_impl_forced(void);
const struct crc_impl *crc_impl_lookup(const char *name);

static inline crc_update_fn crc_dispatched(const crcforge_model *m)
{
    const struct crc_impl *impl = atomic_load_explicit(&((crcforge_model *)m)->impl,
                                                       memory_order_acquire);
    if (impl == NULL)
        impl = crc_impl_resolve(m);
    return impl->update;
}

#endif /* CRCFORGE_INTERNAL_H */
