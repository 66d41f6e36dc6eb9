/*
 * The 512-bit tier's logic on CPUs without AVX-512: fold_template.h instantiated once more
 * with VL 64 and USE_AVX512, every 512-bit operation emulated on a pair of 256-bit AVX2
 * vectors and vpternlogq's three-way xor done as two xors.  test_fold runs it like the real
 * tiers, so the lane layout, fold distances, constants and reductions of that tier are
 * checked wherever VPCLMULQDQ with AVX2 exists; the AVX-512 instructions themselves are
 * exercised by the real fold_x86_vpclmul_avx512 on a CPU that has them.
 */
#ifndef CRCFORGE_TEST_FOLD_EMULATED_AVX512_H
#define CRCFORGE_TEST_FOLD_EMULATED_AVX512_H

#include <immintrin.h>

#include "internal.h"

#define EMU_TARGET __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.1")))

typedef struct {
    __m256i lo, hi;
} emu512;

static EMU_TARGET inline emu512 emu_pair(__m256i lo, __m256i hi)
{
    emu512 r = {lo, hi};
    return r;
}

static EMU_TARGET inline emu512 emu_loadu(const void *p)
{
    return emu_pair(_mm256_loadu_si256((const __m256i *)p),
                    _mm256_loadu_si256((const __m256i *)p + 1));
}

static EMU_TARGET inline emu512 emu_xor(emu512 a, emu512 b)
{
    return emu_pair(_mm256_xor_si256(a.lo, b.lo), _mm256_xor_si256(a.hi, b.hi));
}

static EMU_TARGET inline emu512 emu_broadcast(__m128i x)
{
    return emu_pair(_mm256_broadcastsi128_si256(x), _mm256_broadcastsi128_si256(x));
}

static EMU_TARGET inline emu512 emu_shuffle(emu512 a, emu512 m)
{
    return emu_pair(_mm256_shuffle_epi8(a.lo, m.lo), _mm256_shuffle_epi8(a.hi, m.hi));
}

static EMU_TARGET inline emu512 emu_zext(__m128i x)
{
    return emu_pair(_mm256_zextsi128_si256(x), _mm256_setzero_si256());
}

/* The template uses vpternlogq only as a three-way xor (immediate 0x96). */
#define EMU_XOR3(xor, a, b, c, imm) ((imm) == 0x96 ? xor(xor(a, b), c) : (abort(), (a)))

/* clang defines some of these intrinsics as macros: they are replaced here. */
#undef _mm512_clmulepi64_epi128
#undef _mm512_extracti64x4_epi64
#undef _mm512_ternarylogic_epi64
#undef _mm256_ternarylogic_epi64
#undef _mm_ternarylogic_epi64
#define __m512i emu512
#define _mm512_loadu_si512(p) emu_loadu(p)
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

#define SUFFIX x86_emulated_avx512
#define ATTRIBUTES EMU_TARGET
#define FEATURES (CRC_CPU_SSE41 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)
#define VL 64
#define USE_AVX512 1
#include "x86/fold_template.h"

#undef __m512i
#undef _mm512_loadu_si512
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

#endif /* CRCFORGE_TEST_FOLD_EMULATED_AVX512_H */
