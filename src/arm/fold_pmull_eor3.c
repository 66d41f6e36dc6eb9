/* 128-bit PMULL folding with the SHA3 extension's three-way xor (fold_template.h). */
#include "impls.h"
#ifdef CRC_ARM_GCC_KERNELS
#include "../cpu.h"

#define SUFFIX arm_pmull_eor3
#define ATTRIBUTES __attribute__((target("arch=armv8.2-a+crypto+sha3")))
#define USE_EOR3 1
#include "fold_template.h"

static int runnable(void)
{
    return crc_cpu_has(CRC_CPU_ARM_PMULL | CRC_CPU_ARM_SHA3);
}

const struct crc_impl crc_impl_fold_arm_pmull_eor3 = {
    "fold_arm_pmull_eor3", runnable, fold_supported, fold_update_arm_pmull_eor3};
#endif /* CRC_ARM_GCC_KERNELS */
