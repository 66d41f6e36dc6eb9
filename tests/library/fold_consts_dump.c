/*
 * Prints the folding constants the library computes for catalogue models, one line per
 * field "MODEL FIELD VALUE" (hex), for tests/library/test_fold_consts.py to compare with
 * scripts/fold_consts.py.  Usage: fold_consts_dump MODEL...
 */
#include <inttypes.h>
#include <stdio.h>

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

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const crcforge_model *m = crcforge_model_find(argv[i]);
        if (m == NULL) {
            fprintf(stderr, "fold_consts_dump: unknown model %s\n", argv[i]);
            return 2;
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
    }
    return 0;
}
