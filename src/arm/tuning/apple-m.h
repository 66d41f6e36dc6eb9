/* SPDX-License-Identifier: MIT */
/*
 * Family apple-m (tuning.h): Apple M1 and later under macOS (hw.cpufamily).  No model:
 * LLVM's apple-m1 is its old Cyclone one (one PMULL pipe).  The widest shape compiled
 * (on the Neoverse V models as fast as v6s3q2); the published hybrid's author measured on an M1
 * (crc32 alone 25 GB/s, 12 PMULL accumulators 77.7, PMULL and EOR3 beside crc32 85).
 */
static const struct crc_arm_tuning crc_arm_tuning_apple_m = {
    .family = "apple-m",
    .source = "by analogy: LLVM's apple-m1 model is its old Cyclone one (one PMULL pipe)",
    .paths =
        {
            [CRC_ARM_CLASS_CRC32C] = "crc32c_arm_hybrid_eor3",
            [CRC_ARM_CLASS_CRC32] = "crc32_arm_hybrid_eor3",
            [CRC_ARM_CLASS_REFLECTED] = "fold_arm_pmull_eor3",
            [CRC_ARM_CLASS_MSB_FIRST] = "fold_arm_pmull_eor3",
        },
    .hybrid_shape = "v9s3q3",
    .hybrid_min = 512,
};
