/* SPDX-License-Identifier: MIT */
/*
 * Family neoverse-n2 (tuning.h): Neoverse N2 (MIDR 0x41/0xd49).
 * The shape by llvm-mca 19 -mcpu=neoverse-n2 (a crc32 every other cycle, one PMULL or EOR3
 * a cycle) on the hybrid loop, cycles per 64 B: v4s3q2 6.88, v6s3q2 8.01, v3s3q2 8.02.
 * hybrid_min: Neoverse N1's, not estimated on its own.
 */
static const struct crc_arm_tuning crc_arm_tuning_neoverse_n2 = {
    .family = "neoverse-n2",
    .source = "llvm-mca 19 -mcpu=neoverse-n2 on the loops; no neoverse-n2 measured",
    .paths =
        {
            [CRC_ARM_CLASS_CRC32C] = "crc32c_arm_hybrid_eor3",
            [CRC_ARM_CLASS_CRC32] = "crc32_arm_hybrid_eor3",
            [CRC_ARM_CLASS_REFLECTED] = "fold_arm_pmull_eor3",
            [CRC_ARM_CLASS_MSB_FIRST] = "fold_arm_pmull_eor3",
        },
    .hybrid_shape = "v4s3q2",
    .hybrid_min = 800,
};
