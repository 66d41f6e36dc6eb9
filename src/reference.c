/* SPDX-License-Identifier: MIT */
/*
 * The bit-at-a-time CRC for any model: the oracle every other path is tested against.
 * Deliberately the textbook shift register, one message bit per step, MSB-first
 * notation throughout; reflection is done on the data bits and on the output only.  It
 * shares no arithmetic with the engines (not even gf2.h's bit reversal).
 */
#include "internal.h"

static uint64_t mask_of(unsigned width)
{
    return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

static uint64_t reflect_bits(uint64_t v, unsigned width)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < width; i++) {
        r = (r << 1) | (v & 1);
        v >>= 1;
    }
    return r;
}

/* reg is in the model's register form (internal.h): reflected when refin. */
uint64_t crc_reference_update(const crcforge_params *p, uint64_t reg, const uint8_t *data,
                              size_t n)
{
    const uint64_t top = (uint64_t)1 << (p->width - 1);
    const uint64_t mask = mask_of(p->width);
    uint64_t r = p->refin ? reflect_bits(reg, p->width) : reg;

    for (size_t i = 0; i < n; i++) {
        for (int b = 0; b < 8; b++) {
            /* The next message bit: LSB first when refin, else MSB first. */
            unsigned bit = p->refin ? (data[i] >> b) & 1 : (data[i] >> (7 - b)) & 1;
            unsigned feedback = ((r & top) != 0) ^ bit;
            r = (r << 1) & mask;
            if (feedback)
                r ^= p->poly;
        }
    }
    return p->refin ? reflect_bits(r, p->width) : r;
}

uint64_t crc_reference(const crcforge_params *p, const void *data, size_t n)
{
    uint64_t init = p->refin ? reflect_bits(p->init, p->width) : p->init;
    uint64_t reg = crc_reference_update(p, init, data, n);
    if (p->refin != p->refout)
        reg = reflect_bits(reg, p->width);
    return (reg ^ p->xorout) & mask_of(p->width);
}
