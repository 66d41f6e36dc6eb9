/* SPDX-License-Identifier: MIT */
/*
 * The x86 tuning tables (src/x86/tuning.h), whatever CPU runs the test:
 *  - every family's table is well formed (bands in increasing order, ending with an
 *    open band; parameters and limits within the ranges the kernels take);
 *  - every band names a registry path that serves every catalogue model of its class and
 *    executes only features every CPU of the family has;
 *  - CPUs are sorted into the families they are (identities and feature sets of known
 *    CPUs: Zen 3, Zen 4, Emerald Rapids, Ice Lake-SP, Skylake-SP, and masks);
 * and, for each family whose features this CPU has, in a child process running with
 * CRCFORGE_TUNE=family=NAME: every catalogue model's CRC through the fixed entries and
 * crcforge_checksum at each band's edges (below - 1, below, below + 1) and random lengths,
 * against the bitwise reference, the key slots of keys of 0..80 bytes, the bands
 * `crcforge_impl_chosen` reports, which band's path the fixed entries call around every
 * edge (wrappers in the record's places), and a model's first update after the table was
 * reset.
 * Elsewhere than x86-64 there are no tables: the test says so and passes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "process.h"
#include "slot_rule.h"

#if defined(__x86_64__)
#include "x86/tuning.h"

static const struct crc_x86_tuning *tables_checked[16];

static void check_table(const struct crc_x86_family *fam)
{
    const struct crc_x86_tuning *t = fam->table;
    for (size_t i = 0; i < sizeof tables_checked / sizeof tables_checked[0]; i++) {
        if (tables_checked[i] == t)
            break; /* shared by several families: its paths checked against this one too */
        if (tables_checked[i] == NULL) {
            tables_checked[i] = t;
            break;
        }
    }
    CHECK(t->fold_parallel_max <= CRC_FOLD_PARALLEL_MAX, "%s: fold_parallel_max %u", fam->name,
          (unsigned)t->fold_parallel_max);
    CHECK(t->fold_accumulators >= 1 && t->fold_accumulators <= 8 &&
              (t->fold_accumulators & (t->fold_accumulators - 1)) == 0,
          "%s: fold_accumulators %u", fam->name, (unsigned)t->fold_accumulators);
    CHECK(t->hybrid_qwords >= 1 && t->hybrid_qwords <= CRC_HYBRID_QWORDS_MAX,
          "%s: hybrid_qwords %u", fam->name, (unsigned)t->hybrid_qwords);
    CHECK(t->crc32c_threeway_min >= CRC32C_THREEWAY_MIN_LEAST &&
              t->crc32c_threeway_min <= CRC32C_THREEWAY_MIN_MOST,
          "%s: crc32c_threeway_min %u", fam->name, (unsigned)t->crc32c_threeway_min);
    CHECK(t->crc32c_hybrid256_min >= CRC32C_HYBRID_MIN_LEAST &&
              t->crc32c_hybrid256_min <= CRC32C_HYBRID256_MIN_MOST,
          "%s: crc32c_hybrid256_min %u", fam->name, (unsigned)t->crc32c_hybrid256_min);
    CHECK(t->crc32c_hybrid512_min >= CRC32C_HYBRID_MIN_LEAST &&
              t->crc32c_hybrid512_min <= CRC32C_HYBRID512_MIN_MOST,
          "%s: crc32c_hybrid512_min %u", fam->name, (unsigned)t->crc32c_hybrid512_min);
    for (int c = 0; c < CRC_CLASSES; c++) {
        const struct crc_x86_band *b = t->bands[c];
        size_t count = 0;
        while (count < CRC_BANDS_MAX && b[count].path != NULL && b[count].below != 0)
            count++;
        CHECK(count < CRC_BANDS_MAX && b[count].path != NULL && b[count].below == 0,
              "%s class %d: the bands end with an open one", fam->name, c);
        for (size_t i = 0; i <= count && i < CRC_BANDS_MAX; i++) {
            if (b[i].path == NULL)
                break;
            if (i > 0 && i < count)
                CHECK(b[i].below > b[i - 1].below, "%s class %d band %zu: below %u after %u",
                      fam->name, c, i, (unsigned)b[i].below, (unsigned)b[i - 1].below);
            const struct crc_impl *impl = crc_impl_lookup(b[i].path);
            CHECK(impl != NULL, "%s class %d: unknown path %s", fam->name, c, b[i].path);
            if (impl == NULL)
                continue;
            CHECK((impl->features & ~fam->features) == 0,
                  "%s class %d: %s needs features the family does not guarantee (%#x of %#x)",
                  fam->name, c, impl->name, (unsigned)impl->features, (unsigned)fam->features);
            size_t served = 0;
            for (size_t k = 0; k < crc_catalogue_count; k++) {
                const crcforge_model *m = &crc_catalogue[k];
                if (crc_model_class_of(m) != (enum crc_model_class)c)
                    continue;
                served++;
                CHECK(impl->supports(m), "%s class %d: %s does not serve %s", fam->name, c,
                      impl->name, m->name);
            }
            CHECK(served > 0, "class %d has catalogue models", c);
        }
    }
}

/* Known CPUs and the family each must land in. */
static void check_families(void)
{
    const uint32_t base = CRC_CPU_KNOWN | CRC_CPU_SSE41 | CRC_CPU_SSE42 | CRC_CPU_PCLMUL;
    const uint32_t avx2 = base | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL;
    const uint32_t avx512 =
        avx2 | CRC_CPU_AVX512F | CRC_CPU_AVX512BW | CRC_CPU_AVX512VL | CRC_CPU_AVX512VBMI;
    const struct {
        const char *vendor;
        unsigned family, model;
        uint32_t features;
        const char *want;
    } cases[] = {
        {"AuthenticAMD", 0x19, 0x11, avx512 | CRC_CPU_GFNI, "zen4"},  /* EPYC 9004 */
        {"AuthenticAMD", 0x1a, 0x02, avx512 | CRC_CPU_GFNI, "zen5"},  /* EPYC 9005 */
        {"AuthenticAMD", 0x1a, 0x44, avx512 | CRC_CPU_GFNI, "zen5"},  /* Ryzen 9000 */
        {"AuthenticAMD", 0x1b, 0x00, avx512 | CRC_CPU_GFNI, "zen5"},  /* a later family */
        {"AuthenticAMD", 0x1a, 0x02, avx2, "avx2-vpclmul"},           /* Zen 5 masked */
        {"AuthenticAMD", 0x19, 0x01, avx2, "avx2-vpclmul"},           /* EPYC 7003 */
        {"AuthenticAMD", 0x19, 0x11, avx2, "avx2-vpclmul"},           /* Zen 4 masked */
        {"GenuineIntel", 6, 0xcf, avx512 | CRC_CPU_GFNI, "intel-spr"}, /* Emerald Rapids */
        {"GenuineIntel", 6, 0x8f, avx512 | CRC_CPU_GFNI, "intel-spr"}, /* Sapphire Rapids */
        {"GenuineIntel", 6, 0x6a, avx512 | CRC_CPU_GFNI, "intel-avx512-256"}, /* Ice Lake-SP */
        {"GenuineIntel", 6, 0x8c, avx512 | CRC_CPU_GFNI, "intel-avx512-256"}, /* Tiger Lake */
        {"GenuineIntel", 6, 0x55, base | CRC_CPU_AVX2 | CRC_CPU_AVX512F | CRC_CPU_AVX512BW |
                                      CRC_CPU_AVX512VL,
         "generic-pclmul"},                                          /* Skylake-SP: no VPCLMULQDQ */
        {"GenuineIntel", 6, 0x97, avx2 | CRC_CPU_GFNI, "avx2-vpclmul"}, /* Alder Lake */
        {"GenuineIntel", 6, 0x3f, base | CRC_CPU_AVX2, "generic-pclmul"}, /* Haswell */
        {"CentaurHauls", 7, 0x3b, avx512 | CRC_CPU_GFNI, "generic-avx512-gfni"},
        {"CentaurHauls", 7, 0x3b, avx512, "generic-avx512"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct crc_cpu_id id = {{0}, cases[i].family, cases[i].model};
        strcpy(id.vendor, cases[i].vendor);
        const char *got = crc_x86_families[crc_x86_family_of(&id, cases[i].features)].name;
        CHECK(strcmp(got, cases[i].want) == 0, "%s family %#x model %#x: %s, want %s",
              cases[i].vendor, cases[i].family, cases[i].model, got, cases[i].want);
    }
}

/* Lengths around every band edge of the table in use, and a few random ones. */
static size_t edges(size_t *len, size_t max)
{
    const struct crc_x86_tuning *t = crc_x86_tuning();
    size_t n = 0;
    for (int c = 0; c < CRC_CLASSES; c++)
        for (size_t i = 0; i < CRC_BANDS_MAX && t->bands[c][i].below != 0; i++)
            for (int d = -1; d <= 1 && n + 1 < max; d++)
                len[n++] = t->bands[c][i].below + (size_t)(long)d;
    len[n++] = 0;
    for (int r = 0; r < 8 && n < max; r++)
        len[n++] = (size_t)rnd_below(9000);
    return n;
}

/* The value on the portable engine (itself checked against the bitwise reference) for
 * lengths where the reference would take too long, else the reference. */
static uint64_t expected(const crcforge_model *m, const uint8_t *p, size_t n)
{
    if (n <= 65536)
        return crc_reference(&m->p, p, n);
    return crc_register_to_value(m, crc_table_update(m, crc_init_register(m), p, n, NULL));
}

/* The key slots take the table's CRC-16/XMODEM short path, or the best runnable one
 * with key-slot code: every key length 0..80 singly and in batches, some with a tag. */
static void check_keyslots_in_use(const char *name, const uint8_t *data)
{
    enum { KEYS = 81 };
    static uint8_t keybuf[KEYS][KEYS];
    const void *keys[KEYS];
    size_t lens[KEYS];
    uint16_t want[KEYS], got[KEYS];
    for (size_t n = 0; n < KEYS; n++) {
        uint8_t *key = keybuf[n];
        memcpy(key, data + n, n);
        if (n >= 6 && n % 3 == 0) { /* a hash tag: only the bytes inside it count */
            key[1] = '{';
            key[n - 2] = '}';
        }
        size_t hashed_len = n;
        const uint8_t *hashed = slot_rule_hashed(key, &hashed_len);
        want[n] = (uint16_t)(expected(crc_model_crc16_xmodem, hashed, hashed_len) & 16383);
        keys[n] = key;
        lens[n] = n;
        CHECK(crcforge_keyslot(key, n) == want[n], "%s crcforge_keyslot n=%zu", name, n);
    }
    crcforge_keyslots(keys, lens, KEYS, got);
    for (size_t n = 0; n < KEYS; n++)
        CHECK(got[n] == want[n], "%s crcforge_keyslots, key %zu", name, n);
}

/* A model resolved before crcforge_impl_force keeps its record (custom models are not
 * re-resolved), while the force empties the table in use: the record's next update must
 * resolve the table again before it walks the bands.  One custom model per class (a
 * catalogue model's parameters with another xorout), the table emptied before each length. */
static void check_walk_after_reset(const char *name, const uint8_t *data, const size_t *len,
                                   size_t count, const crcforge_model *const *first_of)
{
    for (int c = 0; c < CRC_CLASSES; c++) {
        crcforge_params p = first_of[c]->p;
        p.xorout ^= 1;
        crcforge_model *m = crcforge_model_new(&p, NULL);
        CHECK(m != NULL && crc_model_class_of(m) == (enum crc_model_class)c,
              "%s: a custom model like %s", name, first_of[c]->name);
        if (m == NULL)
            continue;
        (void)crcforge_checksum(m, data, 1); /* resolved: the class's record */
        for (size_t i = 0; i < count; i++) {
            crcforge_impl_force("auto", NULL);
            CHECK(crcforge_checksum(m, data, len[i]) == expected(m, data, len[i]),
                  "%s: custom %s-like model, first update after a reset, n=%zu", name,
                  first_of[c]->name, len[i]);
        }
        crcforge_model_free(m);
    }
}

/* The selection of m (resolved) holds the table's bands of m's class: each band's end,
 * and its path's update and value entries; the first band's value entries the selection's
 * own below the first band's end; the kernels handed the tuning's parameters. */
static void check_bands(const char *name, const crcforge_model *m)
{
    const struct crc_selection *s = crc_selected(m);
    const struct crc_x86_band *b = crc_x86_tuning()->bands[crc_model_class_of(m)];
    size_t bands = 1;
    while (bands < CRC_BANDS_MAX && b[bands - 1].below != 0)
        bands++;
    CHECK(s->bands == bands, "%s %s: %u bands, the table's %zu", name, m->name, s->bands,
          bands);
    for (size_t i = 0; i < bands && i < s->bands; i++) {
        const struct crc_impl *path = crc_impl_lookup(b[i].path);
        CHECK(s->band[i].below == (b[i].below != 0 ? b[i].below : SIZE_MAX) &&
                  s->band[i].update == path->update &&
                  memcmp(s->band[i].value, path->value, sizeof path->value) == 0,
              "%s %s: band %zu is not %s below %u", name, m->name, i, b[i].path,
              (unsigned)b[i].below);
    }
    const int first_values = crc_impl_lookup(b[0].path)->value[CRC_FIXED_CRC32C].w32 != NULL ||
                             crc_impl_lookup(b[0].path)->value[CRC_FIXED_CRC32].w32 != NULL;
    const size_t want_below = !first_values ? 0 : bands == 1 ? SIZE_MAX : b[0].below;
    CHECK(s->value_below == want_below, "%s %s: value entries below %zu, want %zu", name,
          m->name, s->value_below, want_below);
    CHECK(memcmp(&s->params, crc_x86_params(), sizeof s->params) == 0,
          "%s %s: the kernels are not handed the tuning's parameters", name, m->name);
}

/* Which band's path a fixed entry called: the record's places (its value entries, each
 * band's value entries and update) hold wrappers that note their band, then call what
 * was there.  Every path computes every length, so only this shows a call routed to
 * another band's path. */
static int reached; /* the band of the wrapper called; -1: none (the entry's own chain) */
static union crc_value_fn real_value[CRC_BANDS_MAX], real_record_value;
static crc_update_fn real_update[CRC_BANDS_MAX];
#define ROUTE_WRAPPERS(i)                                                                \
    static uint32_t value_##i(uint32_t crc, const void *buf, size_t n,                   \
                              const struct crc_params *k)                                \
    {                                                                                    \
        reached = i;                                                                     \
        return real_value[i].w32(crc, buf, n, k);                                        \
    }                                                                                    \
    static uint64_t update_##i(const crcforge_model *m, uint64_t reg, const uint8_t *p,    \
                               size_t n, const struct crc_params *k)                     \
    {                                                                                    \
        reached = i;                                                                     \
        return real_update[i](m, reg, p, n, k);                                          \
    }
ROUTE_WRAPPERS(0)
ROUTE_WRAPPERS(1)
ROUTE_WRAPPERS(2)
ROUTE_WRAPPERS(3)
ROUTE_WRAPPERS(4)
ROUTE_WRAPPERS(5)
_Static_assert(CRC_BANDS_MAX == 6, "a wrapper for each band");
static uint32_t (*const value_wrapper[CRC_BANDS_MAX])(uint32_t, const void *, size_t,
                                                      const struct crc_params *) = {
    value_0, value_1, value_2, value_3, value_4, value_5};
static const crc_update_fn update_wrapper[CRC_BANDS_MAX] = {update_0, update_1, update_2,
                                                            update_3, update_4, update_5};
static uint32_t record_value(uint32_t crc, const void *buf, size_t n, const struct crc_params *k)
{
    reached = 0; /* a selection's own entries are its first band's (bands.c) */
    return real_record_value.w32(crc, buf, n, k);
}

/* The fixed entry `entry` of m (a 32-bit one) at each length around every edge of m's
 * class (bands, the crc32 chain's end, the value entries' range)
 * and at three alignments: the band whose path it called must be the band of the length
 * in the table, or none below CRC-32C's own chain; and the value right. */
static void check_routing(const char *name, const uint8_t *data, const crcforge_model *m,
                          enum crc_fixed fixed, uint32_t (*entry)(uint32_t, const void *, size_t))
{
    (void)entry(0, data, 0); /* resolved */
    struct crc_selection *rec = (struct crc_selection *)crc_selected(m);
    const struct crc_x86_band *b = crc_x86_tuning()->bands[crc_model_class_of(m)];
    size_t bands = 1;
    while (bands < CRC_BANDS_MAX && b[bands - 1].below != 0)
        bands++;
    const crc_update_fn update_was = rec->update;
    const union crc_value_fn record_was = rec->value[fixed];
    for (size_t i = 0; i < bands; i++) {
        real_value[i] = rec->band[i].value[fixed];
        if (real_value[i].w32 != NULL)
            rec->band[i].value[fixed].w32 = value_wrapper[i];
        real_update[i] = rec->band[i].update;
        rec->band[i].update = update_wrapper[i];
    }
    if (bands == 1) { /* one band: the selection's update is the path's */
        real_update[0] = update_was;
        rec->update = update_wrapper[0];
    }
    real_record_value = record_was;
    if (record_was.w32 != NULL)
        rec->value[fixed].w32 = record_value;

    size_t marks[3 * CRC_BANDS_MAX + 8];
    size_t nmarks = 0;
    for (size_t i = 0; i + 1 < bands; i++)
        marks[nmarks++] = b[i].below;
    const size_t own_chain = fixed == CRC_FIXED_CRC32C ? rec->crc32_below : 0;
    const size_t more[] = {own_chain, rec->value_below};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        if (more[i] != 0 && more[i] < 65536)
            marks[nmarks++] = more[i];
    marks[nmarks++] = 1000;
    unsigned long wrong = 0, cases = 0;
    for (size_t k = 0; k < nmarks; k++) {
        for (int d = -1; d <= 1; d++) {
            const size_t n = marks[k] + (size_t)(long)d;
            size_t want = 0;
            while (want + 1 < bands && n >= b[want].below)
                want++;
            for (size_t off = 0; off < 64; off += 21) {
                reached = -1;
                const uint32_t got = entry(0, data + off, n);
                const int ok = reached == (n < own_chain ? -1 : (int)want) &&
                               got == (uint32_t)expected(m, data + off, n);
                wrong += !ok;
                cases++;
                if (!ok && wrong <= 3)
                    printf("  %s %s n=%zu at %zu: called band %d's path, the table's band %zu\n",
                           name, m->name, n, off, reached, want);
            }
        }
    }
    CHECK(wrong == 0, "%s %s: %lu of %lu calls not routed to their band's path", name,
          m->name, wrong, cases);

    rec->update = update_was;
    rec->value[fixed] = record_was;
    for (size_t i = 0; i < bands; i++) {
        rec->band[i].value[fixed] = real_value[i];
        rec->band[i].update = real_update[i];
    }
}

/* In a child run with CRCFORGE_TUNE=family=NAME. */
static void check_family_in_use(const char *name)
{
    CHECK(strcmp(crcforge_tuning_family(), name) == 0, "family in use %s, want %s",
          crcforge_tuning_family(), name);
    size_t len[64], longest = 0;
    const size_t count = edges(len, sizeof len / sizeof len[0]);
    for (size_t i = 0; i < count; i++)
        longest = len[i] > longest ? len[i] : longest;
    uint8_t *data = malloc(longest + 64);
    if (data == NULL)
        abort();
    rnd_fill(data, longest + 64);
    /* Inputs past 64 KiB (the bands' far edges) are checked on each class's first
     * catalogue model only: the others add time, not paths. */
    const crcforge_model *first_of[CRC_CLASSES + 1] = {0};
    for (size_t k = 0; k < crc_catalogue_count; k++) {
        const enum crc_model_class c = crc_model_class_of(&crc_catalogue[k]);
        if (first_of[c] == NULL)
            first_of[c] = &crc_catalogue[k];
    }
    for (size_t k = 0; k < crc_catalogue_count; k++) {
        const crcforge_model *m = &crc_catalogue[k];
        const enum crc_model_class c = crc_model_class_of(m);
        if (c != CRC_CLASSES) {
            const char *chosen = crcforge_impl_chosen(m);
            const struct crc_x86_band *b = crc_x86_tuning()->bands[c];
            CHECK(strncmp(chosen, b[0].path, strlen(b[0].path)) == 0,
                  "%s: chosen %s, the table's first band is %s", m->name, chosen, b[0].path);
        }
        for (size_t i = 0; i < count; i++) {
            const size_t off = (size_t)rnd_below(64), n = len[i];
            if (n > 65536 && m != first_of[c])
                continue;
            CHECK(crcforge_checksum(m, data + off, n) == expected(m, data + off, n), "%s %s n=%zu",
                  name, m->name, n);
        }
    }
    /* crcforge_crc32c runs the crc32 chain itself below the record's crc32_below: from
     * the first band on, as far as each band's path runs one chain from the band's start
     * (crc32c_x86_sse42 every length, the three-chain path below crc32c_threeway_min, the
     * vector paths below their crc32_below), and no further than that band's end. */
    const struct crc_x86_band *c32 = crc_x86_tuning()->bands[CRC_CLASS_CRC32C];
    uint32_t want = 0;
    for (size_t i = 0; i < CRC_BANDS_MAX; i++) {
        const uint32_t start = i == 0 ? 0 : c32[i - 1].below;
        const uint32_t end = c32[i].below != 0 ? c32[i].below : UINT32_MAX;
        const struct crc_impl *k = crc_impl_lookup(c32[i].path);
        const uint32_t chain = strcmp(c32[i].path, "crc32c_x86_sse42_3way") == 0
                                   ? crc_x86_tuning()->crc32c_threeway_min
                               : strcmp(c32[i].path, "crc32c_x86_sse42") == 0 ? UINT32_MAX
                               : k->crc32_below != NULL ? k->crc32_below(crc_x86_params())
                                                        : 0;
        if (want != start || chain <= start)
            break;
        want = chain < end ? chain : end;
        if (c32[i].below == 0)
            break;
    }
    CHECK(crc_selected(crc_model_crc32c)->crc32_below == want,
          "%s: CRC-32C runs its own chain below %u, want %u", name,
          (unsigned)crc_selected(crc_model_crc32c)->crc32_below, (unsigned)want);
    check_bands(name, crc_model_crc32c);
    check_bands(name, crc_model_crc32);
    check_routing(name, data, crc_model_crc32c, CRC_FIXED_CRC32C, crcforge_crc32c);
    check_routing(name, data, crc_model_crc32, CRC_FIXED_CRC32, crcforge_crc32);
    for (size_t i = 0; i < count; i++) {
        const size_t n = len[i];
        CHECK(crcforge_crc32c(0, data, n) == expected(crc_model_crc32c, data, n),
              "%s crcforge_crc32c n=%zu", name, n);
        CHECK(crcforge_crc32(0, data, n) == expected(crc_model_crc32, data, n),
              "%s crcforge_crc32 n=%zu", name, n);
        CHECK(crcforge_crc64_nvme(0, data, n) == expected(crc_model_crc64_nvme, data, n),
              "%s crcforge_crc64_nvme n=%zu", name, n);
        CHECK(crcforge_crc64_xz(0, data, n) == expected(crc_model_crc64_xz, data, n),
              "%s crcforge_crc64_xz n=%zu", name, n);
        CHECK(crcforge_crc16_xmodem(0, data, n) == expected(crc_model_crc16_xmodem, data, n),
              "%s crcforge_crc16_xmodem n=%zu", name, n);
    }
    check_keyslots_in_use(name, data);
    check_walk_after_reset(name, data, len, count, first_of);
    free(data);
}

/* Each family this CPU can run, in a child process of its own. */
static void check_each_family(const char *self)
{
    for (size_t f = 0; f < crc_x86_family_count; f++) {
        const struct crc_x86_family *fam = &crc_x86_families[f];
        if (!crc_cpu_has(fam->features)) {
            SKIP("family %s: this CPU lacks its features", fam->name);
            continue;
        }
        fflush(NULL);
#if defined(_WIN32)
        char env[64];
        snprintf(env, sizeof env, "CRCFORGE_TUNE=family=%s", fam->name);
        const char *args[] = {"--family", fam->name, NULL}, *envs[] = {env, NULL};
        int status = process_run_self(args, envs);
        (void)self;
#else
        pid_t pid = fork();
        if (pid == 0) {
            char env[64];
            snprintf(env, sizeof env, "family=%s", fam->name);
            setenv("CRCFORGE_TUNE", env, 1);
            execl(self, self, "--family", fam->name, (char *)NULL);
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
#endif
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "family %s: child exit %d",
              fam->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}
#endif

int main(int argc, char **argv)
{
    check_begin("test_tuning");
#if defined(__x86_64__)
    if (argc == 3 && strcmp(argv[1], "--family") == 0) {
        check_family_in_use(argv[2]);
        return check_end();
    }
    for (size_t f = 0; f < crc_x86_family_count; f++)
        check_table(&crc_x86_families[f]);
    check_families();
    check_each_family("/proc/self/exe");
#else
    (void)argc, (void)argv;
    SKIP("no tuning tables on this architecture");
#endif
    return check_end();
}
