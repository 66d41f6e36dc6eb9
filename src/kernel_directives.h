/* SPDX-License-Identifier: MIT */
/*
 * Compiler directives the kernel templates share: helpers forced inline, so that a
 * kernel's vectors stay in registers across them, and loops over a compile-time count
 * (lanes, accumulators, table slices) unrolled whole, so that each step indexes its
 * registers directly.
 */
#ifndef CRCFORGE_KERNEL_DIRECTIVES_H
#define CRCFORGE_KERNEL_DIRECTIVES_H

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Every kernel function and public entry starts a cache line, whatever the build's flags
 * (a user's build, the Python extension's) and wherever the linker puts it: a short call's
 * time moved with the placement, from process to process and from build to build
 * (CRC-32 at 64 B on AMD Zen 5, 0.76 or 0.92x ISA-L in one binary; ISA-L aligns its CRC
 * code to 64 bytes likewise).  The x86 tiers put it in their target attributes; loops are
 * aligned by -falign-loops=64 (src/sources.txt); the ARM kernels put it beside theirs. */
#define CODE_ALIGNED __attribute__((aligned(64)))

#if defined(__clang__)
#define UNROLL_ALL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
/* GCC unrolls up to this count: the longest such loop, SHORT's pairs of 256-bit vectors
 * (crc32c_vpclmul_template.h), has 28 iterations; left a loop, it ran half as fast. */
#define UNROLL_ALL _Pragma("GCC unroll 32")
#else
/* Also GCC under the sanitizers, which drops the hint of a loop nested in one it unrolled
 * with a warning (an error with -Werror); speed does not matter there. */
#define UNROLL_ALL
#endif

#endif /* CRCFORGE_KERNEL_DIRECTIVES_H */
