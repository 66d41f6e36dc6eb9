/* SPDX-License-Identifier: MIT */
/*
 * The aarch64 paths chosen per core, as data: for each class of model the path a family's
 * table prefers (NULL: the registry's order, best first), the CRC-32C and CRC-32 hybrids'
 * shape (crc32_hybrid.h) and the length from which their passes run.  One table per
 * family in tuning/FAMILY.h.  The core is known by its MIDR (Linux: implementer and part,
 * cpu_arm.c) or, on macOS, by hw.cpufamily; CRCFORGE_TUNE overrides the family and the
 * values (tuning.c).  A forced path (CRCFORGE_IMPL) bypasses the table's paths but keeps
 * its parameters.
 */
#ifndef CRCFORGE_ARM_TUNING_H
#define CRCFORGE_ARM_TUNING_H

#include "../internal.h"

enum crc_arm_class {
    CRC_ARM_CLASS_CRC32C,    /* CRC-32C's polynomial and bit order */
    CRC_ARM_CLASS_CRC32,     /* CRC-32's (zlib) */
    CRC_ARM_CLASS_REFLECTED, /* every other reflected model of width 8..64 */
    CRC_ARM_CLASS_MSB_FIRST, /* every other MSB-first model of width 8..64 */
    CRC_ARM_CLASSES
};

struct crc_arm_tuning {
    const char *family; /* the family it is for, or "generic" */
    const char *source; /* where its choices came from */
    const char *paths[CRC_ARM_CLASSES];
    const char *hybrid_shape; /* a name of crc_arm_hybrid_shapes */
    uint32_t hybrid_min;      /* bytes from which the hybrids run passes */
};
#define CRC_ARM_HYBRID_MIN_MOST (1u << 20)

/* Every family, first match first: its name, the features its table's paths execute, its
 * table, and which cores it is (by crc_cpu_identify's answer, cpu.h). */
struct crc_arm_family {
    const char *name;
    uint32_t features;
    const struct crc_arm_tuning *table;
    int (*is)(const struct crc_cpu_id *id);
};
#define CRC_ARM_FAMILIES 6
extern const struct crc_arm_family crc_arm_families[CRC_ARM_FAMILIES];
/* The family of a core of this identity with these features in use: an index into
 * crc_arm_families (the last, generic one when none matches). */
size_t crc_arm_family_of(const struct crc_cpu_id *id, uint32_t features);
/* Whether macOS's hw.cpufamily names an Apple M-series core (Firestorm and later). */
int crc_arm_apple_m(uint32_t cpufamily);

/* The kernels' parameters of the table in use (the hybrids' shape and limit), handed to
 * them by the selections dispatch resolves. */
const struct crc_params *crc_arm_params(void);
/* Forget the table in use (crcforge_impl_force: a CPU mask may change the family). */
void crc_arm_tuning_reset(void);
/* The family in use: an index into crc_arm_families. */
size_t crc_arm_family_in_use(void);
/* The path the table in use prefers for m, if this CPU runs it; else NULL. */
const struct crc_impl *crc_arm_tuned_impl(const crcforge_model *m);

#endif /* CRCFORGE_ARM_TUNING_H */
