/* SPDX-License-Identifier: MIT */
/* What the hybrid tiers share (crc32_hybrid.h): their shapes' names, CRC-32's lane table. */
#include <string.h>

#include "crc32_hybrid.h"

#define SHAPE_RECORD(V, S, Q) {"v" #V "s" #S "q" #Q, V, S, Q},
const struct crc_arm_hybrid_shape crc_arm_hybrid_shapes[CRC_ARM_HYBRID_SHAPE_COUNT] = {
    CRC_ARM_HYBRID_SHAPES(SHAPE_RECORD)};
#undef SHAPE_RECORD

long crc_arm_hybrid_shape_index(const char *name, size_t len)
{
    for (size_t i = 0; i < CRC_ARM_HYBRID_SHAPE_COUNT; i++)
        if (strlen(crc_arm_hybrid_shapes[i].name) == len &&
            strncmp(crc_arm_hybrid_shapes[i].name, name, len) == 0)
            return (long)i;
    return -1;
}

crc_once_slot crc32_zlib_lanes;

static void fill_lanes(void *obj, const void *unused)
{
    (void)unused;
    crc32_lanes_compute(obj, &crc_model_crc32->p);
}

const struct crc32_lanes *crc32_zlib_lanes_build(void)
{
    return crc_once(&crc32_zlib_lanes, sizeof(struct crc32_lanes), fill_lanes, NULL);
}
