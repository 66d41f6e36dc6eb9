/* SPDX-License-Identifier: MIT */
/*
 * Family neoverse-v1 (tuning.h): Neoverse V1 (MIDR 0x41/0xd40: Graviton3).
 * The shape by llvm-mca 19 -mcpu=neoverse-v1 on the hybrid loop, cycles per 64 B: v6s3q2
 * 2.69, v9s3q3 2.68, v4s3q2 3.45, v3s3q2 4.03; the three chains alone 8.0.
 * hybrid_min: Neoverse V2's, not estimated on its own.
 */
static const struct crc_arm_tuning crc_arm_tuning_neoverse_v1 = {
    .family = "neoverse-v1",
    .source = "llvm-mca 19 -mcpu=neoverse-v1 on the loops; no neoverse-v1 measured",
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
