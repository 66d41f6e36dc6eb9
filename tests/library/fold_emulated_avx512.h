/* SPDX-License-Identifier: MIT */
/*
 * The 512-bit tiers' logic on CPUs without AVX-512 or GFNI: fold_template.h instantiated
 * once more with VL 64 and USE_AVX512 (crc_impl_fold_x86_emulated_avx512, where this
 * header is included), or with GFNI_BITREV too when EMU_GFNI_BITREV is defined to 1
 * (crc_impl_fold_x86_emulated_gfni_avx512, in a translation unit of its own:
 * fold_emulated_gfni_avx512.c), or with the aligned tier's ALIGNED_FROM when
 * EMU_ALIGNED is defined to 1 (crc_impl_fold_x86_emulated_avx512_aligned, likewise:
 * fold_emulated_aligned_avx512.c), every 512-bit and GFNI operation the template uses
 * emulated (emulated_avx512.h).  test_fold runs both like the real tiers, so the lane
 * layout, head, fold distances, constants and reductions of those tiers are checked
 * wherever VPCLMULQDQ with AVX2 exists (the real tiers run on a CPU with AVX-512 too).
 */
#ifndef CRCFORGE_TEST_FOLD_EMULATED_AVX512_H
#define CRCFORGE_TEST_FOLD_EMULATED_AVX512_H

#include "emulated_avx512.h"
#include "internal.h"

#ifndef EMU_GFNI_BITREV
#define EMU_GFNI_BITREV 0
#endif
#ifndef EMU_ALIGNED
#define EMU_ALIGNED 0
#endif

extern const struct crc_impl crc_impl_fold_x86_emulated_avx512;
extern const struct crc_impl crc_impl_fold_x86_emulated_gfni_avx512;
extern const struct crc_impl crc_impl_fold_x86_emulated_avx512_aligned;

/* clang defines some of these intrinsics as macros: they are replaced here. */
#undef _mm512_clmulepi64_epi128
#undef _mm_maskz_loadu_epi8
#undef _mm512_extracti64x4_epi64
#undef _mm512_maskz_permutexvar_epi8
#undef _mm512_set_epi64
#undef _mm512_ternarylogic_epi64
#undef _mm256_ternarylogic_epi64
#undef _mm_ternarylogic_epi64
#undef _mm512_gf2p8affine_epi64_epi8
#undef _mm_gf2p8affine_epi64_epi8
#define __m512i emu512
#define _mm512_loadu_si512(p) emu_loadu(p)
#define _mm512_load_si512(p) emu_load(p)
#define _mm512_xor_si512(a, b) emu_xor(a, b)
#define _mm512_clmulepi64_epi128(a, b, imm)                                               \
    emu_pair(_mm256_clmulepi64_epi128((a).lo, (b).lo, imm),                               \
             _mm256_clmulepi64_epi128((a).hi, (b).hi, imm))
#define _mm512_broadcast_i32x4(x) emu_broadcast(x)
#define _mm512_shuffle_epi8(a, m) emu_shuffle(a, m)
#define _mm512_zextsi128_si512(x) emu_zext(x)
#define _mm512_castsi512_si256(v) ((v).lo)
#define _mm512_extracti64x4_epi64(v, i) ((i) ? (v).hi : (v).lo)
#define _mm512_ternarylogic_epi64(a, b, c, imm) EMU_XOR3(emu_xor, a, b, c, imm)
#define _mm256_ternarylogic_epi64(a, b, c, imm) EMU_XOR3(_mm256_xor_si256, a, b, c, imm)
#define _mm_ternarylogic_epi64(a, b, c, imm) EMU_XOR3(_mm_xor_si128, a, b, c, imm)
#define _mm512_maskz_loadu_epi8(k, p) emu_maskz_loadu_epi8(k, p)
#define _mm_maskz_loadu_epi8(k, p) emu_maskz_loadu_epi8_128(k, p)
#define _mm512_maskz_permutexvar_epi8(k, idx, x) emu_maskz_permutexvar_epi8(k, idx, x)
#define _mm512_set1_epi64(x) emu_set1_epi64(x)
#define _mm512_set_epi64(q7, q6, q5, q4, q3, q2, q1, q0)                                   \
    emu_pair(_mm256_set_epi64x(q3, q2, q1, q0), _mm256_set_epi64x(q7, q6, q5, q4))
#define _mm512_gf2p8affine_epi64_epi8(x, a, imm) emu_gf2p8affine512(x, a, imm)
#define _mm_gf2p8affine_epi64_epi8(x, a, imm) emu_gf2p8affine128(x, a, imm)

#if EMU_GFNI_BITREV
#define SUFFIX x86_emulated_gfni_avx512
#define GFNI_BITREV 1
#elif EMU_ALIGNED
#define SUFFIX x86_emulated_avx512_aligned
#define ALIGNED_FROM CRC_FOLD_ALIGNED_FROM
#else
#define SUFFIX x86_emulated_avx512
#endif
#define KEEP_IN_REGISTER(v) __asm__("" : "+v"((v).lo), "+v"((v).hi))
#define ATTRIBUTES EMU_TARGET
#define FEATURES (CRC_CPU_SSE41 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)
#define VL 64
#define USE_AVX512 1
#include "x86/fold_template.h"

#undef __m512i
#undef _mm512_loadu_si512
#undef _mm512_load_si512
#undef _mm512_xor_si512
#undef _mm512_clmulepi64_epi128
#undef _mm512_broadcast_i32x4
#undef _mm512_shuffle_epi8
#undef _mm512_zextsi128_si512
#undef _mm512_castsi512_si256
#undef _mm512_extracti64x4_epi64
#undef _mm512_ternarylogic_epi64
#undef _mm256_ternarylogic_epi64
#undef _mm_ternarylogic_epi64
#undef _mm512_maskz_loadu_epi8
#undef _mm_maskz_loadu_epi8
#undef _mm512_maskz_permutexvar_epi8
#undef _mm512_set1_epi64
#undef _mm512_set_epi64
#undef _mm512_gf2p8affine_epi64_epi8
#undef _mm_gf2p8affine_epi64_epi8

#endif /* CRCFORGE_TEST_FOLD_EMULATED_AVX512_H */
