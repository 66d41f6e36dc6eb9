/* SPDX-License-Identifier: MIT */
/*
 * The short CRC-16/XMODEM paths: CRC-16/XMODEM of 0..CRC16_SHORT_MAX bytes with carry-less
 * multiplies, the hot path of cluster key slots, written once for x86 PCLMULQDQ
 * (x86/crc16_xmodem_pclmul.c, whose header comment gives the mathematics) and ARM PMULL
 * (arm/crc16_xmodem_pmull.c).  Each such path is a registry entry serving CRC-16/XMODEM:
 * this kernel up to CRC16_SHORT_MAX bytes, a folding tier of the same ISA beyond, and the
 * short-key operations of keyslot.h.  Its constants are CRC-16/XMODEM's fold_consts:
 * reduce_lanes for the word multipliers, the MSB-first Barrett pair.
 *
 * The including file defines first:
 *   TARGET (the function attributes) and SHORT_FEATURES (the CRC_CPU_* bits it executes);
 *   vec_t, a 128-bit vector, and its operations: V_LOAD(p) 16 bytes, V_PAIR(lo, hi)
 *   from two qwords (lo the low one), V_XOR, V_OR, V_SHUFFLE(x, idx) (bytes of x picked
 *   by idx, zero for an out-of-range index), V_BRACES(x) (0xff where a byte is '{'),
 *   V_ANY(x) (a byte is nonzero), V_CLMUL(a, ia, b, ib) (qword ia of a times qword ib of
 *   b, carry-less), V_LOW_UP(x) (the low qword moved up, zero below), V_WORD3(x) (bits
 *   48..63, the CRC);
 * then, after including this file, one CRC16_XMODEM_PATH(SUFFIX, FOLD) per folding tier.
 */
#include "bytes.h"
#include "compiler.h"
#include "fold_consts.h"
#include "keyslot.h"

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

/* The word multipliers k_j = (x^(64j+16) mod P) x^48 = x^(64j+64) mod P x^48, two by two:
 * words j (low qword) and j+1 (high qword) for even j, from reduce_lanes (fold_consts.h). */
TARGET static inline vec_t word_multipliers(const struct fold_consts *k, size_t j)
{
    return V_LOAD(&k->reduce_lanes[FOLD_REDUCE_LANES - 1 - j / 2]);
}

/* The last two words [w_{m-2} | w_{m-1}] (high | low qword) into A x^48. */
TARGET static inline vec_t fold_last_pair(vec_t x, const struct fold_consts *k)
{
    return V_XOR(V_LOW_UP(x), V_CLMUL(x, 1, word_multipliers(k, 0), 1));
}

/* Words j (low qword) and j+1 (high qword) from the end, times k_j and k_{j+1}. */
TARGET static inline vec_t fold_pair(vec_t x, const struct fold_consts *k, size_t j)
{
    vec_t kv = word_multipliers(k, j);
    return V_XOR(V_CLMUL(x, 0, kv, 0), V_CLMUL(x, 1, kv, 1));
}

/* The CRC of p[0..n); with stop_at_brace (a constant at each call site), -1 instead
 * when the key holds a '{', found on the loads the CRC needs anyway (zero padding never
 * is one). */
TARGET static inline int crc16_short_body(const struct fold_consts *k, const uint8_t *p,
                                          size_t n, int stop_at_brace)
{
    /* barrett_quotient, barrett_poly: adjacent, the low and high qwords. */
    const vec_t barrett = V_LOAD(&k->barrett_quotient);
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
        /* crc_reverse_window[0..16): the full byte reversal. */
        const vec_t reverse = V_LOAD(crc_reverse_window);
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
            vec_t take = V_LOAD(crc_reverse_window + 16 - first);
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

/* CRC-16/XMODEM's constants: built by the first use of the model (crc_once). */
static inline const struct fold_consts *crc16_short_consts(const crcforge_model *m)
{
    const struct fold_consts *k = fold_consts_peek(m);
    return k != NULL ? k : fold_consts_build(m);
}

/* A key that holds a '{': the rule, its hashed part through the same body.  Out of line,
 * so that the common case saves no registers for memchr's calls. */
TARGET static CRC_NOINLINE CRC_COLD unsigned
crc16_short_tagged(const struct fold_consts *k, const uint8_t *p, size_t n)
{
    p = crc_hash_tag(p, &n);
    return (unsigned)crc16_short_body(k, p, n, 0) & 16383;
}

/* The slot of a key of n <= CRC16_SHORT_MAX bytes: the CRC pass looks for '{' on its
 * loads; only a key holding one goes through the rule. */
TARGET static inline unsigned crc16_short_slot_of(const struct fold_consts *k, const uint8_t *p,
                                                  size_t n)
{
    int crc = crc16_short_body(k, p, n, 1);
    if (crc < 0)
        return crc16_short_tagged(k, p, n);
    return (unsigned)crc & 16383;
}

TARGET static unsigned crc16_short_slot(const crcforge_model *m, const uint8_t *p, size_t n)
{
    return crc16_short_slot_of(crc16_short_consts(m), p, n);
}

/* The body inlined in the loop: the constants stay in registers, no call per key. */
TARGET static size_t crc16_short_slots(const crcforge_model *m, const void *const *keys,
                                       const size_t *lens, size_t n, uint16_t *slots)
{
    const struct fold_consts *k = crc16_short_consts(m);
    for (size_t i = 0; i < n; i++) {
        if (lens[i] > CRC16_SHORT_MAX)
            return i;
        slots[i] = (uint16_t)crc16_short_slot_of(k, keys[i], lens[i]);
    }
    return n;
}

static const struct crc_keyslot_ops crc16_short_keyslot = {
    crc16_short_slot, crc16_short_slots,
    sizeof(struct fold_pair) * 4 + 2 * sizeof(uint64_t) + sizeof crc_reverse_window +
        16, /* and a vector of '{' */
};

/* n <= CRC16_SHORT_MAX bytes from any register: a start value r != 0 adds r x^(8n) mod P,
 * which xored into the first two bytes of a copy it does (n >= 2); one byte b from r is
 * (r_hi ^ b) x^16 + r_lo x^8 mod P, the second term already reduced. */
TARGET static uint64_t crc16_short_update(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                          size_t n)
{
    const struct fold_consts *k = crc16_short_consts(m);
    if (reg == 0)
        return (uint64_t)crc16_short_body(k, p, n, 0);
    if (n >= 2) {
        uint8_t copy[CRC16_SHORT_MAX];
        memcpy(copy, p, n);
        copy[0] ^= (uint8_t)(reg >> 8);
        copy[1] ^= (uint8_t)reg;
        return (uint64_t)crc16_short_body(k, copy, n, 0);
    }
    if (n == 1) {
        const uint8_t b = (uint8_t)(p[0] ^ (reg >> 8));
        return (uint64_t)crc16_short_body(k, &b, 1, 0) ^ ((reg & 0xff) << 8);
    }
    return reg;
}

/*
 * The registry entry crc_impl_crc16_xmodem_SUFFIX, named "crc16_xmodem_SUFFIX": this
 * kernel up to CRC16_SHORT_MAX bytes, FOLD (the folding tier whose update is
 * fold_update_FOLD and record crc_impl_fold_FOLD) beyond.
 */
#define CRC16_XMODEM_PATH(SUFFIX, FOLD)                                                  \
    static CODE_ALIGNED uint64_t update_##SUFFIX(const crcforge_model *m, uint64_t reg,   \
                                                 const uint8_t *p, size_t n,              \
                                                 const struct crc_params *k)              \
    {                                                                                   \
        if (n <= CRC16_SHORT_MAX)                                                       \
            return crc16_short_update(m, reg, p, n);                                    \
        return fold_update_##FOLD(m, reg, p, n, k);                                     \
    }                                                                                   \
    const struct crc_impl crc_impl_crc16_xmodem_##SUFFIX = {                            \
        .name = "crc16_xmodem_" #SUFFIX, .features = SHORT_FEATURES | CRC_FEATURES_##FOLD, \
        .supports = crc16_xmodem_serves, .update = update_##SUFFIX,                     \
        .keyslot = &crc16_short_keyslot}
