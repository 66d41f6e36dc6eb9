/* SPDX-License-Identifier: MIT */
/*
 * crcforge-bench, the program `crcforge bench` runs: throughput (or small-input latency) of
 * crcforge's paths and the peer libraries.  A program of its own, so that only it links
 * the peers; the CLI engine (tools/) runs it as its one extra command, so that it reads its
 * options and reports errors as the tool does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "platform.h"

enum {
    OPT_SIZES = CLI_LONG_ONLY, OPT_OFFSETS, OPT_REPEAT, OPT_MIN_TIME, OPT_CLOCK, OPT_QUICK,
    OPT_KEYS, OPT_LOOP, OPT_MIXED, OPT_CSV, OPT_JSON, OPT_PLOT,
};
static const struct cli_option bench_options[] = {
    {"algorithm", 'a', required_argument, "ALGO",
     "algorithm (catalogue name or alias; repeatable; default crc32c)"},
    {"impl", 'i', required_argument, "IMPL",
     "only this subject (repeatable): auto, a crcforge path\n"
     "(crcforge cpu --impls), a peer library (isa-l, libdeflate,\n"
     "zlib, crc-fast), or read (a plain read of the same buffers, no\n"
     "CRC: only when named); default: every one that serves the\n"
     "algorithm"},
    {"sizes", OPT_SIZES, required_argument, "LIST",
     "comma-separated sizes, suffixes K/KiB, M/MiB, G/GiB (default 8,\n"
     "16,32,64,128,256,512,1K,2K,4K,8K,16K,32K,1M,64M; --keys: 5..64)"},
    {"offsets", OPT_OFFSETS, required_argument, "LIST",
     "buffer offsets from 64-byte alignment (default 0,1)"},
    {"repeat", OPT_REPEAT, required_argument, "N",
     "rounds, each timing every subject once in turn; per subject the\n"
     "min and median time, and the median and quartiles of its ratio\n"
     "to the fastest peer and to auto in the same round (default 41)"},
    {"min-time", OPT_MIN_TIME, required_argument, "MS",
     "each sample lasts at least this, in ms (default 0.3)"},
    {"clock", OPT_CLOCK, required_argument, "C",
     "cpu: this thread's CPU time, so that other processes on a shared\n"
     "machine are not counted (the default but on Windows, which counts\n"
     "it in 15.6 ms scheduler ticks); wall: elapsed time"},
    {"quick", OPT_QUICK, no_argument, NULL,
     "smoke run: 0.1 ms samples, 5 rounds, sizes up to 1 MiB\n(unless given otherwise)"},
    {"keys", OPT_KEYS, no_argument, NULL,
     "small inputs: ns per call, throughput and latency loops"},
    {"loop", OPT_LOOP, required_argument, "L",
     "throughput: independent calls (default); latency: each call's\n"
     "address waits for the previous result (default sizes 8..4K)"},
    {"mixed", OPT_MIXED, no_argument, NULL,
     "a stream of calls of mixed sizes instead of --sizes: 70% 16-256 B,\n"
     "25% 256 B-8 KiB, 5% 8-64 KiB, random order and offsets (fixed seed)"},
    {"csv", OPT_CSV, optional_argument, "FILE",
     "print CSV instead of the table; =FILE writes it there as well"},
    {"json", OPT_JSON, optional_argument, "FILE",
     "print JSON instead of the table; =FILE writes it there as well"},
    {"plot", OPT_PLOT, required_argument, "FILE.svg",
     "SVG of GB/s against size, one panel per algorithm"},
    CLI_HELP_OPTION,
    {0},
};

static int cmd_bench(int argc, char **argv);

static const struct cli_command bench_command = {
    .name = "bench",
    .synopsis =
        "bench [-a ALGO]... [-i IMPL]... [--sizes LIST|--keys|--mixed] [--loop L] [--csv|--json]\n"
        "      [--plot F.svg]",
    .about = "throughput table: algorithms x implementations x sizes, beside the peer libraries",
    .options = bench_options,
    .notes = "Pin it for steady figures: taskset -c 1 crcforge bench ...\n",
    .run = cmd_bench,
};

static const size_t default_sizes[] = {8,    16,   32,    64,    128,       256,      512, 1024,
                                       2048, 4096, 8192, 16384, 32768, 1u << 20, 64u << 20};
static const size_t default_key_sizes[] = {5, 8, 11, 16, 20, 24, 31, 32, 48, 63, 64};
static const size_t default_latency_sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

/* The mixed stream: MIXED_CALLS calls over a MIXED_REGION-byte buffer. */
enum { MIXED_CALLS = 1024, MIXED_REGION = 1 << 20 };
static const char mixed_description[] =
    "1024 calls: 70% 16-256 B, 25% 256 B-8 KiB, 5% 8-64 KiB, each length uniform in its "
    "class, in random order, each at a random offset in a 1 MiB buffer (fixed seed)";

enum { MAX_LIST = 64, MAX_SUBJECTS = 48 };

struct bench_options {
    const crcforge_model *models[MAX_LIST];
    size_t nmodels;
    const char *impls[MAX_LIST];
    size_t nimpls;
    size_t sizes[MAX_LIST];
    size_t nsizes;
    unsigned offsets[MAX_LIST];
    size_t noffsets;
    struct bench_config cfg;
    int quick, keys, mixed;
    int loop_given;
    const char *csv, *json, *plot; /* "-" for standard output */
};

/* Whether v is already in the list (of sizes, or of offsets when those are given). */
static int listed(const size_t *sizes, const unsigned *offsets, size_t count, size_t v)
{
    for (size_t i = 0; i < count; i++)
        if ((offsets ? offsets[i] : sizes[i]) == v)
            return 1;
    return 0;
}

/* Comma-separated list of sizes or offsets, each once; prints the culprit on failure. */
static int parse_list(const char *opt, const char *list, size_t *sizes, unsigned *offsets,
                      size_t *count)
{
    char *copy = strdup(list);
    int rc = 0;
    *count = 0;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item != NULL && rc == 0;
         item = strtok_r(NULL, ",", &save)) {
        uint64_t v; /* at most 4 GiB: it is all allocated at once */
        if (cli_parse_size(item, &v) != 0 || v > (4ull << 30) ||
            (offsets != NULL && v > 63)) {
            cli_error("%s: '%s' is not %s", opt, item,
                      offsets ? "an offset from 0 to 63"
                              : "a size (bytes, or with K/KiB, M/MiB, G/GiB; at most 4 GiB)");
            rc = -1;
        } else if (listed(sizes, offsets, *count, v)) {
            continue; /* measured once, reported once */
        } else if (*count == MAX_LIST) {
            cli_error("%s: more than %d values", opt, MAX_LIST);
            rc = -1;
        } else if (offsets != NULL) {
            offsets[(*count)++] = (unsigned)v;
        } else {
            sizes[(*count)++] = (size_t)v;
        }
    }
    if (rc == 0 && *count == 0) {
        cli_error("%s: empty list", opt);
        rc = -1;
    }
    free(copy);
    return rc;
}

static int parse_count(const char *opt, const char *s, long lo, long hi, long *out)
{
    unsigned long long v;
    if (cli_parse_count(s, (unsigned long long)lo, (unsigned long long)hi, &v) != 0) {
        cli_error("%s: '%s' is not a number from %ld to %ld", opt, s, lo, hi);
        return -1;
    }
    *out = (long)v;
    return 0;
}

/* Milliseconds from 0 to 10000: ASCII digits with at most one '.', as seconds. */
static int parse_ms(const char *opt, const char *s, double *seconds)
{
    size_t digits = strspn(s, "0123456789"), dot = s[digits] == '.';
    size_t fraction = dot ? strspn(s + digits + 1, "0123456789") : 0;
    char *end;
    double v = strtod(s, &end);
    if (digits + fraction == 0 || s[digits + dot + fraction] != '\0' || *end != '\0' ||
        v > 10000) {
        cli_error("%s: '%s' is not a number of milliseconds from 0 to 10000", opt, s);
        return -1;
    }
    *seconds = v / 1000;
    return 0;
}

/* Whether an earlier -a measures what m does: the same catalogue model under another
 * name (crc32c, CRC-32/ISCSI), or a custom one with the same parameters.  (A custom
 * twin of a catalogue model is not one: it has no peers and no fixed-model entry.) */
static int model_listed(const struct bench_options *o, const crcforge_model *m)
{
    const crcforge_params *p = crcforge_model_params(m);
    int custom = crcforge_model_find(crcforge_model_name(m)) != m;
    for (size_t i = 0; i < o->nmodels; i++) {
        const crcforge_model *e = o->models[i];
        const crcforge_params *q = crcforge_model_params(e);
        if (e == m || (custom && crcforge_model_find(crcforge_model_name(e)) != e &&
                       p->width == q->width && p->poly == q->poly && p->init == q->init &&
                       p->refin == q->refin && p->refout == q->refout &&
                       p->xorout == q->xorout))
            return 1;
    }
    return 0;
}

/* An -i name must be auto, read, a crcforge path this CPU runs, or a peer library built
 * in. */
static int check_impl(const char *name)
{
    if (strcmp(name, "auto") == 0 || strcmp(name, "read") == 0)
        return 0;
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        if (strcmp(crcforge_impl_name(i), name) == 0) {
            if (crcforge_impl_runnable(name))
                return 0;
            cli_error("implementation '%s': this CPU cannot run it", name);
            return -1;
        }
    }
    for (size_t i = 0; i < bench_peer_library_count; i++) {
        if (strcmp(bench_peer_libraries[i].name, name) == 0) {
            if (bench_peer_libraries[i].built)
                return 0;
            cli_error("implementation '%s': peer not built (%s)", name,
                      bench_peer_libraries[i].why_not);
            return -1;
        }
    }
    cli_error("unknown implementation '%s' (auto, `crcforge cpu --impls`, a peer: "
              "isa-l, libdeflate, zlib, crc-fast, or read)", name);
    return -1;
}

/* --csv, --json: "-" (standard output) alone, the file after "=" otherwise. */
static int report_option(const char *opt, const char *value, const char **path)
{
    if (value == NULL) {
        *path = "-";
    } else if (*value == '\0') {
        cli_error("%s=: empty file name (%s alone writes to standard output)", opt, opt);
        return -1;
    } else {
        *path = value;
    }
    return 0;
}

/* A report file that cannot be written fails now, not after minutes of measuring.
 * Opened to append, so that an existing file is untouched until the report is ready. */
static int check_writable(const char *path)
{
    if (path == NULL || strcmp(path, "-") == 0)
        return 0;
    FILE *f = fopen(path, "a");
    if (f == NULL) {
        cli_error("%s: %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}

/* 0: run; 1: help printed, nothing to run; -1: error said. */
static int parse_options(int argc, char **argv, struct bench_options *o)
{
    long v;
    struct cli_parser p;
    cli_parser_init(&p, &bench_command, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        const crcforge_model *m;
        switch (c) {
        case CLI_HELP:
            cli_print_help(cli_out(), &bench_command);
            return 1;
        case 'a':
            if ((m = cli_model(optarg)) == NULL)
                return -1;
            if (model_listed(o, m)) { /* measured once, reported once */
                cli_release_model(m);
                break;
            }
            if (o->nmodels == MAX_LIST) {
                cli_error("bench: more than %d algorithms", MAX_LIST);
                cli_release_model(m);
                return -1;
            }
            o->models[o->nmodels++] = m;
            break;
        case 'i':
            if (o->nimpls == MAX_LIST) {
                cli_error("bench: more than %d implementations", MAX_LIST);
                return -1;
            }
            if (check_impl(optarg) != 0)
                return -1;
            o->impls[o->nimpls++] = optarg;
            break;
        case OPT_SIZES:
            if (parse_list("--sizes", optarg, o->sizes, NULL, &o->nsizes) != 0)
                return -1;
            break;
        case OPT_OFFSETS:
            if (parse_list("--offsets", optarg, NULL, o->offsets, &o->noffsets) != 0)
                return -1;
            break;
        case OPT_REPEAT:
            if (parse_count("--repeat", optarg, 1, 1000, &v) != 0)
                return -1;
            o->cfg.repeat = (unsigned)v;
            break;
        case OPT_MIN_TIME:
            if (parse_ms("--min-time", optarg, &o->cfg.min_sample_seconds) != 0)
                return -1;
            break;
        case OPT_CLOCK:
            if (strcmp(optarg, "cpu") != 0 && strcmp(optarg, "wall") != 0) {
                cli_error("--clock: '%s' is not cpu or wall", optarg);
                return -1;
            }
            o->cfg.wall_clock = strcmp(optarg, "wall") == 0;
            break;
        case OPT_QUICK:
            o->quick = 1;
            break;
        case OPT_KEYS:
            o->keys = 1;
            break;
        case OPT_LOOP:
            if (strcmp(optarg, "throughput") != 0 && strcmp(optarg, "latency") != 0) {
                cli_error("--loop: '%s' is not throughput or latency", optarg);
                return -1;
            }
            o->cfg.latency = strcmp(optarg, "latency") == 0;
            o->loop_given = 1;
            break;
        case OPT_MIXED:
            o->mixed = 1;
            break;
        case OPT_CSV:
            if (report_option("--csv", optarg, &o->csv) != 0)
                return -1;
            break;
        case OPT_JSON:
            if (report_option("--json", optarg, &o->json) != 0)
                return -1;
            break;
        case OPT_PLOT:
            if (*optarg == '\0') {
                cli_error("--plot: empty file name");
                return -1;
            }
            o->plot = optarg;
            break;
        default:
            return -1;
        }
    }
    if (optind < argc) {
        cli_error("bench: unexpected argument '%s' (see crcforge bench --help)", argv[optind]);
        return -1;
    }
    if (o->keys && (o->loop_given || o->mixed)) {
        cli_error("bench: --keys times both loops on its own sizes: not with %s",
                  o->mixed ? "--mixed" : "--loop");
        return -1;
    }
    if (o->mixed && (o->nsizes > 0 || o->noffsets > 0)) {
        cli_error("bench: --mixed makes its own sizes and offsets: not with %s",
                  o->nsizes > 0 ? "--sizes" : "--offsets");
        return -1;
    }
    if ((o->csv && strcmp(o->csv, "-") == 0) + (o->json && strcmp(o->json, "-") == 0) > 1) {
        cli_error("bench: --csv and --json cannot both go to standard output");
        return -1;
    }
    if (check_writable(o->csv) != 0 || check_writable(o->json) != 0 ||
        check_writable(o->plot) != 0)
        return -1;
    if (o->nmodels == 0)
        o->models[o->nmodels++] = crcforge_model_find("crc32c");
    /* Defaults for what was not given: tiny samples for --quick. */
    if (o->cfg.min_sample_seconds < 0)
        o->cfg.min_sample_seconds = o->quick ? 0.0001 : 0.0003;
    if (o->cfg.repeat == 0)
        o->cfg.repeat = o->quick ? 5 : 41;
    if (o->nsizes == 0 && !o->mixed) {
        const size_t *d = o->keys ? default_key_sizes
                          : o->cfg.latency ? default_latency_sizes
                                           : default_sizes;
        size_t n = o->keys            ? sizeof default_key_sizes / sizeof *d
                   : o->cfg.latency ? sizeof default_latency_sizes / sizeof *d
                                      : sizeof default_sizes / sizeof *d;
        for (size_t k = 0; k < n; k++)
            if (!o->quick || d[k] <= (1u << 20))
                o->sizes[o->nsizes++] = d[k];
    }
    if (o->noffsets == 0 && !o->mixed) {
        o->offsets[o->noffsets++] = 0;
        o->offsets[o->noffsets++] = 1;
    }
    return 0;
}

/* Whether -i selected this subject (by its crcforge path name or peer library); the
 * baseline only when named. */
static int selected(const struct bench_options *o, const struct bench_subject *s)
{
    if (o->nimpls == 0)
        return !s->is_baseline;
    size_t lib = strcspn(s->name, " ");
    for (size_t i = 0; i < o->nimpls; i++) {
        if (strcmp(o->impls[i], s->name) == 0 ||
            (s->is_peer && strlen(o->impls[i]) == lib &&
             strncmp(o->impls[i], s->name, lib) == 0))
            return 1;
    }
    return 0;
}

/* size bytes of fixed pseudo-random data from a page boundary, in a block of its own to
 * free (*block): malloc and a page more, as Windows has no posix_memalign. */
static uint8_t *random_buffer(size_t size, void **block)
{
    uint8_t *raw = *block = malloc(size + 4096);
    if (raw == NULL)
        return NULL;
    uint8_t *p = raw + (4096 - (uintptr_t)raw % 4096) % 4096;
    uint64_t x = 0x9e3779b97f4a7c15u; /* fixed seed: every run hashes the same data */
    for (size_t i = 0; i < size; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)(x >> 24);
    }
    return p;
}

/* The mixed stream (mixed_description): lengths and offsets from a fixed seed. */
static void mixed_stream(size_t *offsets, size_t *lens)
{
    uint64_t x = 0x2545f4914f6cdd1du;
    for (size_t j = 0; j < MIXED_CALLS; j++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        unsigned cls = (unsigned)(x % 100);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t lo = cls < 70 ? 16 : cls < 95 ? 256 : 8192;
        size_t hi = cls < 70 ? 256 : cls < 95 ? 8192 : 65536;
        lens[j] = lo + (size_t)(x % (hi - lo + 1));
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        offsets[j] = (size_t)(x % (MIXED_REGION - lens[j] + 1));
    }
}

/* Writes one report to path ("-": standard output, which main flushes and checks);
 * returns 0 or -1 after saying why. */
static int write_report(const char *path, void (*print)(FILE *, const struct bench_run *),
                        const struct bench_run *run)
{
    if (strcmp(path, "-") == 0) {
        print(stdout, run);
        return 0;
    }
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        cli_error("%s: %s", path, strerror(errno));
        return -1;
    }
    print(f, run);
    errno = 0;
    /* Flushed first: ferror alone misses what is still in the buffer. */
    int err = fflush(f) != 0 || ferror(f) ? (errno ? errno : EIO) : 0;
    if (fclose(f) != 0 && err == 0)
        err = errno;
    if (err != 0) {
        cli_error("%s: %s", path, strerror(err));
        return -1;
    }
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    /* A bad CRCFORGE_IMPL is a usage error, as in the tool, not a silent fallback. */
    const char *impl = getenv("CRCFORGE_IMPL");
    const char *why = NULL;
    if (impl != NULL && *impl != '\0' && crcforge_impl_force(impl, &why) != 0) {
        cli_error("CRCFORGE_IMPL=%s: %s", impl, why);
        return EXIT_TROUBLE;
    }
    /* Nor is any other setting the library could not take (the warnings above name
     * them): the figures would be filed as timed under it, and sweeps make tables of them. */
    const crcforge_env_problem *e = crcforge_env_problem_at(0);
    if (e != NULL) {
        cli_error("bench: nothing timed: %s=%s is not what the library runs (see the "
                  "warnings); correct or unset it",
                  e->variable, e->value);
        return EXIT_TROUBLE;
    }

    struct bench_options o = {.cfg = {.min_sample_seconds = -1, .repeat = 0,
                                      .wall_clock = BENCH_DEFAULT_WALL_CLOCK}};
    int parsed = parse_options(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? EXIT_OK : EXIT_TROUBLE;

    size_t largest = o.mixed ? MIXED_REGION : 0;
    for (size_t k = 0; k < o.nsizes; k++)
        if (o.sizes[k] > largest)
            largest = o.sizes[k];
    void *block = NULL;
    uint8_t *buf = random_buffer(largest + 64, &block);
    struct bench_subject *subjects = calloc(o.nmodels * MAX_SUBJECTS, sizeof *subjects);
    size_t max_results = o.nmodels * MAX_SUBJECTS *
                         (o.mixed ? 1 : o.nsizes * o.noffsets * (o.keys ? 2 : 1));
    struct bench_result *results = calloc(max_results, sizeof *results);
    size_t *offsets = calloc(MIXED_CALLS, sizeof *offsets);
    size_t *lens = calloc(MIXED_CALLS, sizeof *lens);
    if (buf == NULL || subjects == NULL || results == NULL || offsets == NULL || lens == NULL) {
        cli_error("bench: out of memory for a %zu-byte buffer", largest + 64);
        return EXIT_TROUBLE;
    }
    if (o.mixed)
        mixed_stream(offsets, lens);

    const char *cycles_note = NULL;
    bench_cycles_open(&cycles_note);
    struct bench_run run = {.cpu = bench_cpu_name(), .cycles_note = cycles_note, .cfg = &o.cfg,
                            .keys = o.keys, .latency = o.cfg.latency,
                            .mixed = o.mixed ? mixed_description : NULL, .results = results};
    int status = EXIT_OK;
    int progress = isatty(STDERR_FILENO);
    for (size_t mi = 0; mi < o.nmodels; mi++) {
        const crcforge_model *m = o.models[mi];
        struct bench_subject *subj = subjects + mi * MAX_SUBJECTS;
        size_t all = bench_subjects(m, subj, MAX_SUBJECTS), ns = 0;
        for (size_t k = 0; k < all; k++) {
            if (!selected(&o, &subj[k]))
                bench_subjects_free(&subj[k], 1);
            else
                subj[ns++] = subj[k];
        }
        memset(subj + ns, 0, (all - ns) * sizeof *subj); /* moved, or freed */
        if (ns == 0) {
            cli_error("bench: no selected implementation serves %s", crcforge_model_name(m));
            status = EXIT_TROUBLE;
        }
        if (o.mixed) {
            struct bench_input in = {.buf = buf, .count = MIXED_CALLS, .offsets = offsets,
                                     .lens = lens};
            if (progress)
                fprintf(stderr, "\r\033[K%s, mixed stream", crcforge_model_name(m));
            bench_measure_input(&o.cfg, subj, ns, m, &in, &results[run.count]);
            run.count += ns;
            continue;
        }
        const int loops = o.keys ? 2 : 1, first = o.keys ? 0 : o.cfg.latency;
        for (size_t oi = 0; oi < o.noffsets; oi++)
            for (size_t z = 0; z < o.nsizes; z++)
                for (int lat = first; lat < first + loops; lat++) {
                    if (progress) /* a full run takes minutes: show where it is */
                        fprintf(stderr, "\r\033[K%s, %zu bytes, offset %u", crcforge_model_name(m),
                                o.sizes[z], o.offsets[oi]);
                    o.cfg.latency = lat;
                    bench_measure(&o.cfg, subj, ns, m, buf + o.offsets[oi], o.sizes[z],
                                  &results[run.count]);
                    run.count += ns;
                }
        o.cfg.latency = run.latency;
    }

    if (progress)
        fputs("\r\033[K", stderr);
    int to_stdout = (o.csv && strcmp(o.csv, "-") == 0) || (o.json && strcmp(o.json, "-") == 0);
    if (!to_stdout)
        bench_print_table(stdout, &run);
    if ((o.csv && write_report(o.csv, bench_print_csv, &run) != 0) ||
        (o.json && write_report(o.json, bench_print_json, &run) != 0) ||
        (o.plot && write_report(o.plot, bench_plot_svg, &run) != 0))
        status = EXIT_TROUBLE;
    for (size_t i = 0; i < run.count; i++) {
        if (results[i].status != BENCH_MISMATCH)
            continue;
        size_t first = 0; /* one line per subject, however many sizes it failed */
        while (results[first].subject != results[i].subject ||
               results[first].status != BENCH_MISMATCH)
            first++;
        if (first == i)
            cli_error("bench: %s disagrees with crcforge on %s (timings discarded)",
                      results[i].subject, crcforge_model_name(results[i].model));
        if (status == EXIT_OK)
            status = EXIT_MISMATCH;
    }
    bench_results_free(results, run.count);
    for (size_t mi = 0; mi < o.nmodels; mi++)
        cli_release_model(o.models[mi]);
    bench_subjects_free(subjects, o.nmodels * MAX_SUBJECTS);
    free(lens);
    free(offsets);
    free(results);
    free(subjects);
    free(block);
    return status;
}

static const struct cli_command *const commands[] = {&bench_command};

/* argv[0] is the command's name ("bench" when the tool runs it), or this program's path:
 * the engine is given "bench" and the options after it. */
int main(int argc, char **argv)
{
    if (platform_start(&argc, &argv) != 0) /* argv in UTF-8 from here on */
        return EXIT_TROUBLE;
    struct cli_stream out, err;
    cli_stream_of_file(&out, stdout);
    cli_stream_of_file(&err, stderr);
    const struct cli_host host = {
        .program = "crcforge", .out = &out, .err = &err, .in = STDIN_FILENO,
        .err_fd = STDERR_FILENO, .extra = commands, .nextra = 1,
    };
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (args == NULL) {
        fputs("crcforge: bench: out of memory\n", stderr);
        return EXIT_TROUBLE;
    }
    args[0] = argv[0];
    args[1] = (char *)"bench";
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    int status = cli_run(&host, argc + 1, args);
    free(args);
    return status;
}
