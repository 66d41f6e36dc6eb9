/* SPDX-License-Identifier: MIT */
/*
 * aarch64 feature detection, every OS: the kernel's hwcaps on Linux, with the core's MIDR,
 * which picks its tuning family (arm/tuning.c); the hw.optional sysctl keys on macOS, with
 * hw.cpufamily; IsProcessorFeaturePresent on Windows.  macOS's decisions are functions of
 * the sysctl answers (cpu_apple.h), compiled on every platform for the tests of recorded
 * answers.
 */
#include <string.h>

#include "cpu.h"
#include "cpu_apple.h"

uint32_t crc_cpu_apple_arm(crc_sysctl_lookup *lookup, void *ctx)
{
    uint32_t f = CRC_CPU_KNOWN;
    /* armv8_crc32 since macOS 11; later releases add the architecture's name as well. */
    if (crc_sysctl_yes(lookup, ctx, "hw.optional.armv8_crc32") ||
        crc_sysctl_yes(lookup, ctx, "hw.optional.arm.FEAT_CRC32"))
        f |= CRC_CPU_ARM_CRC32;
    if (crc_sysctl_yes(lookup, ctx, "hw.optional.arm.FEAT_PMULL"))
        f |= CRC_CPU_ARM_PMULL;
    if (crc_sysctl_yes(lookup, ctx, "hw.optional.arm.FEAT_SHA3"))
        f |= CRC_CPU_ARM_SHA3;
    return f;
}

void crc_cpu_apple_identify(struct crc_cpu_id *id, crc_sysctl_lookup *lookup, void *ctx)
{
    int64_t family = 0;
    memset(id, 0, sizeof *id);
    memcpy(id->vendor, "Apple", sizeof "Apple");
    if (lookup(ctx, "hw.cpufamily", &family))
        id->family = (uint32_t)family; /* an int32 key: the value's bits, not its sign */
}

#if defined(CRC_CPU_DETECTS_ARM)
#if defined(__linux__)
#include <stdio.h>
#include <sys/auxv.h>
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1 << 11)
#endif
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1 << 17)
#endif
uint32_t crc_cpu_detect(void)
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

/* The MIDR's implementer and part number: the register itself where the kernel emulates
 * reading it (HWCAP_CPUID), else the first core's lines of /proc/cpuinfo. */
void crc_cpu_identify(struct crc_cpu_id *id)
{
    memset(id, 0, sizeof *id);
    if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
        uint64_t midr;
        __asm__("mrs %0, MIDR_EL1" : "=r"(midr));
        id->family = (unsigned)(midr >> 24) & 0xff;
        id->model = (unsigned)(midr >> 4) & 0xfff;
        return;
    }
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return;
    char line[256];
    int seen = 0;
    while (seen != 3 && fgets(line, sizeof line, f) != NULL) {
        unsigned value;
        if (!(seen & 1) && sscanf(line, "CPU implementer : %x", &value) == 1) {
            id->family = value;
            seen |= 1;
        } else if (!(seen & 2) && sscanf(line, "CPU part : %x", &value) == 1) {
            id->model = value;
            seen |= 2;
        }
    }
    fclose(f);
}
#elif defined(__APPLE__)
/* The kernel's hw.optional keys and hw.cpufamily, through the decisions above. */
uint32_t crc_cpu_detect(void)
{
    return crc_cpu_apple_arm(crc_sysctl_system, NULL);
}

void crc_cpu_identify(struct crc_cpu_id *id)
{
    crc_cpu_apple_identify(id, crc_sysctl_system, NULL);
}
#elif defined(_WIN32)
#include <windows.h>
/* The processor feature numbers of newer SDKs' winnt.h. */
#ifndef PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE
#define PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE 30
#endif
#ifndef PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE
#define PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE 31
#endif
#ifndef PF_ARM_SHA3_INSTRUCTIONS_AVAILABLE
#define PF_ARM_SHA3_INSTRUCTIONS_AVAILABLE 64
#endif
/* What Windows reports: its crypto feature is AES, PMULL, SHA1 and SHA256 together. */
uint32_t crc_cpu_detect(void)
{
    uint32_t f = CRC_CPU_KNOWN;
    if (IsProcessorFeaturePresent(PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE))
        f |= CRC_CPU_ARM_CRC32;
    if (IsProcessorFeaturePresent(PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE))
        f |= CRC_CPU_ARM_PMULL;
    if (IsProcessorFeaturePresent(PF_ARM_SHA3_INSTRUCTIONS_AVAILABLE))
        f |= CRC_CPU_ARM_SHA3;
    return f;
}

/* No identity: the generic tuning. */
void crc_cpu_identify(struct crc_cpu_id *id)
{
    memset(id, 0, sizeof *id);
}
#else
/* An OS whose answers are not read: no feature beyond the build's, no identity. */
uint32_t crc_cpu_detect(void)
{
    return CRC_CPU_KNOWN;
}

void crc_cpu_identify(struct crc_cpu_id *id)
{
    memset(id, 0, sizeof *id);
}
#endif
#endif
