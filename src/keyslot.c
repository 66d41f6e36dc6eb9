/*
 * Redis/Valkey cluster key slots: CRC-16/XMODEM of the key, or of its hash tag, mod 16384.
 * The hash tag is what lies between the first '{' and the first '}' after it, if that
 * is at least one byte; otherwise the whole key is hashed.
 */
#include <string.h>

#include "crc16_short.h"
#include "internal.h"

static const uint8_t *hashed_part(const uint8_t *key, size_t *len)
{
    if (*len == 0)
        return key;
    const uint8_t *open = memchr(key, '{', *len);
    if (open == NULL)
        return key;
    size_t rest = *len - (size_t)(open + 1 - key);
    const uint8_t *close = memchr(open + 1, '}', rest);
    if (close == NULL || close == open + 1)
        return key;
    *len = (size_t)(close - open - 1);
    return open + 1;
}

unsigned crc_keyslot_by_rule(const struct crc16_short_impl *impl, const uint8_t *key,
                             size_t len)
{
    const uint8_t *part = hashed_part(key, &len);
    if (len > CRC16_SHORT_MAX)
        return crcforge_crc16_xmodem(0, part, len) & 16383;
    return impl->crc(&crc16_short_k, part, len) & 16383;
}

unsigned crc_keyslot_with(const struct crc16_short_impl *impl, const void *key, size_t len)
{
    crc16_short_consts();
    if (len <= CRC16_SHORT_MAX)
        return impl->slot(&crc16_short_k, key, len);
    return crc_keyslot_by_rule(impl, key, len);
}

/* A forced path (CRCFORGE_IMPL, crcforge_impl_force) computes key slots too, through
 * crcforge_crc16_xmodem, so that forcing "portable" really leaves no CLMUL code. */
static unsigned keyslot_forced(const uint8_t *key, size_t len)
{
    const uint8_t *part = hashed_part(key, &len);
    return crcforge_crc16_xmodem(0, part, len) & 16383;
}

/* Two tail calls: the short path's slot function, or the rule for a long key. */
unsigned crcforge_keyslot(const void *key, size_t len)
{
    if (crc_impl_forced())
        return keyslot_forced(key, len);
    const struct crc16_short_impl *impl = crc16_short_best();
    if (len <= CRC16_SHORT_MAX)
        return impl->slot(&crc16_short_k, key, len);
    return crc_keyslot_by_rule(impl, key, len);
}

void crcforge_keyslots(const void *const *keys, const size_t *lens, size_t n, uint16_t *slots)
{
    if (crc_impl_forced()) {
        for (size_t i = 0; i < n; i++)
            slots[i] = (uint16_t)keyslot_forced(keys[i], lens[i]);
        return;
    }
    crc16_short_best()->slots(&crc16_short_k, keys, lens, n, slots);
}
