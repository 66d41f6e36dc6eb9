/*
 * CRC-16/XMODEM of 0..64 bytes with PCLMULQDQ: the whole key in at most four 128-bit
 * lanes, one carry-less multiply per 64-bit word, one Barrett reduction.
 *
 * The key M, first byte most significant, is split into 64-bit words w_0..w_{m-1}
 * (w_0 zero-padded on the left: XMODEM starts from zero, so leading zeros are free).
 * Then M x^16 = sum_j w_{m-1-j} x^(64j+16), and with k_j = x^(64j+16) mod P (degree
 * < 16) the sum A = w_{m-1} x^16 + sum_{j>=1} w_{m-1-j} k_j has degree < 80 and the
 * same remainder.  Every product is taken against k_j x^48, so a 128-bit lane holds
 * A x^48: its high qword is A_hi = floor(A / x^16), bits 48..63 are A_lo = A mod x^16.
 * All the products are independent.
 *
 * Barrett (exact over GF(2)): with mu = floor(x^80 / P) = x^64 + mu',
 * q = floor(A_hi mu / x^64) = A_hi + floor(A_hi mu' / x^64) = floor(A / P), and
 * A mod P = A_lo + (q (P - x^16) mod x^16); both terms of q are multiplied by
 * (P - x^16) x^48 so that the answer appears at bits 48..63 again, no shifts needed.
 *
 * Loads never leave [p, p+n): 16-byte loads only when n >= 16 (the first, partial,
 * block is a load at p shuffled down to its bytes), 8/4/1-byte overlapping loads below.
 */
#include <immintrin.h>

#include "../bytes.h"
#include "../cpu.h"

#define TARGET __attribute__((target("pclmul,ssse3,sse4.1")))

static int pclmul_runnable(void)
{
    return crc_cpu_has(CRC_CPU_PCLMUL | CRC_CPU_SSE41);
}

#define IMPL crc16_short_pclmul
#define NAME "pclmul"
#define RUNNABLE pclmul_runnable
#include "../crc16_short_entries.h" /* the entry points, around the body below */

/* The last two words [w_{m-2} | w_{m-1}] (high | low qword) into A x^48. */
TARGET static inline __m128i fold_last_pair(__m128i x, const struct crc16_short_consts *k)
{
    __m128i kv = _mm_loadu_si128((const __m128i *)&k->fold[0]);
    return _mm_xor_si128(_mm_slli_si128(x, 8), _mm_clmulepi64_si128(x, kv, 0x11));
}

/* Words j (low qword) and j+1 (high qword) from the end, times k_j and k_{j+1}. */
TARGET static inline __m128i fold_pair(__m128i x, const struct crc16_short_consts *k, size_t j)
{
    __m128i kv = _mm_loadu_si128((const __m128i *)&k->fold[j]);
    return _mm_xor_si128(_mm_clmulepi64_si128(x, kv, 0x00), _mm_clmulepi64_si128(x, kv, 0x11));
}

/* Lanes of x equal to '{' (zero padding never is). */
TARGET static inline __m128i open_braces(__m128i x)
{
    return _mm_cmpeq_epi8(x, _mm_set1_epi8('{'));
}

/*
 * The CRC of p[0..n); with stop_at_brace (a constant at each call site), -1 instead
 * when the key holds a '{', found on the loads the CRC needs anyway.
 */
TARGET static inline int crc16_short_body(const struct crc16_short_consts *k, const uint8_t *p,
                                          size_t n, int stop_at_brace)
{
    /* barrett_mu, poly_x48: adjacent, the low and high qwords. */
    const __m128i barrett = _mm_loadu_si128((const __m128i *)&k->barrett_mu);
    __m128i t;
    if (n <= 8) {
        /* A = word x^16: A_hi = word, A_lo = 0; the word can stay in the low qword. */
        __m128i x = _mm_cvtsi64_si128((long long)load_be_upto8(p, n));
        if (stop_at_brace && _mm_movemask_epi8(open_braces(x)) != 0)
            return -1;
        __m128i h = _mm_clmulepi64_si128(x, barrett, 0x00);  /* A_hi mu' */
        __m128i qh = _mm_clmulepi64_si128(h, barrett, 0x11); /* floor(A_hi mu'/x^64) P' */
        __m128i qa = _mm_clmulepi64_si128(x, barrett, 0x10); /* A_hi P' */
        return _mm_extract_epi16(_mm_xor_si128(qh, qa), 3);
    }
    if (n < 16) {
        uint64_t first = crc_load_be64(p) >> (8 * (16 - n)), last = crc_load_be64(p + n - 8);
        __m128i x = _mm_set_epi64x((long long)first, (long long)last);
        if (stop_at_brace && _mm_movemask_epi8(open_braces(x)) != 0)
            return -1;
        t = fold_last_pair(x, k);
    } else {
        /* take_last[0..16): the full byte reversal. */
        const __m128i reverse = _mm_loadu_si128((const __m128i *)k->take_last);
        const uint8_t *block = p + n - 16;
        __m128i raw = _mm_loadu_si128((const __m128i *)block);
        __m128i braces = open_braces(raw);
        t = fold_last_pair(_mm_shuffle_epi8(raw, reverse), k);
        size_t j = 2;
        for (; block - p > 16; j += 2) {
            block -= 16;
            raw = _mm_loadu_si128((const __m128i *)block);
            braces = _mm_or_si128(braces, open_braces(raw));
            t = _mm_xor_si128(t, fold_pair(_mm_shuffle_epi8(raw, reverse), k, j));
        }
        if (block > p) {
            size_t first = (size_t)(block - p); /* 1..16 bytes left, at p */
            __m128i take = _mm_loadu_si128((const __m128i *)(k->take_last + 16 - first));
            raw = _mm_loadu_si128((const __m128i *)p); /* bytes past `first` are key too */
            braces = _mm_or_si128(braces, open_braces(raw));
            t = _mm_xor_si128(t, fold_pair(_mm_shuffle_epi8(raw, take), k, j));
        }
        if (stop_at_brace && _mm_movemask_epi8(braces) != 0)
            return -1;
    }
    __m128i h = _mm_clmulepi64_si128(t, barrett, 0x01);  /* A_hi mu' */
    __m128i qh = _mm_clmulepi64_si128(h, barrett, 0x11); /* floor(A_hi mu'/x^64) P' */
    __m128i qa = _mm_clmulepi64_si128(t, barrett, 0x11); /* A_hi P' */
    return _mm_extract_epi16(_mm_xor_si128(t, _mm_xor_si128(qh, qa)), 3);
}
