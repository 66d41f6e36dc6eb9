/*
 * Verification and timing of one subject on one buffer.
 *
 * A sample calls the subject `iterations` times in a loop and reads the clock around
 * the loop.  `repeat` samples of each subject are taken, and the best (minimum) and
 * median per-call times kept: the minimum is the least disturbed by other load on the
 * machine, the median shows how typical it is.
 */
#include <stdlib.h>

#include "bench.h"
#include "timing.h"

/* Zero, but the compiler cannot know: in the latency loop the next address depends
 * on the previous CRC through it, so calls cannot overlap. */
static volatile uintptr_t opaque_zero;

/* The one calling loop every subject is timed with.  Throughput: independent calls,
 * results folded into a sink.  Latency: each call waits for the previous result. */
static uint64_t call_loop(const struct bench_subject *s, const uint8_t *buf, size_t len,
                          uint64_t iterations, int latency)
{
    bench_fn fn = s->fn;
    const void *ctx = s->ctx;
    uint64_t acc = 0;
    if (latency) {
        uintptr_t mask = opaque_zero;
        for (uint64_t i = 0; i < iterations; i++)
            acc = fn(ctx, buf + (acc & mask), len);
    } else {
        for (uint64_t i = 0; i < iterations; i++)
            acc ^= fn(ctx, buf, len);
    }
    return acc;
}

static volatile uint64_t sink;

struct sample {
    double ns;
    uint64_t cycles;
};

static struct sample timed(const struct bench_config *cfg, const struct bench_subject *s,
                           const uint8_t *buf, size_t len, uint64_t iterations,
                           int count_cycles)
{
    uint64_t c0 = count_cycles ? bench_cycles_now() : 0;
    double t0 = bench_now_ns(cfg->wall_clock);
    sink = call_loop(s, buf, len, iterations, cfg->latency);
    double t1 = bench_now_ns(cfg->wall_clock);
    uint64_t c1 = count_cycles ? bench_cycles_now() : 0;
    return (struct sample){t1 - t0, c1 - c0};
}

int bench_verify(const struct bench_subject *s, const crcforge_model *m, const uint8_t *buf,
                 size_t len, uint64_t *got, uint64_t *want)
{
    crcforge_state ref;
    crcforge_init_impl(&ref, m, "portable", NULL); /* always valid */
    crcforge_update(&ref, buf, len);
    *want = crcforge_final(&ref);
    *got = s->fn(s->ctx, buf, len);
    return *got == *want ? 0 : -1;
}

/* Verifies the subject and sizes its samples: `iterations` doubles until one sample
 * lasts at least min_sample_seconds, which also warms caches, predictors and clocks. */
static void prepare(const struct bench_config *cfg, const struct bench_subject *s,
                    const crcforge_model *m, const uint8_t *buf, size_t len,
                    struct bench_result *r)
{
    *r = (struct bench_result){.model = m, .subject = s->name, .is_peer = s->is_peer,
                               .size = len, .offset = (unsigned)((uintptr_t)buf & 63),
                               .latency = cfg->latency, .ns_best = -1, .ns_median = -1,
                               .cycles_best = -1};
    if (bench_verify(s, m, buf, len, &r->got, &r->want) != 0) {
        r->status = BENCH_MISMATCH; /* its time would mean nothing */
        return;
    }
    r->status = BENCH_OK;
    double target = cfg->min_sample_seconds * 1e9;
    uint64_t iterations = 1;
    for (;;) {
        struct sample x = timed(cfg, s, buf, len, iterations, 0);
        if (x.ns >= target || iterations >= (UINT64_C(1) << 40))
            break;
        /* Aim straight at the target once the sample is long enough to scale from. */
        if (x.ns > target / 64)
            iterations = (uint64_t)((double)iterations * target / x.ns * 1.1) + 1;
        else
            iterations *= 2;
    }
    r->iterations = iterations;
}

void bench_measure(const struct bench_config *cfg, const struct bench_subject *subjects,
                   size_t count, const crcforge_model *m, const uint8_t *buf, size_t len,
                   struct bench_result *results)
{
    for (size_t i = 0; i < count; i++)
        prepare(cfg, &subjects[i], m, buf, len, &results[i]);

    const char *why;
    int count_cycles = bench_cycles_open(&why) == 0;
    unsigned repeat = cfg->repeat > 0 ? cfg->repeat : 1;
    double *ns = malloc(count * repeat * sizeof *ns);
    uint64_t *cycles = malloc(count * sizeof *cycles);
    if (ns == NULL || cycles == NULL)
        abort();
    for (size_t i = 0; i < count; i++)
        cycles[i] = UINT64_MAX;
    /* Round k samples every subject once: a burst of load from elsewhere on the machine
     * then lands on all of them alike instead of on one subject's samples. */
    for (unsigned k = 0; k < repeat; k++) {
        for (size_t i = 0; i < count; i++) {
            struct bench_result *r = &results[i];
            if (r->status != BENCH_OK)
                continue;
            struct sample x = timed(cfg, &subjects[i], buf, len, r->iterations, count_cycles);
            ns[i * repeat + k] = x.ns / (double)r->iterations;
            if (x.cycles < cycles[i])
                cycles[i] = x.cycles;
        }
    }
    for (size_t i = 0; i < count; i++) {
        struct bench_result *r = &results[i];
        if (r->status != BENCH_OK)
            continue;
        double *mine = ns + i * repeat;
        qsort(mine, repeat, sizeof *mine, bench_by_value);
        r->ns_best = mine[0];
        r->ns_median = repeat % 2 ? mine[repeat / 2]
                                  : (mine[repeat / 2 - 1] + mine[repeat / 2]) / 2;
        if (count_cycles)
            r->cycles_best = (double)cycles[i] / (double)r->iterations;
    }
    free(cycles);
    free(ns);
}

double bench_gbps(size_t size, double ns_per_call)
{
    return ns_per_call > 0 ? (double)size / ns_per_call : 0; /* bytes per ns = GB/s */
}
