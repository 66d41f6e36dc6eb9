/* SPDX-License-Identifier: MIT */
/*
 * macOS feature decisions from hw.optional sysctl answers (cpu_apple.h); the real sysctl
 * call on Apple systems only.
 */
#include <string.h>

#include "cpu_apple.h"
#include "cpu.h"

/* A key that exists and is not 0. */
static int says_yes(crc_sysctl_lookup *lookup, void *ctx, const char *name)
{
    int64_t value = 0;
    return lookup(ctx, name, &value) && value != 0;
}

uint32_t crc_cpu_apple_arm(crc_sysctl_lookup *lookup, void *ctx)
{
    uint32_t f = CRC_CPU_KNOWN;
    /* armv8_crc32 since macOS 11; later releases add the architecture's name as well. */
    if (says_yes(lookup, ctx, "hw.optional.armv8_crc32") ||
        says_yes(lookup, ctx, "hw.optional.arm.FEAT_CRC32"))
        f |= CRC_CPU_ARM_CRC32;
    if (says_yes(lookup, ctx, "hw.optional.arm.FEAT_PMULL"))
        f |= CRC_CPU_ARM_PMULL;
    if (says_yes(lookup, ctx, "hw.optional.arm.FEAT_SHA3"))
        f |= CRC_CPU_ARM_SHA3;
    return f;
}

int crc_cpu_apple_avx512_state(int os_ymm, crc_sysctl_lookup *lookup, void *ctx)
{
    return os_ymm && says_yes(lookup, ctx, "hw.optional.avx512f");
}

void crc_cpu_apple_identify(struct crc_cpu_id *id, crc_sysctl_lookup *lookup, void *ctx)
{
    int64_t family = 0;
    memset(id, 0, sizeof *id);
    memcpy(id->vendor, "Apple", sizeof "Apple");
    if (lookup(ctx, "hw.cpufamily", &family))
        id->family = (uint32_t)family; /* an int32 key: the value's bits, not its sign */
}

#if defined(__APPLE__)
#include <sys/sysctl.h>

int crc_sysctl_system(void *ctx, const char *name, int64_t *value)
{
    (void)ctx;
    union {
        int32_t i32;
        int64_t i64;
    } v = {.i64 = 0};
    size_t size = sizeof v;
    if (sysctlbyname(name, &v, &size, NULL, 0) != 0)
        return 0;
    *value = size == sizeof v.i32 ? v.i32 : v.i64; /* the hw.optional keys are ints */
    return 1;
}
#endif
