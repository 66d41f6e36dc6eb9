/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer differential target: the cluster key slot against the Redis/Valkey rule.
 *
 * Input: [path][keys separated by '\n'...]
 * The first byte picks a path to force (an index into the registry; one the CPU cannot
 * run, or past its end, leaves the choice automatic), the rest is cut at each '\n' into
 * keys.  Each key's slot from crcforge_keyslot, and all of them from one
 * crcforge_keyslots call, must equal the rule as written below from its text, over the
 * bitwise reference CRC-16/XMODEM (src/reference.c).  Any difference aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { MAX_KEYS = 64 };

/* CRC-16/XMODEM as the catalogue defines it. */
static const crcforge_params xmodem = {16, 0x1021, 0, 0, 0, 0};

/* The rule: "if the key contains a {, and a } to its right with at least one character
 * between them, only what is between the first { and the first } after it is hashed". */
static unsigned rule_slot(const uint8_t *key, size_t len)
{
    size_t open = 0;
    while (open < len && key[open] != '{')
        open++;
    size_t close = open + 1;
    while (close < len && key[close] != '}')
        close++;
    size_t from = 0, to = len;
    if (open < len && close < len && close - open > 1) {
        from = open + 1;
        to = close;
    }
    return (unsigned)(crc_reference(&xmodem, key + from, to - from) % 16384);
}

static void mismatch(const char *how, size_t len, unsigned got,
                     unsigned want, const char *path)
{
    fprintf(stderr, "MISMATCH %s on a %zu-byte key, path %s: slot %u, the rule says %u\n", how,
            len, path ? path : "auto", got, want);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int checked;
    if (!checked) { /* the parameters written above are the catalogue's */
        const crcforge_params *p = crcforge_model_params(crcforge_model_find("CRC-16/XMODEM"));
        if (p->width != xmodem.width || p->poly != xmodem.poly || p->init != xmodem.init ||
            p->refin != xmodem.refin || p->refout != xmodem.refout || p->xorout != xmodem.xorout)
            abort();
        checked = 1;
    }
    if (size == 0)
        return 0;
    const char *path = NULL;
    if (data[0] < crcforge_impl_count() && crcforge_impl_runnable(crcforge_impl_name(data[0])))
        path = crcforge_impl_name(data[0]);
    if (path != NULL && crcforge_impl_force(path, NULL) != 0)
        abort(); /* runnable, so forcing it must work */
    data++, size--;

    const void *keys[MAX_KEYS];
    size_t lens[MAX_KEYS], n = 0;
    uint16_t slots[MAX_KEYS];
    for (size_t start = 0; n < MAX_KEYS;) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - data) : size;
        keys[n] = data + start;
        lens[n++] = end - start;
        if (nl == NULL)
            break;
        start = end + 1;
    }
    crcforge_keyslots(keys, lens, n, slots);
    for (size_t i = 0; i < n; i++) {
        unsigned want = rule_slot(keys[i], lens[i]);
        unsigned one = crcforge_keyslot(keys[i], lens[i]);
        if (one != want)
            mismatch("crcforge_keyslot", lens[i], one, want, path);
        if (slots[i] != want)
            mismatch("crcforge_keyslots", lens[i], slots[i], want, path);
    }
    if (path != NULL)
        crcforge_impl_force(NULL, NULL);
    return 0;
}
