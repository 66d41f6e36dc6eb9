/* SPDX-License-Identifier: MIT */
/*
 * Family neoverse-n1 (tuning.h): Neoverse N1 (MIDR 0x41/0xd0c: Graviton2, Ampere Altra),
 * no SHA3.  The shape by llvm-mca 19 -mcpu=neoverse-n1 (one PMULL pipe, four wide) on the
 * hybrid loop without EOR3, cycles per 64 B: v4s3q3 4.26, v4s3q2 5.17, v3s3q2 5.36,
 * v6s3q2 5.80; the three chains alone 8.0.
 * hybrid_min: where the hybrid's passes beat the three chains, llvm-mca on whole calls
 * (scripts/static_estimate_arm.py, cycles, passes from the first iteration against three
 * chains): 512 B 117 vs 107, 768 B 131 vs 127, 1024 B 145 vs 191.
 */
static const struct crc_arm_tuning crc_arm_tuning_neoverse_n1 = {
    .family = "neoverse-n1",
    .source = "llvm-mca 19 -mcpu=neoverse-n1 on the loops; no neoverse-n1 measured",
    .paths =
        {
            [CRC_ARM_CLASS_CRC32C] = "crc32c_arm_hybrid",
            [CRC_ARM_CLASS_CRC32] = "crc32_arm_hybrid",
            [CRC_ARM_CLASS_REFLECTED] = "fold_arm_pmull",
            [CRC_ARM_CLASS_MSB_FIRST] = "fold_arm_pmull",
        },
    .hybrid_shape = "v4s3q3",
    .hybrid_min = 800,
};
