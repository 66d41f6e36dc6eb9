/* SPDX-License-Identifier: MIT */
/*
 * The banded records of the tuning table in use (bands.h).  Part of dispatch, beside
 * dispatch.c rather than in x86/: the tables are x86-64's today, and elsewhere this file
 * compiles to nothing.
 *
 * A record set is built once per family from its table in use (crc_once: pure, from the
 * table and the registry); the set in use is a selection that crcforge_impl_force resets
 * with the table.  The walkers read it on every update, so that a record resolved before
 * a reset (a custom model keeps its record) walks the bands of the table in use.
 */
#include <stdio.h>
#include <string.h>

#include "bands.h"
#include "compiler.h"

#if defined(__x86_64__)
#include "keyslot.h"
#include "x86/tuning.h"

struct banded {
    struct crc_impl record; /* what a model's selection points at */
    int usable;             /* every band's path is known here and runnable */
    uint32_t below[CRC_BANDS_MAX];
    crc_update_fn update[CRC_BANDS_MAX];
    crc_value_entries value[CRC_BANDS_MAX];
    char name[CRC_BANDS_MAX * 48];
};

struct banded_set {
    struct banded classes[CRC_CLASSES];
};

static _Atomic(const struct banded_set *) set_in_use;
static crc_once_slot sets[CRC_X86_FAMILIES];

static int serves_crc32c(const crcforge_model *m)
{
    return crc_model_class_of(m) == CRC_CLASS_CRC32C;
}
static int serves_crc16_xmodem(const crcforge_model *m)
{
    return crc_model_class_of(m) == CRC_CLASS_CRC16_XMODEM;
}
static int serves_reflected(const crcforge_model *m)
{
    return crc_model_class_of(m) == CRC_CLASS_REFLECTED;
}
static int serves_msb_first(const crcforge_model *m)
{
    return crc_model_class_of(m) == CRC_CLASS_MSB_FIRST;
}

/* The first update after a reset: resolved out of line, so that the walkers keep no
 * frame. */
static CRC_NOINLINE CRC_COLD uint64_t walk_resolving(enum crc_model_class cls,
                                                              const crcforge_model *m,
                                                              uint64_t reg, const uint8_t *p,
                                                              size_t n);

/* The update of a banded record: the band n falls in.  (Key slots and short inputs of the
 * fixed entries never get here when a path of their own serves them.) */
#define BAND_WALKER(cls)                                                                   \
    static CODE_ALIGNED uint64_t walk_##cls(const crcforge_model *m, uint64_t reg,         \
                                            const uint8_t *p, size_t n)                   \
    {                                                                                      \
        const struct banded_set *set =                                                     \
            atomic_load_explicit(&set_in_use, memory_order_acquire);                       \
        if (set == NULL)                                                                   \
            return walk_resolving(cls, m, reg, p, n);                                      \
        const struct banded *b = &set->classes[cls];                                       \
        size_t i = 0;                                                                      \
        while (b->below[i] != 0 && n >= b->below[i])                                       \
            i++;                                                                           \
        return b->update[i](m, reg, p, n);                                                 \
    }
BAND_WALKER(CRC_CLASS_CRC32C)
BAND_WALKER(CRC_CLASS_CRC16_XMODEM)
BAND_WALKER(CRC_CLASS_REFLECTED)
BAND_WALKER(CRC_CLASS_MSB_FIRST)

static const struct {
    int (*serves)(const crcforge_model *m);
    crc_update_fn walk;
} class_ops[CRC_CLASSES] = {
    [CRC_CLASS_CRC32C] = {serves_crc32c, walk_CRC_CLASS_CRC32C},
    [CRC_CLASS_CRC16_XMODEM] = {serves_crc16_xmodem, walk_CRC_CLASS_CRC16_XMODEM},
    [CRC_CLASS_REFLECTED] = {serves_reflected, walk_CRC_CLASS_REFLECTED},
    [CRC_CLASS_MSB_FIRST] = {serves_msb_first, walk_CRC_CLASS_MSB_FIRST},
};

/* The banded record of one class: "PATH<BELOW,PATH<BELOW,...,PATH" is its name. */
static void build_banded(struct banded *b, const struct crc_band *bands, enum crc_model_class cls)
{
    memset(b, 0, sizeof *b);
    b->usable = 1;
    size_t used = 0;
    int one_band = 0;
    int entries[CRC_BANDS_MAX] = {0}; /* band i's path has value entries of every length */
    for (size_t i = 0; i < CRC_BANDS_MAX; i++) {
        const struct crc_impl *impl = crc_impl_lookup(bands[i].path);
        if (impl == NULL || !crc_impl_runnable(impl)) {
            b->usable = 0;
            return;
        }
        b->below[i] = bands[i].below;
        b->update[i] = impl->update;
        entries[i] = impl->value_below == UINT32_MAX; /* of every length, as a band calls them */
        if (entries[i])
            memcpy(b->value[i], impl->value, sizeof b->value[i]);
        if (impl->prepare != NULL) /* before the record can be selected */
            impl->prepare();
        b->record.features |= impl->features;
        if (b->record.keyslot == NULL)
            b->record.keyslot = impl->keyslot;
        /* The lengths that run exactly the crc32 chain: from the first band on, as far as
         * each band's path runs it from the band's start (a chain band, then a three-chain
         * band whose path still chains its shortest inputs, go on as one). */
        const uint32_t start = i == 0 ? 0 : bands[i - 1].below;
        const uint32_t chain_below =
            impl->crc32_below_tuned != NULL ? impl->crc32_below_tuned() : impl->crc32_below;
        if (b->record.crc32_below == start && chain_below > start) {
            const uint32_t end = bands[i].below != 0 ? bands[i].below : UINT32_MAX;
            b->record.crc32_below = chain_below < end ? chain_below : end;
        }
        used += (size_t)snprintf(b->name + used, sizeof b->name - used,
                                 bands[i].below ? "%s<%u," : "%s", impl->name,
                                 (unsigned)bands[i].below);
        if (bands[i].below == 0) {
            one_band = i == 0;
            break;
        }
    }
    /* Key slots hash keys of a few bytes after the hash-tag rule, which the throughput
     * sweep behind a table does not time: with no band of short-key operations, they
     * take the best runnable path's that has them (keyslot_bench times them). */
    for (size_t i = 0; cls == CRC_CLASS_CRC16_XMODEM && b->record.keyslot == NULL &&
                       i < crcforge_impl_count();
         i++) {
        const struct crc_impl *impl = crc_impl_lookup(crcforge_impl_name(i));
        if (impl->keyslot != NULL && impl->supports(crc_model_crc16_xmodem) &&
            crc_impl_runnable(impl))
            b->record.keyslot = impl->keyslot;
    }
    b->record.name = b->name;
    b->record.supports = class_ops[cls].serves;
    b->record.update = one_band ? b->update[0] : class_ops[cls].walk; /* one band: no walk */
    if (crc_impl_lookup(bands[0].path)->value_below == UINT32_MAX) {
        /* the first band's entries before any walk */
        memcpy(b->record.value, b->value[0], sizeof b->record.value);
        b->record.value_below = one_band ? UINT32_MAX : bands[0].below;
    }
    /* The second band's entries before the walk: where the first band's path has none (a
     * crc32 chain's), every call past the chain walked the bands, 1.0-1.5 ns more a call
     * (CRC-32C at 384 B-4 KiB on AMD Zen 4 held to AVX2, the avx2-vpclmul table). */
    if (!one_band && entries[1]) {
        b->record.second_from = bands[0].below;
        b->record.second_span =
            (bands[1].below != 0 ? bands[1].below : UINT32_MAX) - bands[0].below;
    }
    if (!one_band) {
        b->record.band_below = b->below;
        b->record.band_update = b->update;
        b->record.band_value = b->value;
    }
}

static void fill_set(void *obj, const void *arg)
{
    struct banded_set *set = obj;
    const struct crc_x86_tuning *table = arg;
    for (int c = 0; c < CRC_CLASSES; c++)
        build_banded(&set->classes[c], table->bands[c], (enum crc_model_class)c);
}

static const struct banded_set *resolve_set(void)
{
    const struct crc_x86_tuning *table = crc_x86_tuning();
    const struct banded_set *set = crc_once(&sets[crc_x86_family_in_use()],
                                            sizeof(struct banded_set), fill_set, table);
    atomic_store_explicit(&set_in_use, set, memory_order_release);
    return set;
}

static uint64_t walk_resolving(enum crc_model_class cls, const crcforge_model *m,
                               uint64_t reg, const uint8_t *p, size_t n)
{
    resolve_set();
    return class_ops[cls].walk(m, reg, p, n);
}

const struct crc_impl *crc_banded_impl(const crcforge_model *m)
{
    const enum crc_model_class cls = crc_model_class_of(m);
    if (cls == CRC_CLASSES)
        return NULL;
    const struct banded_set *set = atomic_load_explicit(&set_in_use, memory_order_acquire);
    const struct banded *b = &(set != NULL ? set : resolve_set())->classes[cls];
    return b->usable ? &b->record : NULL;
}

void crc_bands_reset(void)
{
    atomic_store_explicit(&set_in_use, NULL, memory_order_release);
}
#endif
