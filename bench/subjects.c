/* SPDX-License-Identifier: MIT */
/* The subjects of a crcforge bench run for one model (crcforge's paths, then the peers),
 * and their measurement: each checked against crcforge's portable engine, then timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/*
 * Every crcforge subject, "auto" and each path, is called as users call crcforge: a fixed
 * algorithm through its public one-shot entry, any other model through crcforge_checksum.
 * Its path is forced (crcforge_impl_force) before each of its samples and checks
 * (measure.c), so that "auto" and the path it picks pay the same entry and differ only by
 * the choice.  A custom model keeps the path it was first resolved on whatever is forced
 * later, so each subject of one hashes a copy of its own, resolved while its path is forced.
 */
#define FIXED_ENTRY(fn)                                                                  \
    static BENCH_CODE_ALIGNED uint64_t entry_##fn(const void *ctx, const uint8_t *buf,    \
                                                  size_t len)                             \
    {                                                                                   \
        (void)ctx;                                                                      \
        return crcforge_##fn(0, buf, len);                                              \
    }
FIXED_ENTRY(crc32c)
FIXED_ENTRY(crc32)
FIXED_ENTRY(crc64_nvme)
FIXED_ENTRY(crc64_xz)
FIXED_ENTRY(crc16_xmodem)

static BENCH_CODE_ALIGNED uint64_t entry_checksum(const void *ctx, const uint8_t *buf, size_t len)
{
    return crcforge_checksum(ctx, buf, len);
}

static bench_fn entry(const crcforge_model *m)
{
    static const struct {
        const char *alias;
        bench_fn fn;
    } fixed[] = {{"crc32c", entry_crc32c},         {"crc32", entry_crc32},
                 {"crc64-nvme", entry_crc64_nvme}, {"crc64-xz", entry_crc64_xz},
                 {"crc16-xmodem", entry_crc16_xmodem}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (crcforge_model_find(fixed[i].alias) == m)
            return fixed[i].fn;
    return entry_checksum;
}

/* What "auto" forces: the automatic choice, or CRCFORGE_IMPL's path when it names one this
 * CPU runs (then "auto" is that path, as for every other program). */
static const char *automatic(void)
{
    const char *env = getenv("CRCFORGE_IMPL");
    return env != NULL && crcforge_impl_runnable(env) ? env : "auto";
}

static struct bench_subject crcforge_subject(const crcforge_model *m, const char *name,
                                             const char *force)
{
    struct bench_subject s = {.fn = entry(m), .ctx = m, .force = force};
    snprintf(s.name, sizeof s.name, "%s", name);
    if (crcforge_model_find(crcforge_model_name(m)) != m) { /* custom */
        s.own_model = crcforge_model_new(crcforge_model_params(m), NULL);
        if (s.own_model == NULL)
            abort(); /* its parameters were valid a moment ago: out of memory */
        bench_force(&s);
        crcforge_impl_chosen(s.own_model); /* resolved, for good, on the forced path */
        s.ctx = s.own_model;
    }
    return s;
}

/* The baseline "read": every byte loaded once (8-byte loads xored in four chains, the
 * last bytes one by one) and nothing else, the floor of any CRC of the same buffers once
 * they come from beyond the caches. */
static BENCH_CODE_ALIGNED uint64_t plain_read(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    uint64_t x[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + 32 <= len; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t v;
            memcpy(&v, buf + i + 8 * k, 8);
            x[k] ^= v;
        }
    for (; i < len; i++)
        x[0] ^= buf[i];
    return x[0] ^ x[1] ^ x[2] ^ x[3];
}

size_t bench_subjects(const crcforge_model *m, struct bench_subject *out, size_t max)
{
    size_t n = 0;
    if (n < max)
        out[n++] = crcforge_subject(m, "auto", automatic());
    for (size_t i = 0; i < crcforge_impl_count() && n < max; i++) {
        const char *name = crcforge_impl_name(i);
        if (crcforge_impl_runnable(name) && crcforge_impl_supports(name, m))
            out[n++] = crcforge_subject(m, name, name);
    }
    crcforge_impl_force(automatic(), NULL);
    for (size_t i = 0; i < bench_peer_count && n < max; i++) {
        const struct bench_peer *p = &bench_peers[i];
        if (crcforge_model_find(p->model) != m || !bench_peer_runs_here(p))
            continue;
        out[n] = (struct bench_subject){.is_peer = 1, .fn = p->fn, .ctx = p};
        snprintf(out[n].name, sizeof out[n].name, "%s %s", p->library, p->function);
        n++;
    }
    if (n < max) {
        out[n] = (struct bench_subject){.is_baseline = 1, .fn = plain_read};
        snprintf(out[n].name, sizeof out[n].name, "read");
        n++;
    }
    return n;
}

void bench_subjects_free(struct bench_subject *subjects, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        crcforge_model_free(subjects[i].own_model);
        subjects[i].own_model = NULL;
    }
}

int bench_verify(const struct bench_subject *s, const crcforge_model *m, const uint8_t *buf,
                 size_t len, uint64_t *got, uint64_t *want)
{
    if (s->is_baseline) { /* no CRC to check */
        *got = *want = 0;
        return 0;
    }
    crcforge_state ref;
    crcforge_init_impl(&ref, m, "portable", NULL); /* always valid */
    crcforge_update(&ref, buf, len);
    *want = crcforge_final(&ref);
    bench_force(s);
    *got = s->fn(s->ctx, buf, len);
    return *got == *want ? 0 : -1;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Over the rounds, ref's time / subject i's time of the same round, where ref(k) is the
 * least time in round k of the subjects is_ref marks. */
static struct bench_paired paired(const double *rounds_ns, size_t count, unsigned repeat,
                                  size_t i, const unsigned char *is_ref)
{
    struct bench_paired out = {-1, -1, -1};
    double *ratio = malloc(repeat * sizeof *ratio);
    if (ratio == NULL)
        abort();
    size_t n = 0;
    for (unsigned k = 0; k < repeat; k++) {
        double ref = -1, mine = rounds_ns[i * repeat + k];
        for (size_t j = 0; j < count; j++) {
            double t = rounds_ns[j * repeat + k];
            if (is_ref[j] && t > 0 && (ref < 0 || t < ref))
                ref = t;
        }
        if (ref > 0 && mine > 0)
            ratio[n++] = ref / mine;
    }
    if (n > 0) {
        qsort(ratio, n, sizeof *ratio, by_value);
        out = (struct bench_paired){bench_quantile(ratio, n, 0.5), bench_quantile(ratio, n, 0.25),
                                    bench_quantile(ratio, n, 0.75)};
    }
    free(ratio);
    return out;
}

void bench_measure(const struct bench_config *cfg, const struct bench_subject *subjects,
                   size_t count, const crcforge_model *m, const uint8_t *buf, size_t len,
                   struct bench_result *results)
{
    struct bench_input in = {buf, len, 0, 1, NULL, NULL};
    bench_measure_input(cfg, subjects, count, m, &in, results);
}

/* Every call of the input checked; the first that disagrees is recorded. */
static int verify_input(const struct bench_subject *s, const crcforge_model *m,
                        const struct bench_input *in, uint64_t *got, uint64_t *want)
{
    if (in->lens == NULL)
        return bench_verify(s, m, in->buf, in->len, got, want);
    for (size_t j = 0; j < in->count; j++)
        if (bench_verify(s, m, in->buf + in->offsets[j], in->lens[j], got, want) != 0)
            return -1;
    return 0;
}

void bench_measure_input(const struct bench_config *cfg, const struct bench_subject *subjects,
                         size_t count, const crcforge_model *m, const struct bench_input *in,
                         struct bench_result *results)
{
    size_t len = in->len;
    if (in->lens != NULL) { /* the mean length, which gives GB/s of the whole stream */
        size_t total = 0;
        for (size_t j = 0; j < in->count; j++)
            total += in->lens[j];
        len = (total + in->count / 2) / in->count;
    }
    const unsigned repeat = cfg->repeat > 0 ? cfg->repeat : 1;
    unsigned char *mismatch = calloc(count, 1), *peer = calloc(count, 1),
                  *is_auto = calloc(count, 1);
    struct bench_timing *timings = calloc(count, sizeof *timings);
    double *rounds_ns = malloc(count * repeat * sizeof *rounds_ns);
    if (mismatch == NULL || peer == NULL || is_auto == NULL || timings == NULL ||
        rounds_ns == NULL)
        abort();
    for (size_t i = 0; i < count; i++) {
        struct bench_result *r = &results[i];
        *r = (struct bench_result){.model = m, .subject = subjects[i].name,
                                   .is_peer = subjects[i].is_peer,
                                   .is_baseline = subjects[i].is_baseline, .size = len,
                                   .offset = (unsigned)((uintptr_t)in->buf & 63),
                                   .latency = cfg->latency, .mixed = in->lens != NULL,
                                   .status = BENCH_OK};
        if (verify_input(&subjects[i], m, in, &r->got, &r->want) != 0) {
            r->status = BENCH_MISMATCH; /* its time would mean nothing */
            mismatch[i] = 1;
        }
        peer[i] = subjects[i].is_peer && !mismatch[i];
        is_auto[i] = strcmp(subjects[i].name, "auto") == 0 && !mismatch[i];
    }
    bench_time_rounds(cfg, subjects, count, in, mismatch, timings, rounds_ns);
    crcforge_impl_force(automatic(), NULL); /* as it was: the subjects forced their paths */
    for (size_t i = 0; i < count; i++) {
        struct bench_result *r = &results[i];
        r->iterations = timings[i].iterations;
        r->ns_best = timings[i].ns_best;
        r->ns_median = timings[i].ns_median;
        r->cycles_best = timings[i].cycles_best;
        r->vs_peer = r->vs_auto = (struct bench_paired){-1, -1, -1};
        if (mismatch[i])
            continue;
        r->rounds = repeat;
        r->rounds_ns = malloc(repeat * sizeof *r->rounds_ns);
        if (r->rounds_ns == NULL)
            abort();
        memcpy(r->rounds_ns, rounds_ns + i * repeat, repeat * sizeof *r->rounds_ns);
        r->vs_peer = paired(rounds_ns, count, repeat, i, peer);
        r->vs_auto = paired(rounds_ns, count, repeat, i, is_auto);
    }
    free(rounds_ns);
    free(timings);
    free(is_auto);
    free(peer);
    free(mismatch);
}

void bench_results_free(struct bench_result *results, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free(results[i].rounds_ns);
        results[i].rounds_ns = NULL;
    }
}
