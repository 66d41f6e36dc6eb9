/* SPDX-License-Identifier: MIT */
/*
 * Prints the derived constants the library computes for catalogue models, one line per
 * field "MODEL FIELD VALUE" (hex), for tests/library/test_fold_consts.py to compare with
 * scripts/fold_consts.py: struct fold_consts (for an MSB-first model then its mirror's,
 * as the library publishes them, each field prefixed "mirror."), with --join struct
 * crc32_join, with --lanes struct crc32_lanes.
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

static void print_pair(const char *model, const char *prefix, const char *name,
                       struct fold_pair f)
{
    char field[64];
    snprintf(field, sizeof field, "%s%s.low", prefix, name);
    print_field(model, field, f.low);
    snprintf(field, sizeof field, "%s%s.high", prefix, name);
    print_field(model, field, f.high);
}

/* Every field of c, named with `prefix`. */
static void print_consts(const char *model, const char *prefix, const struct fold_consts *c)
{
    char name[48];
    for (int j = 0; j < FOLD_REDUCE_LANES; j++) {
        snprintf(name, sizeof name, "reduce_lanes[%d]", j);
        print_pair(model, prefix, name, c->reduce_lanes[j]);
    }
    print_pair(model, prefix, "fold_across_128_bits", c->fold_across_128_bits);
    print_pair(model, prefix, "fold_across_256_bits", c->fold_across_256_bits);
    print_pair(model, prefix, "fold_across_512_bits", c->fold_across_512_bits);
    print_pair(model, prefix, "fold_across_1024_bits", c->fold_across_1024_bits);
    print_pair(model, prefix, "fold_across_2048_bits", c->fold_across_2048_bits);
    print_pair(model, prefix, "fold_across_4096_bits", c->fold_across_4096_bits);
    const struct {
        const char *name;
        uint64_t value;
    } scalars[] = {{"reduce_128", c->reduce_128},
                   {"barrett_quotient", c->barrett_quotient},
                   {"barrett_poly", c->barrett_poly},
                   {"barrett_poly_x0", c->barrett_poly_x0},
                   {"msb_barrett_quotient", c->msb_barrett_quotient},
                   {"msb_barrett_poly", c->msb_barrett_poly}};
    for (size_t j = 0; j < sizeof scalars / sizeof scalars[0]; j++) {
        snprintf(name, sizeof name, "%s%s", prefix, scalars[j].name);
        print_field(model, name, scalars[j].value);
    }
    for (int k = 0; k < 64; k++) {
        snprintf(name, sizeof name, "%sx8_pow2k[%d]", prefix, k);
        print_field(model, name, c->x8_pow2k[k]);
    }
}

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
        /* As published: the model's, and an MSB-first model's mirror after them. */
        const struct fold_consts *c = fold_consts_build(m);
        print_consts(argv[i], "", c);
        if (!c->lsb_first)
            print_consts(argv[i], "mirror.", fold_consts_mirror(c));
    }
    return 0;
}
