/*
 * CRC-32C and CRC-32 (zlib) on the ARMv8 CRC32 instructions alone: one chain, and three
 * chains joined (crc32_chain.h has the kernels and their mathematics).
 */
#include "../cpu.h"
#include "crc32_chain.h"
#include "impls.h"

/* The registry's update functions, one per polynomial and kernel. */
#define UPDATE_FUNCTION(name, target, kernel, poly)                                      \
    target static uint64_t name(const crcforge_model *m, uint64_t reg, const uint8_t *p,  \
                                size_t n)                                                \
    {                                                                                    \
        (void)m;                                                                         \
        return kernel(poly, (uint32_t)reg, p, n);                                        \
    }
UPDATE_FUNCTION(crc32c_arm_crc32, CRC_ARM_TARGET_CRC, crc_arm_one_way, CRC_ARM_CASTAGNOLI)
UPDATE_FUNCTION(crc32_arm_crc32, CRC_ARM_TARGET_CRC, crc_arm_one_way, CRC_ARM_ZLIB)
UPDATE_FUNCTION(crc32c_arm_crc32_3way, CRC_ARM_TARGET_CRC_PMULL, crc_arm_three_way, CRC_ARM_CASTAGNOLI)
UPDATE_FUNCTION(crc32_arm_crc32_3way, CRC_ARM_TARGET_CRC_PMULL, crc_arm_three_way, CRC_ARM_ZLIB)

const struct crc_impl crc_impl_crc32c_arm_crc32_3way = {
    .name = "crc32c_arm_crc32_3way", .features = CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL,
    .supports = crc_arm_is_castagnoli, .update = crc32c_arm_crc32_3way};
const struct crc_impl crc_impl_crc32_arm_crc32_3way = {
    .name = "crc32_arm_crc32_3way", .features = CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL,
    .supports = crc_arm_is_zlib, .update = crc32_arm_crc32_3way};
const struct crc_impl crc_impl_crc32c_arm_crc32 = {
    .name = "crc32c_arm_crc32", .features = CRC_CPU_ARM_CRC32, .supports = crc_arm_is_castagnoli,
    .update = crc32c_arm_crc32};
const struct crc_impl crc_impl_crc32_arm_crc32 = {
    .name = "crc32_arm_crc32", .features = CRC_CPU_ARM_CRC32, .supports = crc_arm_is_zlib,
    .update = crc32_arm_crc32};
