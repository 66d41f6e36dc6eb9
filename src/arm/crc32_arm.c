/* SPDX-License-Identifier: MIT */
/*
 * CRC-32C and CRC-32 (zlib) on the ARMv8 CRC32 instructions alone: one chain, and three
 * chains joined (crc32_chain.h has the kernels and their mathematics).
 */
#include "../cpu.h"
#include "crc32_chain.h"
#include "impls.h"

/* The registry's update functions, one per polynomial and kernel. */
#define UPDATE_FUNCTION(name, target, kernel, poly)                                      \
    target CODE_ALIGNED static uint64_t name(const crcforge_model *m, uint64_t reg, \
                                                     const uint8_t *p, size_t n,          \
                                                     const struct crc_params *k)          \
    {                                                                                    \
        (void)m, (void)k;                                                                \
        return kernel(poly, (uint32_t)reg, p, n);                                        \
    }
UPDATE_FUNCTION(crc32c_arm_crc32, CRC_ARM_TARGET_CRC, crc_arm_one_way, CRC_ARM_CASTAGNOLI)
UPDATE_FUNCTION(crc32_arm_crc32, CRC_ARM_TARGET_CRC, crc_arm_one_way, CRC_ARM_ZLIB)
UPDATE_FUNCTION(crc32c_arm_crc32_3way, CRC_ARM_TARGET_CRC_PMULL, crc_arm_three_way,
                CRC_ARM_CASTAGNOLI)
UPDATE_FUNCTION(crc32_arm_crc32_3way, CRC_ARM_TARGET_CRC_PMULL, crc_arm_three_way,
                CRC_ARM_ZLIB)

/* The value entries (api.c calls them in crcforge_crc32c's and crcforge_crc32's place):
 * one chain here, with no frame, below THREE_WAY_FROM bytes (where the 3-way kernel runs
 * one chain too); longer inputs through a function that takes the value, so that the
 * call is a jump. */
#define THREE_WAY_FROM (3 * CRC_ARM_SHORT_STREAM)
#define VALUE_ENTRIES(name, poly)                                                         \
    CRC_ARM_TARGET_CRC CODE_ALIGNED static uint32_t name##_value(                \
        uint32_t crc, const void *buf, size_t len, const struct crc_params *k)           \
    {                                                                                    \
        (void)k;                                                                         \
        return ~crc_arm_one_way(poly, ~crc, buf, len);                                   \
    }                                                                                    \
    CRC_ARM_TARGET_CRC_PMULL CODE_ALIGNED static CRC_NOINLINE                            \
    uint32_t name##_3way_long(uint32_t crc, const void *buf, size_t len)                 \
    {                                                                                    \
        return ~crc_arm_three_way(poly, ~crc, buf, len);                                 \
    }                                                                                    \
    CRC_ARM_TARGET_CRC_PMULL CODE_ALIGNED static uint32_t name##_3way_value(     \
        uint32_t crc, const void *buf, size_t len, const struct crc_params *k)           \
    {                                                                                    \
        (void)k;                                                                         \
        if (len < THREE_WAY_FROM)                                                        \
            return ~crc_arm_one_way(poly, ~crc, buf, len);                               \
        return name##_3way_long(crc, buf, len);                                          \
    }
VALUE_ENTRIES(crc32c_arm_crc32, CRC_ARM_CASTAGNOLI)
VALUE_ENTRIES(crc32_arm_crc32, CRC_ARM_ZLIB)

const struct crc_impl crc_impl_crc32c_arm_crc32_3way = {
    .name = "crc32c_arm_crc32_3way", .features = CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL,
    .supports = crc_arm_is_castagnoli, .update = crc32c_arm_crc32_3way,
    .value = {[CRC_FIXED_CRC32C] = {.w32 = crc32c_arm_crc32_3way_value}},
    .untuned = 1};
const struct crc_impl crc_impl_crc32_arm_crc32_3way = {
    .name = "crc32_arm_crc32_3way", .features = CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL,
    .supports = crc_arm_is_zlib, .update = crc32_arm_crc32_3way,
    .value = {[CRC_FIXED_CRC32] = {.w32 = crc32_arm_crc32_3way_value}},
    .untuned = 1};
const struct crc_impl crc_impl_crc32c_arm_crc32 = {
    .name = "crc32c_arm_crc32", .features = CRC_CPU_ARM_CRC32,
    .supports = crc_arm_is_castagnoli, .update = crc32c_arm_crc32,
    .value = {[CRC_FIXED_CRC32C] = {.w32 = crc32c_arm_crc32_value}},
    .untuned = 1};
const struct crc_impl crc_impl_crc32_arm_crc32 = {
    .name = "crc32_arm_crc32", .features = CRC_CPU_ARM_CRC32, .supports = crc_arm_is_zlib,
    .update = crc32_arm_crc32,
    .value = {[CRC_FIXED_CRC32] = {.w32 = crc32_arm_crc32_value}},
    .untuned = 1};
