/*
 * Prints the derived constants the library computes for catalogue models, one line per
 * field "MODEL FIELD VALUE" (hex), for tests/library/test_fold_consts.py to compare with
 * scripts/fold_consts.py: struct fold_consts, with --join struct crc32_join, with --lanes
 * struct crc32_lanes.
 * Usage: fold_consts_dump [--join|--lanes] MODEL...
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fold_consts.h"

static void print_field(const char *model, const char *field, uint64_t v)
{
    printf("%s %s %016" PRIx64 "\n", model, field, v);
}

#define PAIR(name)                                                                        \
    do {                                                                                  \
        print_field(argv[i], #name ".low", c.name.low);                                   \
        print_field(argv[i], #name ".high", c.name.high);                                 \
    } while (0)

static void print_join(const char *model, const crcforge_params *p)
{
    static struct crc32_join j;
    crc32_join_compute(&j, p);
    for (int i = 0; i < CRC32_JOIN_MAX / 8; i++) {
        char name[48];
        snprintf(name, sizeof name, "join[%d].by_l", i);
        print_field(model, name, j.join[i].by_l);
        snprintf(name, sizeof name, "join[%d].by_2l", i);
        print_field(model, name, j.join[i].by_2l);
        snprintf(name, sizeof name, "join[%d].by_3l", i);
        print_field(model, name, j.join[i].by_3l);
    }
}

static void print_lanes(const char *model, const crcforge_params *p)
{
    static struct crc32_lanes l;
    crc32_lanes_compute(&l, p);
    for (int i = 0; i < CRC32_LANES_MAX; i++) {
        char name[48];
        snprintf(name, sizeof name, "lane[%d].low", i);
        print_field(model, name, l.lane[i].low);
        snprintf(name, sizeof name, "lane[%d].high", i);
        print_field(model, name, l.lane[i].high);
    }
    for (int i = 0; i < CRC32_LANES_MAX; i++) {
        char name[48];
        snprintf(name, sizeof name, "shift[%d]", i);
        print_field(model, name, l.shift[i]);
    }
}

int main(int argc, char **argv)
{
    const int join = argc > 1 && strcmp(argv[1], "--join") == 0;
    const int lanes = argc > 1 && strcmp(argv[1], "--lanes") == 0;
    for (int i = 1 + join + lanes; i < argc; i++) {
        const crcforge_model *m = crcforge_model_find(argv[i]);
        if (m == NULL) {
            fprintf(stderr, "fold_consts_dump: unknown model %s\n", argv[i]);
            return 2;
        }
        if (join) {
            print_join(argv[i], crcforge_model_params(m));
            continue;
        }
        if (lanes) {
            print_lanes(argv[i], crcforge_model_params(m));
            continue;
        }
        struct fold_consts c;
        fold_consts_compute(&c, crcforge_model_params(m));
        PAIR(fold_across_128_bits);
        PAIR(fold_across_256_bits);
        PAIR(fold_across_512_bits);
        PAIR(fold_across_1024_bits);
        PAIR(fold_across_2048_bits);
        PAIR(fold_across_4096_bits);
        print_field(argv[i], "reduce_128", c.reduce_128);
        for (int j = 0; j < 4; j++) {
            char name[32];
            snprintf(name, sizeof name, "reduce_lanes[%d].low", j);
            print_field(argv[i], name, c.reduce_lanes[j].low);
            snprintf(name, sizeof name, "reduce_lanes[%d].high", j);
            print_field(argv[i], name, c.reduce_lanes[j].high);
        }
        print_field(argv[i], "barrett_quotient", c.barrett_quotient);
        print_field(argv[i], "barrett_poly", c.barrett_poly);
        print_field(argv[i], "barrett_poly_x0", c.barrett_poly_x0);
        for (int k = 0; k < 64; k++) {
            char name[32];
            snprintf(name, sizeof name, "x8_pow2k[%d]", k);
            print_field(argv[i], name, c.x8_pow2k[k]);
        }
        print_field(argv[i], "msb_barrett_quotient", c.msb_barrett_quotient);
        print_field(argv[i], "msb_barrett_poly", c.msb_barrett_poly);
    }
    return 0;
}
