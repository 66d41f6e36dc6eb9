/* SPDX-License-Identifier: MIT */
/*
 * Every catalogue model: its check value (CRC of "123456789") and residue as the
 * catalogue gives them, through the bitwise reference, the table engine and the
 * streaming API; lookup by name and alias; custom-model validation.
 */
#include <string.h>

#include "check.h"
#include "internal.h"

static const uint8_t check_input[] = "123456789";

/* Register of the model after "123456789" followed by its CRC, via update fn `run`;
 * defined only for widths that are whole bytes and refin == refout.  The residue is that
 * register before xorout, reflected when refout (RevEng's definition). */
static uint64_t residue_via(const crcforge_model *m, crc_update_fn run)
{
    const crcforge_params *p = &m->p;
    uint8_t codeword[9 + 8];
    memcpy(codeword, check_input, 9);
    uint64_t value = crc_reference(p, check_input, 9);
    unsigned nbytes = p->width / 8;
    for (unsigned i = 0; i < nbytes; i++) /* reflected output is sent low byte first */
        codeword[9 + i] = (uint8_t)(p->refout ? value >> (8 * i)
                                              : value >> (8 * (nbytes - 1 - i)));
    /* The register form is already reflected when refin (= refout here). */
    return run(m, crc_init_register(m), codeword, 9 + nbytes, NULL);
}

static uint64_t reference_run(const crcforge_model *m, uint64_t reg, const uint8_t *d, size_t n,
                              const struct crc_params *k)
{
    (void)k;
    return crc_reference_update(&m->p, reg, d, n);
}

static void test_model(const crcforge_model *m)
{
    const crcforge_params *p = &m->p;
    const char *name = m->name;
    CHECK(crc_reference(p, check_input, 9) == m->check, "%s: reference check", name);

    uint64_t reg = crc_table_update(m, crc_init_register(m), check_input, 9, NULL);
    CHECK(crc_register_to_value(m, reg) == m->check, "%s: table check", name);
    reg = crc_bytewise_update(m, crc_init_register(m), check_input, 9, NULL);
    CHECK(crc_register_to_value(m, reg) == m->check, "%s: byte table check", name);
    CHECK(crcforge_checksum(m, check_input, 9) == m->check, "%s: checksum", name);

    for (size_t split = 0; split <= 9; split++) {
        crcforge_state s;
        crcforge_init(&s, m);
        crcforge_update(&s, check_input, split);
        crcforge_update(&s, check_input + split, 9 - split);
        CHECK(crcforge_final(&s) == m->check, "%s: streaming split at %zu", name, split);
    }

    /* Residue: where the codeword is whole bytes, by running it; always, against the
     * algebraic form xorout * x^width mod P, reflected when refout. */
    if (p->width % 8 == 0 && p->refin == p->refout) {
        CHECK(residue_via(m, reference_run) == m->residue, "%s: reference residue", name);
        CHECK(residue_via(m, crc_table_update) == m->residue, "%s: table residue", name);
    }
    uint64_t residue = crc_mulmod(p->xorout, p->poly, p);
    if (p->refout)
        residue = crc_reflect(residue, p->width);
    CHECK(residue == m->residue, "%s: residue formula", name);
}

static void test_lookup(void)
{
    static const struct {
        const char *name, *canonical;
    } cases[] = {
        {"CRC-32/ISCSI", "CRC-32/ISCSI"},     {"crc-32/iscsi", "CRC-32/ISCSI"},
        {"crc32c", "CRC-32/ISCSI"},           {"CRC-32C", "CRC-32/ISCSI"},
        {"crc32", "CRC-32/ISO-HDLC"},         {"crc64-nvme", "CRC-64/NVME"},
        {"crc64-xz", "CRC-64/XZ"},            {"crc16-xmodem", "CRC-16/XMODEM"},
        {"CRC-16/XMODEM", "CRC-16/XMODEM"},   {"crc16xmodem", "CRC-16/XMODEM"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const crcforge_model *m = crcforge_model_find(cases[i].name);
        CHECK(m != NULL && strcmp(m->name, cases[i].canonical) == 0, "lookup %s",
              cases[i].name);
    }
    CHECK(crcforge_model_find("CRC-99/NOPE") == NULL, "unknown name");
    CHECK(crcforge_model_find("") == NULL, "empty name");
    CHECK(crcforge_model_find(NULL) == NULL, "NULL name");
    CHECK(crc_model_crc32c == crcforge_model_find("CRC-32/ISCSI"), "fixed crc32c");
    CHECK(crc_model_crc32c == &crc_catalogue[CRC_CATALOGUE_INDEX_CRC32C],
          "CRC_CATALOGUE_INDEX_CRC32C is crc_model_crc32c's place");
    CHECK(crc_model_crc32 == crcforge_model_find("CRC-32/ISO-HDLC"), "fixed crc32");
    CHECK(crc_model_crc32 == &crc_catalogue[CRC_CATALOGUE_INDEX_CRC32],
          "CRC_CATALOGUE_INDEX_CRC32 is crc_model_crc32's place");
    CHECK(crc_model_crc64_nvme == crcforge_model_find("CRC-64/NVME"), "fixed nvme");
    CHECK(crc_model_crc64_nvme == &crc_catalogue[CRC_CATALOGUE_INDEX_CRC64_NVME],
          "CRC_CATALOGUE_INDEX_CRC64_NVME is crc_model_crc64_nvme's place");
    CHECK(crc_model_crc64_xz == crcforge_model_find("CRC-64/XZ"), "fixed xz");
    CHECK(crc_model_crc64_xz == &crc_catalogue[CRC_CATALOGUE_INDEX_CRC64_XZ],
          "CRC_CATALOGUE_INDEX_CRC64_XZ is crc_model_crc64_xz's place");
    CHECK(crc_model_crc16_xmodem == crcforge_model_find("CRC-16/XMODEM"), "fixed xmodem");

    /* crcforge_model_at walks the catalogue in order and ends with NULL. */
    size_t walked = 0;
    while (walked < crc_catalogue_count && crcforge_model_at(walked) == &crc_catalogue[walked])
        walked++;
    CHECK(walked == crc_catalogue_count, "crcforge_model_at(%zu) is not catalogue entry %zu",
          walked, walked);
    CHECK(crcforge_model_at(crc_catalogue_count) == NULL, "crcforge_model_at past the last");
    CHECK(crcforge_model_at(SIZE_MAX) == NULL, "crcforge_model_at(SIZE_MAX)");

    /* No name or alias may lead to two models. */
    for (size_t i = 0; i < crc_catalogue_count; i++) {
        const crcforge_model *m = &crc_catalogue[i];
        CHECK(crcforge_model_find(m->name) == m, "%s finds itself", m->name);
        for (const char *const *a = m->aliases; *a; a++)
            CHECK(crcforge_model_find(*a) == m, "alias %s of %s", *a, m->name);
    }
}

static void test_custom(void)
{
    static const struct {
        crcforge_params p;
        const char *reason;
    } bad[] = {
        {{0, 1, 0, 0, 0, 0}, "width must be 1 to 64"},
        {{65, 1, 0, 0, 0, 0}, "width must be 1 to 64"},
        {{8, 0x107, 0, 0, 0, 0}, "poly has bits above the width"},
        {{8, 0x07, 0x100, 0, 0, 0}, "init has bits above the width"},
        {{8, 0x07, 0, 0, 0, 0x1ff}, "xorout has bits above the width"},
        {{1, 1, 2, 0, 0, 0}, "init has bits above the width"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = NULL;
        crcforge_model *m = crcforge_model_new(&bad[i].p, &why);
        CHECK(m == NULL && why != NULL && strcmp(why, bad[i].reason) == 0,
              "invalid params %zu refused with '%s' (got '%s')", i, bad[i].reason,
              why ? why : "(null)");
        crcforge_model_free(m);
    }
    /* A custom copy of every catalogue model behaves as the catalogue says. */
    for (size_t i = 0; i < crc_catalogue_count; i++) {
        const crcforge_model *cat = &crc_catalogue[i];
        crcforge_model *m = crcforge_model_new(&cat->p, NULL);
        CHECK(m != NULL && m->check == cat->check && m->residue == cat->residue,
              "custom copy of %s", cat->name);
        crcforge_model_free(m);
    }
    /* Widths the catalogue lacks (1, 2, 63) and even polynomials (every catalogue poly is
     * odd) against the reference. */
    static const crcforge_params odd[] = {
        {1, 1, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1}, {2, 3, 1, 1, 0, 2},
        {63, 0x4000000000000003ull, 0x123456789abcdefull, 0, 1, 0x7fffffffffffffffull},
        {16, 0x1020, 0xffff, 0, 0, 0}, {16, 0x1020, 0x1234, 1, 1, 0xffff},
        {32, 0x04c11db6, 0xffffffff, 1, 1, 0xffffffff}, {64, 0x42f0e1eba9ea3692ull, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        crcforge_model *m = crcforge_model_new(&odd[i], NULL);
        uint8_t buf[300];
        rnd_fill(buf, sizeof buf);
        for (size_t n = 0; n <= sizeof buf; n += 13)
            CHECK(crcforge_checksum(m, buf, n) == crc_reference(&odd[i], buf, n),
                  "custom width %u len %zu", odd[i].width, n);
        crcforge_model_free(m);
    }
}

int main(void)
{
    check_begin("test_catalogue");
    printf("%zu models\n", crc_catalogue_count);
    CHECK(crc_catalogue_count >= 100, "catalogue has %zu models", crc_catalogue_count);
    for (size_t i = 0; i < crc_catalogue_count; i++)
        test_model(&crc_catalogue[i]);
    test_lookup();
    test_custom();
    return check_end();
}
