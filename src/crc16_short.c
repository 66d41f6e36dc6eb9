/*
 * Short-input CRC-16/XMODEM: the constants every path uses, derived from the catalogue's
 * polynomial; the portable path (slicing-by-2, 1 KiB of tables); the choice of path.
 */
#include <pthread.h>
#include <string.h>

#include "crc16_short.h"
#include "fold_consts.h"
#include "internal.h"

struct crc16_short_consts crc16_short_k;

/*
 * Modulo P' = P * x^48 = x^64 + poly_x48 (fold_consts.h's arithmetic):
 * x^(n+48) mod P' = (x^n mod P) * x^48 and floor(x^(n+48) / P') = floor(x^n / P).
 */
static void build_consts(void)
{
    struct crc16_short_consts *k = &crc16_short_k;
    const crcforge_params *p = &crc_model_crc16_xmodem->p;
    k->poly_x48 = fold_lifted_poly(p);
    for (unsigned j = 0; j < CRC16_SHORT_MAX / 8; j++)
        k->fold[j] = fold_xpow_mod(64 * j + 64, k->poly_x48);
    k->barrett_mu = fold_xpow_div(128, k->poly_x48);
    const uint64_t x16 = crc_xpow_mod(16, p), x24 = crc_xpow_mod(24, p);
    for (unsigned v = 0; v < 256; v++) {
        k->by_byte[v] = (uint16_t)crc_mulmod(v, x16, p);
        k->by_byte_x8[v] = (uint16_t)crc_mulmod(v, x24, p);
    }
    for (unsigned i = 0; i < 32; i++)
        k->take_last[i] = i < 16 ? (uint8_t)(15 - i) : 0x80; /* 0x80: the shuffle writes 0 */
}

const struct crc16_short_consts *crc16_short_consts(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_consts);
    return &crc16_short_k;
}

/* Slicing-by-2: an odd first byte alone (from the zero register), then two bytes a
 * step: the register xor the next 16 bits, times x^16, is the sum of its two bytes'
 * lookups. */
static uint16_t crc16_short_slice2(const struct crc16_short_consts *k, const uint8_t *p,
                                   size_t n)
{
    unsigned crc = 0;
    size_t i = 0;
    if (n & 1)
        crc = k->by_byte[p[i++]];
    for (; i < n; i += 2) {
        unsigned x = crc ^ (unsigned)(p[i] << 8 | p[i + 1]);
        crc = k->by_byte_x8[x >> 8] ^ k->by_byte[x & 0xff];
    }
    return (uint16_t)crc;
}

static unsigned crc16_short_slice2_slot(const struct crc16_short_consts *k, const uint8_t *p,
                                        size_t n)
{
    if (n != 0 && memchr(p, '{', n) != NULL)
        return crc_keyslot_by_rule(&crc16_short_portable, p, n);
    return crc16_short_slice2(k, p, n) & 16383;
}

static void crc16_short_slice2_slots(const struct crc16_short_consts *k,
                                     const void *const *keys, const size_t *lens, size_t n,
                                     uint16_t *slots)
{
    for (size_t i = 0; i < n; i++)
        slots[i] = (uint16_t)(lens[i] <= CRC16_SHORT_MAX
                                  ? crc16_short_slice2_slot(k, keys[i], lens[i])
                                  : crc_keyslot_by_rule(&crc16_short_portable, keys[i], lens[i]));
}

static int always(void)
{
    return 1;
}

const struct crc16_short_impl crc16_short_portable = {
    "portable", always, crc16_short_slice2, crc16_short_slice2_slot, crc16_short_slice2_slots,
    sizeof crc16_short_k.by_byte + sizeof crc16_short_k.by_byte_x8,
};

const struct crc16_short_impl *const crc16_short_impls[] = {
    CRC16_SHORT_CLMUL_IMPL &crc16_short_portable,
};
const size_t crc16_short_impl_count = sizeof crc16_short_impls / sizeof crc16_short_impls[0];

static uint16_t resolve_then_crc(const struct crc16_short_consts *k, const uint8_t *p, size_t n)
{
    return crc16_short_resolve()->crc(k, p, n);
}

static unsigned resolve_then_slot(const struct crc16_short_consts *k, const uint8_t *p,
                                  size_t n)
{
    return crc16_short_resolve()->slot(k, p, n);
}

static void resolve_then_slots(const struct crc16_short_consts *k, const void *const *keys,
                               const size_t *lens, size_t n, uint16_t *slots)
{
    crc16_short_resolve()->slots(k, keys, lens, n, slots);
}

static const struct crc16_short_impl unresolved = {
    "unresolved", always, resolve_then_crc, resolve_then_slot, resolve_then_slots, 0,
};
_Atomic(const struct crc16_short_impl *) crc16_short_current = &unresolved;

const struct crc16_short_impl *crc16_short_resolve(void)
{
    crc16_short_consts();
    const struct crc16_short_impl *impl = &crc16_short_portable;
    for (size_t i = 0; i < crc16_short_impl_count; i++) {
        if (crc16_short_impls[i]->runnable()) {
            impl = crc16_short_impls[i];
            break;
        }
    }
    atomic_store_explicit(&crc16_short_current, impl, memory_order_release);
    return impl;
}
