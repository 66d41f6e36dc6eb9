/* SPDX-License-Identifier: MIT */
/*
 * The 512-bit CRC-32C paths' logic on CPUs without AVX-512: crc32c_vpclmul_template.h
 * instantiated once more with VL 64, every 512-bit operation emulated on a pair of 256-bit
 * AVX2 vectors (emulated_avx512.h's emu512) and vpternlogq's three-way xor done as
 * two xors.  test_crc32c runs the two paths it gives (crc32c_x86_emulated_avx512 and
 * crc32c_x86_emulated_avx512_hybrid) like the real ones, so the lane layout, the lane
 * table's use, the accumulators and the hybrid's passes of the 512-bit paths are checked
 * wherever VPCLMULQDQ with AVX2 exists; the AVX-512 instructions themselves are exercised
 * by the real paths on a CPU that has them.  Every load is a plain one (the kernels use no
 * masked loads), so the guard pages catch an over-read here as they do natively.
 */
#ifndef CRCFORGE_TEST_CRC32C_EMULATED_AVX512_H
#define CRCFORGE_TEST_CRC32C_EMULATED_AVX512_H

#include "emulated_avx512.h"
#include "internal.h"

static EMU_TARGET inline emu512 emu_zero(void)
{
    return emu_pair(_mm256_setzero_si256(), _mm256_setzero_si256());
}

/* clang defines some of these intrinsics as macros: they are replaced here. */
#undef _mm512_clmulepi64_epi128
#undef _mm512_extracti64x4_epi64
#undef _mm512_ternarylogic_epi64
#define __m512i emu512
#define _mm512_loadu_si512(p) emu_loadu(p)
#define _mm512_xor_si512(a, b) emu_xor(a, b)
#define _mm512_setzero_si512() emu_zero()
#define _mm512_clmulepi64_epi128(a, b, imm)                                               \
    emu_pair(_mm256_clmulepi64_epi128((a).lo, (b).lo, imm),                               \
             _mm256_clmulepi64_epi128((a).hi, (b).hi, imm))
#define _mm512_broadcast_i32x4(x) emu_broadcast(x)
#define _mm512_zextsi128_si512(x) emu_zext(x)
#define _mm512_castsi512_si256(v) ((v).lo)
#define _mm512_extracti64x4_epi64(v, i) ((i) ? (v).hi : (v).lo)
#define _mm512_ternarylogic_epi64(a, b, c, imm) EMU_XOR3(emu_xor, a, b, c, imm)

#define PARALLEL crc32c_x86_emulated_avx512
#define HYBRID crc32c_x86_emulated_avx512_hybrid
#define FEATURES (CRC_CPU_SSE41 | CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)
#define ATTRIBUTES CRC_TARGET("avx2,vpclmulqdq,pclmul,sse4.2,crc32")
#define VL 64
#define PIN(x) ((void)0)
#include "x86/crc32c_vpclmul_template.h"

#undef __m512i
#undef _mm512_loadu_si512
#undef _mm512_xor_si512
#undef _mm512_setzero_si512
#undef _mm512_clmulepi64_epi128
#undef _mm512_broadcast_i32x4
#undef _mm512_zextsi128_si512
#undef _mm512_castsi512_si256
#undef _mm512_extracti64x4_epi64
#undef _mm512_ternarylogic_epi64

#endif /* CRCFORGE_TEST_CRC32C_EMULATED_AVX512_H */
