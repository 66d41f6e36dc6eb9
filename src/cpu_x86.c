/* SPDX-License-Identifier: MIT */
/*
 * x86 feature detection, every OS: CPUID, and XGETBV for the register state the OS saves.
 * A feature counts only when the CPU has it and the OS saves the state it needs; on macOS,
 * which saves AVX-512 state only from a thread's first AVX-512 instruction, the sysctl
 * key stands in for XCR0's bits (crc_cpu_apple_avx512_state, compiled on every platform
 * for the tests of recorded answers).
 */
#include <string.h>

#include "compiler.h"
#include "cpu.h"
#include "cpu_apple.h"

int crc_cpu_apple_avx512_state(int os_ymm, crc_sysctl_lookup *lookup, void *ctx)
{
    return os_ymm && crc_sysctl_yes(lookup, ctx, "hw.optional.avx512f");
}

#if defined(CRC_CPU_DETECTS_X86)

uint32_t crc_cpu_detect(void)
{
    uint32_t r[4], f = CRC_CPU_KNOWN;
    if (crc_cpuid_max() < 1)
        return f;
    crc_cpuid(1, 0, r);
    uint32_t b, c = r[2];
    if (c & bit_SSE4_1)
        f |= CRC_CPU_SSE41;
    if (c & bit_SSE4_2)
        f |= CRC_CPU_SSE42;
    if (c & bit_PCLMUL)
        f |= CRC_CPU_PCLMUL;
    uint64_t xcr0 = (c & bit_OSXSAVE) ? crc_xgetbv(0) : 0;
    int os_ymm = (xcr0 & 0x6) == 0x6;           /* XMM and YMM state */
#if defined(__APPLE__)
    /* XCR0's AVX-512 bits as the kernel sets them at the thread's first AVX-512 instruction. */
    if (crc_cpu_apple_avx512_state(os_ymm, crc_sysctl_system, NULL))
        xcr0 |= 0xe0;
    else
        xcr0 &= ~(uint64_t)0xe0;
#endif
    int os_zmm = os_ymm && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    if (crc_cpuid_max() < 7)
        return f;
    crc_cpuid(7, 0, r);
    b = r[1], c = r[2];
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
    uint32_t r[4];
    memset(id, 0, sizeof *id);
    crc_cpuid(0, 0, r);
    memcpy(id->vendor, &r[1], 4);
    memcpy(id->vendor + 4, &r[3], 4);
    memcpy(id->vendor + 8, &r[2], 4);
    if (r[0] < 1)
        return;
    crc_cpuid(1, 0, r);
    uint32_t a = r[0];
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
#endif
