/*
 * The families, their tables, and the banded paths built from them (tuning.h).
 *
 * A plan is a family's table with CRCFORGE_TUNE's parameters applied, and for each class
 * of model a registry-like record whose update walks the bands.  Plans are derived data
 * (pure: the table, the environment, the registry), built once per family (crc_once); the
 * plan in use is a selection that crcforge_impl_force resets, since a CPU mask set for a
 * test may change the family.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpu.h"
#include "../keyslot.h"
#include "crc32c_x86.h"
#include "fold.h"
#include "tuning.h"

#include "tuning/generic.h"
#include "tuning/zen4.h"
#include "tuning/intel-spr.h"
#include "tuning/intel-avx512-256.h"
#include "tuning/avx2-vpclmul.h"

#define AVX512_TIER CRC_FEATURES_x86_vpclmul_avx512
#define GFNI_TIER (AVX512_TIER | CRC_FEATURES_x86_gfni_avx512)
#define AVX2_TIER CRC_FEATURES_x86_vpclmul_avx2
#define BASE (CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_SSE41)

static int is_amd_zen4_or_later(const struct crc_cpu_id *id)
{
    return strcmp(id->vendor, "AuthenticAMD") == 0 && id->family >= 0x19;
}

/* Intel cores on which 512-bit vectors lower the clock enough that 256-bit ones win
 * (Skylake-SP to Ice Lake and Tiger Lake, as libdeflate and Linux judge them). */
static int is_intel_512_costly(const struct crc_cpu_id *id)
{
    static const unsigned models[] = {0x55, 0x6a, 0x6c, 0x7d, 0x7e, 0x8c, 0x8d, 0xa7};
    if (strcmp(id->vendor, "GenuineIntel") != 0 || id->family != 6)
        return 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (id->model == models[i])
            return 1;
    return 0;
}

static int fam_zen4(const struct crc_cpu_id *id, uint32_t f)
{
    (void)f;
    return is_amd_zen4_or_later(id);
}

static int fam_intel_spr(const struct crc_cpu_id *id, uint32_t f)
{
    (void)f;
    return strcmp(id->vendor, "GenuineIntel") == 0 && id->family == 6 &&
           !is_intel_512_costly(id);
}

static int fam_intel_256(const struct crc_cpu_id *id, uint32_t f)
{
    (void)f;
    return is_intel_512_costly(id);
}

static int without_avx512(const struct crc_cpu_id *id, uint32_t f)
{
    (void)id;
    return (f & CRC_CPU_AVX512F) == 0;
}

static int anyone(const struct crc_cpu_id *id, uint32_t f)
{
    (void)id, (void)f;
    return 1;
}

/* First match wins: a family applies when its CPU test passes and the CPU (less any mask)
 * has every feature its table's paths execute. */
const struct crc_x86_family crc_x86_families[] = {
    {"zen4", BASE | GFNI_TIER, CRC_X86_TUNING_zen4, fam_zen4},
    {"intel-spr", BASE | GFNI_TIER, CRC_X86_TUNING_intel_spr, fam_intel_spr},
    {"intel-avx512-256", BASE | AVX2_TIER, CRC_X86_TUNING_intel_avx512_256, fam_intel_256},
    {"avx2-vpclmul", BASE | AVX2_TIER, CRC_X86_TUNING_avx2_vpclmul, without_avx512},
    {"generic-avx512-gfni", BASE | GFNI_TIER, &crc_x86_tuning_generic_avx512_gfni, anyone},
    {"generic-avx512", BASE | AVX512_TIER, &crc_x86_tuning_generic_avx512, anyone},
    {"generic-avx2", BASE | AVX2_TIER, &crc_x86_tuning_generic_avx2, anyone},
    {"generic-pclmul", BASE, &crc_x86_tuning_generic_pclmul, anyone},
};
#define FAMILIES (sizeof crc_x86_families / sizeof crc_x86_families[0])
const size_t crc_x86_family_count = FAMILIES;

enum crc_model_class crc_model_class_of(const crcforge_model *m)
{
    if (m->p.width < 8)
        return CRC_CLASSES;
    if (crc32c_serves(m))
        return CRC_CLASS_CRC32C;
    if (crc16_xmodem_serves(m))
        return CRC_CLASS_CRC16_XMODEM;
    return m->p.refin ? CRC_CLASS_REFLECTED : CRC_CLASS_MSB_FIRST;
}

/* ------------------------------------------------------------------------------------
 * CRCFORGE_TUNE: "family=NAME,fold_parallel_max=N,fold_accumulators=N,hybrid_qwords=N",
 * any of them, for sweeps and tests.  A value out of range or an unknown key is reported
 * on stderr and ignored.
 * ---------------------------------------------------------------------------------- */
struct overrides {
    long family; /* index, or -1 */
    long parallel_max, accumulators, qwords; /* -1: the table's */
};

static int number(const char *s, size_t len, long lo, long hi, long *out)
{
    char buf[16];
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    long v = strtol(buf, &end, 10);
    if (*end != '\0' || buf[0] < '0' || buf[0] > '9' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static void fill_overrides(void *obj, const void *unused)
{
    (void)unused;
    struct overrides o = {-1, -1, -1, -1};
    const char *env = getenv("CRCFORGE_TUNE");
    for (const char *s = env != NULL ? env : ""; *s;) {
        size_t len = strcspn(s, ","), key = strcspn(s, "=");
        const char *v = s + key + 1;
        size_t vlen = key < len ? len - key - 1 : 0;
        int ok = key < len;
        if (ok && key == 6 && strncmp(s, "family", 6) == 0) {
            ok = 0;
            for (size_t i = 0; i < FAMILIES; i++)
                if (strlen(crc_x86_families[i].name) == vlen &&
                    strncmp(crc_x86_families[i].name, v, vlen) == 0)
                    o.family = (long)i, ok = 1;
        } else if (ok && key == 17 && strncmp(s, "fold_parallel_max", 17) == 0) {
            ok = number(v, vlen, 0, CRC_FOLD_PARALLEL_MAX, &o.parallel_max);
        } else if (ok && key == 17 && strncmp(s, "fold_accumulators", 17) == 0) {
            ok = number(v, vlen, 1, 8, &o.accumulators) &&
                 (o.accumulators & (o.accumulators - 1)) == 0;
            if (!ok)
                o.accumulators = -1;
        } else if (ok && key == 13 && strncmp(s, "hybrid_qwords", 13) == 0) {
            ok = number(v, vlen, 1, CRC_HYBRID_QWORDS_MAX, &o.qwords);
        } else {
            ok = 0;
        }
        if (!ok && len > 0)
            fprintf(stderr, "crcforge: CRCFORGE_TUNE: '%.*s' ignored (keys: family, "
                            "fold_parallel_max 0..%d, fold_accumulators 1/2/4/8, "
                            "hybrid_qwords 1..%d)\n",
                    (int)len, s, CRC_FOLD_PARALLEL_MAX, CRC_HYBRID_QWORDS_MAX);
        s += len + (s[len] != '\0');
    }
    *(struct overrides *)obj = o;
}

/* Read once (so that each mistake is reported once). */
static struct overrides read_overrides(void)
{
    static crc_once_slot slot;
    return *(const struct overrides *)crc_once(&slot, sizeof(struct overrides), fill_overrides,
                                               NULL);
}

/* ------------------------------------------------------------------------------------
 * Plans.
 * ---------------------------------------------------------------------------------- */
struct banded {
    struct crc_impl record; /* what a model's selection points at */
    int usable;             /* every band's path is known here and runnable */
    uint32_t below[CRC_BANDS_MAX];
    crc_update_fn update[CRC_BANDS_MAX];
    crc32c_value_fn crc32c[CRC_BANDS_MAX];
    char name[CRC_BANDS_MAX * 48];
};

struct plan {
    struct crc_x86_tuning tuning; /* first: crc_x86_tuning_current points at it */
    struct banded classes[CRC_CLASSES];
    const char *family;
};

_Atomic(const struct crc_x86_tuning *) crc_x86_tuning_current;

static const struct plan *plan_in_use(void)
{
    return (const struct plan *)crc_x86_tuning();
}

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

/* The first update after the table was reset: resolved out of line, so that the
 * walkers keep no frame. */
static __attribute__((noinline, cold)) uint64_t walk_resolving(enum crc_model_class cls,
                                                              const crcforge_model *m,
                                                              uint64_t reg, const uint8_t *p,
                                                              size_t n);

/* The update of a banded record: the band n falls in.  (Key slots and short inputs of the
 * fixed entries never get here when a path of their own serves them.) */
#define BAND_WALKER(cls)                                                                   \
    static uint64_t walk_##cls(const crcforge_model *m, uint64_t reg, const uint8_t *p,    \
                               size_t n)                                                  \
    {                                                                                      \
        const struct plan *pl = (const struct plan *)atomic_load_explicit(                 \
            &crc_x86_tuning_current, memory_order_acquire);                                \
        if (pl == NULL)                                                                    \
            return walk_resolving(cls, m, reg, p, n);                                      \
        const struct banded *b = &pl->classes[cls];                                        \
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

static uint64_t walk_resolving(enum crc_model_class cls, const crcforge_model *m,
                               uint64_t reg, const uint8_t *p, size_t n)
{
    crc_x86_tuning_resolve();
    return class_ops[cls].walk(m, reg, p, n);
}

/* The banded record of one class: "PATH<BELOW,PATH<BELOW,...,PATH" is its name. */
static void build_banded(struct banded *b, const struct crc_band *bands, enum crc_model_class cls)
{
    memset(b, 0, sizeof *b);
    b->usable = 1;
    size_t used = 0;
    int one_band = 0;
    for (size_t i = 0; i < CRC_BANDS_MAX; i++) {
        const struct crc_impl *impl = crc_impl_lookup(bands[i].path);
        if (impl == NULL || !crc_impl_runnable(impl)) {
            b->usable = 0;
            return;
        }
        b->below[i] = bands[i].below;
        b->update[i] = impl->update;
        b->crc32c[i] = impl->crc32c;
        if (impl->prepare != NULL) /* before the record can be selected */
            impl->prepare();
        b->record.features |= impl->features;
        if (b->record.keyslot == NULL)
            b->record.keyslot = impl->keyslot;
        /* The lengths that run exactly the crc32 chain: from the first band on, as far as
         * each band's path runs it from the band's start (a chain band, then a three-chain
         * band whose path still chains its shortest inputs, go on as one). */
        const uint32_t start = i == 0 ? 0 : bands[i - 1].below;
        if (b->record.crc32_below == start && impl->crc32_below > start) {
            const uint32_t end = bands[i].below != 0 ? bands[i].below : UINT32_MAX;
            b->record.crc32_below = impl->crc32_below < end ? impl->crc32_below : end;
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
    if (b->crc32c[0] != NULL) { /* the first band's entry before any walk */
        b->record.crc32c = b->crc32c[0];
        b->record.crc32c_below = one_band ? UINT32_MAX : bands[0].below;
    }
    if (!one_band) {
        b->record.band_below = b->below;
        b->record.band_update = b->update;
        b->record.band_crc32c = b->crc32c;
    }
}

static void fill_plan(void *obj, const void *arg)
{
    struct plan *pl = obj;
    const struct crc_x86_family *family = arg;
    const struct crc_x86_tuning *table = family->table;
    const struct overrides o = read_overrides();
    pl->family = family->name;
    pl->tuning = *table;
    if (o.parallel_max >= 0)
        pl->tuning.fold_parallel_max = (uint32_t)o.parallel_max;
    if (o.accumulators >= 0)
        pl->tuning.fold_accumulators = (uint32_t)o.accumulators;
    if (o.qwords >= 0)
        pl->tuning.hybrid_qwords = (uint32_t)o.qwords;
    for (int c = 0; c < CRC_CLASSES; c++)
        build_banded(&pl->classes[c], table->bands[c], (enum crc_model_class)c);
}

static crc_once_slot plans[FAMILIES];

size_t crc_x86_family_of(const struct crc_cpu_id *id, uint32_t features)
{
    for (size_t i = 0; i < FAMILIES; i++)
        if (crc_x86_families[i].is(id, features) &&
            (features & crc_x86_families[i].features) == crc_x86_families[i].features)
            return i;
    return FAMILIES - 1; /* its parameters still serve the paths forced on such a CPU */
}

/* The family of this CPU (with its features in use), or CRCFORGE_TUNE's. */
static size_t family_index(void)
{
    const struct overrides o = read_overrides();
    if (o.family >= 0) {
        if (crc_cpu_has(crc_x86_families[o.family].features))
            return (size_t)o.family;
        fprintf(stderr, "crcforge: CRCFORGE_TUNE: family %s needs features this CPU lacks; "
                        "using its own\n",
                crc_x86_families[o.family].name);
    }
    struct crc_cpu_id id;
    crc_cpu_identify(&id);
    return crc_x86_family_of(&id, crc_cpu_features());
}

const struct crc_x86_tuning *crc_x86_tuning_resolve(void)
{
    const size_t i = family_index();
    const struct plan *pl = crc_once(&plans[i], sizeof *pl, fill_plan, &crc_x86_families[i]);
    atomic_store_explicit(&crc_x86_tuning_current, &pl->tuning, memory_order_release);
    return &pl->tuning;
}

void crc_x86_tuning_reset(void)
{
    atomic_store_explicit(&crc_x86_tuning_current, NULL, memory_order_release);
}

const struct crc_impl *crc_x86_tuned_impl(const crcforge_model *m)
{
    const enum crc_model_class cls = crc_model_class_of(m);
    if (cls == CRC_CLASSES)
        return NULL;
    const struct banded *b = &plan_in_use()->classes[cls];
    if (!b->usable)
        return NULL;
    return &b->record;
}

const char *crcforge_tuning_family(void)
{
    return plan_in_use()->family;
}

const char *crcforge_tuning_table(void)
{
    return plan_in_use()->tuning.family;
}
