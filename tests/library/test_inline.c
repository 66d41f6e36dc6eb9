/* SPDX-License-Identifier: MIT */
/*
 * crcforge_crc32c_inline (the header's inline CRC-32C) against the bitwise reference at
 * every length 0..4096 and alignment 0..63 (a random start value per alignment), and
 * flush against a guard page.  Built twice: with the crc32 instruction enabled for this file
 * (EXPECT_INLINE=1, the inline path up to 64 bytes) and without (EXPECT_INLINE=0, every
 * length calls the library), and each build checks it compiled the path it expects.
 */
#include "check.h"
#include "guarded.h"
#include "internal.h"

/* A build whose global flags give every file the crc32 instruction (tests/stages/
 * 12-compilers.sh's -march build; macOS on arm64, where every CPU has it) has the inline
 * path in both. */
#if CRCFORGE_HAVE_CRC32C_INLINE != EXPECT_INLINE &&                                        \
    !(EXPECT_INLINE == 0 && (defined(__SSE4_2__) || defined(__ARM_FEATURE_CRC32)))
#error "crcforge.h did not select the CRC-32C path this test build expects"
#endif

#define MAX_LEN 4096
#define MAX_ALIGN 64

int main(void)
{
    check_begin(EXPECT_INLINE ? "test_inline (crc32 instruction inlined)"
                              : "test_inline_call (library call)");
    const crcforge_params *p = &crc_model_crc32c->p;
    struct guarded g;
    if (guarded_alloc(&g, MAX_LEN + MAX_ALIGN) != 0) {
        CHECK(0, "guarded_alloc");
        return check_end();
    }
    rnd_fill(g.start, (size_t)(g.end - g.start));
    unsigned long bad = 0;
    for (size_t a = 0; a < MAX_ALIGN; a++) {
        const uint8_t *buf = g.start + a;
        uint32_t seed = a == 0 ? 0 : (uint32_t)rnd64();
        uint64_t reg = (uint32_t)~seed; /* the reference register, one byte at a time */
        for (size_t n = 0; n <= MAX_LEN; n++) {
            if (n > 0)
                reg = crc_reference_update(p, reg, buf + n - 1, 1);
            if (crcforge_crc32c_inline(seed, buf, n) != (uint32_t)~reg && bad++ < 20)
                CHECK(0, "align %zu len %zu seed %08x", a, n, (unsigned)seed);
        }
    }
    for (size_t n = 0; n <= 256; n++) { /* flush against the guard page after */
        const uint8_t *buf = g.end - n;
        uint32_t want = ~(uint32_t)crc_reference_update(p, 0xffffffffu, buf, n);
        if (crcforge_crc32c_inline(0, buf, n) != want && bad++ < 20)
            CHECK(0, "len %zu at the end of the buffer", n);
    }
    CHECK(bad == 0, "%lu of %d lengths x alignments differ from the reference", bad,
          (MAX_LEN + 1) * MAX_ALIGN);
    /* Chaining: split points inside and across the 64-byte inline bound. */
    for (size_t n = 0; n <= 200; n++)
        for (size_t cut = 0; cut <= n; cut += 3) {
            uint32_t whole = crcforge_crc32c_inline(0, g.start, n);
            uint32_t part = crcforge_crc32c_inline(crcforge_crc32c_inline(0, g.start, cut),
                                                   g.start + cut, n - cut);
            if (part != whole && bad++ < 20)
                CHECK(0, "len %zu cut at %zu", n, cut);
        }
    CHECK(bad == 0, "chained calls differ from one call");
    CHECK(crcforge_crc32c_inline(0, "123456789", 9) == 0xe3069283u, "check value");
    guarded_free(&g);
    return check_end();
}
