/* SPDX-License-Identifier: MIT */
/* The CRC-32C and CRC-32 hybrids with the SHA3 extension's three-way xor
 * (crc32_hybrid_template.h). */
#define SUFFIX hybrid_eor3
#define FEATURES CRC_FEATURES_arm_hybrid_eor3
#define ATTRIBUTES CRC_ARM_TARGET_CRC_PMULL_SHA3
#define USE_EOR3 1
#include "crc32_hybrid_template.h"
