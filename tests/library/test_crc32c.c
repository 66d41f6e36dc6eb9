/* SPDX-License-Identifier: MIT */
/*
 * The CRC-32C kernels on VPCLMULQDQ vectors (x86/crc32c_vpclmul_template.h: the 256-bit and
 * 512-bit paths, and the 512-bit ones again with emulated operations,
 * crc32c_emulated_avx512.h), with every kernel parameter they take, against the bitwise
 * reference from a random start register:
 *  - the emulated 512-bit paths, their updates and crc32c entries, at every length 0..4096
 *    and alignment 0..63, and flush against a guard page on either side (test_engines does
 *    this for the real paths);
 *  - the parallel path with 1, 2, 4 and 8 accumulators at every length around the lane
 *    table's 4 KiB limit, where the accumulators take over, and at random lengths beyond;
 *  - the hybrid with every q from 1 to CRC_HYBRID_QWORDS_MAX (crc32 qwords per stream per
 *    iteration) at every length below its shortest pass (the tuning's crc32c_hybrid256_min
 *    or crc32c_hybrid512_min: below it SHORT, then SPLIT or MEDIUM) and around it, its
 *    longest pass and two of them, at several alignments (its first bytes align the folded loads) and flush against the guard page
 *    after the data;
 *  - the three-chain path at every length through two whole passes (one chain below the
 *    tuning's crc32c_threeway_min);
 *  - the registry's paths on long inputs, with the tuning table's parameters.
 * ctest runs it again with CRCFORGE_TUNE setting other parameters and the least limits
 * (CMakeLists.txt), so that both ends of each limit's range are run.
 * A kernel this CPU cannot run is reported as skipped.
 */
#include <string.h>

#include "check.h"
#include "guarded.h"
#include "crcforge_dispatch.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "x86/crc32c_x86.h"
#include "x86/tuning.h"
#include "crc32c_emulated_avx512.h"

#define SWEEP_MAX 4096
#define MAX_ALIGN 64
/* Longest input: two and a half of the longest hybrid pass (q = 1, 512-bit: 140 KiB). */
#define DATA_MAX (360u << 10)

struct kernel {
    const char *name;
    const struct crc_impl *parallel, *hybrid; /* the records, handed parameters of the test's */
    size_t vl;
};

static const struct kernel kernels[] = {
    {"crc32c_x86_vpclmul_avx512", &crc_impl_crc32c_x86_vpclmul_avx512,
     &crc_impl_crc32c_x86_avx512_hybrid, 64},
    {"crc32c_x86_vpclmul_avx2", &crc_impl_crc32c_x86_vpclmul_avx2,
     &crc_impl_crc32c_x86_avx2_hybrid, 32},
    {"crc32c_x86_emulated_avx512", &crc_impl_crc32c_x86_emulated_avx512,
     &crc_impl_crc32c_x86_emulated_avx512_hybrid, 64},
};

static const uint8_t *data;
/* expected[n]: the register after data[0..n) from start. */
static uint32_t *expected;
static uint32_t start;
static struct guarded g;

/* The parameters dispatch hands the paths: the tuning's in use (with CRCFORGE_TUNE's). */
static const struct crc_params *tuned(void)
{
    return crc_params_in_use();
}

/* A path's update, or (value) its CRC-32C value entry, over buf[0..n): the register from start. */
static uint32_t run_path(const struct crc_impl *path, const crcforge_model *m, int value,
                         const uint8_t *buf, size_t n)
{
    return value ? ~path->value[CRC_FIXED_CRC32C].w32(~start, buf, n, tuned())
                 : (uint32_t)path->update(m, start, buf, n, tuned());
}

/* The sweep of test_engines for a path of the registry's shape: its update, and its
 * CRC-32C value entry where it has one (as crcforge_crc32c calls it). */
static void sweep(const struct crc_impl *path, const crcforge_model *m)
{
    if (path->prepare != NULL)
        path->prepare();
    for (int value = 0; value <= (path->value[CRC_FIXED_CRC32C].w32 != NULL); value++) {
        unsigned long bad = 0;
        for (size_t a = 0; a < MAX_ALIGN; a++) {
            uint8_t *buf = g.start + a;
            memcpy(buf, data, SWEEP_MAX);
            for (size_t n = 0; n <= SWEEP_MAX; n++)
                bad += run_path(path, m, value, buf, n) != expected[n];
        }
        for (size_t n = 0; n <= SWEEP_MAX; n++) {
            uint8_t *buf = g.end - n;
            memcpy(buf, data, n);
            bad += run_path(path, m, value, buf, n) != expected[n];
            memcpy(g.start, data, n);
            bad += run_path(path, m, value, g.start, n) != expected[n];
        }
        CHECK(bad == 0, "%s%s: %lu of %d length/alignment cases differ from the reference",
              path->name, value ? " (value entry)" : "", bad, (SWEEP_MAX + 1) * (MAX_ALIGN + 2));
    }
}

/* The update of path with parameters k on data[0..n) placed at g.start + align, or
 * (align < 0) flush against the guard page after it. */
static int agrees(const struct crc_impl *path, const struct crc_params *k, size_t n, int align)
{
    const uint8_t *buf = g.start + align;
    if (align < 0) {
        memcpy(g.end - n, data, n);
        buf = g.end - n;
    }
    return path->update(crc_model_crc32c, start, buf, n, k) == expected[n];
}

static void accumulators(const struct kernel *k)
{
    static const unsigned counts[] = {1, 2, 4, 8};
    const int aligns[] = {0, 1, 31, 63};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        struct crc_params params = *tuned();
        params.fold_accumulators = counts[c];
        unsigned long bad = 0, cases = 0;
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
            memcpy(g.start + aligns[a], data, DATA_MAX);
            /* Around 4 KiB after the head, through two rounds of 8 accumulators. */
            for (size_t n = 4096 - 2 * k->vl; n <= 4096 + 17 * k->vl + 64; n++, cases++)
                bad += !agrees(k->parallel, &params, n, aligns[a]);
            for (int r = 0; r < 40; r++, cases++)
                bad += !agrees(k->parallel, &params, rnd_below(DATA_MAX + 1), aligns[a]);
        }
        for (int r = 0; r < 20; r++, cases++)
            bad += !agrees(k->parallel, &params, 4096 + rnd_below(20000), -1);
        CHECK(bad == 0, "%s with %u accumulators: %lu of %lu cases differ from the reference",
              k->name, counts[c], bad, cases);
    }
}

/* The hybrid's longest pass for q: as crc32c_vpclmul_template.h computes it. */
static size_t longest_pass(size_t vl, size_t q)
{
    return CRC32_JOIN_MAX / (8 * q) / 8 * 8 * 4 * (vl + 6 * q);
}

/* The hybrid's shortest pass: the tuning's limit for its vector length. */
static size_t hybrid_min(const struct kernel *k)
{
    const struct crc_x86_tuning *t = crc_x86_tuning();
    return k->vl == 64 ? t->crc32c_hybrid512_min : t->crc32c_hybrid256_min;
}

static void hybrid(const struct kernel *k)
{
    const int aligns[] = {0, 1, 8, 33, 63};
    for (unsigned q = 1; q <= CRC_HYBRID_QWORDS_MAX; q++) {
        struct crc_params params = *tuned();
        params.hybrid_qwords = q;
        const size_t pass = longest_pass(k->vl, q);
        CHECK(2 * pass + 4096 <= DATA_MAX, "q = %u: the data covers two passes", q);
        unsigned long bad = 0, cases = 0;
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
            memcpy(g.start + aligns[a], data, DATA_MAX);
            /* From CRC32C_HYBRID_ALIGN_MIN bytes the first bytes, up to alignment, run on one
             * chain before the passes; shorter inputs have no lead. */
            const size_t lead = (size_t)-(uintptr_t)(g.start + aligns[a]) % k->vl;
            const size_t min = hybrid_min(k), align = CRC32C_HYBRID_ALIGN_MIN;
            const size_t around[] = {min,           lead + min,       pass,
                                     lead + pass,   pass + min,       lead + pass + min,
                                     lead + 2 * pass, align, align + lead + min};
            for (size_t i = 0; i < sizeof around / sizeof around[0]; i++)
                for (size_t n = around[i] - 40; n <= around[i] + 40; n++, cases++)
                    bad += !agrees(k->hybrid, &params, n, aligns[a]);
            /* Below the shortest pass (SHORT, then SPLIT or MEDIUM), every length. */
            for (size_t n = 0; n < min; n++, cases++)
                bad += !agrees(k->hybrid, &params, n, aligns[a]);
            for (int r = 0; r < 20; r++, cases++)
                bad += !agrees(k->hybrid, &params, rnd_below(2 * pass + 4096), aligns[a]);
        }
        for (int r = 0; r < 10; r++, cases++)
            bad += !agrees(k->hybrid, &params, rnd_below(2 * pass + 4096), -1);
        CHECK(bad == 0, "%s hybrid, q = %u: %lu of %lu cases differ from the reference",
              k->name, q, bad, cases);
    }
}

/* The three-chain path past the sweep's lengths: every length through two whole passes
 * of three joined streams and the rest, at a few alignments. */
static void three_way(const crcforge_model *m)
{
    const struct crc_impl *path = crc_impl_lookup("crc32c_x86_sse42_3way");
    if (path == NULL || !crc_impl_runnable(path)) {
        SKIP("crc32c_x86_sse42_3way: this CPU cannot run it");
        return;
    }
    const int aligns[] = {0, 1, 7, 63};
    const size_t max = 2 * 3 * CRC32C_STREAM_MAX + 100;
    unsigned long bad = 0, cases = 0;
    for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
        memcpy(g.start + aligns[a], data, max);
        for (size_t n = 0; n <= max; n++, cases++)
            bad += path->update(m, start, g.start + aligns[a], n, tuned()) != expected[n];
    }
    CHECK(bad == 0, "crc32c_x86_sse42_3way: %lu of %lu cases differ from the reference", bad,
          cases);
}

/* The registry's paths (the tuning table's parameters, or CRCFORGE_TUNE's) on long
 * inputs. */
static void registry_paths(const crcforge_model *m)
{
    static const char *const names[] = {"crc32c_x86_vpclmul_avx512", "crc32c_x86_avx512_hybrid",
                                        "crc32c_x86_vpclmul_avx2", "crc32c_x86_avx2_hybrid"};
    const struct crc_x86_tuning *t = crc_x86_tuning();
    printf("tuning: fold_accumulators %u, hybrid_qwords %u, crc32c_threeway_min %u, "
           "crc32c_hybrid256_min %u, crc32c_hybrid512_min %u\n",
           (unsigned)t->fold_accumulators, (unsigned)t->hybrid_qwords,
           (unsigned)t->crc32c_threeway_min, (unsigned)t->crc32c_hybrid256_min,
           (unsigned)t->crc32c_hybrid512_min);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const struct crc_impl *path = crc_impl_lookup(names[i]);
        if (path == NULL || !crc_impl_runnable(path)) {
            SKIP("%s: this CPU cannot run it", names[i]);
            continue;
        }
        unsigned long bad = 0;
        for (int r = 0; r < 60; r++) {
            size_t n = rnd_below(DATA_MAX + 1), a = rnd_below(MAX_ALIGN);
            memcpy(g.start + a, data, n);
            bad += path->update(m, start, g.start + a, n, tuned()) != expected[n];
        }
        CHECK(bad == 0, "%s: %lu of 60 long inputs differ from the reference", names[i], bad);
    }
}

int main(void)
{
    check_begin("test_crc32c");
    const crcforge_model *m = crcforge_model_find("crc32c");
    uint8_t *bytes = malloc(DATA_MAX);
    expected = malloc((DATA_MAX + 1) * sizeof *expected);
    if (bytes == NULL || expected == NULL || guarded_alloc(&g, DATA_MAX + MAX_ALIGN) != 0) {
        CHECK(0, "memory");
        return check_end();
    }
    rnd_fill(bytes, DATA_MAX);
    data = bytes;
    start = (uint32_t)rnd64();
    expected[0] = start;
    for (size_t n = 1; n <= DATA_MAX; n++)
        expected[n] = (uint32_t)crc_reference_update(&m->p, expected[n - 1], data + n - 1, 1);

    static const struct crc_impl *const emulated[] = {&crc_impl_crc32c_x86_emulated_avx512,
                                                      &crc_impl_crc32c_x86_emulated_avx512_hybrid};
    for (size_t i = 0; i < 2; i++) {
        if (!crc_impl_runnable(emulated[i])) {
            SKIP("%s: this CPU cannot run it", emulated[i]->name);
            continue;
        }
        printf("sweep %s\n", emulated[i]->name);
        sweep(emulated[i], m);
    }
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const struct kernel *k = &kernels[i];
        if (!crc_impl_runnable(k->parallel)) {
            SKIP("%s: this CPU cannot run it", k->name);
            continue;
        }
        printf("kernel %s\n", k->name);
        fflush(stdout);
        accumulators(k);
        hybrid(k);
    }
    three_way(m);
    registry_paths(m);
    /* CRCFORGE_TUNE's values all taken (none refused, which would leave the table's). */
    const crcforge_env_problem *e = crcforge_env_problem_at(0);
    CHECK(e == NULL, "%s=%s: %s", e ? e->variable : "", e ? e->value : "", e ? e->problem : "");
    guarded_free(&g);
    free(bytes);
    free(expected);
    return check_end();
}
