/* SPDX-License-Identifier: MIT */
/* The aarch64 implementation paths, best first, for the registry (registry.c). */
#ifndef CRCFORGE_ARM_IMPLS_H
#define CRCFORGE_ARM_IMPLS_H

#include "../compiler.h" /* CODE_ALIGNED */
#include "../internal.h"

/* crc32_arm.c: CRC-32C and CRC-32 on the CRC32 instructions (any byte order). */
extern const struct crc_impl crc_impl_crc32c_arm_crc32_3way;
extern const struct crc_impl crc_impl_crc32_arm_crc32_3way;
extern const struct crc_impl crc_impl_crc32c_arm_crc32;
extern const struct crc_impl crc_impl_crc32_arm_crc32;

/* crc32_hybrid_pmull.c, crc32_hybrid_eor3.c (crc32_hybrid_template.h): CRC-32C and CRC-32
 * with PMULL accumulators beside crc32 chains (little-endian hosts, as folding). */
extern const struct crc_impl crc_impl_crc32c_arm_hybrid_eor3;
extern const struct crc_impl crc_impl_crc32_arm_hybrid_eor3;
extern const struct crc_impl crc_impl_crc32c_arm_hybrid;
extern const struct crc_impl crc_impl_crc32_arm_hybrid;

/* fold_pmull.c, fold_pmull_eor3.c (fold_template.h): every model of width 8..64, and
 * crc16_xmodem_pmull.c: CRC-16/XMODEM, the short-key kernel up to 64 bytes, then the
 * folding tier its name ends with.  Their lanes assume a little-endian host (as Linux
 * and macOS on aarch64 are). */
/* What each folding tier executes (its record's features; fold_*.c take theirs from here). */
#define CRC_FEATURES_arm_pmull CRC_CPU_ARM_PMULL
#define CRC_FEATURES_arm_pmull_eor3 (CRC_CPU_ARM_PMULL | CRC_CPU_ARM_SHA3)
uint64_t fold_update_arm_pmull(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                               size_t n, const struct crc_params *k);
uint64_t fold_update_arm_pmull_eor3(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                    size_t n, const struct crc_params *k);
extern const struct crc_impl crc_impl_fold_arm_pmull_eor3;
extern const struct crc_impl crc_impl_fold_arm_pmull;
extern const struct crc_impl crc_impl_crc16_xmodem_arm_pmull_eor3;
extern const struct crc_impl crc_impl_crc16_xmodem_arm_pmull;
#if defined(CRC_HOST_LE)
#define CRC_ARM_LITTLE_ENDIAN 1
#define CRC_ARM_HYBRID_IMPLS                                                              \
    &crc_impl_crc32c_arm_hybrid_eor3, &crc_impl_crc32_arm_hybrid_eor3,                    \
        &crc_impl_crc32c_arm_hybrid, &crc_impl_crc32_arm_hybrid,
#define CRC_ARM_PMULL_IMPLS                                                               \
    &crc_impl_crc16_xmodem_arm_pmull_eor3, &crc_impl_crc16_xmodem_arm_pmull,              \
        &crc_impl_fold_arm_pmull_eor3, &crc_impl_fold_arm_pmull,
#else
#define CRC_ARM_HYBRID_IMPLS
#define CRC_ARM_PMULL_IMPLS
#endif

/* Entries of the form `&crc_impl_NAME,` (each declared here, defined in this folder).
 * The dedicated CRC32-instruction paths come before folding for CRC-32C and CRC-32; the
 * hybrids after them, chosen by a family's table (tuning.h), not by their place. */
#define CRC_ARM_IMPLS                                                                     \
    &crc_impl_crc32c_arm_crc32_3way, &crc_impl_crc32_arm_crc32_3way,                      \
        &crc_impl_crc32c_arm_crc32, &crc_impl_crc32_arm_crc32, CRC_ARM_HYBRID_IMPLS \
            CRC_ARM_PMULL_IMPLS

#endif
