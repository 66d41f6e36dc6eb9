/* SPDX-License-Identifier: MIT */
/*
 * The benchmark harness's own logic: every peer adapter compiled into this build agrees
 * with the bitwise reference (so its value semantics were adapted right), a deliberately
 * wrong peer is rejected before it is timed, a right one is timed, and the subject list
 * holds auto, every runnable path serving the model, and only peers of that model; every
 * crcforge subject is called through auto's entry with its path forced, before each of
 * its samples.
 */
#include <string.h>

#include "bench.h"
#include "check.h"
#include "guarded.h"
#include "internal.h"

/* CRC-32/ISO-HDLC where CRC-32/ISCSI is expected: the mistake a peer table could make. */
static uint64_t wrong_peer(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return crcforge_crc32(0, buf, len);
}

/* Right except for inputs longer than 100 bytes: caught only on the data timed. */
static uint64_t wrong_when_long(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return crcforge_crc32c(0, buf, len) ^ (len > 100);
}

static uint64_t right_peer(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return crc_reference(crcforge_model_params(crcforge_model_find("crc32c")), buf, len);
}

static void peers_match_reference(const uint8_t *data)
{
    for (size_t i = 0; i < bench_peer_count; i++) {
        const struct bench_peer *p = &bench_peers[i];
        const crcforge_model *m = crcforge_model_find(p->model);
        CHECK(m != NULL, "peer %s %s: no model %s", p->library, p->function, p->model);
        if (m == NULL)
            continue;
        if (!bench_peer_runs_here(p)) { /* its instructions would fault here */
            SKIP("peer %s %s: this CPU lacks what it needs", p->library, p->function);
            continue;
        }
        unsigned bad = 0;
        for (size_t len = 0; len <= 1100; len += len < 300 ? 1 : 97)
            for (size_t off = 0; off < 4; off++)
                bad += p->fn(NULL, data + off, len) !=
                       crc_reference(crcforge_model_params(m), data + off, len);
        CHECK(bad == 0, "peer %s %s disagrees with the reference for %s in %u cases", p->library,
              p->function, p->model, bad);
    }
    for (size_t i = 0; i < bench_peer_library_count; i++)
        if (!bench_peer_libraries[i].built)
            SKIP("peer %s not built (%s)", bench_peer_libraries[i].name,
                 bench_peer_libraries[i].why_not);
}

/* The named ISA-L kernels this CPU is said to run end, for CRC-32C, at the one ISA-L's own
 * dispatcher chose: the same CPUID tests as its dispatcher. */
static void isal_tiers_match_dispatcher(void)
{
    const char *dispatched = bench_isal_iscsi_dispatched();
    if (dispatched == NULL) {
        SKIP("isa-l not built: no dispatcher to compare the tiers with");
        return;
    }
    const char *highest = "(none)";
    for (size_t i = 0; i < bench_peer_count; i++) {
        const struct bench_peer *p = &bench_peers[i];
        if (strcmp(p->library, "isa-l") == 0 && strcmp(p->model, "CRC-32/ISCSI") == 0 &&
            p->runs_here != NULL && bench_peer_runs_here(p))
            highest = p->function;
    }
    CHECK(strcmp(highest, dispatched) == 0,
          "isa-l: the highest tier said to run here is %s, its dispatcher chose %s", highest,
          dispatched);
}

static void crosscheck(const uint8_t *data)
{
    const crcforge_model *m = crcforge_model_find("crc32c");
    struct bench_config cfg = {.min_sample_seconds = 0.0001, .repeat = 2,
                               .wall_clock = BENCH_DEFAULT_WALL_CLOCK};
    struct bench_subject wrong = {.name = "wrong", .is_peer = 1, .fn = wrong_peer};
    struct bench_subject late = {.name = "late", .is_peer = 1, .fn = wrong_when_long};
    struct bench_subject right = {.name = "right", .is_peer = 1, .fn = right_peer};
    struct bench_result r;

    bench_measure(&cfg, &wrong, 1, m, data, 64, &r);
    bench_results_free(&r, 1);
    CHECK(r.status == BENCH_MISMATCH && r.iterations == 0 && r.ns_best < 0,
          "a wrong peer was timed (status %d, %llu iterations)", r.status,
          (unsigned long long)r.iterations);
    CHECK(r.want == crc_reference(crcforge_model_params(m), data, 64) && r.got != r.want,
          "mismatch report: got %llx want %llx", (unsigned long long)r.got,
          (unsigned long long)r.want);

    bench_measure(&cfg, &late, 1, m, data + 1, 64, &r);
    bench_results_free(&r, 1);
    CHECK(r.status == BENCH_OK && r.iterations > 0 && r.ns_best > 0 &&
              r.ns_median >= r.ns_best && r.offset == ((uintptr_t)(data + 1) & 63),
          "a peer right on 64 bytes was not timed (status %d)", r.status);
    bench_measure(&cfg, &late, 1, m, data, 4096, &r);
    bench_results_free(&r, 1);
    CHECK(r.status == BENCH_MISMATCH, "a peer wrong on 4096 bytes was timed");

    /* In one interleaved row, the wrong one is dropped and the others still timed. */
    struct bench_subject row[] = {right, wrong, late};
    struct bench_result rr[3];
    bench_measure(&cfg, row, 3, m, data, 64, rr);
    bench_results_free(rr, 3);
    CHECK(rr[0].status == BENCH_OK && rr[1].status == BENCH_MISMATCH &&
              rr[2].status == BENCH_OK && rr[0].ns_best > 0 && rr[1].ns_best < 0 &&
              rr[2].ns_best > 0 && strcmp(rr[1].subject, "wrong") == 0,
          "row: statuses %d %d %d", rr[0].status, rr[1].status, rr[2].status);

    cfg.latency = 1;
    bench_measure(&cfg, &right, 1, m, data, 300, &r);
    bench_results_free(&r, 1);
    CHECK(r.status == BENCH_OK && r.latency == 1 && r.iterations > 0 && r.size == 300,
          "a right peer in the latency loop: status %d", r.status);
}

/* A crcforge subject's calls: what crcforge_impl_chosen said of the model hashed. */
static void same_entry_forced(const crcforge_model *m, const char *algo,
                              const struct bench_subject *s, size_t n, const uint8_t *data)
{
    const char *automatic = crcforge_impl_chosen(m);
    for (size_t i = 0; i < n; i++) {
        if (s[i].is_peer || s[i].is_baseline)
            continue;
        /* The model a subject hashes: its own copy (custom models), else m. */
        const crcforge_model *hashed = s[i].own_model ? s[i].own_model : m;
        CHECK(s[i].fn == s[0].fn && s[i].ctx == (const void *)hashed,
              "%s: %s is not called through auto's entry", algo, s[i].name);
        CHECK(s[i].force != NULL && strcmp(s[i].force, i ? s[i].name : "auto") == 0,
              "%s: %s forces %s", algo, s[i].name, s[i].force ? s[i].force : "nothing");
        bench_force(&s[i]);
        const char *ran = crcforge_impl_chosen(hashed);
        CHECK(strcmp(ran, i ? s[i].name : automatic) == 0, "%s: %s runs on %s", algo,
              s[i].name, ran);
        for (size_t len = 0; len <= 600; len += 37)
            CHECK(s[i].fn(s[i].ctx, data + 3, len) ==
                      crc_reference(crcforge_model_params(m), data + 3, len),
                  "%s: %s wrong at %zu bytes", algo, s[i].name, len);
    }
    crcforge_impl_force("auto", NULL);
}

/* The baseline reads every byte once and only those: its value is the xor of the input's
 * native-order qwords from its start (the last 1-7 bytes each on its own), computed
 * here byte by byte, on inputs ending at a page that faults if read. */
static void read_baseline(const struct bench_subject *s, const uint8_t *data)
{
    struct guarded g;
    if (guarded_alloc(&g, 700) != 0) {
        CHECK(0, "guarded buffer");
        return;
    }
    const uint16_t one = 1;
    const int little_endian = *(const uint8_t *)&one;
    for (size_t len = 0; len <= 700; len += 7) {
        uint8_t *buf = g.end - len;
        memcpy(buf, data, len);
        uint64_t want = 0;
        for (size_t i = 0; i < len; i++)
            want ^= i < len / 32 * 32
                        ? (uint64_t)buf[i] << (8 * (little_endian ? i % 8 : 7 - i % 8))
                        : buf[i];
        CHECK(s->fn(s->ctx, buf, len) == want, "read: wrong value at %zu bytes", len);
    }
    guarded_free(&g);
}

static void subjects(const uint8_t *data)
{
    struct bench_subject s[48];
    const char *algos[] = {"crc32c", "crc32", "crc64-nvme", "crc64-xz", "crc16-xmodem",
                           "CRC-5/USB", "CRC-64/ECMA-182", "custom"};
    const crcforge_params custom = {.width = 32, .poly = 0x1edc6f41, .init = 0xffffffff,
                                    .refin = 1, .refout = 1, .xorout = 0xffffffff};
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
        crcforge_model *made = a + 1 == sizeof algos / sizeof *algos
                                   ? crcforge_model_new(&custom, NULL)
                                   : NULL;
        const crcforge_model *m = made ? made : crcforge_model_find(algos[a]);
        const char *before = crcforge_impl_chosen(m);
        size_t n = bench_subjects(m, s, 48), own = 0, peers = 0, baselines = 0;
        CHECK(strcmp(crcforge_impl_chosen(m), before) == 0,
              "%s: bench_subjects left %s chosen, not %s", algos[a], crcforge_impl_chosen(m),
              before);
        CHECK(n >= 2 && strcmp(s[0].name, "auto") == 0, "%s: auto first", algos[a]);
        for (size_t i = 0; i < n; i++) {
            CHECK((s[i].ctx != NULL || s[i].is_baseline) && s[i].fn != NULL,
                  "%s: subject %s incomplete", algos[a], s[i].name);
            if (s[i].is_baseline) {
                baselines++;
                CHECK(i + 1 == n && strcmp(s[i].name, "read") == 0 && s[i].force == NULL &&
                          s[i].own_model == NULL,
                      "%s: the baseline is %s, at %zu of %zu", algos[a], s[i].name, i, n);
                read_baseline(&s[i], data);
                continue;
            }
            CHECK((s[i].own_model != NULL) == (made != NULL && !s[i].is_peer),
                  "%s: %s has %s model of its own", algos[a], s[i].name,
                  s[i].own_model ? "a" : "no");
            if (s[i].is_peer) {
                peers++;
                CHECK(crcforge_model_find(((const struct bench_peer *)s[i].ctx)->model) == m,
                      "%s: peer %s serves another model", algos[a], s[i].name);
                CHECK(s[i].force == NULL, "%s: peer %s forces a path", algos[a], s[i].name);
            } else {
                own++;
            }
        }
        same_entry_forced(m, algos[a], s, n, data);
        bench_subjects_free(s, n);
        size_t runnable = 0;
        for (size_t i = 0; i < crcforge_impl_count(); i++)
            runnable += crcforge_impl_runnable(crcforge_impl_name(i)) &&
                        crcforge_impl_supports(crcforge_impl_name(i), m);
        CHECK(own == runnable + 1, "%s: %zu crcforge subjects for %zu runnable paths + auto",
              algos[a], own, runnable);
        size_t want_peers = 0;
        for (size_t i = 0; i < bench_peer_count; i++)
            /* A kernel called by name that this CPU cannot run is no subject. */
            want_peers += crcforge_model_find(bench_peers[i].model) == m &&
                          bench_peer_runs_here(&bench_peers[i]);
        CHECK(peers == want_peers, "%s: %zu peers, %zu serve it", algos[a], peers, want_peers);
        CHECK(baselines == 1, "%s: %zu baselines", algos[a], baselines);
        crcforge_model_free(made);
    }
}

/* Which path each call of a subject ran on, as crcforge_impl_chosen says while it runs. */
struct path_log {
    const char *want;
    unsigned calls, elsewhere;
};

static uint64_t logged_crc32(const void *ctx, const uint8_t *buf, size_t len)
{
    struct path_log *log = (struct path_log *)ctx;
    log->calls++;
    log->elsewhere += strcmp(crcforge_impl_chosen(crcforge_model_find("crc32")), log->want) != 0;
    return crcforge_crc32(0, buf, len);
}

/* bench_time forces each subject's path before each of its samples, interleaved with
 * another's; a subject that forces nothing runs on whatever was forced last. */
static void forced_per_sample(const uint8_t *data)
{
    struct path_log portable = {"portable", 0, 0}, automatic = {NULL, 0, 0};
    automatic.want = crcforge_impl_chosen(crcforge_model_find("crc32"));
    struct bench_subject row[] = {
        {.name = "portable", .fn = logged_crc32, .ctx = &portable, .force = "portable"},
        {.name = "auto", .fn = logged_crc32, .ctx = &automatic, .force = "auto"},
    };
    struct bench_config cfg = {.min_sample_seconds = 0.0001, .repeat = 3,
                               .wall_clock = BENCH_DEFAULT_WALL_CLOCK};
    struct bench_input in = {.buf = data, .len = 256, .count = 1};
    struct bench_timing t[2];
    bench_time(&cfg, row, 2, &in, NULL, t);
    CHECK(portable.calls > 0 && portable.elsewhere == 0 && automatic.calls > 0 &&
              automatic.elsewhere == 0,
          "forced per sample: portable %u calls (%u elsewhere), auto %u (%u elsewhere)",
          portable.calls, portable.elsewhere, automatic.calls, automatic.elsewhere);
    if (strcmp(automatic.want, "portable") == 0)
        SKIP("forced per sample: auto is portable here, the two subjects run alike");
    crcforge_impl_force("auto", NULL);
}

/* The order subjects were called in, each run of calls to one subject noted once with
 * the number of its calls. */
struct call_order {
    int seq[64];
    uint64_t calls[64];
    size_t n;
};
static struct call_order order;

static uint64_t noted(const void *ctx, const uint8_t *buf, size_t len)
{
    int who = *(const int *)ctx;
    if (order.n == 0 || order.seq[order.n - 1] != who) {
        if (order.n < sizeof order.seq / sizeof *order.seq) {
            order.seq[order.n] = who;
            order.calls[order.n] = 0;
        }
        order.n++;
    }
    if (order.n <= sizeof order.seq / sizeof *order.seq)
        order.calls[order.n - 1]++;
    return crcforge_crc32c(0, buf, len);
}

/* Round orders: each a permutation, the same in every run; over each 2 n rounds of n = 1
 * to 12 subjects, each subject comes first exactly twice and follows each other one
 * exactly twice (rotated orders: one same subject in all but two). */
static void round_orders(void)
{
    for (size_t count = 1; count <= 12; count++)
        for (unsigned start = 0; start <= 2 * 12 * 2; start += 2 * (unsigned)count) {
            unsigned follows[12][12] = {{0}}, first[12] = {0};
            for (unsigned k = start; k < start + 2 * count; k++) {
                size_t a[12], b[12], seen = 0;
                bench_round_order(k, a, count);
                bench_round_order(k, b, count);
                int permutation = 1;
                for (size_t j = 0; j < count; j++) {
                    permutation &= a[j] < count && !(seen >> a[j] & 1) && a[j] == b[j];
                    seen |= (size_t)1 << (a[j] % count);
                }
                CHECK(permutation, "round %u of %zu subjects: not one permutation", k, count);
                if (!permutation)
                    return;
                first[a[0]]++;
                for (size_t j = 1; j < count; j++)
                    follows[a[j]][a[j - 1]]++;
            }
            for (size_t x = 0; x < count; x++) {
                CHECK(first[x] == 2, "%zu subjects, rounds %u-%u: subject %zu first %u times",
                      count, start, start + 2 * (unsigned)count - 1, x, first[x]);
                for (size_t y = 0; y < count; y++)
                    CHECK(follows[x][y] == (x != y ? 2u : 0u),
                          "%zu subjects, rounds %u-%u: subject %zu after %zu %u times", count,
                          start, start + 2 * (unsigned)count - 1, x, y, follows[x][y]);
            }
        }
}

/* Calibration times the subjects in order, then round k times each once in
 * bench_round_order(k)'s order, each sample after one untimed pass of the subject's own
 * (a subject that forces no path too); every round's time is kept, and best and median
 * are theirs. */
static void rounds_in_order(const uint8_t *data)
{
    static const int ids[3] = {0, 1, 2};
    struct bench_subject row[3];
    for (int i = 0; i < 3; i++)
        row[i] = (struct bench_subject){.name = "noted", .fn = noted, .ctx = &ids[i]};
    struct bench_config cfg = {.min_sample_seconds = 0.00005, .repeat = 5,
                               .wall_clock = BENCH_DEFAULT_WALL_CLOCK};
    struct bench_input in = {.buf = data, .len = 64, .count = 1};
    struct bench_timing t[3];
    double rounds[3 * 5];
    order.n = 0;
    bench_time_rounds(&cfg, row, 3, &in, NULL, t, rounds);
    int want[3 + 3 * 5];
    for (int i = 0; i < 3; i++)
        want[i] = i;
    for (int k = 0; k < 5; k++) {
        size_t o[3];
        bench_round_order((unsigned)k, o, 3);
        for (int j = 0; j < 3; j++)
            want[3 + 3 * k + j] = (int)o[j];
    }
    /* Two rounds where one subject ends one and starts the next make one run of calls. */
    size_t runs = 0;
    int merged[3 + 3 * 5];
    for (size_t j = 0; j < sizeof want / sizeof *want; j++)
        if (runs == 0 || merged[runs - 1] != want[j])
            merged[runs++] = want[j];
    CHECK(order.n == runs && memcmp(order.seq, merged, runs * sizeof *merged) == 0,
          "rounds: %zu runs of calls, not the %zu of calibration then 5 rounds in their orders",
          order.n, runs);
    /* A run past calibration's: samples of the subject, in one round or two. */
    for (size_t j = 3; j < order.n && j < runs; j++) {
        const int who = order.seq[j];
        CHECK(order.calls[j] % (t[who].iterations + 1) == 0,
              "round run %zu of subject %d: %llu calls, not samples of %llu timed and 1 untimed",
              j, who, (unsigned long long)order.calls[j],
              (unsigned long long)t[who].iterations);
    }
    for (int i = 0; i < 3; i++) {
        double sorted[5], lo = rounds[i * 5];
        for (int k = 0; k < 5; k++) {
            sorted[k] = rounds[i * 5 + k];
            lo = sorted[k] < lo ? sorted[k] : lo;
            for (int j = k; j > 0 && sorted[j] < sorted[j - 1]; j--) {
                double x = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = x;
            }
        }
        CHECK(lo > 0 && t[i].ns_best == lo && t[i].ns_median == sorted[2],
              "subject %d: best %g median %g, its rounds' %g and %g", i, t[i].ns_best,
              t[i].ns_median, lo, sorted[2]);
    }
    const double v[] = {1, 2, 4, 8};
    CHECK(bench_quantile(v, 4, 0.5) == 3 && bench_quantile(v, 4, 0.25) == 1.75 &&
              bench_quantile(v, 4, 0.75) == 5 && bench_quantile(v, 1, 0.25) == 1 &&
              bench_quantile(v, 0, 0.5) == -1,
          "quantiles of 1 2 4 8");
}

/* The lengths a subject was called with, in order. */
static size_t seen_lens[8], seen_count;

static uint64_t seen_crc32c(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    if (seen_count < 8)
        seen_lens[seen_count] = len;
    seen_count++;
    return crcforge_crc32c(0, buf, len);
}

/* A stream of mixed sizes: every call is checked (a peer wrong only on long inputs is
 * caught by the one long call among short ones), each call hashes its own length at its
 * own offset, and the result's size is the stream's mean length. */
static void mixed_input(const uint8_t *data)
{
    const crcforge_model *m = crcforge_model_find("crc32c");
    static const size_t offsets[4] = {3, 100, 0, 1000}, lens[4] = {20, 7, 4000, 50};
    struct bench_input in = {.buf = data, .count = 4, .offsets = offsets, .lens = lens};
    struct bench_config cfg = {.min_sample_seconds = 0.0001, .repeat = 3,
                               .wall_clock = BENCH_DEFAULT_WALL_CLOCK};
    struct bench_subject row[] = {
        {.name = "right", .is_peer = 1, .fn = right_peer},
        {.name = "late", .is_peer = 1, .fn = wrong_when_long},
        {.name = "seen", .fn = seen_crc32c},
    };
    struct bench_result r[3];
    bench_measure_input(&cfg, row, 3, m, &in, r);
    CHECK(r[0].status == BENCH_OK && r[0].mixed && r[0].size == (20 + 7 + 4000 + 50 + 2) / 4 &&
              r[0].rounds == 3 && r[0].ns_best > 0,
          "mixed: right peer status %d, size %zu", r[0].status, r[0].size);
    CHECK(r[1].status == BENCH_MISMATCH &&
              r[1].want == crc_reference(crcforge_model_params(m), data, 4000),
          "mixed: a peer wrong on the 4000-byte call was not caught (status %d)", r[1].status);
    CHECK(r[2].status == BENCH_OK && seen_count > 8 && seen_lens[0] == 20 && seen_lens[1] == 7 &&
              seen_lens[2] == 4000 && seen_lens[3] == 50 && seen_lens[4] == 20,
          "mixed: calls of %zu %zu %zu %zu %zu bytes", seen_lens[0], seen_lens[1], seen_lens[2],
          seen_lens[3], seen_lens[4]);
    bench_results_free(r, 3);
}

int main(void)
{
    check_begin("test_bench");
    uint8_t *data = malloc(8192);
    rnd_fill(data, 8192);
    peers_match_reference(data);
    isal_tiers_match_dispatcher();
    crosscheck(data);
    subjects(data);
    forced_per_sample(data);
    round_orders();
    rounds_in_order(data);
    mixed_input(data);
    free(data);
    return check_end();
}
