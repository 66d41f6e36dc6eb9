/* The aarch64 implementation paths, best first, for the registry in dispatch.c. */
#ifndef CRCFORGE_ARM_IMPLS_H
#define CRCFORGE_ARM_IMPLS_H

#include "../internal.h"

/* The kernels below use GCC's spelling of the target attributes ("+crc", "+crypto") and
 * ACLE intrinsics that clang (up to at least 14) gates on global -march flags; under
 * clang they are left out and aarch64 runs the portable engine (and the keyslot short
 * path).  Untested: clang, and so Apple clang on macOS. */
#if defined(__GNUC__) && !defined(__clang__)
#define CRC_ARM_GCC_KERNELS 1
#endif

/* crc32_arm.c */
extern const struct crc_impl crc_impl_crc32c_arm_crc32_3way;
extern const struct crc_impl crc_impl_crc32_arm_crc32_3way;
extern const struct crc_impl crc_impl_crc32c_arm_crc32;
extern const struct crc_impl crc_impl_crc32_arm_crc32;

/* fold_pmull.c, fold_pmull_eor3.c: every model of width 8..64.  Their lanes assume a
 * little-endian host (as Linux and macOS on aarch64 are). */
extern const struct crc_impl crc_impl_fold_arm_pmull_eor3;
extern const struct crc_impl crc_impl_fold_arm_pmull;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CRC_ARM_FOLD_IMPLS &crc_impl_fold_arm_pmull_eor3, &crc_impl_fold_arm_pmull,
#else
#define CRC_ARM_FOLD_IMPLS
#endif

/* Entries of the form `&crc_impl_NAME,` (each declared here, defined in this folder).
 * The dedicated CRC32-instruction paths come before folding for CRC-32C and CRC-32. */
#ifdef CRC_ARM_GCC_KERNELS
#define CRC_ARM_IMPLS                                                                     \
    &crc_impl_crc32c_arm_crc32_3way, &crc_impl_crc32_arm_crc32_3way,                      \
        &crc_impl_crc32c_arm_crc32, &crc_impl_crc32_arm_crc32, CRC_ARM_FOLD_IMPLS
#else
#define CRC_ARM_IMPLS
#endif

#endif
