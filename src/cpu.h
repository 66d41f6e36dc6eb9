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
};

/* The features in use: detected by CPUID/XGETBV (or getauxval), less those masked off
 * by the environment variable CRCFORGE_CPU_MASK (a list of the names to keep, e.g.
 * "sse4.1,sse4.2,pclmulqdq", or "none"), read at the first query. */
uint32_t crc_cpu_features(void);
int crc_cpu_has(uint32_t features); /* all of them */
/* For tests: keep only the features in `keep` (CRC_CPU_* bits) that the CPU has; a
 * mask never adds one.  Call crcforge_impl_force afterwards to re-resolve dispatch. */
void crc_cpu_set_mask(uint32_t keep);

#endif /* CRCFORGE_CPU_H */
