/* SPDX-License-Identifier: MIT */
/*
 * The CRC-32C and CRC-32 hybrids (crc32_hybrid_template.h): PMULL accumulators beside
 * crc32 chains.  What every tier shares: the shapes compiled, their constants' tables,
 * the parameter-taking entries the tests call.
 */
#ifndef CRCFORGE_ARM_CRC32_HYBRID_H
#define CRCFORGE_ARM_CRC32_HYBRID_H

#include "../fold_consts.h"
#include "../internal.h"

/*
 * A shape: `accumulators` 16-byte PMULL accumulators beside `chains` crc32 chains (1..3),
 * each chain taking `qwords` qwords an iteration, so that an iteration takes
 * 16 * accumulators + 8 * qwords * chains bytes.  X(accumulators, chains, qwords) for
 * every shape compiled, in the order of crc_arm_hybrid_shapes; the ARM tuning tables name
 * one (arm/tuning.h).
 */
#define CRC_ARM_HYBRID_SHAPES(X)                                                          \
    X(9, 3, 3) X(6, 3, 2) X(4, 3, 3) X(4, 3, 2) X(3, 3, 2) X(3, 2, 3) X(3, 1, 2)
#define CRC_ARM_HYBRID_ACCUMULATORS_MAX 9
#define CRC_ARM_HYBRID_ONE_(V, S, Q) +1
#define CRC_ARM_HYBRID_SHAPE_COUNT (0 CRC_ARM_HYBRID_SHAPES(CRC_ARM_HYBRID_ONE_))
#define CRC_ARM_STRINGIFY_(a) #a
#define CRC_ARM_STRINGIFY(a) CRC_ARM_STRINGIFY_(a)

struct crc_arm_hybrid_shape {
    const char *name; /* "v9s3q2": accumulators, chains (streams), qwords */
    unsigned accumulators, chains, qwords;
};
extern const struct crc_arm_hybrid_shape crc_arm_hybrid_shapes[CRC_ARM_HYBRID_SHAPE_COUNT];
/* The index of the shape named `name` (len bytes), or -1. */
long crc_arm_hybrid_shape_index(const char *name, size_t len);

/* CRC-32's lane table (CRC-32C's is crc32c_lanes_table, ../fold_consts.h), built on first
 * use; the kernels call it out of line when the peek gives NULL. */
const struct crc32_lanes *crc32_zlib_lanes_build(void);
extern crc_once_slot crc32_zlib_lanes;

/* What each tier executes. */
#define CRC_FEATURES_arm_hybrid (CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL)
#define CRC_FEATURES_arm_hybrid_eor3 (CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL | CRC_CPU_ARM_SHA3)

/*
 * The hybrids with their parameters given as numbers (for the tests):
 * the register after p[0..n) from reg, with shape crc_arm_hybrid_shapes[shape], the passes
 * of the hybrid running from `min` bytes (while at least one iteration and min bytes are
 * left).  poly: 0 CRC-32C, 1 CRC-32.
 */
uint64_t crc_arm_hybrid_with(int poly, uint64_t reg, const uint8_t *p, size_t n, size_t shape,
                             size_t min);
uint64_t crc_arm_hybrid_eor3_with(int poly, uint64_t reg, const uint8_t *p, size_t n,
                                  size_t shape, size_t min);

#endif /* CRCFORGE_ARM_CRC32_HYBRID_H */
