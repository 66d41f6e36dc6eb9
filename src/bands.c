/* SPDX-License-Identifier: MIT */
/*
 * Selections of paths by length (bands.h).  The band walk is the one of every selection;
 * the banded selections are built from the x86-64 tuning tables (elsewhere that part
 * compiles to nothing).
 *
 * A set of banded selections is built once per family from its table in use (crc_once:
 * pure, from the table and the registry); the set in use is a selection that
 * crcforge_impl_force resets with the table.  A selection never changes once built: a
 * model resolved before a reset (a custom model keeps its selection) keeps its bands and
 * their parameters.
 */
#include <stdio.h>
#include <string.h>

#include "bands.h"
#include "compiler.h"
#include "registry.h"

#if defined(__x86_64__)
#include "x86/tuning.h"
#endif

/* No frame: the band's update is a tail call. */
CODE_ALIGNED uint64_t crc_band_walk(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                    size_t n, const struct crc_params *k)
{
    return crc_band_of(crc_selection_of(k), n)->update(m, reg, p, n, k);
}

/* Whether impl has value entries (then of every fixed algorithm it serves). */
static int has_values(const struct crc_impl *impl)
{
    for (int f = 0; f < CRC_FIXED_COUNT; f++)
        if (impl->value[f].w32 != NULL)
            return 1;
    return 0;
}

/* The band i of s: impl for lengths below `below` (0: every length left). */
static void set_band(struct crc_selection *s, size_t i, const struct crc_impl *impl,
                     uint32_t below)
{
    struct crc_band *b = &s->band[i];
    b->below = below != 0 ? below : SIZE_MAX;
    b->update = impl->update;
    memcpy(b->value, impl->value, sizeof b->value);
    s->features |= impl->features;
    if (s->keyslot == NULL)
        s->keyslot = impl->keyslot;
    s->bands = (unsigned)i + 1;
}

/* The fields the fixed entries read, from the bands: the first band's value entries,
 * and the one band's update or the walk. */
static void finish(struct crc_selection *s, const struct crc_impl *first)
{
    s->update = s->bands == 1 ? s->band[0].update : crc_band_walk;
    if (has_values(first)) {
        memcpy(s->value, s->band[0].value, sizeof s->value);
        s->value_below = s->band[0].below;
    }
}

void crc_selection_single(struct crc_selection *s, const struct crc_impl *impl,
                          const struct crc_params *k)
{
    memset(s, 0, sizeof *s);
    s->params = *k;
    s->name = impl->name;
    set_band(s, 0, impl, 0);
    s->crc32_below = impl->crc32_below != NULL ? impl->crc32_below(k) : 0;
    finish(s, impl);
}

#if defined(__x86_64__)
struct banded {
    struct crc_selection selection; /* what a model's selection points at */
    int usable;                     /* every band's path is known here and runnable */
    char name[CRC_BANDS_MAX * 48];
};

struct banded_set {
    struct banded classes[CRC_CLASSES];
};

static _Atomic(const struct banded_set *) set_in_use;
static crc_once_slot sets[CRC_X86_FAMILIES];

/* The banded selection of one class, its kernels handed k: "PATH<BELOW,...,PATH" is its
 * name. */
static void build_banded(struct banded *b, const struct crc_x86_band *bands,
                         enum crc_model_class cls, const struct crc_params *k)
{
    memset(b, 0, sizeof *b);
    struct crc_selection *s = &b->selection;
    s->params = *k;
    size_t used = 0;
    for (size_t i = 0; i < CRC_BANDS_MAX; i++) {
        const struct crc_impl *impl = crc_impl_lookup(bands[i].path);
        if (impl == NULL || !crc_impl_runnable(impl))
            return;
        set_band(s, i, impl, bands[i].below);
        if (impl->prepare != NULL) /* before the selection can be published */
            impl->prepare();
        /* The lengths that run exactly the crc32 chain: from the first band on, as far as
         * each band's path runs it from the band's start (a chain band, then a three-chain
         * band whose path still chains its shortest inputs, go on as one). */
        const uint32_t start = i == 0 ? 0 : bands[i - 1].below;
        const uint32_t chain_below = impl->crc32_below != NULL ? impl->crc32_below(k) : 0;
        if (s->crc32_below == start && chain_below > start) {
            const uint32_t end = bands[i].below != 0 ? bands[i].below : UINT32_MAX;
            s->crc32_below = chain_below < end ? chain_below : end;
        }
        used += (size_t)snprintf(b->name + used, sizeof b->name - used,
                                 bands[i].below ? "%s<%u," : "%s", impl->name,
                                 (unsigned)bands[i].below);
        if (bands[i].below == 0)
            break;
    }
    /* Key slots hash keys of a few bytes after the hash-tag rule, which the throughput
     * sweep behind a table does not time: with no band of short-key operations, they
     * take the best runnable path's that has them (keyslot_bench times them). */
    for (size_t i = 0; cls == CRC_CLASS_CRC16_XMODEM && s->keyslot == NULL &&
                       i < crc_registry_size;
         i++) {
        const struct crc_impl *impl = crc_registry[i];
        if (impl->keyslot != NULL && impl->supports(crc_model_crc16_xmodem) &&
            crc_impl_runnable(impl))
            s->keyslot = impl->keyslot;
    }
    s->name = b->name;
    finish(s, crc_impl_lookup(bands[0].path));
    b->usable = 1;
}

static void fill_set(void *obj, const void *arg)
{
    struct banded_set *set = obj;
    const struct crc_x86_tuning *table = arg;
    const struct crc_params *k = crc_x86_params();
    for (int c = 0; c < CRC_CLASSES; c++)
        build_banded(&set->classes[c], table->bands[c], (enum crc_model_class)c, k);
}

static const struct banded_set *resolve_set(void)
{
    const struct crc_x86_tuning *table = crc_x86_tuning();
    const struct banded_set *set = crc_once(&sets[crc_x86_family_in_use()],
                                            sizeof(struct banded_set), fill_set, table);
    atomic_store_explicit(&set_in_use, set, memory_order_release);
    return set;
}

const struct crc_selection *crc_banded(const crcforge_model *m)
{
    const enum crc_model_class cls = crc_model_class_of(m);
    if (cls == CRC_CLASSES)
        return NULL;
    const struct banded_set *set = atomic_load_explicit(&set_in_use, memory_order_acquire);
    const struct banded *b = &(set != NULL ? set : resolve_set())->classes[cls];
    return b->usable ? &b->selection : NULL;
}

void crc_bands_reset(void)
{
    atomic_store_explicit(&set_in_use, NULL, memory_order_release);
}
#endif
