/* SPDX-License-Identifier: MIT */
/*
 * The families and their tables (tuning.h), and CRCFORGE_TUNE.
 *
 * A plan is a family's table with CRCFORGE_TUNE's values applied: derived data (pure: the
 * table and the environment), built once per family (crc_once); the plan in use is a
 * selection that crcforge_impl_force resets, since a CPU mask set for a test may change the
 * family.  Problems with CRCFORGE_TUNE are noted for crcforge_env_problem_at, never printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpu.h"
#include "../environment.h"
#include "tuning.h"

#include "tuning/generic.h"
#include "tuning/zen4.h"
#include "tuning/zen5.h"
#include "tuning/intel-spr.h"
#include "tuning/intel-avx512-256.h"
#include "tuning/avx2-vpclmul.h"

#define AVX512_TIER CRC_FEATURES_x86_vpclmul_avx512
#define GFNI_TIER (AVX512_TIER | CRC_FEATURES_x86_gfni_avx512)
#define AVX2_TIER CRC_FEATURES_x86_vpclmul_avx2
#define BASE (CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_SSE41)

/* Family 25 (0x19) holds Zen 3 and Zen 4: the features (AVX-512) tell them apart. */
static int is_amd_family_25(const struct crc_cpu_id *id)
{
    return strcmp(id->vendor, "AuthenticAMD") == 0 && id->family == 0x19;
}

/* Zen 5 is family 26 (0x1a); later families run its table until they have their own. */
static int is_amd_zen5_or_later(const struct crc_cpu_id *id)
{
    return strcmp(id->vendor, "AuthenticAMD") == 0 && id->family >= 0x1a;
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
    return is_amd_family_25(id);
}

static int fam_zen5(const struct crc_cpu_id *id, uint32_t f)
{
    (void)f;
    return is_amd_zen5_or_later(id);
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
const struct crc_x86_family crc_x86_families[CRC_X86_FAMILIES] = {
    {"zen5", BASE | GFNI_TIER, CRC_X86_TUNING_zen5, fam_zen5},
    {"zen4", BASE | GFNI_TIER, CRC_X86_TUNING_zen4, fam_zen4},
    {"intel-spr", BASE | GFNI_TIER, CRC_X86_TUNING_intel_spr, fam_intel_spr},
    {"intel-avx512-256", BASE | AVX2_TIER, CRC_X86_TUNING_intel_avx512_256, fam_intel_256},
    {"avx2-vpclmul", BASE | AVX2_TIER, CRC_X86_TUNING_avx2_vpclmul, without_avx512},
    {"generic-avx512-gfni", BASE | GFNI_TIER, &crc_x86_tuning_generic_avx512_gfni, anyone},
    {"generic-avx512", BASE | AVX512_TIER, &crc_x86_tuning_generic_avx512, anyone},
    {"generic-avx2", BASE | AVX2_TIER, &crc_x86_tuning_generic_avx2, anyone},
    {"generic-pclmul", BASE, &crc_x86_tuning_generic_pclmul, anyone},
};
#define FAMILIES CRC_X86_FAMILIES
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
 * CRCFORGE_TUNE: "family=NAME,KEY=N,...", any of the keys below, for sweeps and tests.
 * An item that is not one of them, or whose value is out of the key's range, is noted and
 * ignored: the table's value stays.
 * ---------------------------------------------------------------------------------- */
#define TUNE "CRCFORGE_TUNE"

/* The numeric keys: where their value goes in a table, and its range. */
static const struct {
    const char *key;
    size_t offset;
    uint32_t least, most;
    int power_of_two;
} tune_keys[] = {
    {"fold_parallel_max", offsetof(struct crc_x86_tuning, fold_parallel_max), 0,
     CRC_FOLD_PARALLEL_MAX, 0},
    {"fold_accumulators", offsetof(struct crc_x86_tuning, fold_accumulators), 1, 8, 1},
    {"hybrid_qwords", offsetof(struct crc_x86_tuning, hybrid_qwords), 1, CRC_HYBRID_QWORDS_MAX,
     0},
    {"crc32c_threeway_min", offsetof(struct crc_x86_tuning, crc32c_threeway_min),
     CRC32C_THREEWAY_MIN_LEAST, CRC32C_THREEWAY_MIN_MOST, 0},
    {"crc32c_hybrid256_min", offsetof(struct crc_x86_tuning, crc32c_hybrid256_min),
     CRC32C_HYBRID_MIN_LEAST, CRC32C_HYBRID256_MIN_MOST, 0},
    {"crc32c_hybrid512_min", offsetof(struct crc_x86_tuning, crc32c_hybrid512_min),
     CRC32C_HYBRID_MIN_LEAST, CRC32C_HYBRID512_MIN_MOST, 0},
};
#define TUNE_KEYS (sizeof tune_keys / sizeof tune_keys[0])

struct overrides {
    long family;            /* index, or -1 */
    long values[TUNE_KEYS]; /* -1: the table's */
};

/* A decimal number of len bytes at s, within [least, most]. */
static int number(const char *s, size_t len, uint32_t least, uint32_t most, long *out)
{
    char buf[16];
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    long v = strtol(buf, &end, 10);
    if (*end != '\0' || buf[0] < '0' || buf[0] > '9' || v < (long)least || v > (long)most)
        return 0;
    *out = v;
    return 1;
}

/* "NAME, NAME, ..." of the families (family != 0) or of the keys, for a note. */
static const char *names_text(char *text, size_t size, int family)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < (family ? FAMILIES : TUNE_KEYS) && used < size; i++)
        used += (size_t)snprintf(text + used, size - used, "%s%s", i ? ", " : "",
                                 family ? crc_x86_families[i].name : tune_keys[i].key);
    return text;
}

/* One item "KEY=VALUE" of len bytes at s, into o; noted when it is no use. */
static void read_item(const char *env, const char *s, size_t len, void *ctx)
{
    struct overrides *o = ctx;
    char names[FAMILIES * 24];
    const size_t key = strcspn(s, "=");
    const char *v = s + key + 1;
    const size_t vlen = key < len ? len - key - 1 : 0;
    if (key < len && key == 6 && strncmp(s, "family", 6) == 0) {
        for (size_t i = 0; i < FAMILIES; i++) {
            if (strlen(crc_x86_families[i].name) == vlen &&
                strncmp(crc_x86_families[i].name, v, vlen) == 0) {
                o->family = (long)i;
                return;
            }
        }
        crc_env_note(TUNE, env, "ignored it: the CPU's own family",
                     "'%.*s': no such family (%s)", (int)len, s,
                     names_text(names, sizeof names, 1));
        return;
    }
    for (size_t k = 0; key < len && k < TUNE_KEYS; k++) {
        if (strlen(tune_keys[k].key) != key || strncmp(s, tune_keys[k].key, key) != 0)
            continue;
        long n;
        if (number(v, vlen, tune_keys[k].least, tune_keys[k].most, &n) &&
            (!tune_keys[k].power_of_two || (n & (n - 1)) == 0)) {
            o->values[k] = n;
            return;
        }
        crc_env_note(TUNE, env, "ignored it: the table's value",
                     tune_keys[k].power_of_two ? "'%.*s': %s takes a power of two from %u to %u"
                                               : "'%.*s': %s takes a number from %u to %u",
                     (int)len, s, tune_keys[k].key, (unsigned)tune_keys[k].least,
                     (unsigned)tune_keys[k].most);
        return;
    }
    crc_env_note(TUNE, env, "ignored it",
                 key < len ? "'%.*s': unknown key (keys: family, %s)"
                           : "'%.*s' is not KEY=VALUE (keys: family, %s)",
                 (int)len, s, names_text(names, sizeof names, 0));
}

static void fill_overrides(void *obj, const void *unused)
{
    (void)unused;
    struct overrides o = {.family = -1};
    for (size_t k = 0; k < TUNE_KEYS; k++)
        o.values[k] = -1;
    crc_env_each_item(getenv(TUNE), read_item, &o);
    *(struct overrides *)obj = o;
}

/* Read once (the notes of its mistakes are made then). */
static struct overrides read_overrides(void)
{
    static crc_once_slot slot;
    return *(const struct overrides *)crc_once(&slot, sizeof(struct overrides), fill_overrides,
                                               NULL);
}

/* ------------------------------------------------------------------------------------
 * Plans.
 * ---------------------------------------------------------------------------------- */
struct plan {
    struct crc_x86_tuning tuning;
    struct crc_params params; /* the kernels' parameters tuning gives */
    size_t family;            /* its index in crc_x86_families */
    /* "KEY=N,..." of every key: tuning's, and its family's table's as written */
    char parameters[TUNE_KEYS * 32], table_parameters[TUNE_KEYS * 32];
};

/* "KEY=N,..." of every key of table t into text. */
static void parameters_text(char *text, size_t size, const struct crc_x86_tuning *t)
{
    size_t used = 0;
    for (size_t k = 0; k < TUNE_KEYS && used < size; k++)
        used += (size_t)snprintf(text + used, size - used, "%s%s=%u", k ? "," : "",
                                 tune_keys[k].key,
                                 (unsigned)*(const uint32_t *)((const char *)t +
                                                               tune_keys[k].offset));
}

static _Atomic(const struct plan *) current;

static void fill_plan(void *obj, const void *arg)
{
    struct plan *pl = obj;
    const struct crc_x86_family *family = arg;
    const struct overrides o = read_overrides();
    pl->family = (size_t)(family - crc_x86_families);
    pl->tuning = *family->table;
    for (size_t k = 0; k < TUNE_KEYS; k++)
        if (o.values[k] >= 0)
            *(uint32_t *)((char *)&pl->tuning + tune_keys[k].offset) = (uint32_t)o.values[k];
    const struct crc_x86_tuning *t = &pl->tuning;
    pl->params = (struct crc_params){.fold_parallel_max = t->fold_parallel_max,
                                     .fold_accumulators = t->fold_accumulators,
                                     .hybrid_qwords = t->hybrid_qwords,
                                     .crc32c_threeway_min = t->crc32c_threeway_min,
                                     .crc32c_hybrid256_min = t->crc32c_hybrid256_min,
                                     .crc32c_hybrid512_min = t->crc32c_hybrid512_min};
    parameters_text(pl->parameters, sizeof pl->parameters, &pl->tuning);
    parameters_text(pl->table_parameters, sizeof pl->table_parameters, family->table);
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
        crc_env_note(TUNE, getenv(TUNE), "ignored it: the CPU's own family",
                     "family=%s: this CPU lacks features its paths execute",
                     crc_x86_families[o.family].name);
    }
    struct crc_cpu_id id;
    crc_cpu_identify(&id);
    return crc_x86_family_of(&id, crc_cpu_features());
}

static const struct plan *plan_in_use(void)
{
    const struct plan *pl = atomic_load_explicit(&current, memory_order_acquire);
    if (pl != NULL)
        return pl;
    const size_t i = family_index();
    pl = crc_once(&plans[i], sizeof *pl, fill_plan, &crc_x86_families[i]);
    atomic_store_explicit(&current, pl, memory_order_release);
    return pl;
}

const struct crc_x86_tuning *crc_x86_tuning(void)
{
    return &plan_in_use()->tuning;
}

const struct crc_params *crc_x86_params(void)
{
    return &plan_in_use()->params;
}

void crc_x86_tuning_reset(void)
{
    atomic_store_explicit(&current, NULL, memory_order_release);
}

size_t crc_x86_family_in_use(void)
{
    return plan_in_use()->family;
}

const char *crcforge_tuning_family(void)
{
    return crc_x86_families[plan_in_use()->family].name;
}

const char *crcforge_tuning_table(void)
{
    return plan_in_use()->tuning.family;
}

const char *crcforge_tuning_source(void)
{
    return plan_in_use()->tuning.source;
}

const char *crcforge_tuning_parameters(void)
{
    return plan_in_use()->parameters;
}

const char *crcforge_tuning_table_parameters(void)
{
    return plan_in_use()->table_parameters;
}
