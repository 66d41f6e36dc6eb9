/* SPDX-License-Identifier: MIT */
/* 128-bit PMULL folding for every model of width 8..64 (fold_template.h). */
#include "vec128.h"

#define SUFFIX arm_pmull
#define FEATURES CRC_FEATURES_arm_pmull
#define ATTRIBUTES CRC_ARM_TARGET_PMULL
#define USE_EOR3 0
#include "fold_template.h"
