/* SPDX-License-Identifier: MIT */
/*
 * The Redis/Valkey cluster slot of a key, written from the rule's text, for the tests:
 * when the key holds a '{' and a later '}' with at least one byte between them, only the
 * bytes between the first '{' and the first '}' after it are hashed; the slot is that
 * CRC-16/XMODEM (computed by the caller's bitwise reference) mod 16384.
 */
#ifndef CRCFORGE_TEST_SLOT_RULE_H
#define CRCFORGE_TEST_SLOT_RULE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The bytes the rule hashes: *len is updated, the start returned. */
static inline const uint8_t *slot_rule_hashed(const uint8_t *key, size_t *len)
{
    const uint8_t *open = *len ? memchr(key, '{', *len) : NULL;
    if (open != NULL) {
        const uint8_t *close = memchr(open + 1, '}', *len - (size_t)(open + 1 - key));
        if (close != NULL && close > open + 1) {
            *len = (size_t)(close - (open + 1));
            return open + 1;
        }
    }
    return key;
}

#endif /* CRCFORGE_TEST_SLOT_RULE_H */
