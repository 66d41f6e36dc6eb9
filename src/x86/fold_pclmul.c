/* 128-bit PCLMULQDQ folding (SSE4.1 for pshufb, pblendvb, pextrq). */
#include "../cpu.h"
#include "fold.h"

#define SUFFIX x86_pclmul_static
#define ATTRIBUTES __attribute__((target("sse4.1,pclmul")))
#define VL 16
#define USE_AVX512 0
#include "fold_template.h"

uint64_t fold_update_x86_pclmul(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n)
{
    return fold_update_x86_pclmul_static(m, reg, p, n);
}

static int runnable(void)
{
    return crc_cpu_has(CRC_CPU_SSE41 | CRC_CPU_PCLMUL);
}

const struct crc_impl crc_impl_fold_x86_pclmul = {"fold_x86_pclmul", runnable, fold_supported,
                                                 fold_update_x86_pclmul_static};
