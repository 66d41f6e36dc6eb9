/* SPDX-License-Identifier: MIT */
/*
 * The folding kernel, written once and included by one .c file per ISA tier.  It serves
 * every model of width 8..64 in both bit orders through struct fold_consts (see
 * ../fold_consts.h for the mathematics: the register is a 64-bit CRC modulo G' = G*x^(64-n),
 * each 128-bit lane is folded forward with two carry-less multiplies, or multiplied
 * straight to the end by its reduce_lanes pair, and the 128-bit value B so obtained is
 * reduced with two more).
 *
 * Parameters (../fold_record.h's contract, all #undef'd at the end):
 *   SUFFIX      names the tier: crc_impl_fold_SUFFIX for the registry, whose name is
 *               "fold_SUFFIX", and fold_update_SUFFIX for other kernels (fold.h)
 *   FEATURES    the CRC_CPU_* bits of everything the tier executes (its record's features)
 *   ATTRIBUTES  the target attribute enabling what the tier executes:
 *                 VL 16:                "sse4.1,pclmul"
 *                 VL 32, !USE_AVX512:   "avx2,vpclmulqdq,pclmul,sse4.1"
 *                 USE_AVX512:           "avx512f,avx512bw,avx512vl,avx512vbmi,vpclmulqdq,pclmul,
 *                                        avx2,sse4.1"
 *                 GFNI_BITREV:          the same and "gfni"
 *               (the 128-bit tail and reduction run in every tier, hence sse4.1 and pclmul)
 *   VL          vector length in bytes: 16, 32 or 64
 *   USE_AVX512  1 to use AVX-512 forms (three-way xor in one vpternlogq; with VL 64 the
 *               head moved into place by one vpermb)
 *   GFNI_BITREV 1 (VL 64 with USE_AVX512 only; 0 if undefined): the tier serves MSB-first
 *               models only, reversing the bits of every byte with GF2P8AFFINEQB and
 *               folding the result as the model's mirror (see "MSB-first on the mirror")
 *   ALIGNED_FROM  (0 if undefined) from this many bytes the accumulators' loads are
 *               aligned to VL: the message is cut where its last whole VL-aligned block
 *               ends, the first part folded (its vectors, which end there, aligned), the
 *               fewer than VL bytes after it taken by the short paths from its register
 * A variant of a tier (other loads, another order) is one more .c file with its own
 * SUFFIX and parameters; the policies are fold_record.h's.
 *
 * A pass over n >= LANES_MAX bytes (fold_pass; shorter inputs take the lane steps of
 * ../fold_lanes.h), with the parameters handed to the update or value entry (struct
 * crc_params: fold_parallel_max, fold_accumulators):
 *   The head: the first h = ((n - 1) mod VL) + 1 bytes, 1..VL of them, become one vector
 *   that ends where whole vectors start, the message bytes after VL - h zero bytes (no
 *   byte outside [p, p+n) is read), the register xored over the first 8 message bytes;
 *   the register bytes beyond the head (when h < 8) are xored into the first whole vector.
 *   The message is now V = ceil(n / VL) vectors.
 *   n <= fold_parallel_max, or V < 2 A (A = fold_accumulators): parallel_pass, every
 *   vector multiplied lane by lane by its reduce_lanes pairs, all products independent,
 *   xored into B;
 *   otherwise loop_pass: A vectors folded A vectors forward each step while A more
 *   remain, then the A accumulators and the fewer than A vectors left multiplied to the
 *   end in one parallel step as above.
 *   Then B reduced (barrett).
 *
 * MSB-first on the mirror (GFNI_BITREV).  An MSB-first model (poly P, width w, register r)
 * and its mirror, the reflected model of the same P, divide the same bit sequence by P;
 * they differ only in the order in which they take each byte's bits and in which they
 * store the register.  The MSB-first CRC consumes byte b from bit 7 down to bit 0 and
 * keeps the coefficient of x^(w-1) in bit w-1 of r; the mirror consumes byte c from bit 0
 * up and keeps x^(w-1) in bit 0.  With c = bitrev8(b) both consume the same coefficient
 * sequence, so by induction over the bits the registers agree coefficient by coefficient
 * after every byte:  crc_msb(r, b_0..b_{n-1}) = reflect_w(crc_mirror(reflect_w(r),
 * bitrev8(b_0)..bitrev8(b_{n-1}))).  In this kernel's terms: GF2P8AFFINEQB with the matrix
 * 0x8040201008040201 (result bit i = bit 7-i of the byte) makes every lane of the
 * message's bit-reversed bytes, read in the reflected convention, the same 128-bit
 * polynomial that the byte-reversed lane of the MSB-first kernel is (fold_consts.h: a
 * reflected lane is the bit-reflection of its polynomial), and the mirror's fold pairs
 * multiply it by the same powers of x modulo the same G'.  The register goes in as the
 * MSB-first tiers take it: reg << (64 - w) over the first 8 bytes, most significant byte
 * first, xored before the bit reversal (which is linear, so the mirror sees reflect_w(r)
 * over its first bytes, as its own register would be); B comes out in the reflected
 * convention, and reversing its 128 bits (GF2P8AFFINEQB and a byte reversal) gives B in
 * the MSB-first convention, which the model's own Barrett reduction turns into r.  What
 * remains on port 5 of Intel's cores per 64 bytes is the two multiplies: GF2P8AFFINEQB
 * issues on ports 0 and 5 where VPSHUFB zmm issues on port 5 alone.
 */
#include <immintrin.h>

#include "../compiler.h" /* before fold_lanes.h: ATTRIBUTES names CODE_ALIGNED */
#include "../cpu.h"
#include "fold.h"
#include "vec128.h"
#include "../fold_lanes.h"


#ifndef GFNI_BITREV
#define GFNI_BITREV 0
#endif
#ifndef ALIGNED_FROM
#define ALIGNED_FROM 0
#endif
_Static_assert(ALIGNED_FROM == 0 || ALIGNED_FROM >= 17 * VL,
               "what is left after the cut still runs the loop of 8 accumulators");
#if GFNI_BITREV && !(VL == 64 && USE_AVX512)
#error "GFNI_BITREV needs VL 64 and USE_AVX512"
#endif

_Static_assert(CRC_FOLD_PARALLEL_MAX / 16 <= FOLD_REDUCE_LANES,
               "reduce_lanes covers every lane of a parallel pass");

#if VL == 16
typedef __m128i wide_t;
#define VLOADU(q) _mm_loadu_si128((const void *)(q))
#define VLOADA(q) _mm_load_si128((const void *)(q))
#define VXOR(a, b) _mm_xor_si128(a, b)
#define VCLMUL(a, b, imm) _mm_clmulepi64_si128(a, b, imm)
#define VBROADCAST(x) (x)
#define VSHUFFLE(a, m) _mm_shuffle_epi8(a, m)
#define VFROM64(x) _mm_cvtsi64_si128((long long)(x))
#elif VL == 32
typedef __m256i wide_t;
#define VLOADU(q) _mm256_loadu_si256((const void *)(q))
#define VLOADA(q) _mm256_load_si256((const void *)(q))
#define VXOR(a, b) _mm256_xor_si256(a, b)
#define VCLMUL(a, b, imm) _mm256_clmulepi64_epi128(a, b, imm)
#define VBROADCAST(x) _mm256_broadcastsi128_si256(x)
#define VSHUFFLE(a, m) _mm256_shuffle_epi8(a, m)
#define VFROM64(x) _mm256_set_epi64x(0, 0, 0, (long long)(x))
#elif VL == 64
typedef __m512i wide_t;
#define VLOADU(q) _mm512_loadu_si512((const void *)(q))
#define VLOADA(q) _mm512_load_si512((const void *)(q))
#define VXOR(a, b) _mm512_xor_si512(a, b)
#define VCLMUL(a, b, imm) _mm512_clmulepi64_epi128(a, b, imm)
#define VBROADCAST(x) _mm512_broadcast_i32x4(x)
#define VSHUFFLE(a, m) _mm512_shuffle_epi8(a, m)
#define VFROM64(x) _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)(x))
#else
#error "VL must be 16, 32 or 64"
#endif

/* Lanes a vector. */
#define LANES (VL / 16)
/* A vector kept in a register (its uses do not read it again from memory); the
 * emulation of the 512-bit tiers defines its own for its two halves. */
#ifndef KEEP_IN_REGISTER
#define KEEP_IN_REGISTER(v) __asm__("" : "+v"(v))
#endif

/* The pairs of a vector's lanes to the end, VL bytes of reduce_lanes that start at a
 * multiple of VL from its end: aligned (reduce_lanes is cache-line aligned,
 * fold_consts.h).  Loaded once: as the memory operand of both multiplies of the lanes
 * they were read twice (512-bit, CRC-64/XZ offset by one, 1 KiB: 0.88 against 0.94x
 * isa-l on Zen 4, where the data loads are split). */
static ATTRIBUTES ALWAYS_INLINE wide_t load_pairs(const uint8_t *kp)
{
    wide_t k = VLOADA(kp);
    KEEP_IN_REGISTER(k);
    return k;
}
#define LOAD_PAIRS(kp) load_pairs((const uint8_t *)(kp))

/* Three-way xor in one vpternlogq: AVX-512 tiers only (AVX-512VL for xmm and ymm). */
#if USE_AVX512
#if VL == 16
#define VXOR3(a, b, c) _mm_ternarylogic_epi64(a, b, c, 0x96)
#elif VL == 32
#define VXOR3(a, b, c) _mm256_ternarylogic_epi64(a, b, c, 0x96)
#else
#define VXOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#endif
#else
#define VXOR3(a, b, c) VXOR(VXOR(a, b), c)
#endif

/* How the lanes of a vector are made from its bytes (fold_consts.h's conventions). */
enum fold_order {
    ORDER_REFLECTED, /* as loaded */
    ORDER_MSB_FIRST, /* bytes reversed in each lane */
    ORDER_MIRROR,    /* bits reversed in each byte, read as the mirror's reflected lanes */
};

/* The fold pair across `count` vectors (count 1, 2, 4 or 8; a constant at each call). */
static ATTRIBUTES ALWAYS_INLINE const struct fold_pair *fold_across(const struct fold_consts *k,
                                                                   int count)
{
    switch (count * VL) {
    case 16:
        return &k->fold_across_128_bits;
    case 32:
        return &k->fold_across_256_bits;
    case 64:
        return &k->fold_across_512_bits;
    case 128:
        return &k->fold_across_1024_bits;
    case 256:
        return &k->fold_across_2048_bits;
    default:
        return &k->fold_across_4096_bits;
    }
}

/* The lanes of the raw bytes v in the pass's order. */
static ATTRIBUTES ALWAYS_INLINE wide_t to_lanes(wide_t v, const enum fold_order order)
{
    if (order == ORDER_MSB_FIRST)
        return VSHUFFLE(v, VBROADCAST(V_BSWAP_MASK()));
#if GFNI_BITREV
    if (order == ORDER_MIRROR)
        return _mm512_gf2p8affine_epi64_epi8(v, _mm512_set1_epi64(0x8040201008040201), 0);
#endif
    return v;
}

static ATTRIBUTES ALWAYS_INLINE wide_t load_vec(const uint8_t *q, const enum fold_order order)
{
    return to_lanes(VLOADU(q), order);
}

/* a's lanes times the pairs k: the xor of the products, folded across k's distances. */
static ATTRIBUTES ALWAYS_INLINE wide_t mul_lanes(wide_t a, wide_t k)
{
    return VXOR(VCLMUL(a, k, 0x00), VCLMUL(a, k, 0x11));
}

/* a folded across the distance of k, onto b. */
static ATTRIBUTES ALWAYS_INLINE wide_t fold_vec(wide_t a, wide_t k, wide_t b)
{
    return VXOR3(VCLMUL(a, k, 0x00), VCLMUL(a, k, 0x11), b);
}

/* s xor a's lanes multiplied to the end by k. */
static ATTRIBUTES ALWAYS_INLINE wide_t add_to_end(wide_t s, wide_t a, wide_t k)
{
    return VXOR3(s, VCLMUL(a, k, 0x00), VCLMUL(a, k, 0x11));
}

/*
 * The head: the vector of the first h bytes (1 <= h <= VL), right-aligned after VL - h
 * zero bytes, with the register xored over message bytes 0..7 (those of them that lie in
 * the head), raw (bytes in memory order).  regmem is the register as the bytes it is
 * xored over (little-endian).  The loads stay inside [p, p+n) for n >= VL (n >= LANES_MAX
 * below VL 64).
 */
static ATTRIBUTES ALWAYS_INLINE wide_t head_vector(const uint8_t *p, size_t h, uint64_t regmem)
{
#if VL == 64
    /* The first 64 bytes (n >= 64), loaded from p and moved up by 64 - h with vpermb:
     * byte i takes byte i + h - 64 through the index window at +h, the bytes below 64 - h
     * zeroed.  A load from p + h - 64 instead, masked to the message, ran 0.7x as fast on
     * Zen 4 (1025 B and 4000 B: 27 against 40 GB/s). */
    return _mm512_maskz_permutexvar_epi8(
        ~(__mmask64)0 << (64 - h), VLOADU(crc_byte_index_window + h),
        VXOR(VLOADU(p), VFROM64(regmem)));
#else
    /* Lane by lane: the lane at byte s of the message (s = h - VL + 16 l) takes message
     * bytes [s, s + 16): from x (bytes 0..15, with the register) moved by CRC_SHIFT_MASK(16 + s),
     * and from y (bytes 16..31) by CRC_SHIFT_MASK(s). */
    const __m128i x = _mm_xor_si128(V_LOAD(p), _mm_cvtsi64_si128((long long)regmem));
    const __m128i top = _mm_shuffle_epi8(x, V_LOAD(CRC_SHIFT_MASK(h)));
#if VL == 16
    return top;
#else
    const __m128i below = V_LOAD(CRC_SHIFT_MASK((ptrdiff_t)h - 16));
    const __m128i low = _mm_shuffle_epi8(x, below);
    const __m128i high = _mm_xor_si128(top, _mm_shuffle_epi8(V_LOAD(p + 16), below));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
#endif
#endif
}

/* B, a 128-bit value in the lanes' convention, as the register. */
static ATTRIBUTES ALWAYS_INLINE uint64_t reduce_b(__m128i b, const struct fold_consts *c,
                                                  const enum fold_order order)
{
#if GFNI_BITREV
    if (order == ORDER_MIRROR) {
        /* reflected to MSB-first convention: all 128 bits reversed */
        __m128i bits = _mm_gf2p8affine_epi64_epi8(b, _mm_set1_epi64x(0x8040201008040201), 0);
        return barrett(_mm_shuffle_epi8(bits, V_BSWAP_MASK()), c, 1);
    }
#endif
    return barrett(b, c, order == ORDER_MSB_FIRST);
}

/* The xor of s's lanes, reduced. */
static ATTRIBUTES ALWAYS_INLINE uint64_t reduce_sum(wide_t s, const struct fold_consts *c,
                                                    const enum fold_order order)
{
#if VL == 16
    return reduce_b(s, c, order);
#else
#if VL == 64
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1));
#else
    __m256i y = s;
#endif
    return reduce_b(_mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1)), c,
                    order);
#endif
}

/*
 * 16 <= n < LANES_MAX goes to the lane steps (serial lane folds), longer inputs to
 * fold_pass, whose head reads the lanes at p and p + 16 below VL 64 (n >= 32).  Measured
 * on an AMD EPYC (Zen 4), CRC-32, independent calls, against the lane steps: 128-bit
 * passes 0.74-0.81x from 32 to 100 bytes; 256-bit passes ahead from 64 bytes on.  The
 * 512-bit pass of one vector (below_vl_pass) against them, CRC-64/XZ: 0.85x at 16 B,
 * 1.0x from 20 to 32 B, 1.15-1.22x from 36 to 47 B; in dependent calls 0.78x at 32 B and
 * 0.94x from 36 to 47 B.  So the lanes take up to 32 B (two_lanes_pass).
 */
#define LANES_MAX (VL == 64 ? 33 : VL == 32 ? 64 : 128)

/* The register as the bytes it is xored over, message bytes 0..7 in memory order
 * (fold_consts.h: MSB-first, reg << (64 - width) most significant byte first). */
static ATTRIBUTES ALWAYS_INLINE uint64_t register_bytes(const struct fold_consts *c, uint64_t reg,
                                                        const enum fold_order order)
{
    return order != ORDER_REFLECTED ? CRC_BSWAP64(reg << (64 - c->width)) : reg;
}

/*
 * The start of a pass over n >= 2 VL bytes: its V = ceil(n / VL) vectors are v_0 = *head
 * (the first h bytes, with the register), then v_1, v_2, ... at the returned q, q + VL,
 * ... up to p + n; *first is v_1 with the register bytes past the head in it.
 */
static ATTRIBUTES ALWAYS_INLINE const uint8_t *start(const struct fold_consts *c, uint64_t reg,
                                                     const uint8_t *p, size_t n, wide_t *head,
                                                     wide_t *first, const enum fold_order order)
{
    const uint64_t regmem = register_bytes(c, reg, order);
    const size_t h = ((n - 1) & (VL - 1)) + 1;
    if (h == VL) {
        /* Whole vectors from the start: the register in the first lane's low qword. */
        *head = to_lanes(VXOR(VLOADU(p), VFROM64(regmem)), order);
        *first = load_vec(p + h, order);
    } else {
        *head = to_lanes(head_vector(p, h, regmem), order);
        if (h >= 8)
            *first = load_vec(p + h, order);
        else /* the register bytes h..7 lie in v_1's first bytes */
            *first = to_lanes(VXOR(VLOADU(p + h), VFROM64(regmem >> 8 * h)), order);
    }
    return p + h;
}

#if VL == 64
/* LANES_MAX <= n < 64: the one vector, the n bytes (a masked load from p) moved up to
 * its end as head_vector moves the head; its lanes below the message's multiply zeros. */
static ATTRIBUTES ALWAYS_INLINE uint64_t below_vl_pass(const struct fold_consts *c,
                                                       const struct fold_consts *k, uint64_t reg,
                                                       const uint8_t *p, size_t n,
                                                       const enum fold_order order)
{
    const uint64_t regmem = register_bytes(c, reg, order);
    const wide_t x = VXOR(_mm512_maskz_loadu_epi8(~(__mmask64)0 >> (64 - n), (const void *)p),
                          VFROM64(regmem));
    const wide_t v = _mm512_maskz_permutexvar_epi8(~(__mmask64)0 << (64 - n),
                                                   VLOADU(crc_byte_index_window + n), x);
    return reduce_sum(mul_lanes(to_lanes(v, order),
                                LOAD_PAIRS(&k->reduce_lanes[FOLD_REDUCE_LANES - LANES])),
                      c, order);
}
#endif

/* From this many bytes parallel_pass takes a reflected model's vectors two at a time. */
#define PAIRED_FROM 1024

/*
 * VL <= n <= max(VL, fold_parallel_max): every vector multiplied to the end at once (the
 * multiplies independent, the xor chain one vpternlogq a vector).  The pairs of the
 * vector at end + i (i <= 0, a multiple of VL) start at reduce_lanes' end + i, so one
 * index, counting up to 0, steps through both.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t parallel_pass(const struct fold_consts *c,
                                                       const struct fold_consts *k, uint64_t reg,
                                                       const uint8_t *p, size_t n,
                                                       const enum fold_order order)
{
    const uint64_t regmem = register_bytes(c, reg, order);
    const uint8_t *const end = p + n;
    const uint8_t *const pairs_end = (const uint8_t *)&k->reduce_lanes[FOLD_REDUCE_LANES];
    const size_t h = ((n - 1) & (VL - 1)) + 1;
    ptrdiff_t i = (ptrdiff_t)h - (ptrdiff_t)n; /* v_1 at end + i */
    wide_t s;
    if (h == VL) { /* whole vectors from the start: the register in the first lane */
        s = mul_lanes(to_lanes(VXOR(VLOADU(p), VFROM64(regmem)), order),
                      LOAD_PAIRS(pairs_end + i - VL));
    } else {
        s = mul_lanes(to_lanes(head_vector(p, h, regmem), order), LOAD_PAIRS(pairs_end + i - VL));
        if (h < 8) { /* the register bytes h..7 lie in v_1's first bytes (V >= 2 here) */
            s = add_to_end(s, to_lanes(VXOR(VLOADU(end + i), VFROM64(regmem >> 8 * h)), order),
                           LOAD_PAIRS(pairs_end + i));
            i += VL;
        }
    }
    if (order == ORDER_REFLECTED && n >= PAIRED_FROM) {
        /* Two vectors at a time, the first folded onto the second and their sum multiplied
         * to the end: the same multiplies, half the loads of pairs, where the loads and not
         * the multiplies set the pace (offset by one, each data load spanning two cache
         * lines).  Below PAIRED_FROM the deeper chain costs more than the loads; in the
         * other orders, whose loads are shuffled, it cost more everywhere (AMD Zen 4,
         * CRC-64/ECMA-182 1-4 KiB: 0.96-0.98x the fastest peer against 0.99-1.00x). */
        const wide_t k1 = VBROADCAST(_mm_loadu_si128((const void *)fold_across(k, 1)));
        for (; i <= -2 * VL; i += 2 * VL)
            s = add_to_end(s,
                           fold_vec(load_vec(end + i, order), k1, load_vec(end + i + VL, order)),
                           LOAD_PAIRS(pairs_end + i + VL));
    }
    for (; i != 0; i += VL)
        s = add_to_end(s, load_vec(end + i, order), LOAD_PAIRS(pairs_end + i));
    return reduce_sum(s, c, order);
}

/*
 * The same vectors, up to end (V >= 2 A), through A accumulators (A a constant at each call, so that
 * they stay in registers): v_0..v_{A-1} folded A vectors forward while A more remain, then
 * the accumulators and the rest multiplied to the end.
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t loop_pass(const struct fold_consts *c,
                                                   const struct fold_consts *k, wide_t head,
                                                   wide_t first, const uint8_t *q,
                                                   const uint8_t *end, const int A,
                                                   const enum fold_order order)
{
    wide_t a[8];
    a[0] = head;
    if (A > 1)
        a[1] = first;
    UNROLL_ALL
    for (int i = 2; i < A; i++)
        a[i] = load_vec(q + (i - 1) * VL, order);
    const wide_t kA = VBROADCAST(_mm_loadu_si128((const void *)fold_across(k, A)));
    const uint8_t *r = q + (A - 1) * VL; /* v_A */
    if (A == 1) {
        a[0] = fold_vec(a[0], kA, first);
        r += VL;
    }
    /* while A more vectors remain (one compare a step: r at most the last group's start) */
    for (const uintptr_t last = (uintptr_t)end - A * VL; (uintptr_t)r <= last; r += A * VL) {
        UNROLL_ALL
        for (int i = 0; i < A; i++)
            a[i] = fold_vec(a[i], kA, load_vec(r + i * VL, order));
    }
    /* The A accumulators and the vectors left from r, each with the LANES pairs after
     * the previous one's (a vector's pairs take VL bytes, as its data does). */
    const struct fold_pair *kp =
        (const struct fold_pair *)((const uint8_t *)&k->reduce_lanes[FOLD_REDUCE_LANES -
                                                                       LANES * A] -
                                   (end - r));
    wide_t s = mul_lanes(a[0], LOAD_PAIRS(kp));
    UNROLL_ALL
    for (int i = 1; i < A; i++)
        s = add_to_end(s, a[i], LOAD_PAIRS(kp + i * LANES));
    for (kp += A * LANES; r != end; r += VL, kp += LANES)
        s = add_to_end(s, load_vec(r, order), LOAD_PAIRS(kp));
    return reduce_sum(s, c, order);
}

/* V >= 2 A: A = fold_accumulators (1, 2, 4 or 8), so that the loop runs. */
static ATTRIBUTES ALWAYS_INLINE uint64_t accumulators_pass(const struct fold_consts *c,
                                                           const struct fold_consts *k,
                                                           uint64_t reg, const uint8_t *p,
                                                           size_t n, size_t A,
                                                           const enum fold_order order)
{
    wide_t head, first;
    const uint8_t *q = start(c, reg, p, n, &head, &first, order);
    switch (A) {
    case 8:
        return loop_pass(c, k, head, first, q, p + n, 8, order);
    case 4:
        return loop_pass(c, k, head, first, q, p + n, 4, order);
    case 2:
        return loop_pass(c, k, head, first, q, p + n, 2, order);
    default:
        return loop_pass(c, k, head, first, q, p + n, 1, order);
    }
}


#define FOLD_PASS_NAME_(a, b) a##b
#define FOLD_PASS_NAME(a, b) FOLD_PASS_NAME_(a, b)

#if ALIGNED_FROM
/* 0 < n < VL bytes from the register: the paths of shorter inputs (ALIGNED_FROM's cut). */
static ATTRIBUTES ALWAYS_INLINE uint64_t below_vector(const struct fold_consts *c,
                                                      const struct fold_consts *k, uint64_t reg,
                                                      const uint8_t *p, size_t n,
                                                      const enum fold_order order)
{
    const int msb = order != ORDER_REFLECTED;
#if VL == 64
    if (n >= LANES_MAX)
        return below_vl_pass(c, k, reg, p, n, order);
#else
    (void)k;
#endif
    return n >= 16 ? lanes_pass(c, reg, p, n, msb) : short_pass(c, reg, p, n, msb);
}
#define ALIGNED_CUT(c, k, reg, p, n, A, ORDER, RET, xorout)                                \
    const size_t past = ((uintptr_t)p + n) & (VL - 1);                                     \
    if (n >= ALIGNED_FROM && past != 0)                                                    \
        return (RET)(below_vector(c, k, accumulators_pass(c, k, reg, p, n - past, A, ORDER), \
                                  p + n - past, past, ORDER) ^                             \
                     xorout);
#else
#define ALIGNED_CUT(c, k, reg, p, n, A, ORDER, RET, xorout)
#endif

/* The passes of each order in functions of their own, each with the registers it needs,
 * reached by tail calls: below_vl_* (VL 64) for LANES_MAX <= n < VL, parallel_* and
 * accumulators_* from VL bytes on.  Each returns the register xored with xorout (0 for
 * the update, a fixed algorithm's for its value entry), as RET: the reflected passes
 * again as uint32_t (reflected32), so that the value entries of the 32-bit algorithms
 * pass their calls on with a jump too (a conversion of the result would cost them a
 * frame).  FOLD_PASS_FUNCTION makes NAME_ORDER_NAME(c, reg, p, n, xorout) of PASS, an
 * inline pass, with the order's constants. */
#define FOLD_PASS_FUNCTION(NAME, ORDER_NAME, ORDER, RET, PASS)                             \
    static ATTRIBUTES CRC_NOINLINE RET FOLD_PASS_NAME(NAME, ORDER_NAME)(                  \
        const struct fold_consts *c, uint64_t reg, const uint8_t *p, size_t n,            \
        uint64_t xorout)                                                                   \
    {                                                                                      \
        const struct fold_consts *k = ORDER == ORDER_MIRROR ? fold_consts_mirror(c) : c;   \
        return (RET)(PASS(c, k, reg, p, n, ORDER) ^ xorout);                               \
    }
#if VL == 64
#define FOLD_BELOW_VL(ORDER_NAME, ORDER, RET)                                              \
    FOLD_PASS_FUNCTION(below_vl_, ORDER_NAME, ORDER, RET, below_vl_pass)
#else
#define FOLD_BELOW_VL(ORDER_NAME, ORDER, RET)
#endif
#define FOLD_PASSES(ORDER_NAME, ORDER, RET)                                                \
    FOLD_PASS_FUNCTION(parallel_, ORDER_NAME, ORDER, RET, parallel_pass)                   \
    static ATTRIBUTES CRC_NOINLINE RET FOLD_PASS_NAME(                                     \
        accumulators_, ORDER_NAME)(const struct fold_consts *c, uint64_t reg,              \
                                   const uint8_t *p, size_t n, size_t A, uint64_t xorout)  \
    {                                                                                      \
        /* fewer than 2 A vectors (V <= 2 A - 1): the loop would not run */                \
        if (n <= (2 * A - 1) * VL)                                                         \
            return FOLD_PASS_NAME(parallel_, ORDER_NAME)(c, reg, p, n, xorout);            \
        const struct fold_consts *k = ORDER == ORDER_MIRROR ? fold_consts_mirror(c) : c;   \
        ALIGNED_CUT(c, k, reg, p, n, A, ORDER, RET, xorout)                                \
        return (RET)(accumulators_pass(c, k, reg, p, n, A, ORDER) ^ xorout);               \
    }                                                                                      \
    FOLD_TUNED(ORDER_NAME, RET)

/*
 * The pass for n >= LANES_MAX bytes of each copy of the passes, by the parameters given:
 * one parallel step up to fold_parallel_max bytes (and whenever the loop would not run,
 * accumulators_*).  fold_parallel_max <= CRC_FOLD_PARALLEL_MAX in every table (test_fold
 * checks it) and from CRCFORGE_TUNE (tuning.c refuses more), and 2 A - 1 <= 15 vectors:
 * reduce_lanes covers the step.  A tail call of the pass, so that the update itself makes
 * no call and keeps no frame.
 */
#define FOLD_TUNED(ORDER_NAME, RET)                                                        \
    static ATTRIBUTES ALWAYS_INLINE RET pass_##ORDER_NAME(                                 \
        const struct fold_consts *c, uint64_t reg, const uint8_t *p, size_t n,            \
        uint64_t xorout, const struct crc_params *k)                                      \
    {                                                                                      \
        const size_t parallel_max = k->fold_parallel_max;                                  \
        if (n <= parallel_max)                                                             \
            return parallel_##ORDER_NAME(c, reg, p, n, xorout);                            \
        return accumulators_##ORDER_NAME(c, reg, p, n, k->fold_accumulators, xorout);      \
    }
/* (The value entries take the passes from a vector on: below_vl_* serve the update.) */
#if GFNI_BITREV
FOLD_BELOW_VL(mirror, ORDER_MIRROR, uint64_t)
FOLD_PASSES(mirror, ORDER_MIRROR, uint64_t)
#else
FOLD_BELOW_VL(reflected, ORDER_REFLECTED, uint64_t)
FOLD_BELOW_VL(msb_first, ORDER_MSB_FIRST, uint64_t)
FOLD_PASSES(reflected, ORDER_REFLECTED, uint64_t)
FOLD_PASSES(reflected32, ORDER_REFLECTED, uint32_t)
FOLD_PASSES(msb_first, ORDER_MSB_FIRST, uint64_t)
#endif

/* n >= LANES_MAX, for the update (msb a constant at each call). */
static ATTRIBUTES ALWAYS_INLINE uint64_t fold_pass(const struct fold_consts *c, uint64_t reg,
                                                   const uint8_t *p, size_t n, const int msb,
                                                   const struct crc_params *k)
{
#if GFNI_BITREV
    (void)msb;
#if VL == 64 /* one vector, whatever the tuning */
    if (n < VL)
        return below_vl_mirror(c, reg, p, n, 0);
#endif
    return pass_mirror(c, reg, p, n, 0, k);
#else
#if VL == 64
    if (n < VL)
        return msb ? below_vl_msb_first(c, reg, p, n, 0) : below_vl_reflected(c, reg, p, n, 0);
#endif
    return msb ? pass_msb_first(c, reg, p, n, 0, k) : pass_reflected(c, reg, p, n, 0, k);
#endif
}

#if !GFNI_BITREV
/*
 * The value entries of the fixed reflected algorithms (internal.h) on this tier: the
 * model and its constants addressed with no load of a pointer, the order known, inputs
 * below VALUE_SHORT_MAX as leaf code, longer ones passed on with a jump to the passes, which
 * apply xorout.  (The first call builds the constants, out of line.)
 */
#define FOLD_VALUE_ENTRY(NAME, RET, INDEX, XOROUT, PASSES)                                 \
    static ATTRIBUTES RET FOLD_PASS_NAME(NAME, SUFFIX)(RET crc, const void *buf, size_t n, \
                                                       const struct crc_params *k);       \
    static ATTRIBUTES CRC_NOINLINE CRC_COLD RET FOLD_PASS_NAME(NAME##_first_,              \
                                                                         SUFFIX)(          \
        RET crc, const void *buf, size_t n, const struct crc_params *k)                    \
    {                                                                                      \
        fold_consts_build(&crc_catalogue[INDEX]);                                          \
        return FOLD_PASS_NAME(NAME, SUFFIX)(crc, buf, n, k);                               \
    }                                                                                      \
    static ATTRIBUTES RET FOLD_PASS_NAME(NAME, SUFFIX)(RET crc, const void *buf, size_t n, \
                                                       const struct crc_params *k)        \
    {                                                                                      \
        const struct fold_consts *c = fold_consts_peek(&crc_catalogue[INDEX]);             \
        if (CRC_UNLIKELY(c == NULL))                                                       \
            return FOLD_PASS_NAME(NAME##_first_, SUFFIX)(crc, buf, n, k);                  \
        const uint64_t reg = (RET)(crc ^ (XOROUT));                                        \
        const uint8_t *const p = buf;                                                      \
        if (n >= VALUE_SHORT_MAX)                                                          \
            return pass_##PASSES(c, reg, p, n, XOROUT, k);                                 \
        return (RET)(short_value_pass(c, reg, p, n) ^ (XOROUT));                           \
    }

#if VL == 64
/* The value entries' inputs that take no pass: shorter than a vector. */
#define VALUE_SHORT_MAX VL

/* A lane's two multiplies by its pair k, xored. */
static ATTRIBUTES ALWAYS_INLINE __m128i mul_pair128(__m128i a, const struct fold_pair *k)
{
    const __m128i kk = V_LOAD(k);
    return _mm_xor_si128(_mm_clmulepi64_si128(a, kk, 0x00), _mm_clmulepi64_si128(a, kk, 0x11));
}

/*
 * A reflected model's 33..63 bytes, n = 16 W + t (W 2 or 3 whole lanes at p + t, after
 * the t-byte head): the head lane z (the first t bytes moved up with the register, zero
 * for t = 0), the whole lanes (the first with the register bytes past the head), each
 * multiplied straight to the end by its reduce_lanes pair, two lanes a 256-bit multiply
 * pair.  The multiplies all independent, where below_vl_pass's one vector waited for its
 * masked load and vpermb: AMD Zen 4, crcforge bench paired rounds against the fastest
 * peer, CRC-64/XZ 33-63 B, latency loop 0.86-1.05x -> 1.08-1.32x, throughput loop
 * 1.16-1.37x -> 1.09-1.30x (CRC-32: 0.85-1.03x -> 1.05-1.28x, 1.14-1.24x -> 1.04-1.13x).
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t mid_value_pass(const struct fold_consts *c, uint64_t reg,
                                                        const uint8_t *p, size_t n)
{
    const size_t t = n & 15;
    const __m128i r = _mm_cvtsi64_si128((long long)reg);
    const __m128i z = _mm_shuffle_epi8(_mm_xor_si128(V_LOAD(p), r), V_LOAD(CRC_SHIFT_MASK(t)));
    const __m128i rest = _mm_shuffle_epi8(r, V_LOAD(CRC_SHIFT_MASK(16 + t)));
    const struct fold_pair *kp = &c->reduce_lanes[FOLD_REDUCE_LANES - 4];
    __m256i y = _mm256_loadu_si256((const void *)(p + n - 32)); /* the last two lanes */
    const __m256i ky = _mm256_load_si256((const void *)(kp + 2));
    __m256i m;
    if (n < 48) { /* W = 2: the first whole lane is y's */
        y = _mm256_xor_si256(y, _mm256_set_m128i(_mm_setzero_si128(), rest));
        m = _mm256_set_m128i(_mm_setzero_si128(), mul_pair128(z, kp + 1));
    } else { /* W = 3: z and the first whole lane as one more 256-bit pair */
        const __m256i x = _mm256_set_m128i(_mm_xor_si128(V_LOAD(p + t), rest), z);
        const __m256i kx = _mm256_load_si256((const void *)kp);
        m = _mm256_xor_si256(_mm256_clmulepi64_epi128(x, kx, 0x00),
                             _mm256_clmulepi64_epi128(x, kx, 0x11));
    }
    m = _mm256_ternarylogic_epi64(m, _mm256_clmulepi64_epi128(y, ky, 0x00),
                                  _mm256_clmulepi64_epi128(y, ky, 0x11), 0x96);
    return barrett(_mm_xor_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1)), c, 0);
}
#elif VL == 32
/* The value entries' inputs that take no pass: below four vectors. */
#define VALUE_SHORT_MAX (4 * VL)

/*
 * A reflected model's 64..127 bytes as parallel_pass takes them, in one straight line: the
 * head vector (its first h bytes with the register), then w = 1..3 whole vectors, each
 * multiplied to the end by its reduce_lanes pairs.  Through the passes the same vectors
 * took two more jumps, a frame each and the parameters' loads: on AMD Zen 3, crcforge bench's
 * paired rounds against the fastest peer, CRC-64/NVME 64-127 B 0.86-1.16x -> 1.00-1.38x
 * (CRC-32 1.03-1.40x -> 1.11-1.50x).
 * (From 32 B, in place of the lane steps, 32-48 B fell from 0.96-0.98x to 0.83-0.88x.)
 */
static ATTRIBUTES ALWAYS_INLINE uint64_t mid_value_pass(const struct fold_consts *c, uint64_t reg,
                                                        const uint8_t *p, size_t n)
{
    const size_t h = ((n - 1) & (VL - 1)) + 1, w = (n - h) / VL;
    const uint8_t *const q = p + h;
    const uint8_t *const kend = (const uint8_t *)&c->reduce_lanes[FOLD_REDUCE_LANES];
    wide_t head, first = VLOADU(q);
    if (h == VL) { /* whole vectors from the start: the register in the first lane */
        head = VXOR(VLOADU(p), VFROM64(reg));
    } else {
        head = head_vector(p, h, reg);
        if (h < 8) /* the register bytes h..7 lie in the first whole vector */
            first = VXOR(first, VFROM64(reg >> 8 * h));
    }
    wide_t s = add_to_end(mul_lanes(head, LOAD_PAIRS(kend - (w + 1) * VL)), first,
                          LOAD_PAIRS(kend - w * VL));
    if (w >= 2)
        s = add_to_end(s, VLOADU(q + VL), LOAD_PAIRS(kend - (w - 1) * VL));
    if (w == 3)
        s = add_to_end(s, VLOADU(q + 2 * VL), LOAD_PAIRS(kend - VL));
    return reduce_sum(s, c, ORDER_REFLECTED);
}
#else
#define VALUE_SHORT_MAX LANES_MAX
#endif

/* A reflected model's n < VALUE_SHORT_MAX bytes. */
static ATTRIBUTES ALWAYS_INLINE uint64_t short_value_pass(const struct fold_consts *c,
                                                          uint64_t reg, const uint8_t *p,
                                                          size_t n)
{
#if VL == 64
    if (n > 32)
        return mid_value_pass(c, reg, p, n);
    if (n > 16) {
        /* 17..32 bytes: two_lanes_pass's lanes (the first n - 16 bytes moved up with the
         * register, and the last 16 with the register bytes past them), each multiplied
         * straight to the end by its reduce_lanes pair rather than folded onto the other:
         * one multiply less deep (AMD Zen 4, latency loop, CRC-64/XZ 20-31 B: 1.11x the
         * fastest peer against 0.99x). */
        const size_t t = n - 16;
        const __m128i r = _mm_cvtsi64_si128((long long)reg);
        const __m128i z = _mm_shuffle_epi8(_mm_xor_si128(V_LOAD(p), r), V_LOAD(CRC_SHIFT_MASK(t)));
        const __m128i last =
            _mm_xor_si128(V_LOAD(p + t), _mm_shuffle_epi8(r, V_LOAD(CRC_SHIFT_MASK(16 + t))));
        const __m128i kz = V_LOAD(&c->reduce_lanes[FOLD_REDUCE_LANES - 2]);
        const __m128i kl = V_LOAD(&c->reduce_lanes[FOLD_REDUCE_LANES - 1]);
        const __m128i b = _mm_ternarylogic_epi64(_mm_clmulepi64_si128(z, kz, 0x00),
                                                 _mm_clmulepi64_si128(z, kz, 0x11),
                                                 _mm_clmulepi64_si128(last, kl, 0x00), 0x96);
        return barrett(_mm_xor_si128(b, _mm_clmulepi64_si128(last, kl, 0x11)), c, 0);
    }
    if (n == 16) /* the one lane as loaded: as fast as the masked load (latency loop) */
        return final_reduction(_mm_xor_si128(V_LOAD(p), _mm_cvtsi64_si128((long long)reg)), c, 0);
    if (n == 0)
        return reg;
    /* 1..15 bytes in one masked load (none outside [p, p + n) is read), the register
     * xored over the first 8, moved up as short_pass places them: by 8 - n bytes (n <= 8,
     * reduced as it is) or by 16 - n (the lane, folded to the end first).  No branch on
     * the length beyond n <= 8, and no 128-bit shift in general registers. */
    const __m128i x = _mm_xor_si128(_mm_maskz_loadu_epi8((__mmask16)((1u << n) - 1), p),
                                    _mm_cvtsi64_si128((long long)reg));
    if (n <= 8)
        return barrett(_mm_shuffle_epi8(x, V_LOAD(CRC_SHIFT_MASK(n + 8))), c, 0);
    return final_reduction(_mm_shuffle_epi8(x, V_LOAD(CRC_SHIFT_MASK(n))), c, 0);
#else
#if VL == 32
    if (n >= LANES_MAX)
        return mid_value_pass(c, reg, p, n);
#endif
    if (n >= 16)
        return lanes_pass(c, reg, p, n, 0);
    return n != 0 ? short_pass(c, reg, p, n, 0) : reg;
#endif
}

FOLD_VALUE_ENTRY(value_crc32c_, uint32_t, CRC_CATALOGUE_INDEX_CRC32C, 0xffffffffu, reflected32)
FOLD_VALUE_ENTRY(value_crc32_, uint32_t, CRC_CATALOGUE_INDEX_CRC32, 0xffffffffu, reflected32)
FOLD_VALUE_ENTRY(value_crc64_nvme_, uint64_t, CRC_CATALOGUE_INDEX_CRC64_NVME, ~(uint64_t)0,
                 reflected)
FOLD_VALUE_ENTRY(value_crc64_xz_, uint64_t, CRC_CATALOGUE_INDEX_CRC64_XZ, ~(uint64_t)0,
                 reflected)
#define FOLD_RECORD_VALUES                                                                 \
    .value = {[CRC_FIXED_CRC32C] = {.w32 = FOLD_PASS_NAME(value_crc32c_, SUFFIX)},         \
              [CRC_FIXED_CRC32] = {.w32 = FOLD_PASS_NAME(value_crc32_, SUFFIX)},           \
              [CRC_FIXED_CRC64_NVME] = {.w64 = FOLD_PASS_NAME(value_crc64_nvme_, SUFFIX)}, \
              [CRC_FIXED_CRC64_XZ] = {.w64 = FOLD_PASS_NAME(value_crc64_xz_, SUFFIX)}},
#endif

#if GFNI_BITREV
#define FOLD_MSB_ONLY 1
#endif
#define FOLD_PASS_INLINE 1
#include "../fold_record.h"

#undef FOLD_PASS_NAME
#undef FOLD_PASS_NAME_
#undef FOLD_PASSES
#undef FOLD_BELOW_VL
#undef FOLD_PASS_FUNCTION
#undef FOLD_TUNED
#undef FOLD_VALUE_ENTRY
#undef VALUE_SHORT_MAX
#undef PAIRED_FROM
#undef ALIGNED_CUT
#undef ALIGNED_FROM
#undef LANES_MAX
#undef LANES
#undef LOAD_PAIRS
#undef KEEP_IN_REGISTER
#undef VLOADU
#undef VLOADA
#undef VXOR
#undef VCLMUL
#undef VBROADCAST
#undef VSHUFFLE
#undef VFROM64
#undef VXOR3
#undef SUFFIX
#undef ATTRIBUTES
#undef VL
#undef USE_AVX512
#undef GFNI_BITREV
#undef FEATURES
