/* SPDX-License-Identifier: MIT */
/*
 * aarch64: the CRC-32C and CRC-32 hybrids (arm/crc32_hybrid_template.h) with every shape
 * compiled, in both tiers, against the bitwise reference from a random start register,
 * and the ARM families (arm/tuning.c) on recorded answers:
 *  - each shape with its passes from the first whole iteration (hybrid_min 0) at every
 *    length 0..4096 at alignments 0, 1, 15 and 63, and flush against the guard page after
 *    the data; at random lengths up to three of its longest passes, and at the lengths
 *    around one and two of them (test_engines sweeps the registry's paths, with the
 *    family's shape, at every alignment 0..63);
 *  - the value entries of the CRC-32C and CRC-32 paths on the crc32 instruction (what
 *    crcforge_crc32c and crcforge_crc32 call in their place: test_engines sweeps only
 *    CRC-32C's through its public entry) at every length 0..4096 at alignments 0, 1, 15
 *    and 63, and at a few longer lengths;
 *  - implementer, part (or, on macOS, hw.cpufamily) and features in, the family and the
 *    paths it prefers out; every table names a compiled shape and registry paths.
 * A tier this CPU cannot run is reported as skipped.
 */
#include <string.h>

#include "check.h"
#include "guarded.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "arm/crc32_hybrid.h"
#include "arm/impls.h"
#include "arm/tuning.h"

#define SWEEP_MAX 4096
/* Three passes of the longest shape (q = 2: 512 iterations of 144 bytes) and a little. */
#define DATA_MAX (3u * 512u * 144u + 4096u)

typedef uint64_t (*with_fn)(int poly, uint64_t reg, const uint8_t *p, size_t n, size_t shape,
                            size_t min);

static const struct {
    const char *name;
    uint32_t features;
    with_fn with;
} tiers[] = {
    {"hybrid_eor3", CRC_FEATURES_arm_hybrid_eor3, crc_arm_hybrid_eor3_with},
    {"hybrid", CRC_FEATURES_arm_hybrid, crc_arm_hybrid_with},
};

static uint8_t *data;
static uint32_t *expected; /* expected[n]: the register after data[0..n) from start */
static uint32_t start;
static struct guarded g;

static void reference(const crcforge_model *m)
{
    uint32_t reg = start;
    expected[0] = reg;
    for (size_t n = 1; n <= DATA_MAX; n++) {
        reg = (uint32_t)crc_reference_update(&m->p, reg, data + n - 1, 1);
        expected[n] = reg;
    }
}

static int agrees(with_fn f, int poly, size_t shape, const uint8_t *buf, size_t n, size_t min)
{
    return (uint32_t)f(poly, start, buf, n, shape, min) == expected[n];
}

static void shapes(with_fn f, const char *tier, int poly, const char *model)
{
    static const size_t aligns[] = {0, 1, 15, 63};
    for (size_t s = 0; s < CRC_ARM_HYBRID_SHAPE_COUNT; s++) {
        const struct crc_arm_hybrid_shape *sh = &crc_arm_hybrid_shapes[s];
        const size_t block = 16 * sh->accumulators + 8 * sh->qwords * sh->chains;
        const size_t pass = block * (CRC32_JOIN_MAX / (8 * sh->qwords));
        unsigned long bad = 0, cases = 0;
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
            uint8_t *buf = g.start + aligns[a];
            memcpy(buf, data, SWEEP_MAX);
            for (size_t n = 0; n <= SWEEP_MAX; n++, cases++)
                bad += !agrees(f, poly, s, buf, n, 0);
        }
        for (size_t n = 0; n <= SWEEP_MAX; n++, cases++) {
            memcpy(g.end - n, data, n);
            bad += !agrees(f, poly, s, g.end - n, n, 0);
        }
        memcpy(g.start, data, DATA_MAX);
        for (size_t k = 1; k <= 2; k++)
            for (size_t n = k * pass - block; n <= k * pass + block; n++, cases++)
                bad += !agrees(f, poly, s, g.start, n, 0);
        for (int r = 0; r < 24; r++, cases += 2) {
            const size_t n = rnd_below(DATA_MAX + 1);
            bad += !agrees(f, poly, s, g.start, n, 0);
            bad += !agrees(f, poly, s, g.start, n, rnd_below(8192));
        }
        CHECK(bad == 0, "%s %s %s: %lu of %lu lengths differ from the reference", tier,
              sh->name, model, bad, cases);
    }
}

/* Recorded answers: who the core is, its features, the family and its CRC-32C, CRC-32
 * and CRC-64 paths. */
static const struct answer {
    const char *vendor;
    unsigned implementer, part;
    uint32_t features;
    const char *family, *crc32c, *crc32, *crc64;
} answers[] = {
#define ALL (CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL | CRC_CPU_ARM_SHA3)
#define NO_SHA3 (CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL)
    {"", 0x41, 0xd0c, NO_SHA3, "neoverse-n1", "crc32c_arm_hybrid", "crc32_arm_hybrid",
     "fold_arm_pmull"},
    {"", 0x41, 0xd40, ALL, "neoverse-v1", "crc32c_arm_hybrid_eor3", "crc32_arm_hybrid_eor3",
     "fold_arm_pmull_eor3"},
    {"", 0x41, 0xd4f, ALL, "neoverse-v2", "crc32c_arm_hybrid_eor3", "crc32_arm_hybrid_eor3",
     "fold_arm_pmull_eor3"},
    {"", 0x41, 0xd49, ALL, "neoverse-n2", "crc32c_arm_hybrid_eor3", "crc32_arm_hybrid_eor3",
     "fold_arm_pmull_eor3"},
    /* A family's paths need its features: V2 without SHA3 (masked) is no V2. */
    {"", 0x41, 0xd4f, NO_SHA3, "generic", NULL, NULL, NULL},
    {"", 0x41, 0xd0c, CRC_CPU_ARM_CRC32, "generic", NULL, NULL, NULL},
    /* Cortex-A53, Cortex-A72, AmpereOne, qemu's max, nothing known. */
    {"", 0x41, 0xd03, NO_SHA3, "generic", NULL, NULL, NULL},
    {"", 0x41, 0xd08, NO_SHA3, "generic", NULL, NULL, NULL},
    {"", 0xc0, 0xac3, ALL, "generic", NULL, NULL, NULL},
    {"", 0x00, 0x051, ALL, "generic", NULL, NULL, NULL},
    {"", 0, 0, ALL, "generic", NULL, NULL, NULL},
    /* macOS: hw.cpufamily of M1, M2, M3, M4; an unknown one. */
    {"Apple", 0x1b588bb3, 0, ALL, "apple-m", "crc32c_arm_hybrid_eor3", "crc32_arm_hybrid_eor3",
     "fold_arm_pmull_eor3"},
    {"Apple", 0xda33d83d, 0, ALL, "apple-m", "crc32c_arm_hybrid_eor3", "crc32_arm_hybrid_eor3",
     "fold_arm_pmull_eor3"},
    {"Apple", 0xfa33415e, 0, ALL, "apple-m", "crc32c_arm_hybrid_eor3", "crc32_arm_hybrid_eor3",
     "fold_arm_pmull_eor3"},
    {"Apple", 0x6f5129ac, 0, ALL, "apple-m", "crc32c_arm_hybrid_eor3", "crc32_arm_hybrid_eor3",
     "fold_arm_pmull_eor3"},
    {"Apple", 0x12345678, 0, ALL, "generic", NULL, NULL, NULL},
    /* A16 (an iPhone's Everest/Sawtooth): no M-series core. */
    {"Apple", 0x8765edea, 0, ALL, "generic", NULL, NULL, NULL},
    /* An implementer's number is no Apple cpufamily, nor the reverse. */
    {"", 0x1b588bb3, 0, ALL, "generic", NULL, NULL, NULL},
    {"Apple", 0x41, 0xd4f, ALL, "generic", NULL, NULL, NULL},
#undef ALL
#undef NO_SHA3
};

static int same(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void families(void)
{
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        const struct answer *w = &answers[i];
        struct crc_cpu_id id;
        memset(&id, 0, sizeof id);
        strcpy(id.vendor, w->vendor);
        id.family = w->implementer;
        id.model = w->part;
        const struct crc_arm_family *f = &crc_arm_families[crc_arm_family_of(&id, w->features)];
        const struct crc_arm_tuning *t = f->table;
        CHECK(strcmp(f->name, w->family) == 0, "'%s' 0x%x/0x%x: family %s, want %s", w->vendor,
              w->implementer, w->part, f->name, w->family);
        CHECK(same(t->paths[CRC_ARM_CLASS_CRC32C], w->crc32c) &&
                  same(t->paths[CRC_ARM_CLASS_CRC32], w->crc32) &&
                  same(t->paths[CRC_ARM_CLASS_REFLECTED], w->crc64),
              "'%s' 0x%x/0x%x: paths %s %s %s", w->vendor, w->implementer, w->part,
              t->paths[CRC_ARM_CLASS_CRC32C] ? t->paths[CRC_ARM_CLASS_CRC32C] : "(registry)",
              t->paths[CRC_ARM_CLASS_CRC32] ? t->paths[CRC_ARM_CLASS_CRC32] : "(registry)",
              t->paths[CRC_ARM_CLASS_REFLECTED] ? t->paths[CRC_ARM_CLASS_REFLECTED]
                                                : "(registry)");
    }
    /* Every table: a compiled shape, paths of the registry executing only its features. */
    for (size_t i = 0; i < CRC_ARM_FAMILIES; i++) {
        const struct crc_arm_tuning *t = crc_arm_families[i].table;
        CHECK(crc_arm_hybrid_shape_index(t->hybrid_shape, strlen(t->hybrid_shape)) >= 0,
              "%s: shape %s is not compiled", crc_arm_families[i].name, t->hybrid_shape);
        CHECK(t->hybrid_min <= CRC_ARM_HYBRID_MIN_MOST, "%s: hybrid_min %u",
              crc_arm_families[i].name, (unsigned)t->hybrid_min);
        for (int c = 0; c < CRC_ARM_CLASSES; c++) {
            if (t->paths[c] == NULL)
                continue;
            const struct crc_impl *impl = crc_impl_lookup(t->paths[c]);
            CHECK(impl != NULL && (impl->features & ~crc_arm_families[i].features) == 0,
                  "%s: path %s unknown, or executes more than the family's features",
                  crc_arm_families[i].name, t->paths[c]);
        }
    }
}

/* The value entries of the ARM paths serving the model of `fixed` (its registers from start
 * are expected[], the value is their inversion). */
static void value_entries(enum crc_fixed fixed, const crcforge_model *m)
{
    static const size_t aligns[] = {0, 1, 15, 63};
    for (size_t k = 0; k < crcforge_impl_count(); k++) {
        const struct crc_impl *path = crc_impl_lookup(crcforge_impl_name(k));
        if (path == &crc_impl_portable || path->value[fixed].w32 == NULL || !path->supports(m))
            continue;
        if (!crc_impl_runnable(path)) {
            SKIP("%s's value entry: not runnable on this CPU", path->name);
            continue;
        }
        const struct crc_params *params = &crc_pinned(path)->params; /* the tuning's */
        unsigned long bad = 0, cases = 0;
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
            uint8_t *buf = g.start + aligns[a];
            memcpy(buf, data, DATA_MAX);
            for (size_t n = 0; n <= SWEEP_MAX; n++, cases++)
                bad += ~path->value[fixed].w32(~start, buf, n, params) != expected[n];
            for (int r = 0; r < 8; r++, cases++) {
                const size_t n = rnd_below(DATA_MAX - 64);
                bad += ~path->value[fixed].w32(~start, buf, n, params) != expected[n];
            }
        }
        CHECK(bad == 0, "%s's value entry: %lu of %lu lengths differ from the reference",
              path->name, bad, cases);
    }
}

int main(void)
{
    check_begin("test_arm_tuning");
    families();
    data = malloc(DATA_MAX);
    expected = malloc((DATA_MAX + 1) * sizeof *expected);
    if (data == NULL || expected == NULL || guarded_alloc(&g, DATA_MAX + 64) != 0) {
        CHECK(0, "out of memory");
        return check_end();
    }
    rnd_fill(data, DATA_MAX);
    static const char *const models[] = {"CRC-32/ISCSI", "CRC-32/ISO-HDLC"};
    for (int poly = 0; poly < 2; poly++) {
        start = (uint32_t)rnd64();
        reference(crcforge_model_find(models[poly]));
        value_entries(poly == 0 ? CRC_FIXED_CRC32C : CRC_FIXED_CRC32,
                      crcforge_model_find(models[poly]));
        for (size_t t = 0; t < sizeof tiers / sizeof tiers[0]; t++) {
            if (!crc_cpu_has(tiers[t].features)) {
                SKIP("the %s tier: not runnable on this CPU", tiers[t].name);
                continue;
            }
            shapes(tiers[t].with, tiers[t].name, poly, models[poly]);
        }
    }
    return check_end();
}
