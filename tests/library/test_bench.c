/*
 * The benchmark harness's own logic: every peer adapter compiled into this build agrees
 * with the bitwise reference (so its value semantics were adapted right), a deliberately
 * wrong peer is rejected before it is timed, a right one is timed, and the subject list
 * holds auto, every runnable path serving the model, and only peers of that model.
 */
#include <string.h>

#include "bench.h"
#include "check.h"
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

static void crosscheck(const uint8_t *data)
{
    const crcforge_model *m = crcforge_model_find("crc32c");
    struct bench_config cfg = {.min_sample_seconds = 0.0001, .repeat = 2};
    struct bench_subject wrong = {.name = "wrong", .is_peer = 1, .fn = wrong_peer};
    struct bench_subject late = {.name = "late", .is_peer = 1, .fn = wrong_when_long};
    struct bench_subject right = {.name = "right", .is_peer = 1, .fn = right_peer};
    struct bench_result r;

    bench_measure(&cfg, &wrong, 1, m, data, 64, &r);
    CHECK(r.status == BENCH_MISMATCH && r.iterations == 0 && r.ns_best < 0,
          "a wrong peer was timed (status %d, %llu iterations)", r.status,
          (unsigned long long)r.iterations);
    CHECK(r.want == crc_reference(crcforge_model_params(m), data, 64) && r.got != r.want,
          "mismatch report: got %llx want %llx", (unsigned long long)r.got,
          (unsigned long long)r.want);

    bench_measure(&cfg, &late, 1, m, data + 1, 64, &r);
    CHECK(r.status == BENCH_OK && r.iterations > 0 && r.ns_best > 0 &&
              r.ns_median >= r.ns_best && r.offset == ((uintptr_t)(data + 1) & 63),
          "a peer right on 64 bytes was not timed (status %d)", r.status);
    bench_measure(&cfg, &late, 1, m, data, 4096, &r);
    CHECK(r.status == BENCH_MISMATCH, "a peer wrong on 4096 bytes was timed");

    /* In one interleaved row, the wrong one is dropped and the others still timed. */
    struct bench_subject row[] = {right, wrong, late};
    struct bench_result rr[3];
    bench_measure(&cfg, row, 3, m, data, 64, rr);
    CHECK(rr[0].status == BENCH_OK && rr[1].status == BENCH_MISMATCH &&
              rr[2].status == BENCH_OK && rr[0].ns_best > 0 && rr[1].ns_best < 0 &&
              rr[2].ns_best > 0 && strcmp(rr[1].subject, "wrong") == 0,
          "row: statuses %d %d %d", rr[0].status, rr[1].status, rr[2].status);

    cfg.latency = 1;
    bench_measure(&cfg, &right, 1, m, data, 300, &r);
    CHECK(r.status == BENCH_OK && r.latency == 1 && r.iterations > 0 && r.size == 300,
          "a right peer in the latency loop: status %d", r.status);
}

static void subjects(void)
{
    struct bench_subject s[48];
    const char *algos[] = {"crc32c", "crc32", "crc64-nvme", "crc64-xz", "crc16-xmodem",
                           "CRC-5/USB"};
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
        const crcforge_model *m = crcforge_model_find(algos[a]);
        size_t n = bench_subjects(m, s, 48), own = 0, peers = 0;
        CHECK(n >= 2 && strcmp(s[0].name, "auto") == 0, "%s: auto first", algos[a]);
        for (size_t i = 0; i < n; i++) {
            CHECK(s[i].ctx != NULL && s[i].fn != NULL, "%s: subject %s incomplete", algos[a],
                  s[i].name);
            if (s[i].is_peer) {
                peers++;
                CHECK(crcforge_model_find(((const struct bench_peer *)s[i].ctx)->model) == m,
                      "%s: peer %s serves another model", algos[a], s[i].name);
            } else {
                own++;
            }
        }
        size_t runnable = 0;
        for (size_t i = 0; i < crcforge_impl_count(); i++)
            runnable += crcforge_impl_runnable(crcforge_impl_name(i)) &&
                        crcforge_impl_supports(crcforge_impl_name(i), m);
        CHECK(own == runnable + 1, "%s: %zu crcforge subjects for %zu runnable paths + auto",
              algos[a], own, runnable);
        size_t want_peers = 0;
        for (size_t i = 0; i < bench_peer_count; i++)
            want_peers += crcforge_model_find(bench_peers[i].model) == m;
        CHECK(peers == want_peers, "%s: %zu peers, %zu serve it", algos[a], peers, want_peers);
    }
}

int main(void)
{
    check_begin("test_bench");
    uint8_t *data = malloc(8192);
    rnd_fill(data, 8192);
    peers_match_reference(data);
    crosscheck(data);
    subjects();
    free(data);
    return check_end();
}
