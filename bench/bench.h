/* SPDX-License-Identifier: MIT */
/*
 * The benchmark harness: the timing loop and the table writer every benchmark program
 * uses (measure.c, table.c, machine.c), and behind `crcforge bench` the subjects timed
 * (crcforge's own paths and the peer libraries) and its reports.
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

#include "crcforge_dispatch.h"

typedef uint64_t (*bench_fn)(const void *ctx, const uint8_t *buf, size_t len);

enum { BENCH_NAME_MAX = 48 };

struct bench_subject;
struct bench_input;
/* A calling loop made by BENCH_LOOP: passes over the input's buffers; the result folds
 * the calls' values. */
typedef uint64_t (*bench_loop_fn)(const struct bench_subject *s, const struct bench_input *in,
                                  uint64_t passes, int latency);
/* Zero, but the compiler cannot know: the latency loop's address mask (measure.c). */
extern volatile uintptr_t bench_opaque_zero;

/* Every calling loop and every subject's call wrapper (crcforge's entries, the peers')
 * starts a 64-byte line, as the library's entries do (CODE_ALIGNED): where the linker put
 * them moved the paired ratios of short inputs from build to build. */
#define BENCH_CODE_ALIGNED __attribute__((aligned(64)))

/*
 * BENCH_LOOP(NAME, CALL) defines NAME, a bench_loop_fn: the calling loop every benchmark
 * subject is timed with.  CALL is one call, an expression of bench_s (the subject),
 * bench_p and bench_n (the bytes) giving an integer.  measure.c makes the loop of every
 * subject given as a bench_fn (crcforge bench's all); a program timing code meant to be
 * inlined into its caller (the header's inline CRC-32C) or a baseline called as a user
 * calls it makes one calling that code directly.
 * A pass calls the subject once on each of the input's buffers.  Throughput: independent
 * calls, results folded together.  Latency: each call's address waits for the previous
 * result (masked by an opaque zero), so calls cannot overlap.
 */
#define BENCH_LOOP(NAME, CALL)                                                            \
    static BENCH_CODE_ALIGNED uint64_t NAME(const struct bench_subject *bench_s,          \
                                            const struct bench_input *in, uint64_t passes, \
                                            int latency)                                   \
    {                                                                                     \
        const size_t bench_n = in->len, stride = in->stride, count = in->count;           \
        uint64_t acc = 0;                                                                 \
        (void)bench_s;                                                                    \
        if (latency) {                                                                    \
            uintptr_t mask = bench_opaque_zero;                                           \
            for (uint64_t k = 0; k < passes; k++)                                         \
                for (size_t j = 0; j < count; j++) {                                      \
                    const uint8_t *bench_p = in->buf + j * stride + (acc & mask);         \
                    acc = (uint64_t)(CALL);                                               \
                }                                                                         \
        } else {                                                                          \
            for (uint64_t k = 0; k < passes; k++)                                         \
                for (size_t j = 0; j < count; j++) {                                      \
                    const uint8_t *bench_p = in->buf + j * stride;                        \
                    acc ^= (uint64_t)(CALL);                                              \
                }                                                                         \
        }                                                                                 \
        return acc;                                                                       \
    }

/* One thing to time: for crcforge bench, a crcforge path or a peer function of one model. */
struct bench_subject {
    char name[BENCH_NAME_MAX]; /* "auto", "portable", "isa-l crc32_iscsi", ... */
    int is_peer;
    int is_baseline; /* "read": no CRC, the memory traffic a CRC of the same bytes makes */
    bench_fn fn;
    const void *ctx;
    /* crcforge paths: the name given to crcforge_impl_force before every sample and every
     * check of the subject ("auto": the automatic choice); NULL: nothing is forced. */
    const char *force;
    crcforge_model *own_model; /* a custom model's copy it hashes (bench_subjects_free) */
    bench_loop_fn loop;        /* NULL: the loop calling fn; else its own instance of the loop */
};

/* A peer library function serving one catalogue model. */
struct bench_peer {
    const char *library;  /* "isa-l" */
    const char *function; /* "crc32_iscsi" */
    const char *model;    /* catalogue name of the model its value equals */
    bench_fn fn;
    int (*runs_here)(void); /* a kernel called by name: whether this CPU runs it; NULL: always */
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
/* Whether this CPU runs the peer (a kernel called by name needs its instructions). */
int bench_peer_runs_here(const struct bench_peer *p);
/* The kernels a built peer library says it chose, where it says ("" elsewhere). */
void bench_peer_kernels(const char *library, char *out, size_t cap);
/* A built peer library's version ("" when not built). */
const char *bench_peer_version(const char *library);
/* The name of the kernel ISA-L's dispatcher chose for crc32_iscsi on this CPU (NULL when
 * ISA-L is not built): the tiers bench_peer_runs_here tests must reach the same one. */
const char *bench_isal_iscsi_dispatched(void);

/* subjects.c: crcforge's paths for m ("auto", then every compiled path this CPU can
 * run that serves m, forced), then the peers serving m.  Returns the count written
 * (at most max); bench_subjects_free releases what they hold. */
size_t bench_subjects(const crcforge_model *m, struct bench_subject *out, size_t max);
void bench_subjects_free(struct bench_subject *subjects, size_t count);

/* measure.c: forces the subject's path (its `force`), when it has one. */
void bench_force(const struct bench_subject *s);

/* Timing settings. */
/* The clock a sample is read by unless asked otherwise: this thread's CPU time, but on
 * Windows, which counts it in scheduler ticks (15.6 ms), far coarser than a sample. */
#ifdef _WIN32
#define BENCH_DEFAULT_WALL_CLOCK 1
#else
#define BENCH_DEFAULT_WALL_CLOCK 0
#endif

struct bench_config {
    double min_sample_seconds; /* a sample loops until it lasts at least this */
    unsigned repeat;           /* rounds: samples of each subject per measurement */
    int latency;               /* each call's address depends on the previous CRC */
    int wall_clock;            /* time with CLOCK_MONOTONIC, not this thread's CPU time */
};

enum bench_status { BENCH_OK, BENCH_MISMATCH };

/* A paired ratio over the rounds: its median and quartiles; median < 0 when there is
 * no reference. */
struct bench_paired {
    double median, q1, q3;
};

/* One measurement: a subject on one size at one offset from 64-byte alignment. */
struct bench_result {
    const crcforge_model *model;
    const char *subject; /* points into the subject list */
    int is_peer, is_baseline;
    size_t size;
    unsigned offset;
    int latency; /* timed by the latency loop */
    int mixed;   /* a stream of mixed sizes at random offsets: size is its mean length */
    enum bench_status status;
    uint64_t got, want;  /* the values compared before timing */
    uint64_t iterations; /* calls per sample */
    double ns_best, ns_median;            /* per call */
    double cycles_best;                   /* per call; < 0 when not measured */
    double *rounds_ns; /* per call in each round (rounds of them; bench_results_free) */
    unsigned rounds;
    /* Over the rounds, the ratio (reference's time) / (this subject's time) of the same
     * round: > 1 when this subject was faster.  The reference: the fastest peer of that
     * round, or auto. */
    struct bench_paired vs_peer, vs_auto;
};

/* Frees what the results hold (their rounds). */
void bench_results_free(struct bench_result *results, size_t count);

/* The inputs a subject is timed on: count buffers of len bytes, stride bytes apart from
 * buf (count 1: the same buffer every call); a pass calls the subject once on each. */
struct bench_input {
    const uint8_t *buf;
    size_t len, stride, count;
    /* A stream of calls of mixed sizes instead: call j hashes lens[j] bytes at
     * buf + offsets[j] (len and stride unused); NULL for the uniform calls above. */
    const size_t *offsets, *lens;
};

/* What timing one subject gave. */
struct bench_timing {
    uint64_t iterations;       /* calls per sample (whole passes); 0 when not timed */
    double ns_best, ns_median; /* per call; < 0 when not timed */
    double cycles_best;        /* per call; < 0 when not measured */
};

/* measure.c: the one timing loop of every benchmark.  Sizes each subject's samples to
 * cfg->min_sample_seconds, then takes cfg->repeat rounds, each a sample of every subject
 * in turn (throughput or latency loop as cfg->latency says); fills timings[0..count).
 * Subjects with skip[i] set (skip may be NULL) are not timed. */
void bench_time(const struct bench_config *cfg, const struct bench_subject *subjects,
                size_t count, const struct bench_input *in, const unsigned char *skip,
                struct bench_timing *timings);
/* The same, also writing each round's ns per call: rounds_ns[i * repeat + k] is subject
 * i's in round k (-1 when it was not timed).  Round k times the subjects in the order
 * bench_round_order(k) gives. */
void bench_time_rounds(const struct bench_config *cfg, const struct bench_subject *subjects,
                       size_t count, const struct bench_input *in, const unsigned char *skip,
                       struct bench_timing *timings, double *rounds_ns);
/* Round k's order of count subjects, order[0..count) a permutation of 0..count-1: over
 * each 2 count rounds, each subject follows each other one exactly twice and comes first
 * exactly twice (a balanced design: in rotated orders each would follow one same subject). */
void bench_round_order(unsigned round, size_t *order, size_t count);
/* The q-quantile (0..1, linear between neighbours) of n sorted values; -1 when n is 0. */
double bench_quantile(const double *sorted, size_t n, double q);

/* subjects.c: checks the subject's value on buf[0..len) against crcforge's portable
 * engine (itself tested against the bitwise reference); on a mismatch records both
 * values and returns -1, and the subject must not be timed on that data. */
int bench_verify(const struct bench_subject *s, const crcforge_model *m, const uint8_t *buf,
                 size_t len, uint64_t *got, uint64_t *want);

/* Verifies each subject, then times those that agree with crcforge on buf[0..len),
 * their samples interleaved; fills results[0..count).  bench_measure_input does the same
 * for any input: every call of a mixed stream is verified. */
void bench_measure_input(const struct bench_config *cfg, const struct bench_subject *subjects,
                         size_t count, const crcforge_model *m, const struct bench_input *in,
                         struct bench_result *results);
void bench_measure(const struct bench_config *cfg, const struct bench_subject *subjects,
                   size_t count, const crcforge_model *m, const uint8_t *buf, size_t len,
                   struct bench_result *results);

/* machine.c: core clock cycles of this thread, where the CPU exposes a counter to us. */
int bench_cycles_open(const char **why); /* 0 when usable; else *why says why not */
uint64_t bench_cycles_now(void);         /* meaningful only after a successful open */

/* The CPU's marketing name (/proc/cpuinfo), or "unknown CPU". */
const char *bench_cpu_name(void);
/* The CPU's identity as /proc/cpuinfo gives it on x86 (vendor_id, cpu family, model,
 * stepping): what the tuning family is chosen from.  "" and -1 where unknown. */
struct bench_cpu_id {
    char vendor[16];
    int family, model, stepping;
};
void bench_cpu_identify(struct bench_cpu_id *id);

/* report.c: a run's results, as a table, CSV or JSON. */
struct bench_run {
    const char *cpu;
    const char *cycles_note; /* NULL when cycles are measured; else why they are not */
    const struct bench_config *cfg;
    int keys;                /* small-input mode: ns per call, throughput and latency */
    int latency;             /* every measurement by the latency loop (--loop latency) */
    const char *mixed;       /* the mixed stream's description (--mixed), or NULL */
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

/* table.c: the text-table writer of every benchmark's report.  Cells are set by row and
 * column (the table grows to the largest set); each column is as wide as its widest
 * cell or min_width, left-aligned unless right; two spaces between columns. */
enum { BENCH_CELL = 64 };
struct bench_table {
    size_t rows, cols, max_rows, max_cols;
    char (*cell)[BENCH_CELL]; /* max_rows x max_cols */
    int *min_width, *right;   /* per column */
};
struct bench_table *bench_table_new(size_t max_rows, size_t max_cols);
void bench_table_column(struct bench_table *t, size_t col, int min_width, int right);
void bench_table_set(struct bench_table *t, size_t row, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void bench_table_print(FILE *f, const struct bench_table *t);
void bench_table_free(struct bench_table *t);

#endif /* CRCFORGE_BENCH_H */
