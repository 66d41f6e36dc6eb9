/* SPDX-License-Identifier: MIT */
/*
 * Dispatch under masked CPU features: for each mask ("none", "SSE4.2 only", "PCLMULQDQ
 * without AVX2", "AVX2 without AVX-512", "AVX-512"), the path chosen per algorithm is
 * the one this table says is best for those features, the results through the public
 * entry points equal the bitwise reference, and forcing a path the masked CPU cannot
 * run is refused with a reason (never run).  Where an x86 tuning table chooses (the
 * masks with PCLMULQDQ), the choice is a path or bands of paths ("PATH<BELOW,...,PATH")
 * that the table's data picks: every band's path must be runnable under the mask, and the
 * last band's, which serves long inputs, must be of the mask's widest tier (execute its
 * defining feature); the tables themselves are test_tuning's.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cpu.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"

enum {
    SSE42 = CRC_CPU_SSE42,
    PCLMUL = CRC_CPU_SSE41 | CRC_CPU_SSE42 | CRC_CPU_PCLMUL,
    AVX2 = PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL,
    AVX512 = AVX2 | CRC_CPU_AVX512F | CRC_CPU_AVX512BW | CRC_CPU_AVX512VL | CRC_CPU_AVX512VBMI,
};

/* The best path for each algorithm under a mask, as the design orders them; under a tier
 * with a tuning table, only the tier (the feature its long-input path must execute). */
struct expectation {
    const char *mask_name;
    uint32_t keep;
    uint32_t tier; /* 0: the names below; else what the long-input path must execute */
    const char *crc32c, *crc32_family, *crc16_xmodem;
};
static const struct expectation masks[] = {
    {"none", 0, 0, "portable", "portable", "portable"},
    {"SSE4.2 only", SSE42, 0, "crc32c_x86_sse42", "portable", "portable"},
    {"PCLMULQDQ without AVX2", PCLMUL, CRC_CPU_PCLMUL, NULL, NULL, NULL},
    {"AVX2 without AVX-512", AVX2, CRC_CPU_AVX2 | CRC_CPU_VPCLMUL, NULL, NULL, NULL},
    {"AVX-512", AVX512, CRC_CPU_AVX512F | CRC_CPU_VPCLMUL, NULL, NULL, NULL},
};

/* Models checked under each mask, by the paths that serve them: CRC-32C's (its width,
 * poly and bit order, whatever init/refout/xorout), CRC-16/XMODEM's, or folding's. */
enum family { CRC32C_LIKE, CRC16_XMODEM, OTHER };
struct subject {
    const crcforge_model *m;
    enum family family;
};

/* A choice "PATH<BELOW,...,PATH" (or one PATH): every path runnable under the mask, the
 * last one `want`, or with a tier, one that executes the tier's features. */
static void check_chosen(const struct expectation *e, const crcforge_model *m, const char *got,
                         const char *want)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", got);
    const char *last = NULL;
    for (char *band = strtok(copy, ","); band != NULL; band = strtok(NULL, ",")) {
        band[strcspn(band, "<")] = '\0';
        CHECK(crcforge_impl_runnable(band), "mask %s, %s: band path %s not runnable",
              e->mask_name, crcforge_model_name(m), band);
        last = band;
    }
    if (e->tier == 0) {
        CHECK(last != NULL && strcmp(last, want) == 0, "mask %s, %s: chose %s, expected %s",
              e->mask_name, crcforge_model_name(m), got, want);
        return;
    }
    const struct crc_impl *impl = last != NULL ? crc_impl_lookup(last) : NULL;
    CHECK(impl != NULL && (impl->features & e->tier) == e->tier,
          "mask %s, %s: chose %s, whose long-input path is not of the tier", e->mask_name,
          crcforge_model_name(m), got);
}

static void check_results(const char *mask_name, const struct subject *subj, size_t count,
                          const uint8_t *data)
{
    static const size_t lengths[] = {0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 100, 239, 240, 256,
                                     1000, 4096, 12288, 12289, 100000, 1 << 20};
    for (size_t i = 0; i < count; i++) {
        const crcforge_model *m = subj[i].m;
        unsigned long bad = 0;
        for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
            size_t off = rnd_below(64), n = lengths[k];
            bad += crcforge_checksum(m, data + off, n) != crc_reference(&m->p, data + off, n);
        }
        CHECK(bad == 0, "mask %s, %s: %lu lengths differ from the reference", mask_name,
              crcforge_model_name(m), bad);
    }
    /* The fixed entry points, chained over two pieces. */
    size_t n1 = 3000, n2 = 70001;
    uint32_t c = crcforge_crc32c(crcforge_crc32c(0, data, n1), data + n1, n2);
    CHECK(c == crc_reference(&crc_model_crc32c->p, data, n1 + n2), "mask %s: crcforge_crc32c",
          mask_name);
    uint64_t v = crcforge_crc64_nvme(crcforge_crc64_nvme(0, data, n1), data + n1, n2);
    CHECK(v == crc_reference(&crc_model_crc64_nvme->p, data, n1 + n2),
          "mask %s: crcforge_crc64_nvme", mask_name);
}

static void check_forcing(const char *mask_name)
{
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        const char *why = NULL;
        int runnable = crcforge_impl_runnable(name);
        int rc = crcforge_impl_force(name, &why);
        CHECK(runnable ? rc == 0 : rc == -1 && why != NULL,
              "mask %s: forcing %s returned %d (runnable %d)", mask_name, name, rc, runnable);
        crcforge_state s;
        why = NULL;
        rc = crcforge_init_impl(&s, crc_model_crc32c, name, &why);
        int serves = crcforge_impl_supports(name, crc_model_crc32c);
        CHECK((runnable && serves) ? rc == 0 : rc == -1 && why != NULL,
              "mask %s: crcforge_init_impl(%s) returned %d", mask_name, name, rc);
        if (rc == 0) {
            crcforge_update(&s, "123456789", 9);
            CHECK(crcforge_final(&s) == 0xe3069283, "mask %s: %s check value", mask_name, name);
        }
    }
    const char *why = NULL;
    CHECK(crcforge_impl_force("no-such-path", &why) == -1 && why != NULL,
          "an unknown path name is refused");
    crcforge_impl_force(NULL, NULL);
}

int main(void)
{
    check_begin("test_dispatch");
    enum { SIZE = (1 << 20) + 128 };
    uint8_t *data = malloc(SIZE);
    rnd_fill(data, SIZE);

    crc_cpu_set_mask(~(uint32_t)0);
    const uint32_t detected = crc_cpu_features();
    printf("detected: %s\n", crcforge_cpu_features());

    for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
        const struct expectation *e = &masks[k];
        if ((detected & e->keep) != e->keep) {
            SKIP("mask %s: this CPU lacks some of its features", e->mask_name);
            continue;
        }
        if ((CRC_CPU_GUARANTEED & ~e->keep) != 0) {
            SKIP("mask %s: this build's flags guarantee features it removes", e->mask_name);
            continue;
        }
        crc_cpu_set_mask(e->keep);
        crcforge_impl_force(NULL, NULL); /* re-resolve under the mask */
        CHECK((crc_cpu_features() & ~CRC_CPU_KNOWN) == e->keep,
              "mask %s: features in use are exactly the mask", e->mask_name);

        crcforge_params like = crc_model_crc32c->p;
        like.init = 0;
        like.refout = 0;
        like.xorout = 0x12345678;
        crcforge_model *custom = crcforge_model_new(&like, NULL);
        const struct subject subj[] = {
            {crc_model_crc32c, CRC32C_LIKE},  {custom, CRC32C_LIKE},
            {crc_model_crc32, OTHER},         {crc_model_crc64_nvme, OTHER},
            {crc_model_crc64_xz, OTHER},      {crc_model_crc16_xmodem, CRC16_XMODEM},
            {crcforge_model_find("CRC-24/OPENPGP"), OTHER},
            {crcforge_model_find("CRC-64/ECMA-182"), OTHER},
        };
        const size_t count = sizeof subj / sizeof subj[0];
        for (size_t i = 0; i < count; i++) {
            const char *want = subj[i].family == CRC32C_LIKE    ? e->crc32c
                               : subj[i].family == CRC16_XMODEM ? e->crc16_xmodem
                                                                : e->crc32_family;
            check_chosen(e, subj[i].m, crcforge_impl_chosen(subj[i].m), want);
        }
        check_results(e->mask_name, subj, count, data);
        check_forcing(e->mask_name);
        crcforge_model_free(custom);
        /* A mask only removes: no feature outside the detected set appears. */
        CHECK((crc_cpu_features() & ~detected) == 0, "mask %s adds no feature", e->mask_name);
    }
    crc_cpu_set_mask(~(uint32_t)0);
    CHECK(crc_cpu_features() == detected, "an all-ones mask restores the detected features");
    free(data);
    return check_end();
}
