/*
 * Short-input CRC-16/XMODEM: the constants every path uses, derived from the catalogue's
 * polynomial; the portable path (slicing-by-2, 1 KiB of tables); the choice of path.
 */
#include <pthread.h>
#include <string.h>

#include "crc16_short.h"
#include "internal.h"

struct crc16_short_consts crc16_short_k;

/*
 * x^n mod P, and the low 64 bits of floor(x^n / P), by long division of x^n one bit at
 * a time: the dividend's bits enter a 17-bit window; whenever the window reaches
 * degree 16 the quotient gets a 1 and P is subtracted.
 */
static uint16_t xpow_divide(unsigned n, uint64_t *quotient_low64)
{
    const uint32_t p = (uint32_t)crc_model_crc16_xmodem->p.poly | 1u << 16;
    uint32_t window = 0;
    uint64_t q = 0;
    for (unsigned i = 0; i <= n; i++) {
        window = window << 1 | (i == 0); /* x^n: a one, then n zeros */
        unsigned bit = window >> 16 & 1;
        q = q << 1 | bit;
        if (bit)
            window ^= p;
    }
    if (quotient_low64 != NULL)
        *quotient_low64 = q;
    return (uint16_t)window;
}

/* v * x^k mod P, for v of degree < 16. */
static uint16_t mul_xpow(uint16_t v, unsigned k)
{
    const uint16_t poly = (uint16_t)crc_model_crc16_xmodem->p.poly;
    for (unsigned i = 0; i < k; i++)
        v = (uint16_t)(v << 1) ^ ((v & 0x8000u) ? poly : 0);
    return v;
}

static void build_consts(void)
{
    struct crc16_short_consts *k = &crc16_short_k;
    for (unsigned j = 0; j < CRC16_SHORT_MAX / 8; j++)
        k->fold[j] = (uint64_t)xpow_divide(64 * j + 16, NULL) << 48;
    xpow_divide(80, &k->barrett_mu);
    k->poly_x48 = crc_model_crc16_xmodem->p.poly << 48;
    for (unsigned v = 0; v < 256; v++) {
        k->by_byte[v] = mul_xpow((uint16_t)v, 16);
        k->by_byte_x8[v] = mul_xpow((uint16_t)v, 24);
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
