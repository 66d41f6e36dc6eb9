/* SPDX-License-Identifier: MIT */
/*
 * macOS's answers to the feature questions: its kernel's hw.optional sysctl keys, read
 * through a lookup so that the decisions are pure functions of the answers.  Each decision
 * lives in its architecture's detection file (cpu_arm.c, cpu_x86.c) and is compiled on
 * every platform: the tests feed them answers recorded on Macs.
 */
#ifndef CRCFORGE_CPU_APPLE_H
#define CRCFORGE_CPU_APPLE_H

#include <stdint.h>

/* One integer sysctl by name: 1 with *value set when the name exists, 0 when it does not. */
typedef int crc_sysctl_lookup(void *ctx, const char *name, int64_t *value);

/* Whether a key exists and is not 0. */
static inline int crc_sysctl_yes(crc_sysctl_lookup *lookup, void *ctx, const char *name)
{
    int64_t value = 0;
    return lookup(ctx, name, &value) && value != 0;
}

/* arm64 (cpu_arm.c): CRC_CPU_KNOWN and the features the keys report (CRC32, PMULL, SHA3).
 * A key that does not exist means no. */
uint32_t crc_cpu_apple_arm(crc_sysctl_lookup *lookup, void *ctx);

/* arm64 (cpu_arm.c): who made the CPU: vendor "Apple" and, as the family, hw.cpufamily
 * (xnu's CPUFAMILY_ARM_* value, which arm/tuning.c maps to its families); 0 when the key
 * does not exist. */
struct crc_cpu_id;
void crc_cpu_apple_identify(struct crc_cpu_id *id, crc_sysctl_lookup *lookup, void *ctx);

/* x86-64 (cpu_x86.c): whether the OS keeps AVX-512 state (opmask and ZMM registers), given
 * whether it keeps XMM and YMM state (os_ymm).  macOS turns AVX-512 state on for a thread
 * at its first AVX-512 instruction, so XCR0 says no until then and cannot tell:
 * hw.optional.avx512f does. */
int crc_cpu_apple_avx512_state(int os_ymm, crc_sysctl_lookup *lookup, void *ctx);

#if defined(__APPLE__)
#include <sys/sysctl.h>

/* The running kernel's answers (sysctlbyname); ctx unused. */
static inline int crc_sysctl_system(void *ctx, const char *name, int64_t *value)
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

#endif /* CRCFORGE_CPU_APPLE_H */
