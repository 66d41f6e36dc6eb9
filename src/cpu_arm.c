/* SPDX-License-Identifier: MIT */
/*
 * aarch64 feature detection: the kernel's hwcaps on Linux, sysctl on macOS; on Linux the
 * core's MIDR too, which picks its tuning family (arm/tuning.c).
 */
#include "cpu.h"

#if defined(__aarch64__) && defined(__linux__)
#include <stdio.h>
#include <string.h>
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
#elif defined(__aarch64__) && defined(__APPLE__)
#include <stddef.h>

#include "cpu_apple.h"

/* The kernel's hw.optional keys (cpu_apple.c; tested there on recorded answers). */
uint32_t crc_cpu_detect(void)
{
    return crc_cpu_apple_arm(crc_sysctl_system, NULL);
}

void crc_cpu_identify(struct crc_cpu_id *id)
{
    crc_cpu_apple_identify(id, crc_sysctl_system, NULL);
}
#endif
