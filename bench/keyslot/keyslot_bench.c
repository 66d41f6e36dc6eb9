/* SPDX-License-Identifier: MIT */
/*
 * keyslot_bench: ns per Redis/Valkey cluster key slot, for keys of 5..64 bytes, by
 * CRC-16/XMODEM approach:
 *   byte      one 256-entry table, a lookup a byte: the Redis/Valkey crc16.c algorithm (512 B)
 *   nibble    one 16-entry table, two lookups a byte (32 B)
 *   twobyte   one 65536-entry table, a lookup per two bytes (128 KiB + the byte table)
 *   slice2    two 256-entry tables, slicing-by-2 (1 KiB)
 *   slice16   src/table.c's slicing-by-16, through crcforge_checksum forced "portable"
 *   crcforge  crcforge_keyslot (the short-key operations of the path chosen for CRC-16/XMODEM)
 *   batch     crcforge_keyslots over the whole array, one call a pass (throughput only)
 * The seed approaches hash through the Redis rule written the way Redis writes it (a
 * byte loop for '{' then '}'); their tables are derived here from the polynomial.
 *
 * Two loops per length: "thru" hashes independent keys; "lat" makes each key's address
 * depend on the previous slot (slot & an opaque zero), so the calls cannot overlap.
 * Each approach has its own instance of the benchmarks' one calling loop
 * (BENCH_LOOP in bench/bench.h) calling it directly, as a caller of the library calls
 * crcforge_keyslot.  Samples of about 20 us (short, so that few are preempted on a busy
 * machine) walk 256 keys; the figure is ns per key, min and median over 101 samples,
 * which interleave the approaches (the batch is timed in rounds of its own).  A second
 * table times the CRC alone (no hash-tag rule), beside the library's engine and its
 * fixed entry.  Before timing, every approach is checked against the bitwise reference
 * on all the keys (and on keys with hash tags).
 *
 * Usage: keyslot_bench [--quick]   (pin it: taskset -c 1 build/keyslot_bench)
 * --quick: the checks and a short timing run, for the test suite (figures meaningless).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "crcforge.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "keyslot.h"
#include "../quick_arg.h"

#define POLY 0x1021u
#define KEYS 256
#define MAXLEN 64

static uint16_t t_byte[256], t_nibble[16], t_hi[256];
static uint16_t *t_twobyte;

/* v * x^(shift) mod P for v of degree < 16, shifting in one bit at a time. */
static uint16_t mulx_mod(uint32_t v, unsigned shift)
{
    for (unsigned i = 0; i < shift; i++)
        v = (v << 1) ^ ((v & 0x8000u) ? POLY : 0);
    return (uint16_t)v;
}

static void build_tables(void)
{
    /* t[v] = v * x^16 mod P: the register after feeding the bits of v into zero. */
    for (unsigned v = 0; v < 256; v++) {
        t_byte[v] = mulx_mod(v << 8, 8);
        t_hi[v] = mulx_mod(v << 8, 16);
    }
    for (unsigned v = 0; v < 16; v++)
        t_nibble[v] = mulx_mod(v << 12, 4);
    t_twobyte = malloc(65536 * sizeof *t_twobyte);
    if (t_twobyte == NULL)
        abort();
    for (unsigned v = 0; v < 65536; v++)
        t_twobyte[v] = mulx_mod(v, 16);
}

static uint16_t crc_byte(const uint8_t *p, size_t n)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < n; i++)
        crc = (uint16_t)(crc << 8) ^ t_byte[((crc >> 8) ^ p[i]) & 0xff];
    return crc;
}

static uint16_t crc_nibble(const uint8_t *p, size_t n)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc = (uint16_t)(crc << 4) ^ t_nibble[(crc >> 12) ^ (p[i] >> 4)];
        crc = (uint16_t)(crc << 4) ^ t_nibble[(crc >> 12) ^ (p[i] & 15)];
    }
    return crc;
}

static uint16_t crc_twobyte(const uint8_t *p, size_t n)
{
    uint16_t crc = 0;
    size_t i = 0;
    for (; i + 2 <= n; i += 2)
        crc = t_twobyte[crc ^ (p[i] << 8 | p[i + 1])];
    if (i < n)
        crc = (uint16_t)(crc << 8) ^ t_byte[((crc >> 8) ^ p[i]) & 0xff];
    return crc;
}

static uint16_t crc_slice2(const uint8_t *p, size_t n)
{
    uint16_t crc = 0;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        unsigned x = crc ^ (p[i] << 8 | p[i + 1]);
        crc = t_hi[x >> 8] ^ t_byte[x & 0xff];
    }
    if (i < n)
        crc = (uint16_t)(crc << 8) ^ t_byte[((crc >> 8) ^ p[i]) & 0xff];
    return crc;
}

static const crcforge_model *xmodem;
static crcforge_state portable; /* CRC-16/XMODEM pinned to src/table.c's engine */

static uint16_t crc_slice16(const uint8_t *p, size_t n)
{
    crcforge_state s = portable;
    crcforge_update(&s, p, n);
    return (uint16_t)crcforge_final(&s);
}

/* The library's own: its dispatched engine, and the fixed entry (the path chosen for
 * CRC-16/XMODEM). */
static uint16_t crc_engine(const uint8_t *p, size_t n)
{
    return (uint16_t)crcforge_checksum(xmodem, p, n);
}

static uint16_t crc_entry(const uint8_t *p, size_t n)
{
    return crcforge_crc16_xmodem(0, p, n);
}

/* The hash-tag rule as Redis's keyHashSlot() spells it, over one engine. */
#define REDIS_SLOT(name, crcfn)                                                          \
    static unsigned name(const uint8_t *k, size_t len)                                   \
    {                                                                                    \
        size_t s, e;                                                                     \
        for (s = 0; s < len; s++)                                                        \
            if (k[s] == '{')                                                             \
                break;                                                                   \
        if (s == len)                                                                    \
            return crcfn(k, len) & 16383;                                                \
        for (e = s + 1; e < len; e++)                                                    \
            if (k[e] == '}')                                                             \
                break;                                                                   \
        if (e == len || e == s + 1)                                                      \
            return crcfn(k, len) & 16383;                                                \
        return crcfn(k + s + 1, e - s - 1) & 16383;                                      \
    }

/* The baseline engines, the one list: name and bytes of tables read.  Each is timed
 * through the hash-tag rule (slot_NAME) and alone (crc_NAME). */
#define BASELINES(X)                                                                     \
    X(byte, sizeof t_byte)                                                               \
    X(nibble, sizeof t_nibble)                                                           \
    X(twobyte, 65536 * 2 + sizeof t_byte)                                                \
    X(slice2, sizeof t_hi + sizeof t_byte)                                               \
    X(slice16, 16 * 256 * 4)

/* Per baseline: its slot function, and a calling loop for the slot and for the CRC. */
#define INSTANCES(engine, bytes)                                                         \
    REDIS_SLOT(slot_##engine, crc_##engine)                                              \
    BENCH_LOOP(slot_loop_##engine, slot_##engine(bench_p, bench_n))                      \
    BENCH_LOOP(crc_loop_##engine, crc_##engine(bench_p, bench_n))
BASELINES(INSTANCES)
#undef INSTANCES

static unsigned slot_crcforge(const uint8_t *k, size_t len)
{
    return crcforge_keyslot(k, len);
}
BENCH_LOOP(slot_loop_crcforge, crcforge_keyslot(bench_p, bench_n))
BENCH_LOOP(crc_loop_engine, crc_engine(bench_p, bench_n))
BENCH_LOOP(crc_loop_entry, crc_entry(bench_p, bench_n))

/* A table row: a subject of the benchmark and what it reads. */
struct approach {
    struct bench_subject subject;
    size_t table_bytes;
    unsigned (*slot)(const uint8_t *key, size_t len); /* checked against the reference */
};

#define SLOT_APPROACH(engine, bytes) {{.name = #engine, .loop = slot_loop_##engine}, bytes, slot_##engine},
#define CRC_APPROACH(engine, bytes) {{.name = #engine, .loop = crc_loop_##engine}, bytes, NULL},
static struct approach slot_approaches[] = {
    BASELINES(SLOT_APPROACH)
    {{.name = "crcforge", .loop = slot_loop_crcforge}, 0 /* set in main */, slot_crcforge},
};
static struct approach crc_approaches[] = {
    BASELINES(CRC_APPROACH)
    {{.name = "engine", .loop = crc_loop_engine}, 0, NULL},
    {{.name = "xmodem", .loop = crc_loop_entry}, 0 /* set in main */, NULL},
};
#undef SLOT_APPROACH
#undef CRC_APPROACH
#define NSLOT (sizeof slot_approaches / sizeof slot_approaches[0])
#define NCRC (sizeof crc_approaches / sizeof crc_approaches[0])

static uint8_t keybuf[KEYS * MAXLEN + MAXLEN];
static const void *batch_keys[KEYS];
static size_t batch_lens[KEYS];

/* crcforge_keyslots over all KEYS keys: one call a pass. */
static uint64_t batch_slots(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    static uint16_t slots[KEYS];
    crcforge_keyslots(batch_keys, batch_lens, KEYS, slots);
    return slots[0];
}

static unsigned slot_reference(const uint8_t *k, size_t len)
{
    const crcforge_params *p = crcforge_model_params(xmodem);
    for (size_t s = 0; s < len; s++) {
        if (k[s] != '{')
            continue;
        for (size_t e = s + 1; e < len; e++)
            if (k[e] == '}') {
                if (e > s + 1)
                    return crc_reference(p, k + s + 1, e - s - 1) & 16383;
                break;
            }
        break;
    }
    return crc_reference(p, k, len) & 16383;
}

static void fill_keys(size_t len, uint64_t *state)
{
    /* Random bytes without '{': the whole key is hashed, as for most real keys. */
    for (size_t i = 0; i < KEYS * len; i++) {
        uint8_t b;
        do {
            *state = *state * 6364136223846793005ull + 1442695040888963407ull;
            b = (uint8_t)(*state >> 56);
        } while (b == '{');
        keybuf[i] = b;
    }
}

static int verify(uint64_t *state)
{
    static const char *const tagged[] = {"{}", "{{a}}", "a{b}c{d}", "}{", "ab{cd}", "{",
                                         "}", "", "{user1000}.following", "x{}{y}"};
    for (size_t a = 0; a < NSLOT; a++) {
        unsigned (*slot)(const uint8_t *, size_t) = slot_approaches[a].slot;
        int bad = 0;
        for (size_t len = 0; len <= MAXLEN; len++) {
            fill_keys(len, state);
            for (size_t i = 0; i < KEYS; i++) {
                const uint8_t *k = keybuf + i * len;
                bad += slot(k, len) != slot_reference(k, len);
            }
        }
        for (size_t t = 0; t < sizeof tagged / sizeof tagged[0]; t++) {
            const uint8_t *k = (const uint8_t *)tagged[t];
            bad += slot(k, strlen(tagged[t])) != slot_reference(k, strlen(tagged[t]));
        }
        if (bad) {
            fprintf(stderr, "keyslot_bench: %s disagrees with the reference\n",
                    slot_approaches[a].subject.name);
            return 1;
        }
    }
    return 0; /* the batch: checked by tests/library/test_keyslot.c */
}

static const size_t lens[] = {5, 10, 16, 20, 32, 64};
#define NLENS (sizeof lens / sizeof lens[0])

/* One table: every approach at every length, throughput and latency loops, ns per key;
 * x_first is the first row's median over this one's.  with_batch adds crcforge_keyslots
 * (throughput only). */
static void measure(const struct approach *aps, size_t count, int with_batch,
                    const struct bench_config *base, uint64_t *state)
{
    size_t subjects_n = count + (with_batch ? 1 : 0);
    struct bench_subject subjects[16];
    for (size_t a = 0; a < count; a++)
        subjects[a] = aps[a].subject;
    struct bench_subject batch = {.name = "batch", .fn = batch_slots};
    struct bench_table *t = bench_table_new(1 + subjects_n * NLENS * 2, 7);
    static const char *const head[] = {"approach", "tables_B", "len", "loop", "min", "median",
                                       "x_first"};
    for (size_t c = 0; c < 7; c++) {
        bench_table_set(t, 0, c, "%s", head[c]);
        bench_table_column(t, c, 0, c != 0 && c != 3);
    }
    static struct bench_timing timing[16][NLENS][2];
    for (size_t l = 0; l < NLENS; l++) {
        fill_keys(lens[l], state);
        struct bench_input keys = {.buf = keybuf, .len = lens[l], .stride = lens[l],
                                   .count = KEYS};
        for (int lat = 0; lat < 2; lat++) {
            struct bench_config cfg = *base;
            cfg.latency = lat;
            struct bench_timing row[16];
            bench_time(&cfg, subjects, count, &keys, NULL, row);
            for (size_t a = 0; a < count; a++)
                timing[a][l][lat] = row[a];
        }
        if (with_batch) {
            for (size_t i = 0; i < KEYS; i++) {
                batch_keys[i] = keybuf + i * lens[l];
                batch_lens[i] = lens[l];
            }
            struct bench_input one = {.buf = keybuf, .len = lens[l], .count = 1};
            struct bench_config cfg = *base;
            bench_time(&cfg, &batch, 1, &one, NULL, &timing[count][l][0]);
            timing[count][l][0].ns_best /= KEYS;
            timing[count][l][0].ns_median /= KEYS;
            timing[count][l][1] = (struct bench_timing){.iterations = 0};
        }
    }
    size_t row = 1;
    for (size_t a = 0; a < subjects_n; a++)
        for (size_t l = 0; l < NLENS; l++)
            for (int lat = 0; lat < 2; lat++) {
                const struct bench_timing *x = &timing[a][l][lat], *first = &timing[0][l][lat];
                if (x->iterations == 0)
                    continue; /* no latency loop for the batch */
                bench_table_set(t, row, 0, "%s", a < count ? aps[a].subject.name : "batch");
                bench_table_set(t, row, 1, "%zu",
                                a < count ? aps[a].table_bytes : aps[count - 1].table_bytes);
                bench_table_set(t, row, 2, "%zu", lens[l]);
                bench_table_set(t, row, 3, "%s", lat ? "lat" : "thru");
                bench_table_set(t, row, 4, "%.2f", x->ns_best);
                bench_table_set(t, row, 5, "%.2f", x->ns_median);
                bench_table_set(t, row, 6, "%.2f", first->ns_median / x->ns_median);
                row++;
            }
    bench_table_print(stdout, t);
    bench_table_free(t);
}

int main(int argc, char **argv)
{
    int quick = bench_quick_arg(argc, argv, "keyslot_bench");
    if (quick < 0)
        return 2;
    uint64_t state = 1;

    xmodem = crcforge_model_find("CRC-16/XMODEM");
    crcforge_init_impl(&portable, xmodem, "portable", NULL); /* always valid */
    const struct crc_selection *best = crc_resolve(xmodem); /* a path, or a table's bands */
    const size_t best_bytes = best->keyslot != NULL ? best->keyslot->table_bytes : 0;
    slot_approaches[NSLOT - 1].table_bytes = best_bytes;
    crc_approaches[NCRC - 1].table_bytes = best_bytes;
    build_tables();
    if (verify(&state))
        return 1;
    printf("keyslot_bench: every approach agrees with the reference on lengths 0..%d\n",
           MAXLEN);
    printf("CRC-16/XMODEM path \"%s\" (its short-key operations read %zu bytes of constants "
           "and tables)\n",
           best->name, best_bytes);
    struct bench_config cfg = {.min_sample_seconds = 20e-6, .repeat = quick ? 3 : 101,
                               .wall_clock = 1};
    printf("%u samples of about 20 us walking %d keys; ns per key\n\n", cfg.repeat, KEYS);
    printf("Cluster slot (Redis hash-tag rule + CRC-16/XMODEM), x_first = x byte table:\n");
    measure(slot_approaches, NSLOT, 1, &cfg, &state);

    printf("\nCRC-16/XMODEM alone: the baselines, crcforge_checksum (engine, the dispatched\n"
           "engine), crcforge_crc16_xmodem (xmodem, the path chosen for CRC-16/XMODEM):\n");
    measure(crc_approaches, NCRC, 0, &cfg, &state);
    free(t_twobyte);
    return 0;
}
