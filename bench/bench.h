/*
 * The benchmark harness behind `crcforge bench`: the subjects timed (crcforge's own
 * paths and the peer libraries), the timing loops, and the reports.
 *
 * Every subject is timed through the same calling loop, a function pointer of one
 * signature returning the model's CRC value (after refout and xorout) of one buffer,
 * one shot; so crcforge's paths and every peer pay the same call overhead.
 */
#ifndef CRCFORGE_BENCH_H
#define CRCFORGE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "crcforge.h"

typedef uint64_t (*bench_fn)(const void *ctx, const uint8_t *buf, size_t len);

enum { BENCH_NAME_MAX = 48 };

/* One thing to time for one model: a crcforge path or a peer function. */
struct bench_subject {
    char name[BENCH_NAME_MAX]; /* "auto", "portable", "isa-l crc32_iscsi", ... */
    int is_peer;
    bench_fn fn;
    const void *ctx;
    crcforge_state state; /* crcforge paths: the initial state the calls start from */
};

/* A peer library function serving one catalogue model. */
struct bench_peer {
    const char *library;  /* "isa-l" */
    const char *function; /* "crc32_iscsi" */
    const char *model;    /* catalogue name of the model its value equals */
    bench_fn fn;
};

/* A peer library this build may lack. */
struct bench_peer_library {
    const char *name;
    int built;
    const char *why_not; /* when not built */
};

/* peers.c: the peers compiled into this build, and every library known. */
extern const struct bench_peer bench_peers[];
extern const size_t bench_peer_count;
extern const struct bench_peer_library bench_peer_libraries[];
extern const size_t bench_peer_library_count;

/* subjects.c: crcforge's paths for m ("auto", then every compiled path this CPU can
 * run that serves m, forced), then the peers serving m.  Returns the count written
 * (at most max). */
size_t bench_subjects(const crcforge_model *m, struct bench_subject *out, size_t max);

/* Timing settings. */
struct bench_config {
    double min_sample_seconds; /* a sample loops until it lasts at least this */
    unsigned repeat;           /* samples per measurement */
    int latency;               /* each call's address depends on the previous CRC */
    int wall_clock;            /* time with CLOCK_MONOTONIC, not this thread's CPU time */
};

enum bench_status { BENCH_OK, BENCH_MISMATCH };

/* One measurement: a subject on one size at one offset from 64-byte alignment. */
struct bench_result {
    const crcforge_model *model;
    const char *subject; /* points into the subject list */
    int is_peer;
    size_t size;
    unsigned offset;
    int latency; /* timed by the latency loop (keys mode) */
    enum bench_status status;
    uint64_t got, want;  /* the values compared before timing */
    uint64_t iterations; /* calls per sample */
    double ns_best, ns_median;            /* per call */
    double cycles_best;                   /* per call; < 0 when not measured */
};

/* Checks the subject's value on buf[0..len) against crcforge's portable engine
 * (itself tested against the bitwise reference); on a mismatch records both values and
 * returns -1, and the subject must not be timed on that data. */
int bench_verify(const struct bench_subject *s, const crcforge_model *m, const uint8_t *buf,
                 size_t len, uint64_t *got, uint64_t *want);

/* Verifies each subject, then times those that agree with crcforge on buf[0..len),
 * their samples interleaved; fills results[0..count). */
void bench_measure(const struct bench_config *cfg, const struct bench_subject *subjects,
                   size_t count, const crcforge_model *m, const uint8_t *buf, size_t len,
                   struct bench_result *results);

/* machine.c: core clock cycles of this thread, where the CPU exposes a counter to us. */
int bench_cycles_open(const char **why); /* 0 when usable; else *why says why not */
uint64_t bench_cycles_now(void);         /* meaningful only after a successful open */

/* The CPU's marketing name (/proc/cpuinfo), or "unknown CPU". */
const char *bench_cpu_name(void);

/* report.c: a run's results, as a table, CSV or JSON. */
struct bench_run {
    const char *cpu;
    const char *cycles_note; /* NULL when cycles are measured; else why they are not */
    const struct bench_config *cfg;
    int keys;                /* small-input mode: ns per call, throughput and latency */
    struct bench_result *results;
    size_t count;
};

void bench_print_table(FILE *f, const struct bench_run *run);
void bench_print_csv(FILE *f, const struct bench_run *run);
void bench_print_json(FILE *f, const struct bench_run *run);
/* plot_svg.c: GB/s against size (log axes), one panel per algorithm, aligned buffers. */
void bench_plot_svg(FILE *f, const struct bench_run *run);

/* Decimal gigabytes per second of a per-call time. */
double bench_gbps(size_t size, double ns_per_call);

#endif /* CRCFORGE_BENCH_H */
