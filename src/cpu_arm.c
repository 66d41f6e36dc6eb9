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
/* Not tested: no macOS machine is available to this project's CI. */
#include <sys/sysctl.h>
static int sysctl_flag(const char *name)
{
    int value = 0;
    size_t size = sizeof value;
    return sysctlbyname(name, &value, &size, NULL, 0) == 0 && value != 0;
}
uint32_t crc_cpu_detect(void)
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
#endif
