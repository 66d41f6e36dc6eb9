/*
 * The 512-bit tiers' logic on CPUs without AVX-512 or GFNI: fold_template.h instantiated
 * once more with VL 64 and USE_AVX512 (crc_impl_fold_x86_emulated_avx512, where this
 * header is included), or with GFNI_BITREV too when EMU_GFNI_BITREV is defined to 1
 * (crc_impl_fold_x86_emulated_gfni_avx512, in a translation unit of its own:
 * fold_emulated_gfni_avx512.c), every 512-bit and GFNI operation the template uses
 * emulated on pairs of 256-bit AVX2 vectors or byte by byte:
 *  - vpternlogq's three-way xor as two xors;
 *  - the byte-masked load (vmovdqu8 with a zeroing mask) reading only the bytes its mask
 *    selects, one at a time, so that the guard pages of the tests still catch a kernel
 *    whose mask would reach outside its buffer;
 *  - GF2P8AFFINEQB from its definition (bit i of a result byte is the parity of the
 *    byte ANDed with byte 7 - i of the matrix's qword, xor bit i of the immediate).
 * test_fold runs both like the real tiers, so the lane layout, head, fold distances,
 * constants and reductions of those tiers are checked wherever VPCLMULQDQ with AVX2
 * exists, and checks each emulated instruction against the real one where the CPU has it
 * (the real tiers themselves run on such a CPU too).
 */
#ifndef CRCFORGE_TEST_FOLD_EMULATED_AVX512_H
#define CRCFORGE_TEST_FOLD_EMULATED_AVX512_H

#include <immintrin.h>

#include "internal.h"

#define EMU_TARGET __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.1")))

#ifndef EMU_GFNI_BITREV
#define EMU_GFNI_BITREV 0
#endif

extern const struct crc_impl crc_impl_fold_x86_emulated_avx512;
extern const struct crc_impl crc_impl_fold_x86_emulated_gfni_avx512;

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

static EMU_TARGET inline void emu_storeu(void *p, emu512 v)
{
    _mm256_storeu_si256((__m256i *)p, v.lo);
    _mm256_storeu_si256((__m256i *)p + 1, v.hi);
}

/* The aligned load faults on a misaligned address, as vmovdqa64 would. */
static EMU_TARGET inline emu512 emu_load(const void *p)
{
    if ((uintptr_t)p % 64 != 0)
        abort();
    return emu_loadu(p);
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

static inline emu512 emu_maskz_loadu_epi8(uint64_t mask, const void *p)
{
    uint8_t b[64];
    for (int i = 0; i < 64; i++)
        b[i] = (mask >> i & 1) ? ((const uint8_t *)p)[i] : 0;
    return emu_loadu(b);
}

static EMU_TARGET inline emu512 emu_set1_epi64(long long x)
{
    return emu_broadcast(_mm_set1_epi64x(x));
}

static inline uint8_t emu_affine_byte(uint64_t matrix, uint8_t x, uint8_t imm)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++)
        r |= (uint8_t)((__builtin_parity((unsigned)(matrix >> (8 * (7 - i)) & x)) ^
                        (imm >> i & 1)) << i);
    return r;
}

/* GF2P8AFFINEQB over `bytes` bytes: each byte of x by the qword of a it lies in (through
 * a table of the last matrix and immediate's 256 results, since the kernels use one). */
static inline void emu_affine(uint8_t *out, const uint8_t *x, const uint64_t *a, int bytes,
                              uint8_t imm)
{
    static uint64_t matrix;
    static int imm_of_table = -1;
    static uint8_t table[256];
    for (int i = 0; i < bytes; i++) {
        if (a[i / 8] != matrix || imm != imm_of_table) {
            matrix = a[i / 8];
            imm_of_table = imm;
            for (int b = 0; b < 256; b++)
                table[b] = emu_affine_byte(matrix, (uint8_t)b, imm);
        }
        out[i] = table[x[i]];
    }
}

static EMU_TARGET inline emu512 emu_gf2p8affine512(emu512 x, emu512 a, uint8_t imm)
{
    uint8_t xb[64], out[64];
    uint64_t ab[8];
    _mm256_storeu_si256((__m256i *)xb, x.lo);
    _mm256_storeu_si256((__m256i *)(xb + 32), x.hi);
    _mm256_storeu_si256((__m256i *)ab, a.lo);
    _mm256_storeu_si256((__m256i *)(ab + 4), a.hi);
    emu_affine(out, xb, ab, 64, imm);
    return emu_loadu(out);
}

static EMU_TARGET inline __m128i emu_gf2p8affine128(__m128i x, __m128i a, uint8_t imm)
{
    uint8_t xb[16], out[16];
    uint64_t ab[2];
    _mm_storeu_si128((__m128i *)xb, x);
    _mm_storeu_si128((__m128i *)ab, a);
    emu_affine(out, xb, ab, 16, imm);
    return _mm_loadu_si128((const __m128i *)out);
}

/* The template uses vpternlogq only as a three-way xor (immediate 0x96). */
#define EMU_XOR3(xor, a, b, c, imm) ((imm) == 0x96 ? xor(xor(a, b), c) : (abort(), (a)))

/* clang defines some of these intrinsics as macros: they are replaced here. */
#undef _mm512_clmulepi64_epi128
#undef _mm512_extracti64x4_epi64
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
#define _mm512_set1_epi64(x) emu_set1_epi64(x)
#define _mm512_gf2p8affine_epi64_epi8(x, a, imm) emu_gf2p8affine512(x, a, imm)
#define _mm_gf2p8affine_epi64_epi8(x, a, imm) emu_gf2p8affine128(x, a, imm)

#if EMU_GFNI_BITREV
#define SUFFIX x86_emulated_gfni_avx512
#define GFNI_BITREV 1
#else
#define SUFFIX x86_emulated_avx512
#endif
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
#undef _mm512_set1_epi64
#undef _mm512_gf2p8affine_epi64_epi8
#undef _mm_gf2p8affine_epi64_epi8

#endif /* CRCFORGE_TEST_FOLD_EMULATED_AVX512_H */
