/* 128-bit PMULL folding for every model of width 8..64 (fold_template.h). */
#include "impls.h"
#ifdef CRC_ARM_GCC_KERNELS
#include "../cpu.h"

#define SUFFIX arm_pmull
#define ATTRIBUTES __attribute__((target("+crypto")))
#define USE_EOR3 0
#include "fold_template.h"

static int runnable(void)
{
    return crc_cpu_has(CRC_CPU_ARM_PMULL);
}

const struct crc_impl crc_impl_fold_arm_pmull = {"fold_arm_pmull", runnable, fold_supported,
                                                 fold_update_arm_pmull};
#endif /* CRC_ARM_GCC_KERNELS */
