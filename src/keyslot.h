/* SPDX-License-Identifier: MIT */
/*
 * Cluster key slots (keyslot.c): the Redis/Valkey hash-tag rule, and the short-key
 * operations a path serving CRC-16/XMODEM may add to its registry record.
 *
 * Key slots run on the path selected for CRC-16/XMODEM, forced or not (internal.h's
 * forcing rule): with its short-key operations when it has them (the short CRC-16 paths'
 * carry-less kernels, the portable engine's slicing-by-2), otherwise through its update
 * function over the hashed part of the key (a forced folding path, for instance, then
 * computes the slots as it computes every CRC-16/XMODEM).
 */
#ifndef CRCFORGE_KEYSLOT_H
#define CRCFORGE_KEYSLOT_H

#include <string.h>

#include "internal.h"

/* Longest key the short-key operations take whole. */
#define CRC16_SHORT_MAX 64

struct crc_keyslot_ops {
    /* The slot of a key of n <= CRC16_SHORT_MAX bytes, hash-tag rule included.  m is
     * CRC-16/XMODEM's catalogue model (its constants or tables). */
    unsigned (*slot)(const crcforge_model *m, const uint8_t *key, size_t n);
    /* slots[i] = the slot of keys[i], from i = 0 up to the first key longer than
     * CRC16_SHORT_MAX (or n); returns how many were done. */
    size_t (*slots)(const crcforge_model *m, const void *const *keys, const size_t *lens,
                    size_t n, uint16_t *slots);
    size_t table_bytes; /* constants and tables the operations read */
};

/* The part of a key that is hashed: between the first '{' and the first '}' after it
 * when that is at least one byte, else the whole key.  *len is updated. */
static inline const uint8_t *crc_hash_tag(const uint8_t *key, size_t *len)
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

#endif /* CRCFORGE_KEYSLOT_H */
