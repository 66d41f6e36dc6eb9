/*
 * aarch64 feature detection: the kernel's hwcaps on Linux, sysctl on macOS.
 */
#include "cpu.h"

#if defined(__aarch64__) && defined(__linux__)
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
#elif defined(__aarch64__) && defined(__APPLE__)
#include <stddef.h>

#include "cpu_apple.h"

/* The kernel's hw.optional keys (cpu_apple.c; tested there on recorded answers). */
uint32_t crc_cpu_detect(void)
{
    return crc_cpu_apple_arm(crc_sysctl_system, NULL);
}
#endif
