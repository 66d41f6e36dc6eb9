/*
 * x86 feature detection: CPUID, and XGETBV for the register state the OS saves.  A
 * feature counts only when the CPU has it and the OS saves the state it needs.
 */
#include <string.h>

#include "cpu.h"
#if defined(__APPLE__)
#include "cpu_apple.h"
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

uint32_t crc_cpu_detect(void)
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
#if defined(__APPLE__)
    /* XCR0's AVX-512 bits as the kernel sets them at the thread's first AVX-512 instruction. */
    if (crc_cpu_apple_avx512_state(os_ymm, crc_sysctl_system, NULL))
        xcr0 |= 0xe0;
    else
        xcr0 &= ~(uint64_t)0xe0;
#endif
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
#endif
