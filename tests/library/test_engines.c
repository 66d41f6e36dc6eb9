/* SPDX-License-Identifier: MIT */
/*
 * Every implementation path, forced one by one, against the bitwise reference:
 *  - the five fixed algorithms at every length 0..4096 and every alignment 0..63, and
 *    with the data flush against a guard page on either side; for CRC-32C also through
 *    crcforge_crc32c with the path forced, as that entry runs the path's short chain itself;
 *  - every model the path serves, on random data and random start registers;
 *  - streaming over random splits, and combine for every model.
 * A path this CPU cannot run is reported as skipped.
 */
#include <string.h>

#include "check.h"
#include "guarded.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"

#define MAX_LEN 4096
#define MAX_ALIGN 64

static const crcforge_model *fixed_models[5];

typedef uint64_t (*run_fn)(const char *impl, const crcforge_model *m, const uint8_t *p,
                           size_t n);

static uint64_t run_impl(const char *impl, const crcforge_model *m, const uint8_t *p, size_t n)
{
    crcforge_state s;
    if (crcforge_init_impl(&s, m, impl, NULL) != 0)
        return ~(uint64_t)0;
    crcforge_update(&s, p, n);
    return crcforge_final(&s);
}

/* crcforge_crc32c, with impl forced by the caller. */
static uint64_t run_crc32c_entry(const char *impl, const crcforge_model *m, const uint8_t *p,
                                 size_t n)
{
    (void)impl, (void)m;
    return crcforge_crc32c(0, p, n);
}

/* expected[n]: the CRC value of data[0..n), from one pass of the reference. */
static void reference_prefixes(const crcforge_model *m, const uint8_t *data, uint64_t *expected)
{
    uint64_t reg = crc_init_register(m);
    expected[0] = crc_register_to_value(m, reg);
    for (size_t n = 1; n <= MAX_LEN; n++) {
        reg = crc_reference_update(&m->p, reg, data + n - 1, 1);
        expected[n] = crc_register_to_value(m, reg);
    }
}

static void sweep_lengths_alignments(run_fn run, const char *impl, const crcforge_model *m,
                                     const uint8_t *data, const uint64_t *expected)
{
    struct guarded g;
    if (guarded_alloc(&g, MAX_LEN + MAX_ALIGN + 64) != 0) {
        CHECK(0, "guarded_alloc");
        return;
    }
    unsigned long bad = 0;
    for (size_t a = 0; a < MAX_ALIGN; a++) {
        uint8_t *buf = g.start + a;
        memcpy(buf, data, MAX_LEN);
        for (size_t n = 0; n <= MAX_LEN; n++)
            bad += run(impl, m, buf, n) != expected[n];
    }
    /* Flush against the guard page after, then right after the guard page before. */
    for (size_t n = 0; n <= MAX_LEN; n++) {
        uint8_t *buf = g.end - n;
        memcpy(buf, data, n);
        bad += run(impl, m, buf, n) != expected[n];
        memcpy(g.start, data, n);
        bad += run(impl, m, g.start, n) != expected[n];
    }
    CHECK(bad == 0, "%s %s%s: %lu of %d length/alignment cases differ from the reference", impl,
          m->name, run == run_impl ? "" : " (fixed entry)", bad, (MAX_LEN + 1) * (MAX_ALIGN + 2));
    guarded_free(&g);
}

static size_t biased_length(size_t max)
{
    switch (rnd_below(3)) {
    case 0:
        return rnd_below(65);
    case 1:
        return rnd_below(1025);
    default:
        return rnd_below(max + 1);
    }
}

static void random_models(const char *impl, uint8_t *data, size_t size)
{
    for (size_t i = 0; i < crc_catalogue_count; i++) {
        const crcforge_model *m = &crc_catalogue[i];
        if (!crcforge_impl_supports(impl, m))
            continue;
        const struct crc_impl *path = crc_impl_lookup(impl);
        const struct crc_params *params = &crc_pinned(path)->params; /* the tuning's */
        unsigned long bad = 0;
        for (int k = 0; k < 40; k++) {
            size_t n = biased_length(size - 64), off = rnd_below(64);
            uint64_t start = rnd64() & crc_width_mask(m->p.width);
            uint64_t want = crc_reference_update(&m->p, start, data + off, n);
            bad += path->update(m, start, data + off, n, params) != want;
        }
        CHECK(bad == 0, "%s %s: %lu random cases differ from the reference", impl, m->name,
              bad);
    }
}

static void streaming_splits(const char *impl, const crcforge_model *m, const uint8_t *data,
                             size_t size)
{
    uint64_t want = crc_reference(&m->p, data, size);
    for (int trial = 0; trial < 20; trial++) {
        crcforge_state s;
        crcforge_init_impl(&s, m, impl, NULL);
        size_t done = 0;
        while (done < size) {
            size_t piece = biased_length(size - done);
            if (piece > size - done)
                piece = size - done;
            crcforge_update(&s, data + done, piece);
            done += piece;
        }
        CHECK(crcforge_final(&s) == want, "%s %s: streaming split trial %d", impl, m->name,
              trial);
    }
}

static void combine_all_models(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < crc_catalogue_count; i++) {
        const crcforge_model *m = &crc_catalogue[i];
        unsigned long bad = 0;
        for (int k = 0; k < 20; k++) {
            size_t n1 = biased_length(size / 2), n2 = k == 0 ? 0 : biased_length(size / 2);
            if (k == 1)
                n1 = 0;
            uint64_t a = crc_reference(&m->p, data, n1);
            uint64_t b = crc_reference(&m->p, data + n1, n2);
            uint64_t ab = crc_reference(&m->p, data, n1 + n2);
            bad += crcforge_combine(m, a, b, n2) != ab;
        }
        CHECK(bad == 0, "%s: combine differs from the CRC of the concatenation", m->name);
    }
}

/* len2 above 4 GiB: combine against the CRC of A followed by that many zero bytes. */
static void combine_beyond_4gib(const crcforge_model *m)
{
    const uint64_t len2 = (4ull << 30) + 4097;
    static uint8_t zeros[1 << 20];
    uint8_t a[100];
    rnd_fill(a, sizeof a);
    crcforge_state whole, tail;
    crcforge_init(&whole, m);
    crcforge_init(&tail, m);
    crcforge_update(&whole, a, sizeof a);
    for (uint64_t left = len2; left > 0;) {
        size_t n = left < sizeof zeros ? (size_t)left : sizeof zeros;
        crcforge_update(&whole, zeros, n);
        crcforge_update(&tail, zeros, n);
        left -= n;
    }
    uint64_t got = crcforge_combine(m, crcforge_checksum(m, a, sizeof a), crcforge_final(&tail),
                                    len2);
    CHECK(got == crcforge_final(&whole), "%s: combine with len2 = %llu", m->name,
          (unsigned long long)len2);
}

int main(void)
{
    check_begin("test_engines");
    const char *names[5] = {"crc32c", "crc32", "crc64-nvme", "crc64-xz", "crc16-xmodem"};
    for (int i = 0; i < 5; i++)
        fixed_models[i] = crcforge_model_find(names[i]);

    enum { RANDOM_SIZE = 3 << 20 };
    uint8_t *data = malloc(RANDOM_SIZE);
    rnd_fill(data, RANDOM_SIZE);
    uint64_t expected[5][MAX_LEN + 1];
    for (int i = 0; i < 5; i++)
        reference_prefixes(fixed_models[i], data, expected[i]);

    for (size_t k = 0; k < crcforge_impl_count(); k++) {
        const char *impl = crcforge_impl_name(k);
        if (!crcforge_impl_runnable(impl)) {
            SKIP("%s: this CPU cannot run it", impl);
            continue;
        }
        printf("path %s\n", impl);
        fflush(stdout);
        for (int i = 0; i < 5; i++) {
            if (!crcforge_impl_supports(impl, fixed_models[i]))
                continue;
            sweep_lengths_alignments(run_impl, impl, fixed_models[i], data, expected[i]);
            if (i == 0) {
                CHECK(crcforge_impl_force(impl, NULL) == 0, "forcing %s", impl);
                sweep_lengths_alignments(run_crc32c_entry, impl, fixed_models[0], data,
                                         expected[0]);
                crcforge_impl_force("auto", NULL);
            }
            streaming_splits(impl, fixed_models[i], data, 200000);
            /* A few MiB at once through the path, against the reference. */
            size_t n = RANDOM_SIZE - rnd_below(4096);
            CHECK(run_impl(impl, fixed_models[i], data, n) ==
                      crc_reference(&fixed_models[i]->p, data, n),
                  "%s %s: %zu bytes", impl, names[i], n);
        }
        random_models(impl, data, 20000);
    }
    /* And the automatic choice, whose length bands may hand the short ones to the chain. */
    sweep_lengths_alignments(run_crc32c_entry, "auto", fixed_models[0], data, expected[0]);
    combine_all_models(data, 4000);
    if (getenv("CRCFORGE_TEST_QUICK") == NULL)
        combine_beyond_4gib(fixed_models[0]);
    else
        SKIP("combine beyond 4 GiB (CRCFORGE_TEST_QUICK is set)");
    free(data);
    return check_end();
}
