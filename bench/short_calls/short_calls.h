/* SPDX-License-Identifier: MIT */
/* What the short-call benchmarks (short_calls_bench, placement_bench) share: the buffers
 * they hash, the sizes, the clock, the timed loop, how many calls a sample makes and the
 * median's sort. */
#ifndef CRCFORGE_BENCH_SHORT_CALLS_H
#define CRCFORGE_BENCH_SHORT_CALLS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Independent calls over 256 buffers of random bytes (512 for the sizes below), each at a
 * cache line's start. */
#define CALL_BUFFERS 256
#define CALL_BUFFER_BYTES 512
#define CALL_ROUNDS_MAX 41

static const size_t call_sizes[] = {8, 16, 32, 64, 128, 256};
#define CALL_SIZES (sizeof call_sizes / sizeof call_sizes[0])

static uint8_t *call_buffers[CALL_BUFFERS];
static volatile uint64_t call_sink;

/* This thread's CPU time in ns: what other processes on a shared host take is left out. */
static inline double call_thread_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

/* The buffers, of `bytes` each (a multiple of 64): 0, or -1 once the failure is on stderr
 * under prog's name. */
static inline int call_buffers_fill(const char *prog, size_t bytes)
{
    srand(1);
    for (size_t j = 0; j < CALL_BUFFERS; j++) {
        call_buffers[j] = aligned_alloc(64, bytes);
        if (call_buffers[j] == NULL) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return -1;
        }
        for (size_t k = 0; k < bytes; k++)
            call_buffers[j][k] = (uint8_t)rand();
    }
    return 0;
}

/* Passes over the buffers a sample makes at n bytes: about 20 KB hashed per buffer. */
static inline int call_passes(size_t n, int quick)
{
    return quick ? 1 : (int)(20000 / (n + 16)) + 4;
}

/* static double NAME(size_t n, int passes): ns per call of CALL (an expression of the
 * buffer p and the size n) over the buffers, passes times, after the statement SETUP (or
 * none).  Each loop starts a cache line, so that no loop's timing rides on its placement. */
#define CALL_LOOP(NAME, SETUP, CALL)                                                      \
    static __attribute__((noinline, aligned(64))) double NAME(size_t n, int passes)       \
    {                                                                                     \
        SETUP;                                                                            \
        uint64_t acc = 0;                                                                 \
        const double start = call_thread_ns();                                            \
        for (int k = 0; k < passes; k++)                                                  \
            for (size_t j = 0; j < CALL_BUFFERS; j++) {                                   \
                const uint8_t *p = call_buffers[j];                                       \
                acc += CALL;                                                              \
            }                                                                             \
        call_sink = acc;                                                                  \
        return (call_thread_ns() - start) / ((double)passes * CALL_BUFFERS);              \
    }

/* The same through the function pointer FN (a volatile, read once a loop, so that the call
 * is never inlined or devirtualised), with the arguments given. */
#define CALL_POINTER_LOOP(NAME, FN, ...)                                                  \
    CALL_LOOP(NAME, __typeof__(*FN) *f = FN, f(__VA_ARGS__))

static inline int call_by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif /* CRCFORGE_BENCH_SHORT_CALLS_H */
