/* SPDX-License-Identifier: MIT */
/*
 * Runs one implementation path REPEATS times over the same 4 KiB, after one warm-up pass
 * that builds the model's tables and constants, and checks the result against the portable
 * engine (itself tested against the reference; the bitwise reference would cost more
 * emulated instructions than all the rest).  scripts/insn_per_4k.sh runs it under qemu with two REPEATS counts and takes
 * the difference of the instructions executed: the instructions per 4 KiB of the path;
 * scripts/insn_count.sh does the same under callgrind.
 * Usage: path_repeat IMPL ALGO REPEATS
 *        path_repeat --call keyslot|crc32c|crc32|crc64-nvme|crc64-xz LEN REPEATS
 *   the second form calls crcforge_keyslot or that fixed entry REPEATS times on LEN
 *   bytes (at most 4096), for the cost of one public call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int call_repeat(const char *fn, long len, long repeats, const uint8_t *data)
{
    volatile unsigned sink = 0;
    if (strcmp(fn, "keyslot") == 0) {
        for (long r = 0; r < repeats; r++)
            sink += crcforge_keyslot(data, (size_t)len);
    } else if (strcmp(fn, "crc32c") == 0) {
        for (long r = 0; r < repeats; r++)
            sink += crcforge_crc32c(0, data, (size_t)len);
    } else if (strcmp(fn, "crc32") == 0) {
        for (long r = 0; r < repeats; r++)
            sink += crcforge_crc32(0, data, (size_t)len);
    } else if (strcmp(fn, "crc64-nvme") == 0) {
        for (long r = 0; r < repeats; r++)
            sink += (unsigned)crcforge_crc64_nvme(0, data, (size_t)len);
    } else if (strcmp(fn, "crc64-xz") == 0) {
        for (long r = 0; r < repeats; r++)
            sink += (unsigned)crcforge_crc64_xz(0, data, (size_t)len);
    } else {
        fprintf(stderr, "path_repeat: --call takes keyslot, crc32c, crc32, crc64-nvme or "
                        "crc64-xz, not '%s'\n", fn);
        return 2;
    }
    (void)sink;
    return 0;
}

int main(int argc, char **argv)
{
    static uint8_t data[4096];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 131 + (i >> 7));
    if (argc == 5 && strcmp(argv[1], "--call") == 0) {
        long len = atol(argv[3]);
        if (len < 0 || len > (long)sizeof data) {
            fprintf(stderr, "path_repeat: LEN must be 0..%zu\n", sizeof data);
            return 2;
        }
        return call_repeat(argv[2], len, atol(argv[4]), data);
    }
    if (argc != 4) {
        fprintf(stderr, "usage: path_repeat IMPL ALGO REPEATS | --call FN LEN REPEATS\n");
        return 2;
    }
    const crcforge_model *m = crcforge_model_find(argv[2]);
    if (m == NULL) {
        fprintf(stderr, "path_repeat: unknown algorithm '%s'\n", argv[2]);
        return 2;
    }
    long repeats = atol(argv[3]);
    crcforge_state s;
    const char *why = NULL;
    if (crcforge_init_impl(&s, m, argv[1], &why) != 0) {
        fprintf(stderr, "path_repeat: %s for %s: %s\n", argv[1], argv[2], why);
        return 2;
    }
    const crcforge_state start = s;
    crcforge_update(&s, data, sizeof data); /* warm-up */
    uint64_t want = crc_register_to_value(m, crc_table_update(m, crc_init_register(m), data,
                                                               sizeof data, NULL));
    int bad = crcforge_final(&s) != want;
    for (long r = 0; r < repeats; r++) {
        s = start; /* a fresh stream on the same forced path */
        crcforge_update(&s, data, sizeof data);
        bad |= crcforge_final(&s) != want;
    }
    if (bad) {
        fprintf(stderr, "path_repeat: %s %s differs from the portable engine\n", argv[1], argv[2]);
        return 1;
    }
    return 0;
}
