/*
 * Runs one implementation path REPEATS times over the same 4 KiB, after one warm-up pass
 * that builds the model's tables and constants, and checks the result against the portable
 * engine (itself tested against the reference; the bitwise reference would cost more
 * emulated instructions than all the rest).  scripts/insn_per_4k.sh runs it under qemu with two REPEATS counts and takes
 * the difference of the instructions executed: the instructions per 4 KiB of the path.
 * Usage: path_repeat IMPL ALGO REPEATS
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: path_repeat IMPL ALGO REPEATS\n");
        return 2;
    }
    const crcforge_model *m = crcforge_model_find(argv[2]);
    if (m == NULL) {
        fprintf(stderr, "path_repeat: unknown algorithm '%s'\n", argv[2]);
        return 2;
    }
    static uint8_t data[4096];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 131 + (i >> 7));
    long repeats = atol(argv[3]);
    crcforge_state s;
    const char *why = NULL;
    if (crcforge_init_impl(&s, m, argv[1], &why) != 0) {
        fprintf(stderr, "path_repeat: %s for %s: %s\n", argv[1], argv[2], why);
        return 2;
    }
    crcforge_update(&s, data, sizeof data); /* warm-up */
    uint64_t want = crc_register_to_value(m, crc_table_update(m, crc_init_register(m), data,
                                                               sizeof data));
    int bad = crcforge_final(&s) != want;
    const uint64_t init = crc_init_register(m);
    for (long r = 0; r < repeats; r++) {
        s.reg = init; /* a fresh stream on the same forced path */
        crcforge_update(&s, data, sizeof data);
        bad |= crcforge_final(&s) != want;
    }
    if (bad) {
        fprintf(stderr, "path_repeat: %s %s differs from the portable engine\n", argv[1], argv[2]);
        return 1;
    }
    return 0;
}
