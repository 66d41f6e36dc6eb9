/* SPDX-License-Identifier: MIT */
/* The generic table (tuning.h): a core no family knows takes the registry's order (best
 * first: the three crc32 chains for CRC-32C and CRC-32, the widest fold for the others);
 * its hybrid parameters serve the hybrids when they are forced. */
static const struct crc_arm_tuning crc_arm_tuning_generic = {
    .family = "generic",
    .source = "the registry's order",
    .paths = {NULL, NULL, NULL, NULL},
    .hybrid_shape = "v3s3q2",
    .hybrid_min = 512,
};
