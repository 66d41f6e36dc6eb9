/* SPDX-License-Identifier: MIT */
/*
 * The one timing loop of the benchmarks: crcforge bench and the stand-alone programs
 * time every subject here.
 *
 * A sample calls the subject `iterations` times in a loop and reads the clock around
 * the loop.  `repeat` rounds are taken, each timing every subject once, and the best
 * (minimum) and median per-call times kept: the minimum is the least disturbed by other
 * load on the machine, the median shows how typical it is.  Each round's times are kept
 * too, for ratios of subjects timed in the same round (bench_time_rounds).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/* Now in ns: elapsed time (wall_clock), or this thread's CPU time, which leaves out the
 * time a shared machine gives to other processes. */
static double now_ns(int wall_clock)
{
    struct timespec ts;
    clock_gettime(wall_clock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Zero, but the compiler cannot know (the latency loop's mask). */
volatile uintptr_t bench_opaque_zero;

/* The loop of subjects given as a function pointer. */
BENCH_LOOP(call_loop, bench_s->fn(bench_s->ctx, bench_p, bench_n))

/* The same over a stream of mixed sizes: call j hashes lens[j] bytes at offsets[j].  In
 * the latency loop each call's address waits for the previous result, as above. */
static uint64_t mixed_loop(const struct bench_subject *s, const struct bench_input *in,
                           uint64_t passes, int latency)
{
    const size_t count = in->count;
    uint64_t acc = 0;
    uintptr_t mask = latency ? bench_opaque_zero : 0;
    for (uint64_t k = 0; k < passes; k++)
        for (size_t j = 0; j < count; j++) {
            uint64_t v = s->fn(s->ctx, in->buf + in->offsets[j] + (acc & mask), in->lens[j]);
            acc = latency ? v : acc ^ v;
        }
    return acc;
}

static volatile uint64_t sink;

struct sample {
    double ns;
    uint64_t cycles;
};

void bench_force(const struct bench_subject *s)
{
    if (s->force != NULL)
        crcforge_impl_force(s->force, NULL);
}

/* A sample of s: its path forced first (each subject of a round may force another), then
 * one untimed pass of its own, forced or not, so that the sample times neither the
 * dispatcher resolving anew nor the state the subject before it left.  (On a shared AMD
 * Zen 4 host, the first 16 MiB pass after 4 ms of zlib's table loop ran at half speed, and
 * took 3 ms of passes to recover.) */
static struct sample timed(const struct bench_config *cfg, const struct bench_subject *s,
                           const struct bench_input *in, uint64_t passes, int count_cycles)
{
    const bench_loop_fn loop = s->loop ? s->loop : in->lens ? mixed_loop : call_loop;
    bench_force(s);
    sink = loop(s, in, 1, cfg->latency);
    uint64_t c0 = count_cycles ? bench_cycles_now() : 0;
    double t0 = now_ns(cfg->wall_clock);
    sink = loop(s, in, passes, cfg->latency);
    double t1 = now_ns(cfg->wall_clock);
    uint64_t c1 = count_cycles ? bench_cycles_now() : 0;
    return (struct sample){t1 - t0, c1 - c0};
}

/* Passes a sample makes: doubled until one sample lasts at least min_sample_seconds,
 * which also warms caches, predictors and clocks. */
static uint64_t sample_passes(const struct bench_config *cfg, const struct bench_subject *s,
                              const struct bench_input *in)
{
    double target = cfg->min_sample_seconds * 1e9;
    uint64_t passes = 1;
    for (;;) {
        struct sample x = timed(cfg, s, in, passes, 0);
        if (x.ns >= target || passes >= (UINT64_C(1) << 40))
            return passes;
        /* Aim straight at the target once the sample is long enough to scale from. */
        if (x.ns > target / 64)
            passes = (uint64_t)((double)passes * target / x.ns * 1.1) + 1;
        else
            passes *= 2;
    }
}

void bench_round_order(unsigned round, size_t *order, size_t count)
{
    /* Williams' design: 0, 1, n-1, 2, n-2, ... plus the round, mod n; reversed in every
     * other block of n rounds.  Consecutive places differ by 1, -2, 3, -4, ..., so over
     * each 2n rounds each subject follows each other one exactly twice and comes first
     * exactly twice. */
    if (count == 0)
        return;
    const size_t shift = round % count;
    const int reverse = (round / count) % 2;
    for (size_t j = 0; j < count; j++) {
        const size_t base = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : count - j / 2;
        order[reverse ? count - 1 - j : j] = (base + shift) % count;
    }
}

void bench_time_rounds(const struct bench_config *cfg, const struct bench_subject *subjects,
                       size_t count, const struct bench_input *in, const unsigned char *skip,
                       struct bench_timing *timings, double *rounds_ns)
{
    for (size_t i = 0; i < count; i++) {
        timings[i] = (struct bench_timing){.ns_best = -1, .ns_median = -1, .cycles_best = -1};
        if (skip == NULL || !skip[i])
            timings[i].iterations = sample_passes(cfg, &subjects[i], in) * in->count;
    }

    const char *why;
    int count_cycles = bench_cycles_open(&why) == 0;
    unsigned repeat = cfg->repeat > 0 ? cfg->repeat : 1;
    double *ns = malloc(count * repeat * sizeof *ns);
    uint64_t *cycles = malloc(count * sizeof *cycles);
    if (ns == NULL || cycles == NULL)
        abort();
    for (size_t i = 0; i < count * repeat; i++)
        ns[i] = -1;
    for (size_t i = 0; i < count; i++)
        cycles[i] = UINT64_MAX;
    /* Round k samples every subject once, so that a burst of load from elsewhere on the
     * machine lands on all of them alike instead of on one subject's samples; and in the
     * order bench_round_order gives, so that each subject follows each other one as often,
     * since it inherits the cache, predictor and clock state of the one before it. */
    size_t *order = malloc(count * sizeof *order);
    if (order == NULL)
        abort();
    for (unsigned k = 0; k < repeat; k++) {
        bench_round_order(k, order, count);
        for (size_t j = 0; j < count; j++) {
            size_t i = order[j];
            if (timings[i].iterations == 0)
                continue;
            struct sample x = timed(cfg, &subjects[i], in, timings[i].iterations / in->count,
                                    count_cycles);
            ns[i * repeat + k] = x.ns / (double)timings[i].iterations;
            if (x.cycles < cycles[i])
                cycles[i] = x.cycles;
        }
    }
    free(order);
    if (rounds_ns != NULL)
        memcpy(rounds_ns, ns, count * repeat * sizeof *ns);
    for (size_t i = 0; i < count; i++) {
        struct bench_timing *t = &timings[i];
        if (t->iterations == 0)
            continue;
        double *mine = ns + i * repeat;
        qsort(mine, repeat, sizeof *mine, by_value);
        t->ns_best = mine[0];
        t->ns_median = bench_quantile(mine, repeat, 0.5);
        if (count_cycles)
            t->cycles_best = (double)cycles[i] / (double)t->iterations;
    }
    free(cycles);
    free(ns);
}

void bench_time(const struct bench_config *cfg, const struct bench_subject *subjects,
                size_t count, const struct bench_input *in, const unsigned char *skip,
                struct bench_timing *timings)
{
    bench_time_rounds(cfg, subjects, count, in, skip, timings, NULL);
}

double bench_quantile(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return -1;
    double at = q * (double)(n - 1);
    size_t lo = (size_t)at;
    double frac = at - (double)lo;
    return lo + 1 < n ? sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}
