/*
 * CRC-32C on CPUs with AVX-512 and VPCLMULQDQ: the crc32 instruction for short inputs,
 * the 512-bit folding kernel (fold.h) for the rest.  Folding 64 bytes a multiply pair
 * tops out near four times the crc32 instruction's 8 bytes a cycle, well above the
 * AVX2 hybrid's two units side by side.
 *
 * The crossover is the one measured on AMD Zen 3 between one crc32 chain and the best of
 * 3-way and 256-bit folding (CRC32C_THREEWAY_MIN), on a machine without AVX-512: the
 * 512-bit crossover itself is not measured.
 */
#include "../cpu.h"
#include "crc32c_x86.h"
#include "fold.h"

static TARGET_SSE42 uint64_t crc32c_x86_vpclmul_avx512(const crcforge_model *m, uint64_t reg,
                                                       const uint8_t *p, size_t n)
{
    if (n < CRC32C_THREEWAY_MIN)
        return crc32c_chain((uint32_t)reg, p, n);
    return fold_update_x86_vpclmul_avx512(m, reg, p, n);
}

const struct crc_impl crc_impl_crc32c_x86_vpclmul_avx512 = {
    .name = "crc32c_x86_vpclmul_avx512", .features = CRC_CPU_SSE42 | CRC_FEATURES_x86_vpclmul_avx512,
    .supports = crc32c_serves, .update = crc32c_x86_vpclmul_avx512,
    .crc32_below = CRC32C_THREEWAY_MIN};
