/* SPDX-License-Identifier: MIT */
/* CPU features (cpu.c). */
#ifndef CRCFORGE_CPU_H
#define CRCFORGE_CPU_H

#include <stdint.h>

enum {
    CRC_CPU_KNOWN = 1u << 0, /* detection ran */
    CRC_CPU_SSE41 = 1u << 1,
    CRC_CPU_SSE42 = 1u << 2,
    CRC_CPU_PCLMUL = 1u << 3,
    CRC_CPU_AVX2 = 1u << 4,
    CRC_CPU_AVX512F = 1u << 5,
    CRC_CPU_AVX512BW = 1u << 6,
    CRC_CPU_AVX512VL = 1u << 7,
    CRC_CPU_VPCLMUL = 1u << 8,
    CRC_CPU_ARM_CRC32 = 1u << 9,
    CRC_CPU_ARM_PMULL = 1u << 10,
    CRC_CPU_ARM_SHA3 = 1u << 11,
    CRC_CPU_GFNI = 1u << 12,
    CRC_CPU_AVX512VBMI = 1u << 13,
    CRC_CPU_NEVER = 1u << 31, /* never present: the features of a stand-in, not a path */
};

/*
 * The features this build's compiler flags guarantee (-march=x86-64-v3, -mavx2
 * -mvpclmulqdq, -march=armv8.2-a+crypto+sha3, ...): whatever the library runs on has
 * them, so a check of those alone compiles to "yes" and makes no CPUID query.  The
 * default build guarantees none of them.
 */
#if defined(__SSE4_1__)
#define CRC_CPU_BUILD_SSE41 CRC_CPU_SSE41
#else
#define CRC_CPU_BUILD_SSE41 0
#endif
#if defined(__SSE4_2__)
#define CRC_CPU_BUILD_SSE42 CRC_CPU_SSE42
#else
#define CRC_CPU_BUILD_SSE42 0
#endif
#if defined(__PCLMUL__)
#define CRC_CPU_BUILD_PCLMUL CRC_CPU_PCLMUL
#else
#define CRC_CPU_BUILD_PCLMUL 0
#endif
#if defined(__AVX2__)
#define CRC_CPU_BUILD_AVX2 CRC_CPU_AVX2
#else
#define CRC_CPU_BUILD_AVX2 0
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define CRC_CPU_BUILD_AVX512 (CRC_CPU_AVX512F | CRC_CPU_AVX512BW | CRC_CPU_AVX512VL)
#else
#define CRC_CPU_BUILD_AVX512 0
#endif
#if defined(__AVX512VBMI__)
#define CRC_CPU_BUILD_AVX512VBMI CRC_CPU_AVX512VBMI
#else
#define CRC_CPU_BUILD_AVX512VBMI 0
#endif
#if defined(__GFNI__)
#define CRC_CPU_BUILD_GFNI CRC_CPU_GFNI
#else
#define CRC_CPU_BUILD_GFNI 0
#endif
#if defined(__VPCLMULQDQ__)
#define CRC_CPU_BUILD_VPCLMUL CRC_CPU_VPCLMUL
#else
#define CRC_CPU_BUILD_VPCLMUL 0
#endif
#if defined(__ARM_FEATURE_CRC32)
#define CRC_CPU_BUILD_ARM_CRC32 CRC_CPU_ARM_CRC32
#else
#define CRC_CPU_BUILD_ARM_CRC32 0
#endif
#if defined(__ARM_FEATURE_AES) || defined(__ARM_FEATURE_CRYPTO)
#define CRC_CPU_BUILD_ARM_PMULL CRC_CPU_ARM_PMULL
#else
#define CRC_CPU_BUILD_ARM_PMULL 0
#endif
#if defined(__ARM_FEATURE_SHA3)
#define CRC_CPU_BUILD_ARM_SHA3 CRC_CPU_ARM_SHA3
#else
#define CRC_CPU_BUILD_ARM_SHA3 0
#endif
#define CRC_CPU_GUARANTEED                                                                 \
    ((uint32_t)(CRC_CPU_BUILD_SSE41 | CRC_CPU_BUILD_SSE42 | CRC_CPU_BUILD_PCLMUL |         \
                CRC_CPU_BUILD_AVX2 | CRC_CPU_BUILD_AVX512 | CRC_CPU_BUILD_AVX512VBMI |     \
                CRC_CPU_BUILD_VPCLMUL | CRC_CPU_BUILD_GFNI |                               \
                CRC_CPU_BUILD_ARM_CRC32 | CRC_CPU_BUILD_ARM_PMULL | CRC_CPU_BUILD_ARM_SHA3))

/* The features in use: detected by CPUID/XGETBV (or getauxval) on the first query, less
 * those masked off by the environment variable CRCFORGE_CPU_MASK (a list of the names to
 * keep, e.g. "sse4.1,sse4.2,pclmulqdq", or "none"), plus those the build guarantees (no
 * mask removes them). */
uint32_t crc_cpu_features(void);

/* All of `features`: the guaranteed ones need no query. */
static inline int crc_cpu_has(uint32_t features)
{
    const uint32_t query = features & ~CRC_CPU_GUARANTEED;
    return query == 0 || (crc_cpu_features() & query) == query;
}

/* The file that detects the CPU's features, chosen here alone: cpu_x86.c on x86, cpu_arm.c
 * on aarch64, each holding every OS it knows; elsewhere none, and cpu.c knows no feature. */
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#define CRC_CPU_DETECTS_X86 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define CRC_CPU_DETECTS_ARM 1
#endif

/* What the CPU and the OS offer, before any mask: CPUID and XGETBV (cpu_x86.c), hwcaps,
 * sysctl or the Windows API (cpu_arm.c); CRC_CPU_KNOWN alone where nothing is known. */
uint32_t crc_cpu_detect(void);

/* Who made the CPU and which one it is: on x86 CPUID leaves 0 and 1 (the vendor string and
 * the display family and model); on aarch64 Linux the MIDR (an empty vendor, family the
 * implementer, model the part number); on macOS vendor "Apple" and family hw.cpufamily;
 * elsewhere an empty vendor and zeros. */
struct crc_cpu_id {
    char vendor[13];
    unsigned family, model;
};
void crc_cpu_identify(struct crc_cpu_id *id);

/* Whether the CPU's features have been queried (CPUID, getauxval) in this process: the
 * tests' way to see that guaranteed features need none. */
int crc_cpu_queried(void);

/* For tests: keep only the features in `keep` (CRC_CPU_* bits) that the CPU has, instead
 * of CRCFORGE_CPU_MASK's; a mask never adds one (nor removes a guaranteed one).  Call
 * crcforge_impl_force afterwards to re-resolve dispatch. */
void crc_cpu_set_mask(uint32_t keep);

#endif /* CRCFORGE_CPU_H */
