/* The subjects of a crcforge bench run for one model (crcforge's paths, then the peers),
 * and their measurement: each checked against crcforge's portable engine, then timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Every crcforge path is called as a user would stream one buffer: a copy of the
 * prepared state (which pins the path), one update, final. */
static uint64_t crcforge_path(const void *ctx, const uint8_t *buf, size_t len)
{
    crcforge_state s = ((const struct bench_subject *)ctx)->state;
    crcforge_update(&s, buf, len);
    return crcforge_final(&s);
}

/* "auto" of a fixed algorithm is its public one-shot entry, the call its users make (and
 * the way every peer is called); other models stream through crcforge_update. */
#define FIXED_ENTRY(fn)                                                                  \
    static uint64_t auto_##fn(const void *ctx, const uint8_t *buf, size_t len)          \
    {                                                                                   \
        (void)ctx;                                                                      \
        return crcforge_##fn(0, buf, len);                                              \
    }
FIXED_ENTRY(crc32c)
FIXED_ENTRY(crc32)
FIXED_ENTRY(crc64_nvme)
FIXED_ENTRY(crc64_xz)
FIXED_ENTRY(crc16_xmodem)

static bench_fn auto_entry(const crcforge_model *m)
{
    static const struct {
        const char *alias;
        bench_fn fn;
    } fixed[] = {{"crc32c", auto_crc32c},         {"crc32", auto_crc32},
                 {"crc64-nvme", auto_crc64_nvme}, {"crc64-xz", auto_crc64_xz},
                 {"crc16-xmodem", auto_crc16_xmodem}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (crcforge_model_find(fixed[i].alias) == m)
            return fixed[i].fn;
    return crcforge_path;
}

size_t bench_subjects(const crcforge_model *m, struct bench_subject *out, size_t max)
{
    size_t n = 0;
    if (n < max) {
        out[n] = (struct bench_subject){.name = "auto", .fn = auto_entry(m)};
        crcforge_init(&out[n].state, m);
        out[n].ctx = &out[n];
        n++;
    }
    for (size_t i = 0; i < crcforge_impl_count() && n < max; i++) {
        const char *name = crcforge_impl_name(i);
        if (crcforge_init_impl(&out[n].state, m, name, NULL) != 0)
            continue; /* does not serve m, or this CPU cannot run it */
        snprintf(out[n].name, sizeof out[n].name, "%s", name);
        out[n].is_peer = 0;
        out[n].fn = crcforge_path;
        out[n].loop = NULL;
        out[n].ctx = &out[n];
        n++;
    }
    for (size_t i = 0; i < bench_peer_count && n < max; i++) {
        const struct bench_peer *p = &bench_peers[i];
        if (crcforge_model_find(p->model) != m)
            continue;
        out[n] = (struct bench_subject){.is_peer = 1, .fn = p->fn, .ctx = p};
        snprintf(out[n].name, sizeof out[n].name, "%s %s", p->library, p->function);
        n++;
    }
    return n;
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

void bench_measure(const struct bench_config *cfg, const struct bench_subject *subjects,
                   size_t count, const crcforge_model *m, const uint8_t *buf, size_t len,
                   struct bench_result *results)
{
    unsigned char *mismatch = calloc(count, 1);
    struct bench_timing *timings = calloc(count, sizeof *timings);
    if (mismatch == NULL || timings == NULL)
        abort();
    for (size_t i = 0; i < count; i++) {
        struct bench_result *r = &results[i];
        *r = (struct bench_result){.model = m, .subject = subjects[i].name,
                                   .is_peer = subjects[i].is_peer, .size = len,
                                   .offset = (unsigned)((uintptr_t)buf & 63),
                                   .latency = cfg->latency, .status = BENCH_OK};
        if (bench_verify(&subjects[i], m, buf, len, &r->got, &r->want) != 0) {
            r->status = BENCH_MISMATCH; /* its time would mean nothing */
            mismatch[i] = 1;
        }
    }
    struct bench_input in = {buf, len, 0, 1};
    bench_time(cfg, subjects, count, &in, mismatch, timings);
    for (size_t i = 0; i < count; i++) {
        results[i].iterations = timings[i].iterations;
        results[i].ns_best = timings[i].ns_best;
        results[i].ns_median = timings[i].ns_median;
        results[i].cycles_best = timings[i].cycles_best;
    }
    free(timings);
    free(mismatch);
}
