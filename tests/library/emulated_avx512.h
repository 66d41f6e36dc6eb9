/* SPDX-License-Identifier: MIT */
/*
 * 512-bit and GFNI operations on CPUs without AVX-512 or GFNI, for the emulated tiers of
 * the tests (fold_emulated_avx512.h, crc32c_emulated_avx512.h): 512-bit vectors as pairs of
 * 256-bit AVX2 vectors, and
 *  - vpternlogq's three-way xor as two xors;
 *  - the byte-masked load (vmovdqu8 with a zeroing mask) reading only the bytes its mask
 *    selects, one at a time, so that the guard pages of the tests still catch a kernel
 *    whose mask would reach outside its buffer;
 *  - the byte permute vpermb with a zeroing mask, byte by byte;
 *  - GF2P8AFFINEQB from its definition (bit i of a result byte is the parity of the
 *    byte ANDed with byte 7 - i of the matrix's qword, xor bit i of the immediate).
 * test_fold checks each against its definition and the real instruction where the CPU has it.
 */
#ifndef CRCFORGE_TEST_EMULATED_AVX512_H
#define CRCFORGE_TEST_EMULATED_AVX512_H

#include <immintrin.h>
#include <stdint.h>
#include <stdlib.h>

#include "compiler.h"

#define EMU_TARGET CRC_TARGET("avx2,vpclmulqdq,pclmul,sse4.1")

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

static EMU_TARGET inline __m128i emu_maskz_loadu_epi8_128(uint16_t mask, const void *p)
{
    return _mm256_castsi256_si128(emu_maskz_loadu_epi8(mask, p).lo);
}

/* vpermb with a zeroing mask: byte i takes byte idx[i] mod 64 of x where the mask has bit i. */
static EMU_TARGET inline emu512 emu_maskz_permutexvar_epi8(uint64_t mask, emu512 idx, emu512 x)
{
    uint8_t ib[64], xb[64], out[64];
    emu_storeu(ib, idx);
    emu_storeu(xb, x);
    for (int i = 0; i < 64; i++)
        out[i] = (mask >> i & 1) ? xb[ib[i] & 63] : 0;
    return emu_loadu(out);
}

static EMU_TARGET inline emu512 emu_set1_epi64(long long x)
{
    return emu_broadcast(_mm_set1_epi64x(x));
}

/* The parity of the 8 bits of v. */
static inline unsigned emu_parity8(unsigned v)
{
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1;
}

static inline uint8_t emu_affine_byte(uint64_t matrix, uint8_t x, uint8_t imm)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++)
        r |= (uint8_t)((emu_parity8((unsigned)(matrix >> (8 * (7 - i)) & x)) ^ (imm >> i & 1))
                       << i);
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

#endif /* CRCFORGE_TEST_EMULATED_AVX512_H */
