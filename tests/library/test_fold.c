/*
 * The folding kernels, forced one by one, over every catalogue model of width 8..64 and
 * random models of any width 8..64 (even polynomials included):
 *  - every length 0..1200 (all block-size thresholds of every tier) at alignments 0..2 and
 *    with the end flush against a guard page, from random start registers, against the
 *    bitwise reference;
 *  - random lengths up to 3 MiB against the portable engine (itself checked against the
 *    reference in test_engines);
 *  - streaming over random splits that cut inside the kernels' blocks, against the
 *    reference.
 * On x86-64 the 512-bit tier's logic also runs with 512-bit operations emulated on AVX2
 * (fold_emulated_avx512.h).  A kernel this CPU cannot run is reported as skipped.
 */
#include <string.h>

#include "check.h"
#include "guarded.h"
#include "internal.h"
#if defined(__x86_64__)
#include "fold_emulated_avx512.h"
#endif

#define SWEEP_MAX 1200
#define BIG (3 << 20)


static void sweep(const struct crc_impl *k, const crcforge_model *m, const uint8_t *data,
                  struct guarded *g)
{
    /* reg[n]: the reference register after data[0..n) from a random start. */
    static uint64_t reg[SWEEP_MAX + 1];
    reg[0] = rnd64() & crc_width_mask(m->p.width);
    for (size_t n = 1; n <= SWEEP_MAX; n++)
        reg[n] = crc_reference_update(&m->p, reg[n - 1], data + n - 1, 1);
    unsigned long bad = 0;
    for (size_t a = 0; a < 3; a++) {
        uint8_t *buf = g->start + a;
        memcpy(buf, data, SWEEP_MAX);
        for (size_t n = 0; n <= SWEEP_MAX; n++)
            bad += k->update(m, reg[0], buf, n) != reg[n];
    }
    for (size_t n = 0; n <= SWEEP_MAX; n++) {
        uint8_t *buf = g->end - n;
        memcpy(buf, data, n);
        bad += k->update(m, reg[0], buf, n) != reg[n];
    }
    CHECK(bad == 0, "%s %s: %lu of %d lengths 0..%d differ from the reference", k->name,
          m->name, bad, 4 * (SWEEP_MAX + 1), SWEEP_MAX);
}

static void big_random(const struct crc_impl *k, const crcforge_model *m, const uint8_t *data)
{
    for (int i = 0; i < 2; i++) {
        size_t off = rnd_below(64), n = rnd_below(BIG - 64);
        uint64_t start = rnd64() & crc_width_mask(m->p.width);
        uint64_t want = crc_table_update(m, start, data + off, n);
        CHECK(k->update(m, start, data + off, n) == want, "%s %s: %zu bytes at offset %zu",
              k->name, m->name, n, off);
    }
}

static void splits(const struct crc_impl *k, const crcforge_model *m, const uint8_t *data)
{
    enum { SIZE = 20000 };
    uint64_t want = crc_reference(&m->p, data, SIZE);
    for (int trial = 0; trial < 4; trial++) {
        uint64_t reg = crc_init_register(m);
        size_t done = 0;
        while (done < SIZE) {
            /* Pieces of 1..2100 bytes: the cuts land inside every tier's blocks. */
            size_t piece = 1 + rnd_below(trial < 2 ? 300 : 2100);
            if (piece > SIZE - done)
                piece = SIZE - done;
            reg = k->update(m, reg, data + done, piece);
            done += piece;
        }
        CHECK(crc_register_to_value(m, reg) == want, "%s %s: streaming split trial %d", k->name, m->name,
              trial);
    }
}

int main(void)
{
    check_begin("test_fold");
    uint8_t *data = malloc(BIG);
    rnd_fill(data, BIG);
    struct guarded g;
    if (guarded_alloc(&g, SWEEP_MAX + 64) != 0) {
        CHECK(0, "guarded_alloc");
        return check_end();
    }
    /* The folding kernels of the registry: its "fold_" paths. */
    const struct crc_impl *list[crcforge_impl_count() + 2];
    size_t count = 0;
    for (size_t i = 0; i < crcforge_impl_count(); i++)
        if (strncmp(crcforge_impl_name(i), "fold_", 5) == 0)
            list[count++] = crc_impl_lookup(crcforge_impl_name(i));
    if (count == 0)
        SKIP("folding kernels: none compiled in on this architecture");
#if defined(__x86_64__)
    list[count++] = &crc_impl_fold_x86_emulated_avx512;
    list[count++] = &crc_impl_fold_x86_emulated_gfni_avx512;
#endif
    for (size_t i = 0; i < count; i++) {
        const struct crc_impl *k = list[i];
        if (!crc_impl_runnable(k)) {
            SKIP("%s: this CPU cannot run it", k->name);
            continue;
        }
        size_t served = 0;
        for (size_t j = 0; j < crc_catalogue_count; j++) {
            const crcforge_model *m = &crc_catalogue[j];
            /* The GFNI tiers fold an MSB-first model's mirror: MSB-first models only. */
            int in_range = m->p.width >= 8 && m->p.width <= 64 &&
                           !(strstr(k->name, "gfni") != NULL && m->p.refin);
            CHECK(k->supports(m) == in_range, "%s %s: serves exactly widths 8..64%s", k->name,
                  m->name, strstr(k->name, "gfni") ? ", MSB-first" : "");
            if (!k->supports(m))
                continue;
            served++;
            sweep(k, m, data, &g);
            big_random(k, m, data);
            splits(k, m, data);
        }
        /* Random parameters beyond the catalogue: any width 8..64, even polynomials too. */
        for (int r = 0; r < 24; r++) {
            crcforge_params prm = {8 + (unsigned)rnd_below(57), 0, 0, (int)rnd_below(2),
                                   (int)rnd_below(2), 0};
            uint64_t mask = crc_width_mask(prm.width);
            prm.poly = rnd64() & mask;
            prm.init = rnd64() & mask;
            prm.xorout = rnd64() & mask;
            crcforge_model *m = crcforge_model_new(&prm, NULL);
            if (!k->supports(m)) {
                prm.refin = 0;
                crcforge_model_free(m);
                m = crcforge_model_new(&prm, NULL);
            }
            sweep(k, m, data, &g);
            splits(k, m, data);
            crcforge_model_free(m);
        }
        printf("%s: %zu catalogue models and 24 random ones\n", k->name, served);
    }
    guarded_free(&g);
    free(data);
    return check_end();
}
