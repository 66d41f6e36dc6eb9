/* SPDX-License-Identifier: MIT */
/*
 * The ARM families and their tables (tuning.h), and CRCFORGE_TUNE on aarch64:
 * "family=NAME,hybrid_shape=NAME,hybrid_min=N".  An item that is not one of these, or whose
 * value is out of range, is noted (crcforge_env_problem_at) and ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpu.h"
#include "../environment.h"
#include "../registry.h"
#include "crc32_hybrid.h"
#include "impls.h"
#include "tuning.h"

#include "tuning/generic.h"
#include "tuning/neoverse-n1.h"
#include "tuning/neoverse-v1.h"
#include "tuning/neoverse-v2.h"
#include "tuning/neoverse-n2.h"
#include "tuning/apple-m.h"

enum { ARM = 0x41 }; /* the MIDR implementer of Arm Ltd. */

static int is_arm_part(const struct crc_cpu_id *id, unsigned part)
{
    return id->vendor[0] == '\0' && id->family == ARM && id->model == part;
}

static int fam_neoverse_n1(const struct crc_cpu_id *id)
{
    return is_arm_part(id, 0xd0c);
}

static int fam_neoverse_v1(const struct crc_cpu_id *id)
{
    return is_arm_part(id, 0xd40);
}

static int fam_neoverse_v2(const struct crc_cpu_id *id)
{
    return is_arm_part(id, 0xd4f);
}

static int fam_neoverse_n2(const struct crc_cpu_id *id)
{
    return is_arm_part(id, 0xd49);
}

int crc_arm_apple_m(uint32_t cpufamily)
{
    /* hw.cpufamily of M1 (Firestorm/Icestorm), M2 (Avalanche/Blizzard), M3 (Ibiza, Lobos,
     * Palma), M4 (Donan, Brava) and M5 (Hidra, Sotra): xnu's <mach/machine.h>
     * CPUFAMILY_ARM_* values. */
    static const uint32_t m_series[] = {0x1b588bb3, 0xda33d83d, 0xfa33415e,
                                        0x5f4dea93, 0x72015832, 0x6f5129ac,
                                        0x17d5b93a, 0x1d5a87e8, 0xf76c5b1a};
    for (size_t i = 0; i < sizeof m_series / sizeof m_series[0]; i++)
        if (cpufamily == m_series[i])
            return 1;
    return 0;
}

static int fam_apple_m(const struct crc_cpu_id *id)
{
    return strcmp(id->vendor, "Apple") == 0 && crc_arm_apple_m(id->family);
}

static int anyone(const struct crc_cpu_id *id)
{
    (void)id;
    return 1;
}

#define SHA3_TIER CRC_FEATURES_arm_hybrid_eor3
#define PMULL_TIER CRC_FEATURES_arm_hybrid

const struct crc_arm_family crc_arm_families[CRC_ARM_FAMILIES] = {
    {"neoverse-v2", SHA3_TIER, &crc_arm_tuning_neoverse_v2, fam_neoverse_v2},
    {"neoverse-v1", SHA3_TIER, &crc_arm_tuning_neoverse_v1, fam_neoverse_v1},
    {"neoverse-n2", SHA3_TIER, &crc_arm_tuning_neoverse_n2, fam_neoverse_n2},
    {"neoverse-n1", PMULL_TIER, &crc_arm_tuning_neoverse_n1, fam_neoverse_n1},
    {"apple-m", SHA3_TIER, &crc_arm_tuning_apple_m, fam_apple_m},
    {"generic", 0, &crc_arm_tuning_generic, anyone},
};
#define FAMILIES CRC_ARM_FAMILIES

size_t crc_arm_family_of(const struct crc_cpu_id *id, uint32_t features)
{
    for (size_t i = 0; i < FAMILIES; i++)
        if (crc_arm_families[i].is(id) &&
            (features & crc_arm_families[i].features) == crc_arm_families[i].features)
            return i;
    return FAMILIES - 1;
}

/* ------------------------------------------------------------------------------------
 * CRCFORGE_TUNE, read once.
 * ---------------------------------------------------------------------------------- */
#define TUNE "CRCFORGE_TUNE"

struct overrides {
    long family, shape, min; /* -1: the table's */
};

static void read_item(const char *env, const char *s, size_t len, void *ctx)
{
    struct overrides *o = ctx;
    const size_t key = strcspn(s, "=");
    const char *v = s + key + 1;
    const size_t vlen = key < len ? len - key - 1 : 0;
    char names[FAMILIES * 16 + CRC_ARM_HYBRID_SHAPE_COUNT * 10];
    size_t used = 0;
    if (key < len && key == 6 && strncmp(s, "family", 6) == 0) {
        for (size_t i = 0; i < FAMILIES; i++)
            if (strlen(crc_arm_families[i].name) == vlen &&
                strncmp(crc_arm_families[i].name, v, vlen) == 0) {
                o->family = (long)i;
                return;
            }
        for (size_t i = 0; i < FAMILIES; i++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                     crc_arm_families[i].name);
        crc_env_note(TUNE, env, "ignored it: the CPU's own family",
                     "'%.*s': no such family (%s)", (int)len, s, names);
        return;
    }
    if (key < len && key == 12 && strncmp(s, "hybrid_shape", 12) == 0) {
        const long i = crc_arm_hybrid_shape_index(v, vlen);
        if (i >= 0) {
            o->shape = i;
            return;
        }
        for (size_t k = 0; k < CRC_ARM_HYBRID_SHAPE_COUNT; k++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "",
                                     crc_arm_hybrid_shapes[k].name);
        crc_env_note(TUNE, env, "ignored it: the table's value", "'%.*s': no such shape (%s)",
                     (int)len, s, names);
        return;
    }
    if (key < len && key == 10 && strncmp(s, "hybrid_min", 10) == 0) {
        char buf[16];
        char *end = buf;
        long n = -1;
        if (vlen > 0 && vlen < sizeof buf && v[0] >= '0' && v[0] <= '9') {
            memcpy(buf, v, vlen);
            buf[vlen] = '\0';
            n = strtol(buf, &end, 10);
        }
        if (n >= 0 && *end == '\0' && n <= (long)CRC_ARM_HYBRID_MIN_MOST) {
            o->min = n;
            return;
        }
        crc_env_note(TUNE, env, "ignored it: the table's value",
                     "'%.*s': hybrid_min takes a number from 0 to %u", (int)len, s,
                     (unsigned)CRC_ARM_HYBRID_MIN_MOST);
        return;
    }
    crc_env_note(TUNE, env, "ignored it",
                 key < len ? "'%.*s': unknown key (keys: family, hybrid_shape, hybrid_min)"
                           : "'%.*s' is not KEY=VALUE (keys: family, hybrid_shape, hybrid_min)",
                 (int)len, s);
}

static void fill_overrides(void *obj, const void *unused)
{
    (void)unused;
    struct overrides o = {-1, -1, -1};
    crc_env_each_item(getenv(TUNE), read_item, &o);
    *(struct overrides *)obj = o;
}

static struct overrides read_overrides(void)
{
    static crc_once_slot slot;
    return *(const struct overrides *)crc_once(&slot, sizeof(struct overrides), fill_overrides,
                                               NULL);
}

/* ------------------------------------------------------------------------------------
 * Plans: a family's table with CRCFORGE_TUNE's values, built once per family.
 * ---------------------------------------------------------------------------------- */
struct plan {
    size_t family;
    uint32_t shape, min; /* shape: an index of crc_arm_hybrid_shapes */
    struct crc_params params; /* the kernels' parameters: shape and min */
    char parameters[64], table_parameters[64];
};

static void parameters_text(char *text, size_t size, uint32_t shape, uint32_t min)
{
    snprintf(text, size, "hybrid_shape=%s,hybrid_min=%u", crc_arm_hybrid_shapes[shape].name,
             (unsigned)min);
}

static void fill_plan(void *obj, const void *arg)
{
    struct plan *pl = obj;
    const struct crc_arm_family *family = arg;
    const struct crc_arm_tuning *t = family->table;
    const struct overrides o = read_overrides();
    const long own = crc_arm_hybrid_shape_index(t->hybrid_shape, strlen(t->hybrid_shape));
    pl->family = (size_t)(family - crc_arm_families);
    pl->shape = (uint32_t)(o.shape >= 0 ? o.shape : own >= 0 ? own : 0);
    pl->min = o.min >= 0 ? (uint32_t)o.min : t->hybrid_min;
    pl->params = (struct crc_params){.arm_hybrid_shape = pl->shape, .arm_hybrid_min = pl->min};
    parameters_text(pl->parameters, sizeof pl->parameters, pl->shape, pl->min);
    parameters_text(pl->table_parameters, sizeof pl->table_parameters,
                    (uint32_t)(own >= 0 ? own : 0), t->hybrid_min);
}

static crc_once_slot plans[FAMILIES];
static _Atomic(const struct plan *) current;

static size_t family_index(void)
{
    const struct overrides o = read_overrides();
    if (o.family >= 0) {
        if (crc_cpu_has(crc_arm_families[o.family].features))
            return (size_t)o.family;
        crc_env_note(TUNE, getenv(TUNE), "ignored it: the CPU's own family",
                     "family=%s: this CPU lacks features its paths execute",
                     crc_arm_families[o.family].name);
    }
    struct crc_cpu_id id;
    crc_cpu_identify(&id);
    return crc_arm_family_of(&id, crc_cpu_features());
}

static const struct plan *plan_in_use(void)
{
    const struct plan *pl = atomic_load_explicit(&current, memory_order_acquire);
    if (pl != NULL)
        return pl;
    const size_t i = family_index();
    pl = crc_once(&plans[i], sizeof *pl, fill_plan, &crc_arm_families[i]);
    atomic_store_explicit(&current, pl, memory_order_release);
    return pl;
}

const struct crc_params *crc_arm_params(void)
{
    return &plan_in_use()->params;
}

void crc_arm_tuning_reset(void)
{
    atomic_store_explicit(&current, NULL, memory_order_release);
}

size_t crc_arm_family_in_use(void)
{
    return plan_in_use()->family;
}

/* The class of m, or CRC_ARM_CLASSES where the registry's order decides (CRC-16/XMODEM's
 * short-key paths come first there). */
static enum crc_arm_class class_of(const crcforge_model *m)
{
    if (crc16_xmodem_serves(m))
        return CRC_ARM_CLASSES;
    if (m->p.width == 32 && m->p.refin && m->p.poly == crc_model_crc32c->p.poly)
        return CRC_ARM_CLASS_CRC32C;
    if (m->p.width == 32 && m->p.refin && m->p.poly == crc_model_crc32->p.poly)
        return CRC_ARM_CLASS_CRC32;
    return m->p.refin ? CRC_ARM_CLASS_REFLECTED : CRC_ARM_CLASS_MSB_FIRST;
}

const struct crc_impl *crc_arm_tuned_impl(const crcforge_model *m)
{
    const enum crc_arm_class c = class_of(m);
    if (c == CRC_ARM_CLASSES)
        return NULL;
    const struct crc_impl *impl =
        crc_impl_lookup(crc_arm_families[plan_in_use()->family].table->paths[c]);
    if (impl == NULL || !crc_impl_runnable(impl) || !impl->supports(m))
        return NULL;
    return impl;
}

const char *crcforge_tuning_family(void)
{
    return crc_arm_families[plan_in_use()->family].name;
}

const char *crcforge_tuning_table(void)
{
    return crc_arm_families[plan_in_use()->family].table->family;
}

const char *crcforge_tuning_source(void)
{
    return crc_arm_families[plan_in_use()->family].table->source;
}

const char *crcforge_tuning_parameters(void)
{
    return plan_in_use()->parameters;
}

const char *crcforge_tuning_table_parameters(void)
{
    return plan_in_use()->table_parameters;
}
