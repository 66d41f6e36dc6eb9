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
 * Each sample times 8 passes over 256 keys (short, so that few are preempted on a busy
 * machine); the figure is ns per key, min and median over 101 samples, which interleave
 * the approaches.  A second table times the CRC alone (no hash-tag rule).  Before
 * timing, every approach is checked against the bitwise reference on all the keys (and
 * on keys with hash tags).
 *
 * Usage: keyslot_bench [--quick]   (pin it: taskset -c 1 build/keyslot_bench)
 * --quick: the checks and a short timing run, for the test suite (figures meaningless).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crcforge.h"
#include "internal.h"
#include "keyslot.h"
#include "../quick_arg.h"
#include "../timing.h"

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

static uint16_t crc_slice16(const uint8_t *p, size_t n)
{
    return (uint16_t)crcforge_checksum(xmodem, p, n);
}

/* The hash-tag rule as Redis's keyHashSlot() spells it. */
#define REDIS_SLOT(name, crcfn)                                                          \
    static unsigned name(const void *key, size_t len)                                    \
    {                                                                                    \
        const uint8_t *k = key;                                                          \
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

REDIS_SLOT(slot_byte, crc_byte)
REDIS_SLOT(slot_nibble, crc_nibble)
REDIS_SLOT(slot_twobyte, crc_twobyte)
REDIS_SLOT(slot_slice2, crc_slice2)
REDIS_SLOT(slot_slice16, crc_slice16)

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

struct approach {
    const char *name;
    unsigned (*slot)(const void *key, size_t len);
    const char *impl; /* forced while it runs, or NULL */
    size_t table_bytes;
};

static struct approach approaches[] = {
    {"byte", slot_byte, NULL, sizeof t_byte},
    {"nibble", slot_nibble, NULL, sizeof t_nibble},
    {"twobyte", slot_twobyte, NULL, 65536 * 2 + sizeof t_byte},
    {"slice2", slot_slice2, NULL, sizeof t_hi + sizeof t_byte},
    {"slice16", slot_slice16, "portable", 16 * 256 * 4},
    {"crcforge", crcforge_keyslot, NULL, 0}, /* filled in main */
    {"batch", NULL, NULL, 0},                /* crcforge_keyslots; filled in main */
};
#define NAPPROACHES (sizeof approaches / sizeof approaches[0])

static uint8_t keybuf[KEYS * MAXLEN + MAXLEN];
static volatile size_t opaque_zero;
static volatile unsigned sink;

static double time_thru(unsigned (*slot)(const void *, size_t), size_t len, int passes)
{
    unsigned acc = 0;
    double t0 = bench_now_ns(1);
    for (int r = 0; r < passes; r++)
        for (size_t i = 0; i < KEYS; i++)
            acc += slot(keybuf + i * len, len);
    double t1 = bench_now_ns(1);
    sink = acc;
    return (t1 - t0) / ((double)passes * KEYS);
}

static double time_lat(unsigned (*slot)(const void *, size_t), size_t len, int passes)
{
    size_t zero = opaque_zero;
    unsigned s = 0;
    double t0 = bench_now_ns(1);
    for (int r = 0; r < passes; r++)
        for (size_t i = 0; i < KEYS; i++)
            s = slot(keybuf + i * len + (s & zero), len);
    double t1 = bench_now_ns(1);
    sink = s;
    return (t1 - t0) / ((double)passes * KEYS);
}

/* crcforge_keyslots over the KEYS keys: throughput only. */
static double time_batch(size_t len, int passes)
{
    static const void *ptrs[KEYS];
    static size_t lens[KEYS];
    static uint16_t slots[KEYS];
    for (size_t i = 0; i < KEYS; i++) {
        ptrs[i] = keybuf + i * len;
        lens[i] = len;
    }
    unsigned acc = 0;
    double t0 = bench_now_ns(1);
    for (int r = 0; r < passes; r++) {
        crcforge_keyslots(ptrs, lens, KEYS, slots);
        acc += slots[r % KEYS];
    }
    double t1 = bench_now_ns(1);
    sink = acc;
    return (t1 - t0) / ((double)passes * KEYS);
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
    int bad = 0;
    for (size_t a = 0; a < NAPPROACHES; a++) {
        if (approaches[a].slot == NULL)
            continue; /* the batch: checked by tests/library/test_keyslot.c */
        if (approaches[a].impl != NULL)
            crcforge_impl_force(approaches[a].impl, NULL);
        for (size_t len = 0; len <= MAXLEN; len++) {
            fill_keys(len, state);
            for (size_t i = 0; i < KEYS; i++) {
                const uint8_t *k = keybuf + i * len;
                if (approaches[a].slot(k, len) != slot_reference(k, len))
                    bad++;
            }
        }
        for (size_t t = 0; t < sizeof tagged / sizeof tagged[0]; t++) {
            size_t len = strlen(tagged[t]);
            if (approaches[a].slot(tagged[t], len) !=
                slot_reference((const uint8_t *)tagged[t], len))
                bad++;
        }
        crcforge_impl_force(NULL, NULL);
        if (bad) {
            fprintf(stderr, "keyslot_bench: %s disagrees with the reference\n",
                    approaches[a].name);
            return 1;
        }
    }
    return 0;
}

static const size_t lens[] = {5, 10, 16, 20, 32, 64};
#define NLENS (sizeof lens / sizeof lens[0])

/* Samples interleave the approaches, so that a change of machine load or clock falls on
 * all of them alike and the ratios stay fair; the ratio is to the first row's median. */
static void measure(const struct approach *aps, size_t count, int samples, int passes,
                    uint64_t *state)
{
    static double t[16][NLENS][2][128];
    printf("%-9s %9s %5s %-5s %7s %7s %8s\n", "approach", "tables_B", "len", "loop", "min",
           "median", "x_first");
    for (size_t l = 0; l < NLENS; l++) {
        fill_keys(lens[l], state);
        for (int mode = 0; mode < 2; mode++) {
            double (*timer)(unsigned (*)(const void *, size_t), size_t, int) =
                mode ? time_lat : time_thru;
            for (int s = -1; s < samples; s++) { /* sample -1 warms up */
                for (size_t a = 0; a < count; a++) {
                    if (aps[a].impl != NULL)
                        crcforge_impl_force(aps[a].impl, NULL);
                    double ns = aps[a].slot != NULL ? timer(aps[a].slot, lens[l], passes)
                                : mode == 0         ? time_batch(lens[l], passes)
                                                    : 0;
                    if (s >= 0)
                        t[a][l][mode][s] = ns;
                    if (aps[a].impl != NULL)
                        crcforge_impl_force(NULL, NULL);
                }
            }
            for (size_t a = 0; a < count; a++)
                qsort(t[a][l][mode], (size_t)samples, sizeof(double), bench_by_value);
        }
    }
    for (size_t a = 0; a < count; a++) {
        for (size_t l = 0; l < NLENS; l++) {
            for (int mode = 0; mode < 2; mode++) {
                const double *ta = t[a][l][mode], *tb = t[0][l][mode];
                if (ta[0] == 0)
                    continue; /* no latency loop for the batch */
                printf("%-9s %9zu %5zu %-5s %7.2f %7.2f %8.2f\n", aps[a].name,
                       aps[a].table_bytes, lens[l], mode ? "lat" : "thru", ta[0],
                       ta[samples / 2], tb[samples / 2] / ta[samples / 2]);
            }
        }
    }
}

/* The bare CRC, no hash-tag rule: should crcforge_crc16_xmodem take the short path? */
static unsigned crc16_by_byte(const void *p, size_t n)
{
    return crc_byte(p, n);
}

static unsigned crc16_by_engine(const void *p, size_t n)
{
    return (unsigned)crcforge_checksum(xmodem, p, n);
}

static unsigned crc16_by_entry(const void *p, size_t n)
{
    return crcforge_crc16_xmodem(0, p, n);
}

int main(int argc, char **argv)
{
    int quick = bench_quick_arg(argc, argv, "keyslot_bench");
    if (quick < 0)
        return 2;
    int samples = quick ? 3 : 101, passes = quick ? 4 : 8; /* short samples: fewer preempted */
    uint64_t state = 1;

    xmodem = crcforge_model_find("CRC-16/XMODEM");
    const struct crc_impl *best = crc_impl_lookup(crcforge_impl_chosen(xmodem));
    const size_t best_bytes = best->keyslot != NULL ? best->keyslot->table_bytes : 0;
    approaches[NAPPROACHES - 2].table_bytes = best_bytes;
    approaches[NAPPROACHES - 1].table_bytes = best_bytes;
    build_tables();
    if (verify(&state))
        return 1;
    printf("keyslot_bench: every approach agrees with the reference on lengths 0..%d\n",
           MAXLEN);
    printf("CRC-16/XMODEM path \"%s\" (its short-key operations read %zu bytes of constants "
           "and tables)\n",
           best->name, best_bytes);
    printf("%d samples of %d x %d keys; ns per key\n\n", samples, passes, KEYS);
    printf("Cluster slot (Redis hash-tag rule + CRC-16/XMODEM), x_first = x byte table:\n");
    measure(approaches, NAPPROACHES, samples, passes, &state);

    const struct approach crcs[] = {
        {"byte", crc16_by_byte, NULL, sizeof t_byte},
        {"engine", crc16_by_engine, NULL, 0},
        {"xmodem", crc16_by_entry, NULL, best_bytes},
    };
    printf("\nCRC-16/XMODEM alone: byte table, crcforge_checksum (the dispatched engine),\n"
           "crcforge_crc16_xmodem (the path chosen for CRC-16/XMODEM):\n");
    measure(crcs, sizeof crcs / sizeof crcs[0], samples, passes, &state);
    free(t_twobyte);
    return 0;
}
