/*
 * The folding kernel, written once and included by one .c file per ISA tier.  It serves
 * every model of width 8..64 in both bit orders through struct fold_consts (see
 * ../fold_consts.h for the mathematics: the register is a 64-bit CRC modulo G' = G*x^(64-n),
 * each 128-bit lane is folded forward with two carry-less multiplies, and the last lane is
 * reduced with three more).
 *
 * Parameters (../fold_record.h's contract, all #undef'd at the end):
 *   SUFFIX      names the tier: crc_impl_fold_SUFFIX for the registry, whose name is
 *               "fold_SUFFIX", and fold_update_SUFFIX for other kernels (fold.h)
 *   FEATURES    the CRC_CPU_* bits of everything the tier executes (its record's features)
 *   ATTRIBUTES  the target attribute enabling what the tier executes:
 *                 VL 16:                "sse4.1,pclmul"
 *                 VL 32, !USE_AVX512:   "avx2,vpclmulqdq,pclmul,sse4.1"
 *                 USE_AVX512:           "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,avx2,sse4.1"
 *               (the 128-bit tail and reduction run in every tier, hence sse4.1 and pclmul)
 *   VL          vector length in bytes: 16, 32 or 64
 *   USE_AVX512  1 to use AVX-512 forms (three-way xor in one vpternlogq)
 * A variant of a tier (another accumulator count, other loads) is one more .c file with
 * its own SUFFIX and parameters; the policies are fold_record.h's.
 *
 * Layout of a pass over n bytes (the lane steps are ../fold_lanes.h's):
 *   1..15 bytes: short_pass;
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

#include "../cpu.h"
#include "fold.h"
#include "vec128.h"
#include "../fold_lanes.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

#if VL == 16
typedef __m128i wide_t;
#define VLOADU(q) _mm_loadu_si128((const void *)(q))
#define VXOR(a, b) _mm_xor_si128(a, b)
#define VCLMUL(a, b, imm) _mm_clmulepi64_si128(a, b, imm)
#define VBROADCAST(x) (x)
#define VSHUFFLE(a, m) _mm_shuffle_epi8(a, m)
#define VFROM128(x) (x)
#elif VL == 32
typedef __m256i wide_t;
#define VLOADU(q) _mm256_loadu_si256((const void *)(q))
#define VXOR(a, b) _mm256_xor_si256(a, b)
#define VCLMUL(a, b, imm) _mm256_clmulepi64_epi128(a, b, imm)
#define VBROADCAST(x) _mm256_broadcastsi128_si256(x)
#define VSHUFFLE(a, m) _mm256_shuffle_epi8(a, m)
#define VFROM128(x) _mm256_zextsi128_si256(x)
#elif VL == 64
typedef __m512i wide_t;
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
static ATTRIBUTES ALWAYS_INLINE wide_t fold_vec(wide_t a, wide_t k, wide_t b)
{
    wide_t lo = VCLMUL(a, k, 0x00), hi = VCLMUL(a, k, 0x11);
#if USE_AVX512
    return VXOR3(lo, hi, b);
#else
    return VXOR(VXOR(lo, hi), b);
#endif
}

/*
 * The register for a message ending with the accumulators a[0..count) (count * VL <= 64
 * bytes, count > 1 only for 256-bit vectors): each lane multiplied straight into B by its
 * reduce_lanes pair (fold_consts.h), one level instead of folding the accumulators into
 * one first.  A 128-bit vector takes final_reduction: measured on Zen 3, reducing four
 * 128-bit lanes at once gained nothing over folding them (64 bytes: 0.96-1.02x against
 * 1.04x ISA-L), while two 256-bit vectors at once gained 3-10% from 64 to 128 bytes.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t reduce_last(const wide_t *a, int count,
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

/*
 * 16 <= n < LANES_MAX goes to lanes_pass: for short inputs the vector pass's set-up would
 * cost more than the work.  Crossovers measured on an AMD EPYC (Zen 3), CRC-32, ns per
 * call against ISA-L in the same run: 256-bit tier with the lanes up to 63 bytes
 * 1.17-1.25x ISA-L from 32 to 63 bytes, with the vector pass from 32 bytes 0.9-1.1x;
 * 128-bit tier with lanes up to 63 bytes 1.08-1.11x, with its vector pass from 32 bytes
 * 1.10-1.14x.  The 512-bit tier (not measurable there) takes lanes below one vector, at
 * most three lanes in a row.
 */
#define LANES_MAX (VL == 16 ? 32 : 64)

#if defined(__clang__)
#define UNROLL_ALL _Pragma("unroll")
#else
#define UNROLL_ALL _Pragma("GCC unroll 8")
#endif

static ATTRIBUTES ALWAYS_INLINE wide_t load_vec(const uint8_t *q, const int msb)
{
    return msb ? VSHUFFLE(VLOADU(q), VBROADCAST(V_BSWAP_MASK())) : VLOADU(q);
}

/* Accumulators a[0..count) (count a constant at each call, so they stay in registers). */
static ATTRIBUTES ALWAYS_INLINE void load_group(wide_t *a, int count, const uint8_t *q,
                                                const int msb)
{
    UNROLL_ALL
    for (int i = 0; i < count; i++)
        a[i] = load_vec(q + i * VL, msb);
}

/* Each accumulator folded across k (count vectors) onto the next count vectors at q. */
static ATTRIBUTES ALWAYS_INLINE void fold_group(wide_t *a, int count, wide_t k, const uint8_t *q,
                                                const int msb)
{
    UNROLL_ALL
    for (int i = 0; i < count; i++)
        a[i] = fold_vec(a[i], k, load_vec(q + i * VL, msb));
}

/* count accumulators to count/2: the first half folded across k (count/2 vectors) onto
 * the second. */
static ATTRIBUTES ALWAYS_INLINE void halve(wide_t *a, int count, wide_t k)
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
    const wide_t carry = VFROM128(head_pass(c, reg, p, head, msb));
    p += head;
    n -= head;

    /* As many accumulators as the length allows (the multiplier's latency hidden behind
     * independent chains), then halved level by level, each level taking at most one
     * more step of new data, so that no length pays a long single chain. */
    wide_t a[8];
    const wide_t k8 = VBROADCAST(load_pair(&c->FOLD_8V));
    const wide_t k4 = VBROADCAST(load_pair(&c->FOLD_4V));
    const wide_t k2 = VBROADCAST(load_pair(&c->FOLD_2V));
    const wide_t k1 = VBROADCAST(load_pair(&c->FOLD_1V));
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

#include "../fold_record.h"

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
