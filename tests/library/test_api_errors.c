/* SPDX-License-Identifier: MIT */
/*
 * The public API's refusals: a model name that is not in the catalogue, a NULL model,
 * a path name that does not exist, a path that does not serve the model or cannot run
 * here (-1 and a reason naming the problem, never a crash); and buf == NULL with
 * len == 0, which every function taking a buffer accepts, on every runnable path.
 */
#include <string.h>

#include "check.h"
#include "crcforge_dispatch.h"

static int names(const char *why, const char *words)
{
    return why != NULL && strstr(why, words) != NULL;
}

static void refusals(void)
{
    CHECK(crcforge_model_find("nope") == NULL, "crcforge_model_find(\"nope\")");
    CHECK(crcforge_impl_chosen(NULL) == NULL, "crcforge_impl_chosen(NULL)");
    for (size_t i = 0; i < crcforge_impl_count(); i++)
        CHECK(crcforge_impl_supports(crcforge_impl_name(i), NULL) == 0,
              "crcforge_impl_supports(\"%s\", NULL)", crcforge_impl_name(i));

    const crcforge_model *crc32c = crcforge_model_find("CRC-32C");
    crcforge_state s;
    const char *why = NULL;
    CHECK(crcforge_init_impl(&s, NULL, "portable", &why) == -1 && names(why, "no model"),
          "init_impl with no model: %s", why ? why : "(why not set)");
    why = NULL;
    CHECK(crcforge_init_impl(&s, crc32c, "no-such-path", &why) == -1 && names(why, "unknown"),
          "init_impl with an unknown path: %s", why ? why : "(why not set)");
    why = NULL;
    CHECK(crcforge_init_impl(&s, crc32c, NULL, &why) == -1 && names(why, "unknown"),
          "init_impl with a NULL path name: %s", why ? why : "(why not set)");

    /* Every path against every catalogue model: refused with the right reason exactly
     * when it cannot run here or does not serve the model. */
    unsigned long not_served = 0;
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        int runnable = crcforge_impl_runnable(name);
        const crcforge_model *m;
        for (size_t k = 0; (m = crcforge_model_at(k)) != NULL; k++) {
            int served = crcforge_impl_supports(name, m);
            why = NULL;
            int r = crcforge_init_impl(&s, m, name, &why);
            if (!runnable)
                CHECK(r == -1 && names(why, "cannot run"), "%s on %s (not runnable): %s", name,
                      crcforge_model_name(m), why ? why : "(why not set)");
            else if (!served)
                CHECK(r == -1 && names(why, "does not serve"), "%s on %s (not served): %s",
                      name, crcforge_model_name(m), why ? why : "(why not set)");
            else
                CHECK(r == 0, "%s on %s: refused (%s)", name, crcforge_model_name(m),
                      why ? why : "(why not set)");
            not_served += runnable && !served;
        }
    }
    if (not_served == 0)
        SKIP("every runnable path serves every model here: no refusal for an unserved model");
}

/* buf == NULL with len == 0 leaves the CRC as it is, on the current path. */
static void null_empty(const char *path)
{
    CHECK(crcforge_crc32c(0x12345678u, NULL, 0) == 0x12345678u, "%s: crc32c", path);
    CHECK(crcforge_crc32c_inline(0x12345678u, NULL, 0) == 0x12345678u, "%s: crc32c_inline",
          path);
    CHECK(crcforge_crc32(0x12345678u, NULL, 0) == 0x12345678u, "%s: crc32", path);
    CHECK(crcforge_crc64_nvme(42, NULL, 0) == 42, "%s: crc64_nvme", path);
    CHECK(crcforge_crc64_xz(42, NULL, 0) == 42, "%s: crc64_xz", path);
    CHECK(crcforge_crc16_xmodem(0, NULL, 0) == 0, "%s: crc16_xmodem from 0", path);
    CHECK(crcforge_crc16_xmodem(0x1234, NULL, 0) == 0x1234, "%s: crc16_xmodem", path);
    CHECK(crcforge_keyslot(NULL, 0) == crcforge_keyslot("", 0), "%s: keyslot", path);
    crcforge_keyslots(NULL, NULL, 0, NULL);
    const void *keys[] = {NULL};
    const size_t lens[] = {0};
    uint16_t slots[] = {0xffff};
    crcforge_keyslots(keys, lens, 1, slots);
    CHECK(slots[0] == crcforge_keyslot("", 0), "%s: keyslots", path);
    const crcforge_model *m;
    for (size_t k = 0; (m = crcforge_model_at(k)) != NULL; k++) {
        CHECK(crcforge_checksum(m, NULL, 0) == crcforge_checksum(m, "", 0), "%s: checksum %s",
              path, crcforge_model_name(m));
        crcforge_state s;
        crcforge_init(&s, m);
        crcforge_update(&s, "123456789", 9);
        crcforge_update(&s, NULL, 0);
        CHECK(crcforge_final(&s) == crcforge_model_check(m), "%s: update %s", path,
              crcforge_model_name(m));
    }
}

int main(void)
{
    check_begin("test_api_errors");
    refusals();
    null_empty("automatic");
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        if (crcforge_impl_force(name, NULL) == 0)
            null_empty(name);
    }
    CHECK(crcforge_impl_force(NULL, NULL) == 0, "crcforge_impl_force(NULL)");
    return check_end();
}
