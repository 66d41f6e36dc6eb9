/*
 * CRC-16/XMODEM of short inputs (0..CRC16_SHORT_MAX bytes), the hot path of cluster key
 * slots.  XMODEM starts from a zero register, so leading zero bytes do not change the
 * CRC: a key can be loaded right-aligned into a zero-padded word and reduced whole.
 *
 * Every path computes M(x) * x^16 mod P(x) for the n-byte message M (first byte most
 * significant), P = x^16 + 0x1021, with constants derived at first use from the
 * catalogue's polynomial (crc16_short_consts).
 */
#ifndef CRCFORGE_CRC16_SHORT_H
#define CRCFORGE_CRC16_SHORT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define CRC16_SHORT_MAX 64

struct crc16_short_consts {
    /* fold[j] = (x^(64j+16) mod P) * x^48: a 64-bit word followed by j more words,
     * multiplied by it, lands as (A mod-P-equivalent) * x^48 in a 128-bit lane. */
    uint64_t fold[CRC16_SHORT_MAX / 8];
    /* Barrett reduction of A (degree < 80): mu = floor(x^80 / P) - x^64, and
     * poly_x48 = (P - x^16) * x^48; adjacent, in this order (one 16-byte load). */
    uint64_t barrett_mu;
    uint64_t poly_x48;
    /* Portable path, slicing-by-2: by_byte[v] = v x^16 mod P, by_byte_x8[v] = v x^24 mod P. */
    uint16_t by_byte[256];
    uint16_t by_byte_x8[256];
    /* A byte-shuffle (pshufb, tbl) control window: take_last[16 - k ..] keeps the first
     * k bytes of a 16-byte load, reversed (the first byte most significant) and
     * right-aligned, and zeroes the rest (index 0x80). */
    uint8_t take_last[32];
};

/* One short-input path, for n <= CRC16_SHORT_MAX; both functions read exactly p[0..n).
 * crc: the CRC-16/XMODEM from a zero register.  slot: the cluster slot of the key; it
 * looks for '{' on the loads its CRC needs and hands a key holding one to
 * crc_keyslot_by_rule, so the common case costs one pass over the loaded key. */
struct crc16_short_impl {
    const char *name;
    int (*runnable)(void);
    uint16_t (*crc)(const struct crc16_short_consts *k, const uint8_t *p, size_t n);
    unsigned (*slot)(const struct crc16_short_consts *k, const uint8_t *p, size_t n);
    /* slots[i] = the slot of keys[i] (any length), for i < n. */
    void (*slots)(const struct crc16_short_consts *k, const void *const *keys,
                  const size_t *lens, size_t n, uint16_t *slots);
    size_t table_bytes; /* constants and tables it reads */
};

/* The constants, filled once (pthread_once) by crc16_short_consts() or crc16_short_resolve()
 * (which the first call through crc16_short_best() makes); read them only after. */
extern struct crc16_short_consts crc16_short_k;
const struct crc16_short_consts *crc16_short_consts(void);

extern const struct crc16_short_impl crc16_short_portable;
#if defined(__x86_64__)
#define CRC16_SHORT_CLMUL_IMPL &crc16_short_pclmul,
extern const struct crc16_short_impl crc16_short_pclmul; /* x86/crc16_short_pclmul.c */
#elif defined(__aarch64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CRC16_SHORT_CLMUL_IMPL &crc16_short_pmull,
extern const struct crc16_short_impl crc16_short_pmull; /* arm/crc16_short_pmull.c */
#else
#define CRC16_SHORT_CLMUL_IMPL
#endif

/* Every compiled-in path, best first (tests force each one); the resolver picks the
 * first runnable one, once. */
extern const struct crc16_short_impl *const crc16_short_impls[];
extern const size_t crc16_short_impl_count;
const struct crc16_short_impl *crc16_short_resolve(void);

/* The best path this CPU runs.  Until the first call it is a stand-in whose functions
 * resolve (building the constants) and then forward, so the hot path tests nothing. */
extern _Atomic(const struct crc16_short_impl *) crc16_short_current;
static inline const struct crc16_short_impl *crc16_short_best(void)
{
    return atomic_load_explicit(&crc16_short_current, memory_order_acquire);
}

/* keyslot.c: the cluster slot of any key by the hash-tag rule, hashing with the given
 * path (for tests; crcforge_keyslot uses the best one); the same for a key that may
 * hold a hash tag, after the path's slot function found a '{'. */
unsigned crc_keyslot_with(const struct crc16_short_impl *impl, const void *key, size_t len);
unsigned crc_keyslot_by_rule(const struct crc16_short_impl *impl, const uint8_t *key,
                             size_t len);

#endif /* CRCFORGE_CRC16_SHORT_H */
