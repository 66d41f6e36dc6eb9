/* SPDX-License-Identifier: MIT */
/*
 * Family neoverse-v2 (tuning.h): Neoverse V2 (MIDR 0x41/0xd4f: Grace, Graviton4, Axion).
 * The shape by llvm-mca 19 -mcpu=neoverse-v2 on the hybrid loop, cycles per 64 B: v6s3q2
 * 2.69 (six crc32 beside twelve PMULL an iteration: both units full), v9s3q3 2.68,
 * v4s3q2 3.45, v3s3q2 4.03; the three chains alone 8.0.
 * hybrid_min: where the hybrid's passes beat the three chains, llvm-mca on whole calls
 * (scripts/static_estimate_arm.py, cycles, passes from the first iteration against three
 * chains): 384 B 72 vs 66, 512 B 76 vs 83, 768 B 84 vs 118.
 */
static const struct crc_arm_tuning crc_arm_tuning_neoverse_v2 = {
    .family = "neoverse-v2",
    .source = "llvm-mca 19 -mcpu=neoverse-v2 on the loops; no neoverse-v2 measured",
    .paths =
        {
            [CRC_ARM_CLASS_CRC32C] = "crc32c_arm_hybrid_eor3",
            [CRC_ARM_CLASS_CRC32] = "crc32_arm_hybrid_eor3",
            [CRC_ARM_CLASS_REFLECTED] = "fold_arm_pmull_eor3",
            [CRC_ARM_CLASS_MSB_FIRST] = "fold_arm_pmull_eor3",
        },
    .hybrid_shape = "v6s3q2",
    .hybrid_min = 448,
};
