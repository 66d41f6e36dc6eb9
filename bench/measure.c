/*
 * Verification and timing of one subject on one buffer.
 *
 * A sample calls the subject `iterations` times in a loop and reads the clock around
 * the loop; `iterations` doubles until one sample lasts at least min_sample_seconds,
 * which also warms caches, branch predictors and the CPU clock.  Then `repeat` samples
 * are taken and the best (minimum) and median per-call times kept: the minimum is the
 * least disturbed by other load on the machine, the median shows how typical it is.
 */
#include <stdlib.h>
#include <time.h>

#include "bench.h"

/* Zero, but the compiler cannot know: in the latency loop the next address depends
 * on the previous CRC through it, so calls cannot overlap. */
static volatile uintptr_t opaque_zero;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

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

static struct sample timed(const struct bench_subject *s, const uint8_t *buf, size_t len,
                           uint64_t iterations, int latency, int count_cycles)
{
    uint64_t c0 = count_cycles ? bench_cycles_now() : 0;
    double t0 = now_ns();
    sink = call_loop(s, buf, len, iterations, latency);
    double t1 = now_ns();
    uint64_t c1 = count_cycles ? bench_cycles_now() : 0;
    return (struct sample){t1 - t0, c1 - c0};
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

void bench_measure(const struct bench_config *cfg, const struct bench_subject *s,
                   const crcforge_model *m, const uint8_t *buf, size_t len,
                   struct bench_result *r)
{
    r->model = m;
    r->subject = s->name;
    r->is_peer = s->is_peer;
    r->size = len;
    r->offset = (unsigned)((uintptr_t)buf & 63);
    r->latency = cfg->latency;
    r->iterations = 0;
    r->ns_best = r->ns_median = r->cycles_best = -1;
    if (bench_verify(s, m, buf, len, &r->got, &r->want) != 0) {
        r->status = BENCH_MISMATCH; /* its time would mean nothing */
        return;
    }
    r->status = BENCH_OK;

    const char *why;
    int count_cycles = bench_cycles_open(&why) == 0;
    double target = cfg->min_sample_seconds * 1e9;
    uint64_t iterations = 1;
    for (;;) {
        struct sample x = timed(s, buf, len, iterations, cfg->latency, 0);
        if (x.ns >= target || iterations >= (UINT64_C(1) << 40))
            break;
        /* Aim straight at the target once the sample is long enough to scale from. */
        if (x.ns > target / 64)
            iterations = (uint64_t)((double)iterations * target / x.ns * 1.1) + 1;
        else
            iterations *= 2;
    }
    r->iterations = iterations;

    unsigned n = cfg->repeat > 0 ? cfg->repeat : 1;
    double *ns = malloc(n * sizeof *ns);
    if (ns == NULL)
        abort();
    uint64_t best_cycles = UINT64_MAX;
    for (unsigned k = 0; k < n; k++) {
        struct sample x = timed(s, buf, len, iterations, cfg->latency, count_cycles);
        ns[k] = x.ns / (double)iterations;
        if (x.cycles < best_cycles)
            best_cycles = x.cycles;
    }
    qsort(ns, n, sizeof *ns, by_value);
    r->ns_best = ns[0];
    r->ns_median = n % 2 ? ns[n / 2] : (ns[n / 2 - 1] + ns[n / 2]) / 2;
    if (count_cycles)
        r->cycles_best = (double)best_cycles / (double)iterations;
    free(ns);
}

double bench_gbps(size_t size, double ns_per_call)
{
    return ns_per_call > 0 ? (double)size / ns_per_call : 0; /* bytes per ns = GB/s */
}
