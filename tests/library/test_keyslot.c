/* SPDX-License-Identifier: MIT */
/*
 * Cluster key slots and the paths' short-key operations (keyslot.h):
 *  - the short CRC-16 kernels' constants (CRC-16/XMODEM's fold_consts), against
 *    independent derivations (combine.c's x^k mod P, a bitwise carry-less product);
 *  - every path of the registry with short-key operations, directly: its update from the
 *    zero register against the bitwise reference, and its slot function against the rule,
 *    at every length 0..64 and alignment 0..63, and flush against a guard page on either
 *    side;
 *  - the hash-tag rule against an implementation written here from its text, on the edge
 *    cases and on random keys with braces, through crcforge_keyslot and the batch
 *    crcforge_keyslots, automatic and with every path forced (key slots run on the path
 *    forced for CRC-16/XMODEM).
 * A path this CPU cannot run is reported as skipped.
 */
#include <string.h>

#include "check.h"
#include "fold_consts.h"
#include "guarded.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "keyslot.h"

#define MAX_ALIGN 64
#define MAX_KEY 200

static uint16_t reference_crc16(const void *p, size_t n)
{
    return (uint16_t)crc_reference(&crc_model_crc16_xmodem->p, p, n);
}

/* a * b over GF(2), 64 x 64 -> 128 bits as (hi, lo), one bit at a time. */
static void clmul_bitwise(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    *hi = *lo = 0;
    for (int i = 0; i < 64; i++) {
        if ((b >> i) & 1) {
            *lo ^= a << i;
            *hi ^= i ? a >> (64 - i) : 0;
        }
    }
}

static void test_constants(void)
{
    const crcforge_model *m = crc_model_crc16_xmodem;
    struct fold_consts k;
    fold_consts_compute(&k, &m->p);
    /* reduce_lanes[FOLD_REDUCE_LANES - 1 - j/2]: (x^(64j+16) mod P) x^48 for words j and
     * j+1. */
    for (unsigned j = 0; j < CRC16_SHORT_MAX / 8; j++) {
        const struct fold_pair *pair = &k.reduce_lanes[FOLD_REDUCE_LANES - 1 - j / 2];
        uint64_t got = j % 2 ? pair->high : pair->low;
        /* x^(64j+16) = 1 shifted by 8j+2 bytes, through combine.c's arithmetic. */
        uint64_t want = crc_shift_register(m, 1, 8 * j + 2);
        CHECK(got == want << 48, "word multiplier %u = %016llx, want (x^%u mod P) x^48 = %016llx",
              j, (unsigned long long)got, 64 * j + 16, (unsigned long long)(want << 48));
    }
    /* (x^64 + mu') P = x^80 + r with deg r < 16: the quotient of x^80 by P. */
    uint64_t hi, lo, p = m->p.poly | 1u << 16;
    clmul_bitwise(k.barrett_quotient, p, &hi, &lo);
    hi ^= p; /* x^64 * P */
    CHECK(hi == 1u << 16 && (lo >> 16) == 0,
          "barrett_quotient %016llx: (x^64 + mu) P = %016llx%016llx is not x^80 + (deg < 16)",
          (unsigned long long)k.barrett_quotient, (unsigned long long)hi, (unsigned long long)lo);
    CHECK(k.barrett_poly == (uint64_t)0x1021 << 48, "barrett_poly = %016llx",
          (unsigned long long)k.barrett_poly);
}

static unsigned rule_slot(const uint8_t *key, size_t len);

/* Every length 0..64 at every alignment, then flush against each guard page: the path's
 * update from the zero register, and its slot function (on data that sometimes holds a
 * '{'). */
static void test_short_path(const struct crc_impl *impl)
{
    if (!crc_impl_runnable(impl)) {
        SKIP("short-key operations of %s: not runnable on this CPU", impl->name);
        return;
    }
    const crcforge_model *m = crc_model_crc16_xmodem;
    const struct crc_params *params = &crc_pinned(impl)->params; /* the tuning's */
    const struct crc_keyslot_ops *ops = impl->keyslot;
    uint8_t data[CRC16_SHORT_MAX];
    uint16_t expected[CRC16_SHORT_MAX + 1];
    struct guarded g;
    if (guarded_alloc(&g, CRC16_SHORT_MAX + MAX_ALIGN) != 0) {
        CHECK(0, "guarded_alloc");
        return;
    }
    unsigned long bad = 0, cases = 0;
    for (int round = 0; round < 4; round++) {
        rnd_fill(data, sizeof data);
        if (round == 1)
            memset(data, 0xff, sizeof data); /* every bit set: every product term live */
        if (round == 2)
            data[rnd_below(sizeof data)] = '{';
        for (size_t n = 0; n <= CRC16_SHORT_MAX; n++)
            expected[n] = reference_crc16(data, n);
        for (size_t a = 0; a < MAX_ALIGN; a++) {
            memcpy(g.start + a, data, CRC16_SHORT_MAX);
            for (size_t n = 0; n <= CRC16_SHORT_MAX; n++, cases++) {
                bad += impl->update(m, 0, g.start + a, n, params) != expected[n];
                bad += ops->slot(m, g.start + a, n) != rule_slot(g.start + a, n);
            }
        }
        for (size_t n = 0; n <= CRC16_SHORT_MAX; n++, cases += 2) {
            memcpy(g.end - n, data, n);
            bad += impl->update(m, 0, g.end - n, n, params) != expected[n];
            bad += ops->slot(m, g.end - n, n) != rule_slot(g.end - n, n);
            memcpy(g.start, data, n);
            bad += impl->update(m, 0, g.start, n, params) != expected[n];
            bad += ops->slot(m, g.start, n) != rule_slot(g.start, n);
        }
    }
    CHECK(bad == 0, "short-key operations of %s: %lu of %lu length/alignment cases differ",
          impl->name, bad, cases);
    guarded_free(&g);
}

/*
 * The rule as docs/DESIGN.md words it, written independently of keyslot.c: if the key holds
 * '{', and a later '}' with at least one byte between them, only the bytes between the
 * first '{' and the first '}' after it are hashed.
 */
static unsigned rule_slot(const uint8_t *key, size_t len)
{
    size_t open = len, close = len;
    for (size_t i = 0; i < len && open == len; i++)
        if (key[i] == '{')
            open = i;
    for (size_t i = open + 1; i < len && close == len; i++)
        if (key[i] == '}')
            close = i;
    if (open < len && close < len && close - open >= 2)
        return reference_crc16(key + open + 1, close - open - 1) % 16384;
    return reference_crc16(key, len) % 16384;
}

static unsigned long check_key(const uint8_t *key, size_t len)
{
    return crcforge_keyslot(key, len) != rule_slot(key, len);
}

static void test_rule(void)
{
    static const char *const edges[] = {
        "", "{", "}", "{}", "}{", "{{a}}", "a{b}c{d}", "{a}", "abc{d}", "abc{de}",
        "abc{}", "abc{}{x}", "{}x{y}", "{{}}", "{a{b}c}", "foo{bar", "foo}bar{",
        "{user1000}.following", "{user1000}.followers", "x}y{z}", "{{", "}}", "a{}",
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        size_t len = strlen(edges[i]);
        CHECK(check_key((const uint8_t *)edges[i], len) == 0, "key \"%s\": slot differs",
              edges[i]);
    }
    /* The rule's own reading of two edge cases, from the Redis documentation. */
    CHECK(crcforge_keyslot("{}", 2) == reference_crc16("{}", 2) % 16384, "{} hashes whole");
    CHECK(crcforge_keyslot("{{a}}", 5) == reference_crc16("{a", 2) % 16384, "{{a}} hashes {a");
    CHECK(crcforge_keyslot("a{b}c{d}", 8) == reference_crc16("b", 1) % 16384,
          "a{b}c{d} hashes b");
    /* Slots the Redis CLUSTER KEYSLOT documentation shows. */
    CHECK(crcforge_keyslot("somekey", 7) == 11058, "slot of somekey");
    CHECK(crcforge_keyslot("foo{hash_tag}", 13) == 2515, "slot of foo{hash_tag}");
    CHECK(crcforge_keyslot("bar{hash_tag}", 13) == 2515, "slot of bar{hash_tag}");

    /* Random keys over a small alphabet rich in braces, lengths 0..MAX_KEY. */
    static const uint8_t alphabet[] = {'{', '}', 'a', 0, 0xff, '{', '}', 'z'};
    uint8_t key[MAX_KEY];
    unsigned long bad = 0, tagged = 0;
    for (int i = 0; i < 200000; i++) {
        size_t len = rnd_below(4) ? rnd_below(70) : rnd_below(MAX_KEY + 1);
        int braces = (int)rnd_below(3);
        for (size_t j = 0; j < len; j++)
            key[j] = braces == 0 ? (uint8_t)rnd64() : alphabet[rnd_below(braces == 1 ? 8 : 3)];
        bad += check_key(key, len);
        tagged += rule_slot(key, len) != reference_crc16(key, len) % 16384;
    }
    CHECK(bad == 0, "%lu random keys (%lu with a hash tag) disagree with the rule", bad,
          tagged);
    CHECK(tagged > 10000, "only %lu random keys had a hash tag", tagged);
}

/* The batch entry point, on a mix of keys (tags, long keys). */
static void test_batch(void)
{
    enum { N = 3000 };
    static uint8_t store[N][MAX_KEY];
    static const void *keys[N];
    static size_t lens[N];
    static uint16_t slots[N];
    static const uint8_t alphabet[] = {'{', '}', 'a', 0, 0xff, 'b', 'c', 'z'};
    for (size_t i = 0; i < N; i++) {
        lens[i] = rnd_below(8) ? rnd_below(CRC16_SHORT_MAX + 1) : rnd_below(MAX_KEY + 1);
        int braces = (int)rnd_below(2);
        for (size_t j = 0; j < lens[i]; j++)
            store[i][j] = braces ? alphabet[rnd_below(8)] : (uint8_t)rnd64();
        keys[i] = store[i];
    }
    unsigned long bad = 0;
    crcforge_keyslots(keys, lens, N, slots);
    for (size_t i = 0; i < N; i++)
        bad += slots[i] != rule_slot(keys[i], lens[i]);
    crcforge_keyslots(keys, lens, 0, NULL); /* n = 0 touches nothing */
    CHECK(bad == 0, "%lu batch slots disagree with the rule", bad);
}

/* The public entry points flush against the guard pages at lengths 0..MAX_KEY:
 * crcforge_keyslot on keys with and without hash tags, and crcforge_crc16_xmodem, from
 * any start. */
static void test_entries_guarded(void)
{
    struct guarded g;
    if (guarded_alloc(&g, MAX_KEY) != 0) {
        CHECK(0, "guarded_alloc");
        return;
    }
    uint8_t data[MAX_KEY];
    unsigned long bad_slots = 0, bad_crcs = 0;
    for (int round = 0; round < 8; round++) {
        rnd_fill(data, sizeof data);
        if (round % 4 > 0)
            data[rnd_below(20)] = '{';
        if (round % 4 > 1)
            data[20 + rnd_below(20)] = '}';
        uint16_t start = round == 0 ? 0 : round == 1 ? 0xffff : (uint16_t)rnd64();
        for (size_t n = 0; n <= MAX_KEY; n++) {
            uint16_t want = (uint16_t)crc_reference_update(&crc_model_crc16_xmodem->p, start,
                                                           data, n);
            uint8_t *at[2] = {g.end - n, g.start};
            for (int side = 0; side < 2; side++) {
                memcpy(at[side], data, n);
                bad_slots += check_key(at[side], n);
                bad_crcs += crcforge_crc16_xmodem(start, at[side], n) != want;
            }
        }
    }
    CHECK(bad_slots == 0, "%lu guarded keys disagree with the rule", bad_slots);
    CHECK(bad_crcs == 0, "crcforge_crc16_xmodem: %lu guarded cases differ", bad_crcs);
    guarded_free(&g);
}

/* The rule, the guarded entry points and the batch on the path selected now. */
static void test_entries(void)
{
    test_rule();
    test_entries_guarded();
    test_batch();
}

int main(void)
{
    check_begin("test_keyslot");
    test_constants();
    size_t with_ops = 0;
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const struct crc_impl *impl = crc_impl_lookup(crcforge_impl_name(i));
        if (impl->keyslot != NULL && impl->supports(crc_model_crc16_xmodem)) {
            test_short_path(impl);
            with_ops++;
        }
    }
    CHECK(with_ops >= 1, "no path has short-key operations");
    printf("paths with short-key operations: %zu; CRC-16/XMODEM on %s\n", with_ops,
           crcforge_impl_chosen(crc_model_crc16_xmodem));
    test_entries();
    /* Forced: key slots and CRC-16/XMODEM go through the forced path (the portable
     * engine's for a path that does not serve it): the same checks again. */
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        if (!crcforge_impl_runnable(name))
            continue;
        CHECK(crcforge_impl_force(name, NULL) == 0, "forcing %s", name);
        const char *want = crcforge_impl_supports(name, crc_model_crc16_xmodem) ? name
                                                                                 : "portable";
        CHECK(strcmp(crcforge_impl_chosen(crc_model_crc16_xmodem), want) == 0,
              "forced %s: CRC-16/XMODEM on %s", name,
              crcforge_impl_chosen(crc_model_crc16_xmodem));
        test_entries();
    }
    crcforge_impl_force(NULL, NULL);
    return check_end();
}
