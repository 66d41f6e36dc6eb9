/* SPDX-License-Identifier: MIT */
/*
 * What differs between compilers and C runtimes, in one place: CPUID and XGETBV, the
 * cache-line aligned allocation, and the target attribute that enables an instruction
 * set for one function.  MSVC's spellings sit behind _MSC_VER; GCC, Clang and MinGW
 * (which are GNU C) take the other branch.
 */
#ifndef CRCFORGE_COMPILER_H
#define CRCFORGE_COMPILER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Code for instruction sets beyond the build's baseline, per function: MSVC needs no
 * attribute (its intrinsics compile for any target), GNU C names the features. */
#if defined(_MSC_VER) && !defined(__clang__)
#define CRC_TARGET(features)
#else
#define CRC_TARGET(features) __attribute__((target(features)))
#endif

/* The library's own data, declared in one file and defined in another: hidden where the
 * object format has symbol visibility, so that code addresses it as a constant.  The build
 * hides definitions (-fvisibility=hidden), but a declaration of default visibility still
 * has the compiler take the address from the GOT, and where that load is folded into
 * another instruction (an add, a compare) the linker cannot turn it back into an lea: the
 * CRC-32C kernels loaded the lane table's address before their first constant. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define CRC_HIDDEN __attribute__((visibility("hidden")))
#else
#define CRC_HIDDEN
#endif

/* Memory aligned to `align` (a power of two), `size` a multiple of it; released with
 * crc_aligned_free only.  The Windows C runtime has no aligned_alloc (its free cannot
 * release an over-aligned block), so there the pair is _aligned_malloc/_aligned_free. */
#if defined(_WIN32)
#include <malloc.h>
static inline void *crc_aligned_alloc(size_t align, size_t size)
{
    return _aligned_malloc(size, align);
}
static inline void crc_aligned_free(void *p)
{
    _aligned_free(p);
}
#else
static inline void *crc_aligned_alloc(size_t align, size_t size)
{
    return aligned_alloc(align, size);
}
static inline void crc_aligned_free(void *p)
{
    free(p);
}
#endif

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
/* CPUID leaf `leaf`, sub-leaf `subleaf`: r = {eax, ebx, ecx, edx}.  crc_cpuid_max is the
 * highest basic leaf (0 when CPUID has none beyond leaf 0). */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline void crc_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    int regs[4];
    __cpuidex(regs, (int)leaf, (int)subleaf);
    for (int i = 0; i < 4; i++)
        r[i] = (uint32_t)regs[i];
}
static inline uint32_t crc_cpuid_max(void)
{
    uint32_t r[4];
    crc_cpuid(0, 0, r);
    return r[0];
}
/* XCR `xcr` (0: the register state the OS saves); only when CPUID says OSXSAVE. */
static inline uint64_t crc_xgetbv(uint32_t xcr)
{
    return _xgetbv(xcr);
}
/* The feature bits <cpuid.h> names for GNU C. */
#define bit_SSE4_1 (1u << 19) /* leaf 1, ecx */
#define bit_SSE4_2 (1u << 20)
#define bit_PCLMUL (1u << 1)
#define bit_OSXSAVE (1u << 27)
#define bit_AVX2 (1u << 5) /* leaf 7, ebx */
#define bit_AVX512F (1u << 16)
#define bit_AVX512BW (1u << 30)
#define bit_AVX512VL (1u << 31)
#define bit_AVX512VBMI (1u << 1) /* leaf 7, ecx */
#define bit_GFNI (1u << 8)
#define bit_VPCLMULQDQ (1u << 10)
#else
#include <cpuid.h>
static inline void crc_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    __cpuid_count(leaf, subleaf, r[0], r[1], r[2], r[3]);
}
static inline uint32_t crc_cpuid_max(void)
{
    return __get_cpuid_max(0, NULL);
}
/* Inline assembly rather than _xgetbv, which GCC offers only in functions built for
 * XSAVE. */
static inline uint64_t crc_xgetbv(uint32_t xcr)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
    return (uint64_t)hi << 32 | lo;
}
#endif
#endif

#endif /* CRCFORGE_COMPILER_H */
