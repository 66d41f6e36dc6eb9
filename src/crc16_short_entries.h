/*
 * A carry-less-multiply short path (crc16_short.h): the body and the entry points,
 * written once for x86/crc16_short_pclmul.c and arm/crc16_short_pmull.c (the mathematics
 * is in the former's header comment).  The including file defines first:
 *   IMPL (the struct defined), NAME (its name string), RUNNABLE (the CPU check), all
 *   #undef'd here, and TARGET (the function attributes);
 *   vec_t, a 128-bit vector, and its operations: V_LOAD(p) 16 bytes, V_PAIR(lo, hi)
 *   from two qwords (lo the low one), V_XOR, V_OR, V_SHUFFLE(x, idx) (bytes of x picked
 *   by idx, zero for an out-of-range index), V_BRACES(x) (0xff where a byte is '{'),
 *   V_ANY(x) (a byte is nonzero), V_CLMUL(a, ia, b, ib) (qword ia of a times qword ib of
 *   b, carry-less), V_LOW_UP(x) (the low qword moved up, zero below), V_WORD3(x) (bits
 *   48..63, the CRC).
 */
#include "crc16_short.h"

/* p[0..n), n <= 8, as a big-endian integer; overlapping loads agree where they meet. */
static inline uint64_t load_be_upto8(const uint8_t *p, size_t n)
{
    if (n >= 4)
        return (uint64_t)crc_load_be32(p) << (8 * (n - 4)) | crc_load_be32(p + n - 4);
    if (n == 0)
        return 0;
    return (uint64_t)p[0] << (8 * (n - 1)) | (uint64_t)p[n / 2] << (8 * (n - 1 - n / 2)) |
           p[n - 1];
}

/* The last two words [w_{m-2} | w_{m-1}] (high | low qword) into A x^48. */
TARGET static inline vec_t fold_last_pair(vec_t x, const struct crc16_short_consts *k)
{
    return V_XOR(V_LOW_UP(x), V_CLMUL(x, 1, V_LOAD(&k->fold[0]), 1));
}

/* Words j (low qword) and j+1 (high qword) from the end, times k_j and k_{j+1}. */
TARGET static inline vec_t fold_pair(vec_t x, const struct crc16_short_consts *k, size_t j)
{
    vec_t kv = V_LOAD(&k->fold[j]);
    return V_XOR(V_CLMUL(x, 0, kv, 0), V_CLMUL(x, 1, kv, 1));
}

/* The CRC of p[0..n); with stop_at_brace (a constant at each call site), -1 instead
 * when the key holds a '{', found on the loads the CRC needs anyway (zero padding never
 * is one). */
TARGET static inline int crc16_short_body(const struct crc16_short_consts *k, const uint8_t *p,
                                          size_t n, int stop_at_brace)
{
    /* barrett_mu, poly_x48: adjacent, the low and high qwords. */
    const vec_t barrett = V_LOAD(&k->barrett_mu);
    vec_t t;
    if (n <= 8) {
        /* A = word x^16: A_hi = word, A_lo = 0; the word can stay in the low qword. */
        vec_t x = V_PAIR(load_be_upto8(p, n), 0);
        if (stop_at_brace && V_ANY(V_BRACES(x)))
            return -1;
        vec_t h = V_CLMUL(x, 0, barrett, 0);  /* A_hi mu' */
        vec_t qh = V_CLMUL(h, 1, barrett, 1); /* floor(A_hi mu'/x^64) P' */
        vec_t qa = V_CLMUL(x, 0, barrett, 1); /* A_hi P' */
        return V_WORD3(V_XOR(qh, qa));
    }
    if (n < 16) {
        uint64_t first = crc_load_be64(p) >> (8 * (16 - n)), last = crc_load_be64(p + n - 8);
        vec_t x = V_PAIR(last, first);
        if (stop_at_brace && V_ANY(V_BRACES(x)))
            return -1;
        t = fold_last_pair(x, k);
    } else {
        /* take_last[0..16): the full byte reversal. */
        const vec_t reverse = V_LOAD(k->take_last);
        const uint8_t *block = p + n - 16;
        vec_t raw = V_LOAD(block);
        vec_t braces = V_BRACES(raw);
        t = fold_last_pair(V_SHUFFLE(raw, reverse), k);
        size_t j = 2;
        for (; block - p > 16; j += 2) {
            block -= 16;
            raw = V_LOAD(block);
            braces = V_OR(braces, V_BRACES(raw));
            t = V_XOR(t, fold_pair(V_SHUFFLE(raw, reverse), k, j));
        }
        if (block > p) {
            size_t first = (size_t)(block - p); /* 1..16 bytes left, at p */
            vec_t take = V_LOAD(k->take_last + 16 - first);
            raw = V_LOAD(p); /* bytes past `first` are key too */
            braces = V_OR(braces, V_BRACES(raw));
            t = V_XOR(t, fold_pair(V_SHUFFLE(raw, take), k, j));
        }
        if (stop_at_brace && V_ANY(braces))
            return -1;
    }
    vec_t h = V_CLMUL(t, 1, barrett, 0);  /* A_hi mu' */
    vec_t qh = V_CLMUL(h, 1, barrett, 1); /* floor(A_hi mu'/x^64) P' */
    vec_t qa = V_CLMUL(t, 1, barrett, 1); /* A_hi P' */
    return V_WORD3(V_XOR(t, V_XOR(qh, qa)));
}

TARGET static uint16_t crc16_short_crc(const struct crc16_short_consts *k, const uint8_t *p,
                                       size_t n)
{
    return (uint16_t)crc16_short_body(k, p, n, 0);
}

TARGET static unsigned crc16_short_slot(const struct crc16_short_consts *k, const uint8_t *p,
                                        size_t n)
{
    int crc = crc16_short_body(k, p, n, 1);
    if (crc < 0)
        return crc_keyslot_by_rule(&IMPL, p, n);
    return (unsigned)crc & 16383;
}

/* The body inlined in the loop: the constants stay in registers, no call per key. */
TARGET static void crc16_short_slots(const struct crc16_short_consts *k,
                                     const void *const *keys, const size_t *lens, size_t n,
                                     uint16_t *slots)
{
    for (size_t i = 0; i < n; i++) {
        int crc = lens[i] <= CRC16_SHORT_MAX ? crc16_short_body(k, keys[i], lens[i], 1) : -1;
        slots[i] = (uint16_t)(crc >= 0 ? (unsigned)crc & 16383
                                       : crc_keyslot_by_rule(&IMPL, keys[i], lens[i]));
    }
}

const struct crc16_short_impl IMPL = {
    NAME, RUNNABLE, crc16_short_crc, crc16_short_slot, crc16_short_slots,
    sizeof crc16_short_k.fold + sizeof crc16_short_k.barrett_mu +
        sizeof crc16_short_k.poly_x48 + sizeof crc16_short_k.take_last +
        16, /* and a vector of '{' */
};

#undef IMPL
#undef NAME
#undef RUNNABLE
