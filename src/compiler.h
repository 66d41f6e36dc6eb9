/* SPDX-License-Identifier: MIT */
/*
 * What differs between compilers and C runtimes, in one place: function attributes
 * (target, inlining, code alignment, visibility), loop directives, branch hints, the
 * builtins the library uses, the host's byte order, CPUID and XGETBV, the aarch64 target
 * attributes and CRC32 instructions, and the cache-line aligned allocation.  MSVC's
 * spellings sit behind CRC_MSVC; GCC, Clang and MinGW (which are GNU C) take the other
 * branch.  Nothing else in src/ spells an attribute, a pragma or a builtin.
 */
#ifndef CRCFORGE_COMPILER_H
#define CRCFORGE_COMPILER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(_MSC_VER) && !defined(__clang__)
#define CRC_MSVC 1
#endif

/* Code for instruction sets beyond the build's baseline, per function: MSVC needs no
 * attribute (its intrinsics compile for any target), GNU C names the features. */
#if defined(CRC_MSVC)
#define CRC_TARGET(features)
#else
#define CRC_TARGET(features) __attribute__((target(features)))
#endif

/* Inlining: ALWAYS_INLINE for helpers whose vectors must stay in the caller's registers;
 * CRC_NOINLINE for a function kept apart (a kernel's pass, so that its short inputs do not
 * pay for its set-up); CRC_COLD for what runs once (a first use), placed away from the hot
 * code. */
#if defined(CRC_MSVC)
#define ALWAYS_INLINE __forceinline
#define CRC_NOINLINE __declspec(noinline)
#define CRC_COLD
#else
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define CRC_NOINLINE __attribute__((noinline))
#define CRC_COLD __attribute__((cold))
#endif

/* Every kernel function and public entry starts a cache line, whatever the build's flags
 * (a user's build, the Python extension's) and wherever the linker puts it: a short call's
 * time moved with the placement, from process to process and from build to build
 * (CRC-32 at 64 B on AMD Zen 5, 0.76 or 0.92x ISA-L in one binary; ISA-L aligns its CRC
 * code to 64 bytes likewise).  The x86 tiers put it in their target attributes; loops are
 * aligned by -falign-loops=64 (src/sources.txt); the ARM kernels put it beside theirs.
 * MSVC has no alignment for one function. */
#if defined(CRC_MSVC)
#define CODE_ALIGNED
#else
#define CODE_ALIGNED __attribute__((aligned(64)))
#endif

/* A switch case that runs on into the next one on purpose. */
#if defined(CRC_MSVC)
#define CRC_FALLTHROUGH
#else
#define CRC_FALLTHROUGH __attribute__((fallthrough))
#endif

/* A printf-like function: format string argument `fmt`, its arguments from `first`. */
#if defined(CRC_MSVC)
#define CRC_PRINTF_FORMAT(fmt, first)
#else
#define CRC_PRINTF_FORMAT(fmt, first) __attribute__((format(printf, fmt, first)))
#endif

/* A type whose objects may be reached through a pointer to another type (MSVC makes no
 * type-based alias assumption). */
#if defined(CRC_MSVC)
#define CRC_MAY_ALIAS
#else
#define CRC_MAY_ALIAS __attribute__((may_alias))
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

/* The branch the caller expects: the other one is laid out of the straight path. */
#if defined(CRC_MSVC)
#define CRC_LIKELY(x) (x)
#define CRC_UNLIKELY(x) (x)
#else
#define CRC_LIKELY(x) __builtin_expect(!!(x), 1)
#define CRC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#endif

/* Loops over a compile-time count (lanes, accumulators, table slices) unrolled whole, so
 * that each step indexes its registers directly (UNROLL_ALL); a loop kept as written
 * (NO_UNROLL: GCC would unroll the ARM hybrid's iterations 16 times behind a jump table). */
#if defined(__clang__)
#define UNROLL_ALL _Pragma("unroll")
#define NO_UNROLL _Pragma("nounroll")
#elif defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
/* GCC unrolls up to this count: the longest such loop, SHORT's pairs of 256-bit vectors
 * (crc32c_vpclmul_template.h), has 28 iterations; left a loop, it ran half as fast. */
#define UNROLL_ALL _Pragma("GCC unroll 32")
#define NO_UNROLL _Pragma("GCC unroll 1")
#elif defined(__GNUC__)
/* GCC under the sanitizers drops the hint of a loop nested in one it unrolled with a
 * warning (an error with -Werror); speed does not matter there. */
#define UNROLL_ALL
#define NO_UNROLL _Pragma("GCC unroll 1")
#else
#define UNROLL_ALL
#define NO_UNROLL
#endif

/* Byte swaps and the count of trailing zero bits (x != 0). */
#if defined(CRC_MSVC)
#define CRC_BSWAP32(x) _byteswap_ulong(x)
#define CRC_BSWAP64(x) _byteswap_uint64(x)
#include <intrin.h>
static inline int crc_ctz64(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#define CRC_CTZ64(x) crc_ctz64(x)
#else
#define CRC_BSWAP32(x) __builtin_bswap32(x)
#define CRC_BSWAP64(x) __builtin_bswap64(x)
#define CRC_CTZ64(x) __builtin_ctzll(x)
#endif

/* The host's byte order: CRC_HOST_LE or CRC_HOST_BE where the compiler says which
 * (Windows is little-endian on every CPU it runs on), else neither (bytes.h then assembles
 * values byte by byte). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CRC_HOST_LE 1
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CRC_HOST_BE 1
#elif defined(_WIN32)
#define CRC_HOST_LE 1
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
#if defined(CRC_MSVC)
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

#if defined(__aarch64__)
/* The ARM target attributes, in each compiler's words: clang names extensions, GCC takes
 * them with a '+' (and SHA3 only with an architecture that has it). */
#if defined(__clang__)
#define CRC_ARM_TARGET_CRC CRC_TARGET("crc")
#define CRC_ARM_TARGET_PMULL CRC_TARGET("aes")
#define CRC_ARM_TARGET_CRC_PMULL CRC_TARGET("crc,aes")
#define CRC_ARM_TARGET_PMULL_SHA3 CRC_TARGET("aes,sha3")
#define CRC_ARM_TARGET_CRC_PMULL_SHA3 CRC_TARGET("crc,aes,sha3")
#else
#define CRC_ARM_TARGET_CRC CRC_TARGET("+crc")
#define CRC_ARM_TARGET_PMULL CRC_TARGET("+crypto")
#define CRC_ARM_TARGET_CRC_PMULL CRC_TARGET("+crc+crypto")
#define CRC_ARM_TARGET_PMULL_SHA3 CRC_TARGET("arch=armv8.2-a+crypto+sha3")
#define CRC_ARM_TARGET_CRC_PMULL_SHA3 CRC_TARGET("arch=armv8.2-a+crc+crypto+sha3")
#endif

/* The CRC32 instructions: clang before 16 declares their ACLE intrinsics only under global
 * -march flags, so it is given its builtins; GCC's intrinsics are <arm_acle.h>'s. */
#if defined(__clang__)
#define crc_arm_crc32b __builtin_arm_crc32b
#define crc_arm_crc32h __builtin_arm_crc32h
#define crc_arm_crc32w __builtin_arm_crc32w
#define crc_arm_crc32d __builtin_arm_crc32d
#define crc_arm_crc32cb __builtin_arm_crc32cb
#define crc_arm_crc32ch __builtin_arm_crc32ch
#define crc_arm_crc32cw __builtin_arm_crc32cw
#define crc_arm_crc32cd __builtin_arm_crc32cd
#else
#include <arm_acle.h>
#define crc_arm_crc32b __crc32b
#define crc_arm_crc32h __crc32h
#define crc_arm_crc32w __crc32w
#define crc_arm_crc32d __crc32d
#define crc_arm_crc32cb __crc32cb
#define crc_arm_crc32ch __crc32ch
#define crc_arm_crc32cw __crc32cw
#define crc_arm_crc32cd __crc32cd
#endif

/* a ^ b ^ c in one EOR3 (SHA3; uint64x2_t operands, <arm_neon.h>): clang before 16 has no
 * veor3q_u64 under a target attribute, so it gets the instruction in inline assembly. */
#if defined(__clang__) && __clang_major__ < 16
#define CRC_ARM_EOR3(a, b, c)                                                              \
    __extension__({                                                                        \
        uint64x2_t eor3_;                                                                  \
        __asm__("eor3 %0.16b, %1.16b, %2.16b, %3.16b" : "=w"(eor3_) : "w"(a), "w"(b), "w"(c)); \
        eor3_;                                                                             \
    })
#else
#define CRC_ARM_EOR3(a, b, c) veor3q_u64(a, b, c)
#endif
#endif

#endif /* CRCFORGE_COMPILER_H */
