/* SPDX-License-Identifier: MIT */
/*
 * combine on both of its paths (carry-less multiplies where the CPU has PCLMULQDQ, the
 * bitwise multiply otherwise, chosen with the CPU mask) for random models of every width
 * 1..64 and both bit orders:
 *  - the two paths' shifts reg * x^(8*len) mod P agree, for lengths up to 2^64 - 1, and
 *    equal this file's own square-and-multiply (shift_oracle), which shares nothing with
 *    combine.c's tables;
 *  - each path's shift of a small length equals the reference run over zero bytes;
 *  - crcforge_combine equals the reference CRC of the concatenation.
 */
#include <string.h>

#include "check.h"
#include "cpu.h"
#include "internal.h"

static crcforge_model *random_model(unsigned width)
{
    crcforge_params p;
    const uint64_t mask = crc_width_mask(width);
    p.width = width;
    p.poly = rnd64() & mask; /* even ones too: the catalogue has none */
    p.init = rnd64() & mask;
    p.refin = (int)rnd_below(2);
    p.refout = (int)rnd_below(2);
    p.xorout = rnd64() & mask;
    return crcforge_model_new(&p, NULL);
}

static uint64_t random_length(void)
{
    switch (rnd_below(4)) {
    case 0:
        return rnd_below(100);
    case 1:
        return (uint64_t)1 << rnd_below(64);
    default:
        return rnd64() >> rnd_below(64);
    }
}

/* a * b mod P, MSB-first, one bit of b at a time (P = x^width + poly). */
static uint64_t mulmod_bitwise(uint64_t a, uint64_t b, uint64_t poly, unsigned width)
{
    const uint64_t top = (uint64_t)1 << (width - 1), mask = crc_width_mask(width);
    uint64_t r = 0;
    for (int i = (int)width - 1; i >= 0; i--) {
        r = ((r << 1) ^ ((r & top) ? poly : 0)) & mask;
        if ((b >> i) & 1)
            r ^= a;
    }
    return r;
}

/* The register after len zero bytes: reg * (x^8)^len mod P by square-and-multiply over
 * the bits of len, in the register's bit order. */
static uint64_t shift_oracle(const crcforge_model *m, uint64_t reg, uint64_t len)
{
    const unsigned w = m->p.width;
    uint64_t r = m->p.refin ? crc_reflect(reg, w) : reg;
    uint64_t base = mulmod_bitwise(1, 1, m->p.poly, w); /* 1 */
    for (int i = 0; i < 8; i++) /* x^8 mod P, one shift at a time */
        base = mulmod_bitwise(base, w > 1 ? 2 : m->p.poly, m->p.poly, w);
    for (; len != 0; len >>= 1) {
        if (len & 1)
            r = mulmod_bitwise(r, base, m->p.poly, w);
        base = mulmod_bitwise(base, base, m->p.poly, w);
    }
    return m->p.refin ? crc_reflect(r, w) : r;
}

static void combine_against_reference(const crcforge_model *m, const uint8_t *data,
                                      const char *path)
{
    unsigned long bad = 0;
    for (int k = 0; k < 8; k++) {
        size_t n1 = rnd_below(300), n2 = rnd_below(300);
        uint64_t a = crc_reference(&m->p, data, n1), b = crc_reference(&m->p, data + n1, n2);
        bad += crcforge_combine(m, a, b, n2) != crc_reference(&m->p, data, n1 + n2);
    }
    CHECK(bad == 0, "%s path, width %u poly %#llx refin %d refout %d: combine differs", path,
          m->p.width, (unsigned long long)m->p.poly, m->p.refin, m->p.refout);
}

int main(void)
{
    check_begin("test_combine");
    static uint8_t data[600], zeros[256];
    rnd_fill(data, sizeof data);
    const int has_clmul = crc_cpu_has(CRC_CPU_PCLMUL);
    if (!has_clmul)
        SKIP("carry-less combine: this CPU has no PCLMULQDQ (bitwise path tested alone)");

    for (unsigned width = 1; width <= 64; width++) {
        for (int trial = 0; trial < 6; trial++) {
            crcforge_model *m = random_model(width);
            unsigned long differ = 0, wrong = 0, off_oracle = 0;
            for (int k = 0; k < 40; k++) {
                uint64_t reg = rnd64() & crc_width_mask(width), len = random_length();
                crc_cpu_set_mask(0);
                uint64_t bitwise = crc_shift_register(m, reg, len);
                crc_cpu_set_mask(~(uint32_t)0);
                uint64_t clmul = crc_shift_register(m, reg, len);
                differ += has_clmul && clmul != bitwise;
                off_oracle += bitwise != shift_oracle(m, reg, len);
                size_t n = rnd_below(sizeof zeros + 1);
                uint64_t want = crc_reference_update(&m->p, reg, zeros, n);
                wrong += crc_shift_register(m, reg, n) != want;
                crc_cpu_set_mask(0);
                wrong += crc_shift_register(m, reg, n) != want;
                crc_cpu_set_mask(~(uint32_t)0);
            }
            CHECK(differ == 0, "width %u poly %#llx: %lu carry-less shifts differ from bitwise",
                  width, (unsigned long long)m->p.poly, differ);
            CHECK(off_oracle == 0, "width %u poly %#llx: %lu shifts differ from the "
                  "square-and-multiply oracle", width, (unsigned long long)m->p.poly, off_oracle);
            CHECK(wrong == 0, "width %u poly %#llx: %lu shifts differ from the reference", width,
                  (unsigned long long)m->p.poly, wrong);
            combine_against_reference(m, data, has_clmul ? "carry-less" : "bitwise");
            crc_cpu_set_mask(0);
            combine_against_reference(m, data, "bitwise");
            crc_cpu_set_mask(~(uint32_t)0);
            crcforge_model_free(m);
        }
    }
    return check_end();
}
