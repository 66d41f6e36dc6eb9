/* SPDX-License-Identifier: MIT */
/*
 * The fixed entry points (crcforge_crc32c ... crcforge_crc16_xmodem) and their _combine
 * functions against the bitwise reference, starting in a fresh process so that the first
 * call is the one that resolves the path.  The argument picks which call comes first, as
 * each reaches the CRC-16/XMODEM model's stand-in (dispatch.c) its own way:
 *   test_fixed_entries crc16     crcforge_crc16_xmodem of <= 64 bytes first
 *   test_fixed_entries keyslot   crcforge_keyslot first
 *   test_fixed_entries keyslots  crcforge_keyslots first
 *   test_fixed_entries           the 32/64-bit entries first
 */
#include <string.h>

#include "check.h"
#include "fixed_entries.h"
#include "internal.h"
#include "slot_rule.h"

#define LEN 300

static uint16_t slot_reference(const uint8_t *key, size_t len)
{
    key = slot_rule_hashed(key, &len);
    return (uint16_t)(crc_reference(&crc_model_crc16_xmodem->p, key, len) & 16383);
}

struct fixed {
    const crcforge_model *m;
    fixed_crc_fn crc;
    fixed_combine_fn combine;
};

static void first_calls(const char *which, const uint8_t *data)
{
    if (strcmp(which, "crc16") == 0) {
        CHECK(crcforge_crc16_xmodem(0, data, 20) ==
                  crc_reference(&crc_model_crc16_xmodem->p, data, 20),
              "first crcforge_crc16_xmodem");
    } else if (strcmp(which, "keyslot") == 0) {
        CHECK(crcforge_keyslot(data, 20) == slot_reference(data, 20), "first crcforge_keyslot");
    } else if (strcmp(which, "keyslots") == 0) {
        const void *keys[3] = {data, data + 20, "a{b}c"};
        size_t lens[3] = {20, 7, 5};
        uint16_t slots[3];
        crcforge_keyslots(keys, lens, 3, slots);
        for (int i = 0; i < 3; i++)
            CHECK(slots[i] == slot_reference(keys[i], lens[i]), "first crcforge_keyslots %d", i);
    }
}

int main(int argc, char **argv)
{
    check_begin("test_fixed_entries");
    static uint8_t data[LEN];
    rnd_fill(data, sizeof data);
    first_calls(argc > 1 ? argv[1] : "", data);

    const struct fixed fixed[] = {
        {crc_model_crc32c, crcforge_crc32c_, crcforge_crc32c_combine_},
        {crc_model_crc32, crcforge_crc32_, crcforge_crc32_combine_},
        {crc_model_crc64_nvme, crcforge_crc64_nvme_, crcforge_crc64_nvme_combine_},
        {crc_model_crc64_xz, crcforge_crc64_xz_, crcforge_crc64_xz_combine_},
        {crc_model_crc16_xmodem, crcforge_crc16_xmodem_, crcforge_crc16_xmodem_combine_},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        const struct fixed *f = &fixed[i];
        const crcforge_params *p = &f->m->p;
        CHECK(f->crc(0, (const uint8_t *)"123456789", 9) == crcforge_model_check(f->m),
              "%s: check value", f->m->name);
        unsigned long bad = 0;
        for (size_t n = 0; n <= LEN; n += 7)
            for (size_t cut = 0; cut <= n; cut += 11) {
                uint64_t want = crc_reference(p, data, n);
                uint64_t a = f->crc(0, data, cut), b = f->crc(0, data + cut, n - cut);
                bad += f->crc(a, data + cut, n - cut) != want; /* chaining */
                bad += f->combine(a, b, n - cut) != want;
            }
        CHECK(bad == 0, "%s: %lu chained or combined values differ from the reference",
              f->m->name, bad);
    }
    return check_end();
}
