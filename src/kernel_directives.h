/*
 * Compiler directives the kernel templates share: helpers forced inline, so that a
 * kernel's vectors stay in registers across them, and loops over a compile-time count
 * (lanes, accumulators, table slices) unrolled whole, so that each step indexes its
 * registers directly.
 */
#ifndef CRCFORGE_KERNEL_DIRECTIVES_H
#define CRCFORGE_KERNEL_DIRECTIVES_H

#define ALWAYS_INLINE inline __attribute__((always_inline))

#if defined(__clang__)
#define UNROLL_ALL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define UNROLL_ALL _Pragma("GCC unroll 16")
#else
/* Also GCC under the sanitizers, which drops the hint of a loop nested in one it unrolled
 * with a warning (an error with -Werror); speed does not matter there. */
#define UNROLL_ALL
#endif

#endif /* CRCFORGE_KERNEL_DIRECTIVES_H */
