/*
 * The folding kernel, written once and included by one .c file per ISA tier.  It serves
 * every model of width 8..64 in both bit orders through struct fold_consts (see
 * ../fold_consts.h for the mathematics: the register is a 64-bit CRC modulo G' = G*x^(64-n),
 * each 128-bit lane is folded forward with two carry-less multiplies, and the last lane is
 * reduced with three more).
 *
 * Parameters (all #undef'd at the end):
 *   SUFFIX      names the tier: crc_impl_fold_SUFFIX for the registry, whose name is
 *               "fold_SUFFIX", and fold_update_SUFFIX for other kernels (fold.h)
 *   FEATURES    the CRC_CPU_* bits of everything the tier executes (its runnable check)
 *   ATTRIBUTES  the target attribute enabling what the tier executes:
 *                 VL 16:                "sse4.1,pclmul"
 *                 VL 32, !USE_AVX512:   "avx2,vpclmulqdq,pclmul,sse4.1"
 *                 USE_AVX512:           "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,avx2,sse4.1"
 *               (the 128-bit tail and reduction run in every tier, hence sse4.1 and pclmul)
 *   VL          vector length in bytes: 16, 32 or 64
 *   USE_AVX512  1 to use AVX-512 forms (three-way xor in one vpternlogq)
 *
 * Layout of a pass over n bytes:
 *   1..15 bytes: assembled in general registers into one 128-bit polynomial, reduced with
 *   two or three multiplies (short_pass);
 *   otherwise a head first (head_pass): the first n % 16 bytes become a virtual lane that
 *   ends where whole lanes start (no byte outside [p, p+n) is read), then as many whole
 *   lanes as make the rest a multiple of the vector length, each folded into the next;
 *   under LANES_MAX bytes the last lane is then reduced (lanes_pass); otherwise
 *   (fold_pass) the rest is whole vectors:
 *   n >= 8*VL : eight vector accumulators, 8*VL bytes an iteration (the multiplier's
 *               latency hidden behind independent chains);
 *   then 8 -> 4 -> 2 -> 1 accumulators, each level taking at most one more step of data
 *   (a shorter input starts at the level its length allows);
 *   and each lane of the last 64 bytes multiplied straight into the 128-bit value that
 *   Barrett reduces (reduce_last).
 */
#include <immintrin.h>
#include <string.h>

#include "../cpu.h"
#include "../fold_consts.h"
#include "fold.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STRINGIFY_(a) #a
#define STRINGIFY(a) STRINGIFY_(a)
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

/* Three-way xor in one vpternlogq: AVX-512 tiers only (AVX-512VL for xmm and ymm). */
#if USE_AVX512
#if VL == 16
#define VXOR3(a, b, c) _mm_ternarylogic_epi64(a, b, c, 0x96)
#elif VL == 32
#define VXOR3(a, b, c) _mm256_ternarylogic_epi64(a, b, c, 0x96)
#else
#define VXOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#endif
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
#if USE_AVX512
    return VXOR3(lo, hi, b);
#else
    return VXOR(VXOR(lo, hi), b);
#endif
}

/*
 * B mod G' for a 128-bit B = Bh*x^64 + Bl in the lane convention (MSB-first: the high qword
 * is Bh; reflected: the low qword is reflect64(Bh)), as the register: Barrett reduction
 * with the constants of fold_consts.h.  MSB-first: shifted back down to the model's width.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t barrett(__m128i b, const struct fold_consts *c,
                                                 const int msb)
{
    const __m128i mu = _mm_set_epi64x((long long)c->barrett_quotient, 0);
    const __m128i g = _mm_cvtsi64_si128((long long)c->barrett_poly);
    if (msb) {
        /* high qword: q = Bh ^ high64(Bh * barrett_quotient) */
        __m128i q = _mm_xor_si128(_mm_clmulepi64_si128(b, mu, 0x11), b);
        __m128i r = _mm_xor_si128(_mm_clmulepi64_si128(q, g, 0x01), b);
        return (uint64_t)_mm_cvtsi128_si64(r) >> (64 - c->width);
    }
    __m128i q = _mm_clmulepi64_si128(b, mu, 0x10); /* low qword: reflect64(q) */
    __m128i r = _mm_xor_si128(_mm_clmulepi64_si128(q, g, 0x00), b);
    return (uint64_t)_mm_extract_epi64(r, 1) ^
           ((uint64_t)_mm_cvtsi128_si64(q) & c->barrett_poly_x0);
}

/* (A * x^64) mod G' for the last lane A, as the register: A * x^64 == B (mod G') with
 * B = A.hi * (x^128 mod G') + A.lo * x^64, then Barrett. */
static ATTRIBUTES ALWAYS_INLINE uint64_t final_reduction(__m128i a, const struct fold_consts *c,
                                                         const int msb)
{
    const __m128i k = _mm_cvtsi64_si128((long long)c->reduce_128);
    if (msb)
        return barrett(_mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x01), _mm_slli_si128(a, 8)), c,
                       1);
    return barrett(_mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_srli_si128(a, 8)), c, 0);
}

/*
 * The register for a message ending with the accumulators a[0..count) (count * VL <= 64
 * bytes, count > 1 only for 256-bit vectors): each lane multiplied straight into B by its
 * reduce_lanes pair (fold_consts.h), one level instead of folding the accumulators into
 * one first.  A 128-bit vector takes final_reduction: measured on Zen 3, reducing four
 * 128-bit lanes at once gained nothing over folding them (64 bytes: 0.96-1.02x against
 * 1.04x ISA-L), while two 256-bit vectors at once gained 3-10% from 64 to 128 bytes.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t reduce_last(const vec_t *a, int count,
                                                     const struct fold_consts *c, const int msb)
{
#if VL == 16
    (void)count;
    return final_reduction(a[0], c, msb);
#else
#if VL == 32
    const __m256i f_last = _mm256_loadu_si256((const void *)&c->reduce_lanes[2]);
    __m256i y = VXOR(VCLMUL(a[count - 1], f_last, 0x00), VCLMUL(a[count - 1], f_last, 0x11));
    if (count == 2) {
        const __m256i f = _mm256_loadu_si256((const void *)&c->reduce_lanes[0]);
        y = VXOR(y, VXOR(VCLMUL(a[0], f, 0x00), VCLMUL(a[0], f, 0x11)));
    }
#else
    (void)count;
    const __m512i f = _mm512_loadu_si512((const void *)&c->reduce_lanes[0]);
    __m512i z = VXOR(VCLMUL(a[0], f, 0x00), VCLMUL(a[0], f, 0x11));
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(z), _mm512_extracti64x4_epi64(z, 1));
#endif
    return barrett(_mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1)), c,
                   msb);
#endif
}

static inline __m128i lane_of(unsigned __int128 v)
{
    return _mm_set_epi64x((long long)(uint64_t)(v >> 64), (long long)(uint64_t)v);
}

/* The n (1..8) bytes at p as a little-endian number, reading only those bytes. */
static inline uint64_t load_le_upto8(const uint8_t *p, size_t n)
{
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4); /* overlaps a: the shared bytes are equal */
        return a | (uint64_t)b << (8 * (n - 4));
    }
    return p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) | (uint64_t)p[n - 1] << (8 * (n - 1));
}

/*
 * 1..15 bytes without any lane load (that would read outside the buffer): the bytes and
 * the register are assembled in general registers into one 128-bit polynomial and reduced
 * with two or three multiplies, whatever the length (measured against the byte table:
 * see the update function below).
 * The register after M (n bytes) from r is (r * x^(8n) + M * x^64) mod G'.
 *  n <= 8: W = r * x^(8n) + M * x^64 has under 128 bits: Barrett on W directly.
 *  n > 8:  X = M + r * x^(8n-64) (r meets the first 8 bytes): (X * x^64) mod G'.
 * In the reflected domain the little-endian number L of the bytes is reflect(M), and a
 * shift towards the high end of the lane stands for a division by a power of x.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t short_pass(const struct fold_consts *c, uint64_t reg,
                                                    const uint8_t *p, size_t n, const int msb)
{
    const unsigned bits = 8 * (unsigned)n;
    if (n <= 8) {
        uint64_t l = load_le_upto8(p, n);
        if (!msb)
            return barrett(lane_of((unsigned __int128)(reg ^ l) << (64 - bits)), c, 0);
        uint64_t r = reg << (64 - c->width);
        uint64_t m = __builtin_bswap64(l) >> (64 - bits);
        return barrett(lane_of((unsigned __int128)r << bits ^ (unsigned __int128)m << 64), c, 1);
    }
    uint64_t lo, hi;
    memcpy(&lo, p, 8);
    memcpy(&hi, p + n - 8, 8); /* bytes n-8..n-1; its top n-8 bytes are bytes 8..n-1 */
    unsigned __int128 l = (unsigned __int128)(hi >> (128 - bits)) << 64 | lo;
    if (!msb)
        return final_reduction(lane_of((l ^ reg) << (128 - bits)), c, 0);
    unsigned __int128 x = ((unsigned __int128)__builtin_bswap64(lo) << 64 |
                           __builtin_bswap64((uint64_t)(l >> 64))) >> (128 - bits);
    x ^= (unsigned __int128)(reg << (64 - c->width)) << (bits - 64);
    return final_reduction(lane_of(x), c, 1);
}

/*
 * Shuffle masks for pshufb: the 16 bytes at shift_table + 16 + s move a lane's bytes down
 * by s (lane i takes lane i + s, zero past the end); those at shift_table + s move them up
 * by 16 - s (lane i takes i + s - 16, zero below).
 */
static const uint8_t shift_table[48] __attribute__((aligned(16))) = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

static ATTRIBUTES ALWAYS_INLINE __m128i shift_mask(size_t offset)
{
    return _mm_loadu_si128((const void *)(shift_table + offset));
}

static ATTRIBUTES ALWAYS_INLINE __m128i load_lane(const uint8_t *q, const int msb)
{
    const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m128i d = _mm_loadu_si128((const void *)q);
    return msb ? _mm_shuffle_epi8(d, bswap) : d;
}

/* a folded across 128 bits: the value to xor into the next lane. */
static ATTRIBUTES ALWAYS_INLINE __m128i fold_forward(__m128i a, const struct fold_consts *c)
{
    const __m128i k = load_pair(&c->fold_across_128_bits);
    return _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_clmulepi64_si128(a, k, 0x11));
}

/*
 * The head of a message of n >= 16 bytes: its first `head` bytes (n - head a multiple of
 * 16), with the register.  Returns the "carry": a lane value to xor into the lane that
 * starts at p + head, standing for everything before it, so that what follows is whole
 * lanes.  Without a head the carry is just the register in its lane position.
 *
 * The first t = head % 16 bytes (if any) become a virtual lane Z ending where the next
 * lane starts: t message bytes after 16 - t zero bytes, the register xored over the
 * first 8 message bytes, the register bytes beyond t going to the next lane instead.  The
 * loads stay inside [p, p + n): a lane at p, then lanes at p + t onwards.
 * Reflected lanes hold message bytes in order; MSB-first lanes hold them reversed, so the
 * shifts go the other way.
 */
static ATTRIBUTES ALWAYS_INLINE __m128i head_pass(const struct fold_consts *c, uint64_t reg,
                                                  const uint8_t *p, size_t head, const int msb)
{
    const __m128i reg128 = msb ? _mm_set_epi64x((long long)(reg << (64 - c->width)), 0)
                               : _mm_cvtsi64_si128((long long)reg);
    const size_t t = head % 16;
    __m128i carry = reg128;
    if (t != 0) {
        __m128i x = _mm_xor_si128(load_lane(p, msb), reg128);
        __m128i z = _mm_shuffle_epi8(x, shift_mask(msb ? 32 - t : t));
        __m128i rest = _mm_shuffle_epi8(reg128, shift_mask(msb ? 16 - t : 16 + t));
        carry = _mm_xor_si128(fold_forward(z, c), rest);
    }
    for (const uint8_t *q = p + t; q < p + head; q += 16)
        carry = fold_forward(_mm_xor_si128(load_lane(q, msb), carry), c);
    return carry;
}

/*
 * 16 <= n < LANES_MAX: the head, then the last lane reduced.  Inline: for short inputs
 * the vector pass's set-up would cost more than the work.  Crossovers measured on an AMD
 * EPYC (Zen 3), CRC-32, ns per call against ISA-L in the same run: 256-bit tier with the
 * lanes up to 63 bytes 1.17-1.25x ISA-L from 32 to 63 bytes, with the vector pass from 32
 * bytes 0.9-1.1x; 128-bit tier with lanes up to 63 bytes 1.08-1.11x, with its vector pass
 * from 32 bytes 1.10-1.14x.  The 512-bit tier (not measurable here) takes lanes below one
 * vector, at most three lanes in a row.
 */
#define LANES_MAX (VL == 16 ? 32 : 64)
static ATTRIBUTES ALWAYS_INLINE uint64_t lanes_pass(const struct fold_consts *c, uint64_t reg,
                                                    const uint8_t *p, size_t n, const int msb)
{
    __m128i carry = head_pass(c, reg, p, n - 16, msb);
    return final_reduction(_mm_xor_si128(load_lane(p + n - 16, msb), carry), c, msb);
}

#if defined(__clang__)
#define UNROLL_ALL _Pragma("unroll")
#else
#define UNROLL_ALL _Pragma("GCC unroll 8")
#endif

static ATTRIBUTES ALWAYS_INLINE vec_t load_vec(const uint8_t *q, const int msb)
{
    const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return msb ? VSHUFFLE(VLOADU(q), VBROADCAST(bswap)) : VLOADU(q);
}

/* Accumulators a[0..count) (count a constant at each call, so they stay in registers). */
static ATTRIBUTES ALWAYS_INLINE void load_group(vec_t *a, int count, const uint8_t *q,
                                                const int msb)
{
    UNROLL_ALL
    for (int i = 0; i < count; i++)
        a[i] = load_vec(q + i * VL, msb);
}

/* Each accumulator folded across k (count vectors) onto the next count vectors at q. */
static ATTRIBUTES ALWAYS_INLINE void fold_group(vec_t *a, int count, vec_t k, const uint8_t *q,
                                                const int msb)
{
    UNROLL_ALL
    for (int i = 0; i < count; i++)
        a[i] = fold_vec(a[i], k, load_vec(q + i * VL, msb));
}

/* count accumulators to count/2: the first half folded across k (count/2 vectors) onto
 * the second. */
static ATTRIBUTES ALWAYS_INLINE void halve(vec_t *a, int count, vec_t k)
{
    UNROLL_ALL
    for (int i = 0; i < count / 2; i++)
        a[i] = fold_vec(a[i], k, a[i + count / 2]);
}

/* n >= VL.  msb is a constant at each call, so each bit order gets its own loop. */
static ATTRIBUTES ALWAYS_INLINE uint64_t fold_pass(const struct fold_consts *c, uint64_t reg,
                                                   const uint8_t *p, size_t n, const int msb)
{
    /* The head makes the rest whole vectors, so the pass ends exactly on a vector. */
    const size_t head = n % VL;
    const vec_t carry = VFROM128(head_pass(c, reg, p, head, msb));
    p += head;
    n -= head;

    /* As many accumulators as the length allows (the multiplier's latency hidden behind
     * independent chains), then halved level by level, each level taking at most one
     * more step of new data, so that no length pays a long single chain. */
    vec_t a[8];
    const vec_t k8 = VBROADCAST(load_pair(&c->FOLD_8V));
    const vec_t k4 = VBROADCAST(load_pair(&c->FOLD_4V));
    const vec_t k2 = VBROADCAST(load_pair(&c->FOLD_2V));
    const vec_t k1 = VBROADCAST(load_pair(&c->FOLD_1V));
    if (n >= 8 * VL) {
        load_group(a, 8, p, msb);
        a[0] = VXOR(a[0], carry);
        for (p += 8 * VL, n -= 8 * VL; n >= 8 * VL; p += 8 * VL, n -= 8 * VL)
            fold_group(a, 8, k8, p, msb);
        halve(a, 8, k4);
        goto have4;
    }
    if (n >= 4 * VL) {
        load_group(a, 4, p, msb);
        a[0] = VXOR(a[0], carry);
        p += 4 * VL, n -= 4 * VL;
        goto have4;
    }
    if (n >= 2 * VL) {
        load_group(a, 2, p, msb);
        a[0] = VXOR(a[0], carry);
        p += 2 * VL, n -= 2 * VL;
        goto have2;
    }
    a[0] = VXOR(load_vec(p, msb), carry);
    p += VL, n -= VL;
    goto have1;
have4:
    if (n >= 4 * VL) {
        fold_group(a, 4, k4, p, msb);
        p += 4 * VL, n -= 4 * VL;
    }
    halve(a, 4, k2);
have2:
    if (n >= 2 * VL) {
        fold_group(a, 2, k2, p, msb);
        p += 2 * VL, n -= 2 * VL;
    }
#if VL == 32
    if (n == 0)
        return reduce_last(a, 2, c, msb);
#endif
    halve(a, 2, k1);
have1:
    if (n >= VL)
        fold_group(a, 1, k1, p, msb);
    return reduce_last(a, 1, c, msb);
}

/* One function per bit order for the vector pass, apart from the short paths so that
 * short inputs do not pay for its register set-up. */
static ATTRIBUTES __attribute__((noinline)) uint64_t
CAT(fold_lsb_, SUFFIX)(const struct fold_consts *c, uint64_t reg, const uint8_t *p, size_t n)
{
    return fold_pass(c, reg, p, n, 0);
}

static ATTRIBUTES __attribute__((noinline)) uint64_t
CAT(fold_msb_, SUFFIX)(const struct fold_consts *c, uint64_t reg, const uint8_t *p, size_t n)
{
    return fold_pass(c, reg, p, n, 1);
}

/*
 * The update function of the registry (internal.h's signature).  Short inputs, measured
 * on an AMD EPYC (Zen 3), ns per call for CRC-32, independent calls: short_pass takes
 * 5.6-5.9 ns from 1 to 15 bytes; the byte table 4.3 ns at 1 byte and 18 ns at 15 when
 * called directly, but 8.3 ns at 1 byte when reached from here (one more call and the
 * table lookup), so it is never used.
 */
static ATTRIBUTES uint64_t CAT(update_, SUFFIX)(const crcforge_model *m, uint64_t reg,
                                                 const uint8_t *p, size_t n);

/* First use of a model: builds its constants, then starts again.  Kept out of line so
 * that the update function makes no call of its own and saves no registers. */
static ATTRIBUTES __attribute__((noinline, cold)) uint64_t
CAT(first_update_, SUFFIX)(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n)
{
    fold_consts_build(m);
    return CAT(update_, SUFFIX)(m, reg, p, n);
}

static ATTRIBUTES uint64_t CAT(update_, SUFFIX)(const crcforge_model *m, uint64_t reg,
                                                 const uint8_t *p, size_t n)
{
    const struct fold_consts *c = fold_consts_peek(m);
    if (c == NULL)
        return CAT(first_update_, SUFFIX)(m, reg, p, n);
    if (n >= LANES_MAX)
        return c->lsb_first ? CAT(fold_lsb_, SUFFIX)(c, reg, p, n)
                            : CAT(fold_msb_, SUFFIX)(c, reg, p, n);
    if (n == 0)
        return reg;
    if (c->lsb_first)
        return n < 16 ? short_pass(c, reg, p, n, 0) : lanes_pass(c, reg, p, n, 0);
    return n < 16 ? short_pass(c, reg, p, n, 1) : lanes_pass(c, reg, p, n, 1);
}

/* For other kernels (fold.h); they check runnable first. */
uint64_t CAT(fold_update_, SUFFIX)(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                   size_t n)
{
    return CAT(update_, SUFFIX)(m, reg, p, n);
}

static int CAT(runnable_, SUFFIX)(void)
{
    return crc_cpu_has(FEATURES);
}

const struct crc_impl CAT(crc_impl_fold_, SUFFIX) = {
    STRINGIFY(CAT(fold_, SUFFIX)), CAT(runnable_, SUFFIX), fold_supported, CAT(update_, SUFFIX)};

#undef CAT
#undef CAT_
#undef STRINGIFY
#undef STRINGIFY_
#undef ALWAYS_INLINE
#undef UNROLL_ALL
#undef LANES_MAX
#undef VLOADU
#undef VXOR
#undef VCLMUL
#undef VBROADCAST
#undef VSHUFFLE
#undef VFROM128
#undef VXOR3
#undef FOLD_1V
#undef FOLD_2V
#undef FOLD_4V
#undef FOLD_8V
#undef SUFFIX
#undef ATTRIBUTES
#undef VL
#undef USE_AVX512
#undef FEATURES
