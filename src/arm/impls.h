/* The aarch64 implementation paths, best first, for the registry in dispatch.c. */
#ifndef CRCFORGE_ARM_IMPLS_H
#define CRCFORGE_ARM_IMPLS_H

#include "../internal.h"

/* crc32_arm.c */
extern const struct crc_impl crc_impl_crc32c_arm_crc32_3way;
extern const struct crc_impl crc_impl_crc32_arm_crc32_3way;
extern const struct crc_impl crc_impl_crc32c_arm_crc32;
extern const struct crc_impl crc_impl_crc32_arm_crc32;

/* Entries of the form `&crc_impl_NAME,` (each declared here, defined in this folder). */
#define CRC_ARM_IMPLS                                                                     \
    &crc_impl_crc32c_arm_crc32_3way, &crc_impl_crc32_arm_crc32_3way,                      \
        &crc_impl_crc32c_arm_crc32, &crc_impl_crc32_arm_crc32,

#endif
