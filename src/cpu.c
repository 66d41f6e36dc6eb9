/* SPDX-License-Identifier: MIT */
/*
 * CPU features in use: detected once (cpu_x86.c or cpu_arm.c, as cpu.h chooses), less those
 * masked off, plus those the build guarantees; their names.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "environment.h"
#include "internal.h"

#if !defined(CRC_CPU_DETECTS_X86) && !defined(CRC_CPU_DETECTS_ARM)
/* An architecture with no detection (cpu.h): no feature, no identity. */
uint32_t crc_cpu_detect(void)
{
    return CRC_CPU_KNOWN;
}

void crc_cpu_identify(struct crc_cpu_id *id)
{
    memset(id, 0, sizeof *id);
}
#endif

static const struct {
    uint32_t bit;
    const char *name;
} feature_names[] = {
    {CRC_CPU_SSE41, "sse4.1"},        {CRC_CPU_SSE42, "sse4.2"},
    {CRC_CPU_PCLMUL, "pclmulqdq"},    {CRC_CPU_AVX2, "avx2"},
    {CRC_CPU_AVX512F, "avx512f"},     {CRC_CPU_AVX512BW, "avx512bw"},
    {CRC_CPU_AVX512VL, "avx512vl"},   {CRC_CPU_VPCLMUL, "vpclmulqdq"},
    {CRC_CPU_ARM_CRC32, "crc32"},     {CRC_CPU_ARM_PMULL, "pmull"},
    {CRC_CPU_ARM_SHA3, "sha3"},       {CRC_CPU_GFNI, "gfni"},
    {CRC_CPU_AVX512VBMI, "avx512vbmi"},
};

/* The names of the features in f, separated by spaces, into text[size] (size >= 160). */
static char *feature_text(char *text, uint32_t f)
{
    text[0] = '\0';
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
        if (f & feature_names[i].bit) {
            if (text[0])
                strcat(text, " ");
            strcat(text, feature_names[i].name);
        }
    }
    return text;
}

/* CRCFORGE_CPU_MASK: the features to keep, names separated by commas or spaces, or
 * "none"; the others are treated as absent.  Unknown names are noted and ignored. */
static uint32_t mask_from_env(void)
{
    const char *env = getenv("CRCFORGE_CPU_MASK");
    if (env == NULL || *env == '\0')
        return ~(uint32_t)0;
    uint32_t keep = 0;
    int named = 0; /* a known name, or none */
    for (const char *s = env; *s;) {
        size_t len = strcspn(s, ", ");
        int known = len == 0 || (len == 4 && strncmp(s, "none", 4) == 0);
        for (size_t i = 0; !known && i < sizeof feature_names / sizeof feature_names[0]; i++) {
            if (strlen(feature_names[i].name) == len && strncmp(s, feature_names[i].name, len) == 0) {
                keep |= feature_names[i].bit;
                known = 1;
            }
        }
        if (!known) {
            char names[160];
            crc_env_note("CRCFORGE_CPU_MASK", env, "ignored that name",
                         "unknown feature '%.*s' (known: %s, none)", (int)len, s,
                         feature_text(names, ~(uint32_t)0));
        }
        s += len + (s[len] != '\0');
        named |= known && len != 0;
    }
    if (!named) /* every name unknown: the mask keeps nothing, which no typo should hide */
        crc_env_note("CRCFORGE_CPU_MASK", env, "every feature masked, as with none",
                     "no known feature name in it");
    return keep;
}

/* Detected, less CRCFORGE_CPU_MASK's: built once (crc_once). */
static crc_once_slot detected;

static void fill_detected(void *features, const void *unused)
{
    (void)unused;
    *(uint32_t *)features = crc_cpu_detect() & (mask_from_env() | CRC_CPU_KNOWN);
}

/* crc_cpu_set_mask's features for the tests, replacing the environment's; 0 when unset. */
static _Atomic uint32_t test_features;

uint32_t crc_cpu_features(void)
{
    uint32_t f = atomic_load_explicit(&test_features, memory_order_relaxed);
    if (f == 0)
        f = *(const uint32_t *)crc_once(&detected, sizeof f, fill_detected, NULL);
    return f | CRC_CPU_GUARANTEED;
}

int crc_cpu_queried(void)
{
    return crc_once_peek(&detected) != NULL ||
           atomic_load_explicit(&test_features, memory_order_relaxed) != 0;
}

/* A mask can only take features away: what the CPU lacks stays absent. */
void crc_cpu_set_mask(uint32_t keep)
{
    atomic_store_explicit(&test_features, crc_cpu_detect() & (keep | CRC_CPU_KNOWN),
                          memory_order_relaxed);
}

const char *crcforge_cpu_features(void)
{
    static _Thread_local char text[160];
    return feature_text(text, crc_cpu_features());
}

#if !defined(__x86_64__) && !defined(__aarch64__)
/* Paths are tuned per CPU family on x86 and aarch64 only (x86/tuning.c, arm/tuning.c). */
const char *crcforge_tuning_family(void)
{
    return "none";
}

const char *crcforge_tuning_table(void)
{
    return "none";
}

const char *crcforge_tuning_source(void)
{
    return "";
}

const char *crcforge_tuning_parameters(void)
{
    return "";
}

const char *crcforge_tuning_table_parameters(void)
{
    return "";
}
#endif
