/* SPDX-License-Identifier: MIT */
/*
 * crc32c_short_bench: ns per CRC-32C of 1..64 bytes, the sizes of WAL record headers and
 * page trailers, where a call's fixed cost is most of the time:
 *   bare     the crc32 instruction loop alone (8 bytes a step, then 4, 2, 1), with no
 *            length bound or fallback: what a program that codes it by hand gets
 *   inline   crcforge_crc32c_inline, the header's inline path
 *   call     crcforge_crc32c, the library call (dispatched)
 * This file is compiled with the crc32 instruction enabled (-msse4.2, or +crc on aarch64).
 *
 * Two loops per length: "thru" hashes independent buffers; "lat" makes each buffer's
 * address depend on the previous CRC (crc & an opaque zero), so the calls cannot overlap.
 * Each subject has its own instance of the benchmarks' one calling loop (BENCH_LOOP in bench/bench.h)
 * with its code called directly, so that "inline" really is inlined into the loop as into
 * a caller.  Samples of about 10 us walk 256 buffers; the figure is ns per call, min and
 * median over 101 samples, which interleave the subjects.  Each subject is first checked
 * against the bitwise reference at every length 0..64.
 *
 * Usage: crc32c_short_bench [--quick]   (pin it: taskset -c 1 build/crc32c_short_bench)
 * --quick: the checks and a short timing run, for the test suite (figures meaningless).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "crcforge.h"
#include "internal.h"
#include "../quick_arg.h"

#if !CRCFORGE_HAVE_CRC32C_INLINE
#error "build this file with the crc32 instruction enabled (-msse4.2, -march=armv8-a+crc)"
#endif

#define CALLS 256
#define MAXLEN 64

/* The header's loop without its length bound and library fallback. */
#define bare crcforge_crc32c_loop_

BENCH_LOOP(loop_bare, bare(0, bench_p, bench_n))
BENCH_LOOP(loop_inline, crcforge_crc32c_inline(0, bench_p, bench_n))
BENCH_LOOP(loop_call, crcforge_crc32c(0, bench_p, bench_n))

enum { BARE, INLINE, CALL, SUBJECTS };
static const struct bench_subject subjects[SUBJECTS] = {
    {.name = "bare", .loop = loop_bare},
    {.name = "inline", .loop = loop_inline},
    {.name = "call", .loop = loop_call},
};
static uint8_t data[CALLS][MAXLEN];

int main(int argc, char **argv)
{
    int quick = bench_quick_arg(argc, argv, "crc32c_short_bench");
    if (quick < 0)
        return 2;
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < CALLS; i++)
        for (int j = 0; j < MAXLEN; j++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            data[i][j] = (uint8_t)(s >> 56);
        }
    const crcforge_params *p = &crc_model_crc32c->p;
    int bad = 0;
    for (size_t n = 0; n <= MAXLEN; n++) {
        uint32_t want = ~(uint32_t)crc_reference_update(p, 0xffffffffu, data[n], n);
        uint32_t got[SUBJECTS] = {bare(0, data[n], n), crcforge_crc32c_inline(0, data[n], n),
                                  crcforge_crc32c(0, data[n], n)};
        for (int k = 0; k < SUBJECTS; k++)
            if (got[k] != want) {
                fprintf(stderr, "%s: wrong CRC-32C at %zu bytes\n", subjects[k].name, n);
                bad = 1;
            }
    }
    if (bad)
        return 1;

    static const size_t sizes[] = {4, 8, 16, 24, 32, 48, 64};
    enum { NSIZES = sizeof sizes / sizeof *sizes };
    struct bench_config cfg = {.min_sample_seconds = 10e-6, .repeat = quick ? 3 : 101,
                               .wall_clock = 1};
    printf("CRC-32C, ns per call: min / median of %u samples walking %d buffers\n", cfg.repeat,
           CALLS);
    struct bench_table *t = bench_table_new(NSIZES + 1, 2 * SUBJECTS + 2);
    bench_table_set(t, 0, 0, "bytes");
    bench_table_column(t, 0, 0, 1);
    for (int lat = 0; lat < 2; lat++)
        for (int k = 0; k < SUBJECTS; k++) {
            bench_table_set(t, 0, 1 + lat * SUBJECTS + k, "%s %s", subjects[k].name,
                            lat ? "lat" : "thru");
            bench_table_column(t, 1 + lat * SUBJECTS + k, 0, 1);
        }
    bench_table_set(t, 0, 1 + 2 * SUBJECTS, "inline/bare thru, lat");
    for (size_t si = 0; si < NSIZES; si++) {
        struct bench_input in = {.buf = data[0], .len = sizes[si], .stride = MAXLEN,
                                 .count = CALLS};
        struct bench_timing timing[2][SUBJECTS];
        for (int lat = 0; lat < 2; lat++) {
            cfg.latency = lat;
            bench_time(&cfg, subjects, SUBJECTS, &in, NULL, timing[lat]);
        }
        bench_table_set(t, 1 + si, 0, "%zu", sizes[si]);
        for (int lat = 0; lat < 2; lat++)
            for (int k = 0; k < SUBJECTS; k++)
                bench_table_set(t, 1 + si, 1 + lat * SUBJECTS + k, "%.2f/%.2f",
                                timing[lat][k].ns_best, timing[lat][k].ns_median);
        bench_table_set(t, 1 + si, 1 + 2 * SUBJECTS, "%.2fx %.2fx",
                        timing[0][INLINE].ns_median / timing[0][BARE].ns_median,
                        timing[1][INLINE].ns_median / timing[1][BARE].ns_median);
    }
    bench_table_print(stdout, t);
    bench_table_free(t);
    return 0;
}
