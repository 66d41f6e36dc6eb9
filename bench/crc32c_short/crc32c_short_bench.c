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
 * Each sample times 256 calls; the figure is ns per call, min and median over 101
 * samples, which interleave the subjects.  Each subject is first checked against the
 * bitwise reference at every length 0..64.
 *
 * Usage: crc32c_short_bench [--quick]   (pin it: taskset -c 1 build/crc32c_short_bench)
 * --quick: the checks and a short timing run, for the test suite (figures meaningless).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crcforge.h"
#include "internal.h"
#include "../quick_arg.h"
#include "../timing.h"

#if !CRCFORGE_HAVE_CRC32C_INLINE
#error "build this file with the crc32 instruction enabled (-msse4.2, -march=armv8-a+crc)"
#endif

#define CALLS 256
#define MAXLEN 64

/* The header's loop without its length bound and library fallback. */
#define bare crcforge_crc32c_loop_

static volatile uintptr_t opaque_zero;
static uint8_t data[CALLS][MAXLEN];

/* One sample of one subject: ns per call over CALLS buffers. */
#define SAMPLE(fn, lat)                                                                   \
    do {                                                                                  \
        uintptr_t z = opaque_zero;                                                        \
        uint32_t acc = 0;                                                                 \
        double t0 = bench_now_ns(1);                                                      \
        if (lat)                                                                          \
            for (int i = 0; i < CALLS; i++)                                               \
                acc = fn(0, data[i] + (acc & z), n);                                      \
        else                                                                              \
            for (int i = 0; i < CALLS; i++)                                               \
                acc ^= fn(0, data[i], n);                                                 \
        ns = (bench_now_ns(1) - t0) / CALLS;                                              \
        sink ^= acc;                                                                      \
    } while (0)

enum { BARE, INLINE, CALL, SUBJECTS };
static const char *const names[SUBJECTS] = {"bare", "inline", "call"};
static volatile uint32_t sink;

int main(int argc, char **argv)
{
    int quick = bench_quick_arg(argc, argv, "crc32c_short_bench");
    if (quick < 0)
        return 2;
    int samples = quick ? 3 : 101;
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
                fprintf(stderr, "%s: wrong CRC-32C at %zu bytes\n", names[k], n);
                bad = 1;
            }
    }
    if (bad)
        return 1;

    static const size_t sizes[] = {4, 8, 16, 24, 32, 48, 64};
    double *t = malloc(sizeof(double) * (size_t)samples);
    double res[SUBJECTS][2][2]; /* subject, thru/lat, min/median */
    printf("CRC-32C, ns per call: min / median of %d samples of %d calls\n", samples, CALLS);
    printf("%6s", "bytes");
    for (int lat = 0; lat < 2; lat++)
        for (int k = 0; k < SUBJECTS; k++)
            printf(" %7s %-5s", names[k], lat ? "lat" : "thru");
    printf("   inline/bare thru, lat\n");
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        double all[SUBJECTS][2][101];
        for (int r = 0; r < samples; r++)
            for (int lat = 0; lat < 2; lat++) {
                double ns;
                SAMPLE(bare, lat);
                all[BARE][lat][r] = ns;
                SAMPLE(crcforge_crc32c_inline, lat);
                all[INLINE][lat][r] = ns;
                SAMPLE(crcforge_crc32c, lat);
                all[CALL][lat][r] = ns;
            }
        for (int k = 0; k < SUBJECTS; k++)
            for (int lat = 0; lat < 2; lat++) {
                memcpy(t, all[k][lat], sizeof(double) * (size_t)samples);
                qsort(t, (size_t)samples, sizeof *t, bench_by_value);
                res[k][lat][0] = t[0];
                res[k][lat][1] = t[samples / 2];
            }
        printf("%6zu", n);
        for (int lat = 0; lat < 2; lat++)
            for (int k = 0; k < SUBJECTS; k++)
                printf(" %5.2f/%-5.2f", res[k][lat][0], res[k][lat][1]);
        printf("   %.2fx %.2fx\n", res[INLINE][0][1] / res[BARE][0][1],
               res[INLINE][1][1] / res[BARE][1][1]);
    }
    free(t);
    return 0;
}
