/* SPDX-License-Identifier: MIT */
/* The CRC-32C and CRC-32 hybrids on PMULL and CRC32 (crc32_hybrid_template.h). */
#define SUFFIX hybrid
#define FEATURES CRC_FEATURES_arm_hybrid
#define ATTRIBUTES CRC_ARM_TARGET_CRC_PMULL
#define USE_EOR3 0
#include "crc32_hybrid_template.h"
