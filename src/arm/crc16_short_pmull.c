/*
 * CRC-16/XMODEM of 0..64 bytes with PMULL: the same fold and Barrett reduction as
 * x86/crc16_short_pclmul.c (whose header comment gives the mathematics), in NEON.
 * 64-bit lane 0 is the low qword (little-endian hosts only, see crc16_short.h).
 * TBL, like PSHUFB, writes zero for an out-of-range index, so the same take_last
 * window both reverses the bytes and drops those of a partial first block.
 */
#include <arm_neon.h>

#include "../bytes.h"
#include "../cpu.h"

#define TARGET __attribute__((target("+crypto")))

static int pmull_runnable(void)
{
    return crc_cpu_has(CRC_CPU_ARM_PMULL);
}

#define IMPL crc16_short_pmull
#define NAME "pmull"
#define RUNNABLE pmull_runnable
#include "../crc16_short_entries.h" /* the entry points, around the body below */

/* The 128-bit carry-less product of lane ia of a and lane ib of b (constant lanes). */
#define CLMUL(a, ia, b, ib)                                                               \
    vreinterpretq_u64_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), ia),        \
                                     vgetq_lane_p64(vreinterpretq_p64_u64(b), ib)))

/* The last two words [w_{m-2} | w_{m-1}] (lane 1 | lane 0) into A x^48. */
TARGET static inline uint64x2_t fold_last_pair(uint64x2_t x, const struct crc16_short_consts *k)
{
    uint64x2_t kv = vld1q_u64(&k->fold[0]);
    uint64x2_t last_high = vcombine_u64(vdup_n_u64(0), vget_low_u64(x));
    return veorq_u64(last_high, CLMUL(x, 1, kv, 1));
}

/* Words j (lane 0) and j+1 (lane 1) from the end, times k_j and k_{j+1}. */
TARGET static inline uint64x2_t fold_pair(uint8x16_t bytes, const struct crc16_short_consts *k,
                                          size_t j)
{
    uint64x2_t x = vreinterpretq_u64_u8(bytes), kv = vld1q_u64(&k->fold[j]);
    return veorq_u64(CLMUL(x, 0, kv, 0), CLMUL(x, 1, kv, 1));
}

/* Lanes equal to '{' (zero padding never is). */
TARGET static inline uint8x16_t open_braces(uint8x16_t x)
{
    return vceqq_u8(x, vdupq_n_u8('{'));
}

TARGET static inline int any_set(uint8x16_t x)
{
    return vmaxvq_u8(x) != 0;
}

/* The CRC of p[0..n); with stop_at_brace (a constant at each call site), -1 instead
 * when the key holds a '{'. */
TARGET static inline int crc16_short_body(const struct crc16_short_consts *k, const uint8_t *p,
                                          size_t n, int stop_at_brace)
{
    /* barrett_mu, poly_x48: adjacent, lanes 0 and 1. */
    const uint64x2_t barrett = vld1q_u64(&k->barrett_mu);
    uint64x2_t t;
    if (n <= 8) {
        /* A = word x^16: A_hi = word, A_lo = 0; the word can stay in lane 0. */
        uint64x2_t x = vcombine_u64(vcreate_u64(load_be_upto8(p, n)), vdup_n_u64(0));
        if (stop_at_brace && any_set(open_braces(vreinterpretq_u8_u64(x))))
            return -1;
        uint64x2_t h = CLMUL(x, 0, barrett, 0);  /* A_hi mu' */
        uint64x2_t qh = CLMUL(h, 1, barrett, 1); /* floor(A_hi mu'/x^64) P' */
        uint64x2_t qa = CLMUL(x, 0, barrett, 1); /* A_hi P' */
        return vgetq_lane_u16(vreinterpretq_u16_u64(veorq_u64(qh, qa)), 3);
    }
    if (n < 16) {
        uint64_t first = crc_load_be64(p) >> (8 * (16 - n)), last = crc_load_be64(p + n - 8);
        uint64x2_t x = vcombine_u64(vcreate_u64(last), vcreate_u64(first));
        if (stop_at_brace && any_set(open_braces(vreinterpretq_u8_u64(x))))
            return -1;
        t = fold_last_pair(x, k);
    } else {
        /* take_last[0..16): the full byte reversal. */
        const uint8x16_t reverse = vld1q_u8(k->take_last);
        const uint8_t *block = p + n - 16;
        uint8x16_t raw = vld1q_u8(block);
        uint8x16_t braces = open_braces(raw);
        t = fold_last_pair(vreinterpretq_u64_u8(vqtbl1q_u8(raw, reverse)), k);
        size_t j = 2;
        for (; block - p > 16; j += 2) {
            block -= 16;
            raw = vld1q_u8(block);
            braces = vorrq_u8(braces, open_braces(raw));
            t = veorq_u64(t, fold_pair(vqtbl1q_u8(raw, reverse), k, j));
        }
        if (block > p) {
            size_t first = (size_t)(block - p); /* 1..16 bytes left, at p */
            uint8x16_t take = vld1q_u8(k->take_last + 16 - first);
            raw = vld1q_u8(p); /* bytes past `first` are key too */
            braces = vorrq_u8(braces, open_braces(raw));
            t = veorq_u64(t, fold_pair(vqtbl1q_u8(raw, take), k, j));
        }
        if (stop_at_brace && any_set(braces))
            return -1;
    }
    uint64x2_t h = CLMUL(t, 1, barrett, 0);  /* A_hi mu' */
    uint64x2_t qh = CLMUL(h, 1, barrett, 1); /* floor(A_hi mu'/x^64) P' */
    uint64x2_t qa = CLMUL(t, 1, barrett, 1); /* A_hi P' */
    return vgetq_lane_u16(vreinterpretq_u16_u64(veorq_u64(t, veorq_u64(qh, qa))), 3);
}
