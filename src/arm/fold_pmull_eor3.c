/* SPDX-License-Identifier: MIT */
/* 128-bit PMULL folding with the SHA3 extension's three-way xor (fold_template.h). */
#include "vec128.h"

#define SUFFIX arm_pmull_eor3
#define FEATURES CRC_FEATURES_arm_pmull_eor3
#define ATTRIBUTES CRC_ARM_TARGET_PMULL_SHA3
#define USE_EOR3 1
#include "fold_template.h"
