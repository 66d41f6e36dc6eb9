/*
 * The folding kernel, written once and included by one .c file per ISA tier.  It serves
 * every model of width 8..64 in both bit orders through struct fold_consts (see
 * ../fold_consts.h for the mathematics: the register is a 64-bit CRC modulo G' = G*x^(64-n),
 * each 128-bit lane is folded forward with two carry-less multiplies, and the last lane is
 * reduced with three more).
 *
 * Parameters (all #undef'd at the end):
 *   SUFFIX      names the entry point fold_update_SUFFIX
 *   ATTRIBUTES  the target attribute enabling what the tier executes:
 *                 VL 16:                     "sse4.1,pclmul"
 *                 VL 32, !USE_AVX512:        "avx2,vpclmulqdq,pclmul"
 *                 VL 64, USE_AVX512:         "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,avx2"
 *   VL          vector length in bytes: 16, 32 or 64
 *   USE_AVX512  1 to use AVX-512 forms (three-way xor in one vpternlogq)
 *
 * Layout of a pass over n >= 16 bytes:
 *   n >= 8*VL : eight vector accumulators, 8*VL bytes an iteration (the multiplier's
 *               latency hidden behind independent chains), then a tree 8 -> 4 -> 2 -> 1;
 *   n >= VL   : one vector, VL bytes an iteration;
 *   then the vector's lanes folded into one 128-bit lane, 16 bytes an iteration, the last
 *   1..15 bytes merged with one overlapping load of the final 16 bytes (no byte outside
 *   [p, p+n) is read), and the final reduction.
 * Inputs under 16 bytes take the byte-table loop (short_update below says why).
 */
#include <immintrin.h>

#include "../fold_consts.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define ALWAYS_INLINE inline __attribute__((always_inline))

#if VL == 16
typedef __m128i vec_t;
#define VLOADU(q) _mm_loadu_si128((const void *)(q))
#define VXOR(a, b) _mm_xor_si128(a, b)
#define VCLMUL(a, b, imm) _mm_clmulepi64_si128(a, b, imm)
#define VBROADCAST(x) (x)
#define VSHUFFLE(a, m) _mm_shuffle_epi8(a, m)
#define VFROM128(x) (x)
#elif VL == 32
typedef __m256i vec_t;
#define VLOADU(q) _mm256_loadu_si256((const void *)(q))
#define VXOR(a, b) _mm256_xor_si256(a, b)
#define VCLMUL(a, b, imm) _mm256_clmulepi64_epi128(a, b, imm)
#define VBROADCAST(x) _mm256_broadcastsi128_si256(x)
#define VSHUFFLE(a, m) _mm256_shuffle_epi8(a, m)
#define VFROM128(x) _mm256_zextsi128_si256(x)
#elif VL == 64
typedef __m512i vec_t;
#define VLOADU(q) _mm512_loadu_si512((const void *)(q))
#define VXOR(a, b) _mm512_xor_si512(a, b)
#define VCLMUL(a, b, imm) _mm512_clmulepi64_epi128(a, b, imm)
#define VBROADCAST(x) _mm512_broadcast_i32x4(x)
#define VSHUFFLE(a, m) _mm512_shuffle_epi8(a, m)
#define VFROM128(x) _mm512_zextsi128_si512(x)
#else
#error "VL must be 16, 32 or 64"
#endif

/* Fold distances for one vector, 2, 4 and 8 vectors. */
#if VL == 16
#define FOLD_1V fold_across_128_bits
#define FOLD_2V fold_across_256_bits
#define FOLD_4V fold_across_512_bits
#define FOLD_8V fold_across_1024_bits
#elif VL == 32
#define FOLD_1V fold_across_256_bits
#define FOLD_2V fold_across_512_bits
#define FOLD_4V fold_across_1024_bits
#define FOLD_8V fold_across_2048_bits
#else
#define FOLD_1V fold_across_512_bits
#define FOLD_2V fold_across_1024_bits
#define FOLD_4V fold_across_2048_bits
#define FOLD_8V fold_across_4096_bits
#endif

static ATTRIBUTES ALWAYS_INLINE __m128i load_pair(const struct fold_pair *k)
{
    return _mm_loadu_si128((const void *)k);
}

/* a folded across the distance of k, onto b. */
static ATTRIBUTES ALWAYS_INLINE vec_t fold_vec(vec_t a, vec_t k, vec_t b)
{
    vec_t lo = VCLMUL(a, k, 0x00), hi = VCLMUL(a, k, 0x11);
#if USE_AVX512 && VL == 64
    return _mm512_ternarylogic_epi64(lo, hi, b, 0x96);
#else
    return VXOR(VXOR(lo, hi), b);
#endif
}

static ATTRIBUTES ALWAYS_INLINE __m128i fold_128(__m128i a, __m128i k, __m128i b)
{
    __m128i lo = _mm_clmulepi64_si128(a, k, 0x00), hi = _mm_clmulepi64_si128(a, k, 0x11);
#if USE_AVX512
    return _mm_ternarylogic_epi64(lo, hi, b, 0x96);
#else
    return _mm_xor_si128(_mm_xor_si128(lo, hi), b);
#endif
}

/* One vector's lanes folded into its last 128-bit lane. */
static ATTRIBUTES ALWAYS_INLINE __m128i to_128(vec_t v, const struct fold_consts *c)
{
#if VL == 16
    (void)c;
    return v;
#elif VL == 32
    return fold_128(_mm256_castsi256_si128(v), load_pair(&c->fold_across_128_bits),
                    _mm256_extracti128_si256(v, 1));
#else
    __m256i k256 = _mm256_broadcastsi128_si256(load_pair(&c->fold_across_256_bits));
    __m256i lo = _mm512_castsi512_si256(v), hi = _mm512_extracti64x4_epi64(v, 1);
    __m256i y = _mm256_ternarylogic_epi64(_mm256_clmulepi64_epi128(lo, k256, 0x00),
                                          _mm256_clmulepi64_epi128(lo, k256, 0x11), hi, 0x96);
    return fold_128(_mm256_castsi256_si128(y), load_pair(&c->fold_across_128_bits),
                    _mm256_extracti128_si256(y, 1));
#endif
}

/*
 * (A * x^64) mod G' for the last lane A, as the register: see fold_consts.h for the
 * constants.  MSB-first: the 64-bit register shifted back down to the model's width.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t final_reduction(__m128i a, const struct fold_consts *c,
                                                         const int msb)
{
    if (msb) {
        __m128i k = _mm_set_epi64x((long long)c->barrett_quotient, (long long)c->reduce_128);
        __m128i g = _mm_cvtsi64_si128((long long)c->barrett_poly);
        __m128i b = _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x01), _mm_slli_si128(a, 8));
        /* high qword: q = Bh ^ high64(Bh * barrett_quotient) */
        __m128i q = _mm_xor_si128(_mm_clmulepi64_si128(b, k, 0x11), b);
        __m128i r = _mm_xor_si128(_mm_clmulepi64_si128(q, g, 0x01), b);
        return (uint64_t)_mm_cvtsi128_si64(r) >> (64 - c->width);
    }
    __m128i k = _mm_set_epi64x((long long)c->barrett_quotient, (long long)c->reduce_128);
    __m128i g = _mm_cvtsi64_si128((long long)c->barrett_poly);
    __m128i b = _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_srli_si128(a, 8));
    __m128i q = _mm_clmulepi64_si128(b, k, 0x10); /* low qword: reflect64(q) */
    __m128i r = _mm_xor_si128(_mm_clmulepi64_si128(q, g, 0x00), b);
    return (uint64_t)_mm_extract_epi64(r, 1) ^
           ((uint64_t)_mm_cvtsi128_si64(q) & c->barrett_poly_x0);
}

/*
 * Shuffle masks for pshufb: the 16 bytes at shift_table + 16 + s move a lane's bytes down
 * by s (lane i takes lane i + s, zero past the end); those at shift_table + s move them up
 * by 16 - s (lane i takes i + s - 16, zero below, with the top bit set where zero).
 */
static const uint8_t shift_table[48] __attribute__((aligned(16))) = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

/*
 * The message so far ends with lane x (16 bytes), followed by the last t bytes (1..15),
 * which end at `end`.  Re-cut it as (t bytes, folded forward 128 bits) and the final 16
 * bytes, using one load of the 16 bytes before `end` (all inside the message).
 * Reflected lanes hold message bytes in order; MSB-first lanes hold them reversed.
 */
static ATTRIBUTES ALWAYS_INLINE __m128i fold_tail(__m128i x, const uint8_t *end, size_t t,
                                                  __m128i k128, __m128i bswap, const int msb)
{
    __m128i last = _mm_loadu_si128((const void *)(end - 16));
    if (msb) {
        __m128i up = _mm_loadu_si128((const void *)(shift_table + 16 - t));
        __m128i down = _mm_loadu_si128((const void *)(shift_table + 32 - t));
        __m128i merged = _mm_blendv_epi8(_mm_shuffle_epi8(x, up), _mm_shuffle_epi8(last, bswap),
                                         up);
        return fold_128(_mm_shuffle_epi8(x, down), k128, merged);
    }
    __m128i up = _mm_loadu_si128((const void *)(shift_table + t));
    __m128i down = _mm_loadu_si128((const void *)(shift_table + 16 + t));
    __m128i merged = _mm_blendv_epi8(last, _mm_shuffle_epi8(x, down), up);
    return fold_128(_mm_shuffle_epi8(x, up), k128, merged);
}

/* n >= 16.  msb is a constant at each call, so each bit order gets its own loop. */
static ATTRIBUTES ALWAYS_INLINE uint64_t fold_pass(const struct fold_consts *c, uint64_t reg,
                                                   const uint8_t *p, size_t n, const int msb)
{
    const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const vec_t vbswap = VBROADCAST(bswap);
#define LOAD(q) (msb ? VSHUFFLE(VLOADU(q), vbswap) : VLOADU(q))
    const __m128i reg128 = msb ? _mm_set_epi64x((long long)(reg << (64 - c->width)), 0)
                               : _mm_cvtsi64_si128((long long)reg);
    __m128i x;

    if (n >= VL) {
        vec_t v;
        if (n >= 8 * VL) {
            vec_t a0 = VXOR(LOAD(p), VFROM128(reg128)), a1 = LOAD(p + VL), a2 = LOAD(p + 2 * VL),
                  a3 = LOAD(p + 3 * VL), a4 = LOAD(p + 4 * VL), a5 = LOAD(p + 5 * VL),
                  a6 = LOAD(p + 6 * VL), a7 = LOAD(p + 7 * VL);
            p += 8 * VL;
            n -= 8 * VL;
            const vec_t k8 = VBROADCAST(load_pair(&c->FOLD_8V));
            while (n >= 8 * VL) {
                a0 = fold_vec(a0, k8, LOAD(p));
                a1 = fold_vec(a1, k8, LOAD(p + VL));
                a2 = fold_vec(a2, k8, LOAD(p + 2 * VL));
                a3 = fold_vec(a3, k8, LOAD(p + 3 * VL));
                a4 = fold_vec(a4, k8, LOAD(p + 4 * VL));
                a5 = fold_vec(a5, k8, LOAD(p + 5 * VL));
                a6 = fold_vec(a6, k8, LOAD(p + 6 * VL));
                a7 = fold_vec(a7, k8, LOAD(p + 7 * VL));
                p += 8 * VL;
                n -= 8 * VL;
            }
            const vec_t k4 = VBROADCAST(load_pair(&c->FOLD_4V));
            a4 = fold_vec(a0, k4, a4);
            a5 = fold_vec(a1, k4, a5);
            a6 = fold_vec(a2, k4, a6);
            a7 = fold_vec(a3, k4, a7);
            const vec_t k2 = VBROADCAST(load_pair(&c->FOLD_2V));
            a6 = fold_vec(a4, k2, a6);
            a7 = fold_vec(a5, k2, a7);
            v = fold_vec(a6, VBROADCAST(load_pair(&c->FOLD_1V)), a7);
        } else {
            v = VXOR(LOAD(p), VFROM128(reg128));
            p += VL;
            n -= VL;
        }
        const vec_t k1 = VBROADCAST(load_pair(&c->FOLD_1V));
        while (n >= VL) {
            v = fold_vec(v, k1, LOAD(p));
            p += VL;
            n -= VL;
        }
        x = to_128(v, c);
    } else {
        x = _mm_xor_si128(msb ? _mm_shuffle_epi8(_mm_loadu_si128((const void *)p), bswap) : _mm_loadu_si128((const void *)p), reg128);
        p += 16;
        n -= 16;
    }
#undef LOAD
    const __m128i k128 = load_pair(&c->fold_across_128_bits);
    while (n >= 16) {
        __m128i d = _mm_loadu_si128((const void *)p);
        x = fold_128(x, k128, msb ? _mm_shuffle_epi8(d, bswap) : d);
        p += 16;
        n -= 16;
    }
    if (n > 0)
        x = fold_tail(x, p + n, n, k128, bswap, msb);
    return final_reduction(x, c, msb);
}

/*
 * The update function of the registry (internal.h's signature).  Under 16 bytes there is
 * no whole lane to load without reading outside the buffer, and the byte-table loop does
 * the few bytes in less time than assembling a lane would take.
 */
static ATTRIBUTES uint64_t CAT(fold_update_, SUFFIX)(const crcforge_model *m, uint64_t reg,
                                                      const uint8_t *p, size_t n)
{
    if (n < 16)
        return crc_bytewise_update(m, reg, p, n);
    const struct fold_consts *c = fold_consts_of(m);
    if (c->lsb_first)
        return fold_pass(c, reg, p, n, 0);
    return fold_pass(c, reg, p, n, 1);
}

#undef CAT
#undef CAT_
#undef ALWAYS_INLINE
#undef VLOADU
#undef VXOR
#undef VCLMUL
#undef VBROADCAST
#undef VSHUFFLE
#undef VFROM128
#undef FOLD_1V
#undef FOLD_2V
#undef FOLD_4V
#undef FOLD_8V
#undef SUFFIX
#undef ATTRIBUTES
#undef VL
#undef USE_AVX512
