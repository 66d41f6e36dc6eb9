/*
 * The entry points of a carry-less-multiply short path (crc16_short.h), around the
 * crc16_short_body its file defines first:
 *   int crc16_short_body(k, p, n, stop_at_brace): the CRC of p[0..n), or -1 when
 *   stop_at_brace (a constant at each call site) and the key holds a '{'.
 * Parameters: IMPL (the struct defined), NAME (its name string), RUNNABLE (the CPU
 * check), all #undef'd here, and TARGET (the function attributes), which the body uses
 * too.  Included once per ISA file, before its body.
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

TARGET static inline int crc16_short_body(const struct crc16_short_consts *k, const uint8_t *p,
                                          size_t n, int stop_at_brace);

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
