/* 256-bit VPCLMULQDQ folding with AVX2, for CPUs without AVX-512. */
#include "../cpu.h"
#include "fold.h"

#define SUFFIX x86_vpclmul_avx2_static
#define ATTRIBUTES __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.1")))
#define VL 32
#define USE_AVX512 0
#include "fold_template.h"

uint64_t fold_update_x86_vpclmul_avx2(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n)
{
    return fold_update_x86_vpclmul_avx2_static(m, reg, p, n);
}

static int runnable(void)
{
    return crc_cpu_has(CRC_CPU_SSE41 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL);
}

const struct crc_impl crc_impl_fold_x86_vpclmul_avx2 = {"fold_x86_vpclmul_avx2", runnable, fold_supported,
                                                 fold_update_x86_vpclmul_avx2_static};
