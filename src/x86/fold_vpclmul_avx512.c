/* 512-bit VPCLMULQDQ folding with AVX-512 (F for zmm, BW for vpshufb zmm, VL for
 * vpternlogq on xmm/ymm). */
#include "../cpu.h"
#include "fold.h"

#define SUFFIX x86_vpclmul_avx512_static
#define ATTRIBUTES __attribute__((target("avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,avx2,sse4.1")))
#define VL 64
#define USE_AVX512 1
#include "fold_template.h"

uint64_t fold_update_x86_vpclmul_avx512(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n)
{
    return fold_update_x86_vpclmul_avx512_static(m, reg, p, n);
}

static int runnable(void)
{
    return crc_cpu_has(CRC_CPU_SSE41 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL | CRC_CPU_AVX512F |
           CRC_CPU_AVX512BW | CRC_CPU_AVX512VL);
}

const struct crc_impl crc_impl_fold_x86_vpclmul_avx512 = {"fold_x86_vpclmul_avx512", runnable, fold_supported,
                                                 fold_update_x86_vpclmul_avx512_static};
