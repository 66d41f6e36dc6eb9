/*
 * Redis/Valkey cluster key slots: CRC-16/XMODEM of the key, or of its hash tag, mod 16384.
 * The hash tag is what lies between the first '{' and the first '}' after it, if that
 * is at least one byte; otherwise the whole key is hashed.
 */
#include <string.h>

#include "internal.h"

static const uint8_t *hashed_part(const uint8_t *key, size_t *len)
{
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

unsigned crcforge_keyslot(const void *key, size_t len)
{
    const uint8_t *part = len ? hashed_part(key, &len) : key;
    return crcforge_crc16_xmodem(0, part, len) & 16383;
}
