/* Family apple-m (tuning.h): Apple M1 and later under macOS. */
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
