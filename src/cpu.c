/*
 * CPU feature detection, once, in one place.  A feature counts only when the CPU has
 * it and the OS saves the register state it needs (XGETBV for YMM/ZMM).
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "environment.h"
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

static uint32_t detect(void)
{
    uint32_t a, b, c, d, f = CRC_CPU_KNOWN;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return f;
    if (c & bit_SSE4_1)
        f |= CRC_CPU_SSE41;
    if (c & bit_SSE4_2)
        f |= CRC_CPU_SSE42;
    if (c & bit_PCLMUL)
        f |= CRC_CPU_PCLMUL;
    uint64_t xcr0 = (c & bit_OSXSAVE) ? xgetbv0() : 0;
    int os_ymm = (xcr0 & 0x6) == 0x6;           /* XMM and YMM state */
    int os_zmm = os_ymm && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    if (__get_cpuid_max(0, NULL) < 7)
        return f;
    __cpuid_count(7, 0, a, b, c, d);
    if (os_ymm && (b & bit_AVX2))
        f |= CRC_CPU_AVX2;
    if (os_ymm && (c & bit_VPCLMULQDQ))
        f |= CRC_CPU_VPCLMUL;
    if (os_zmm && (b & bit_AVX512F))
        f |= CRC_CPU_AVX512F;
    if (os_zmm && (b & bit_AVX512BW))
        f |= CRC_CPU_AVX512BW;
    if (os_zmm && (b & bit_AVX512VL))
        f |= CRC_CPU_AVX512VL;
    if (os_zmm && (c & bit_AVX512VBMI))
        f |= CRC_CPU_AVX512VBMI;
    if (c & bit_GFNI)
        f |= CRC_CPU_GFNI;
    return f;
}

void crc_cpu_identify(struct crc_cpu_id *id)
{
    uint32_t a, b, c, d;
    memset(id, 0, sizeof *id);
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    memcpy(id->vendor, &b, 4);
    memcpy(id->vendor + 4, &d, 4);
    memcpy(id->vendor + 8, &c, 4);
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    /* The display family and model: the extended fields count when the base family is
     * 15 (and, for the model, 6 as well). */
    unsigned family = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
    if (family == 0xf)
        family += (a >> 20) & 0xff;
    if (family == 0x6 || family >= 0xf)
        model |= ((a >> 16) & 0xf) << 4;
    id->family = family;
    id->model = model;
}
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1 << 17)
#endif
static uint32_t detect(void)
{
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t f = CRC_CPU_KNOWN;
    if (hw & HWCAP_CRC32)
        f |= CRC_CPU_ARM_CRC32;
    if (hw & HWCAP_PMULL)
        f |= CRC_CPU_ARM_PMULL;
    if (hw & HWCAP_SHA3)
        f |= CRC_CPU_ARM_SHA3;
    return f;
}
#elif defined(__aarch64__) && defined(__APPLE__)
/* Not tested: no macOS machine is available to this project's CI. */
#include <sys/sysctl.h>
static int sysctl_flag(const char *name)
{
    int value = 0;
    size_t size = sizeof value;
    return sysctlbyname(name, &value, &size, NULL, 0) == 0 && value != 0;
}
static uint32_t detect(void)
{
    uint32_t f = CRC_CPU_KNOWN;
    if (sysctl_flag("hw.optional.armv8_crc32"))
        f |= CRC_CPU_ARM_CRC32;
    if (sysctl_flag("hw.optional.arm.FEAT_PMULL"))
        f |= CRC_CPU_ARM_PMULL;
    if (sysctl_flag("hw.optional.arm.FEAT_SHA3"))
        f |= CRC_CPU_ARM_SHA3;
    return f;
}
#else
static uint32_t detect(void)
{
    return CRC_CPU_KNOWN;
}
#endif
#if !defined(__x86_64__) && !defined(__i386__)
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
    *(uint32_t *)features = detect() & (mask_from_env() | CRC_CPU_KNOWN);
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
    atomic_store_explicit(&test_features, detect() & (keep | CRC_CPU_KNOWN),
                          memory_order_relaxed);
}

const char *crcforge_cpu_features(void)
{
    static _Thread_local char text[160];
    return feature_text(text, crc_cpu_features());
}

#if !defined(__x86_64__)
/* Paths are tuned per CPU family on x86 only (x86/tuning.c). */
const char *crcforge_tuning_family(void)
{
    return "none";
}

const char *crcforge_tuning_table(void)
{
    return "none";
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
