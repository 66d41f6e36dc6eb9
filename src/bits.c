/* Bit helpers; the start register and register -> value, shared by the entry points. */
#include "internal.h"

uint64_t crc_width_mask(unsigned width)
{
    return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

uint64_t crc_reflect(uint64_t v, unsigned width)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < width; i++) {
        r = (r << 1) | (v & 1);
        v >>= 1;
    }
    return r;
}

/* The register holds the CRC in the model's input bit order (see internal.h). */
uint64_t crc_init_register(const crcforge_model *m)
{
    return m->p.refin ? crc_reflect(m->p.init, m->p.width) : m->p.init;
}

uint64_t crc_register_to_value(const crcforge_model *m, uint64_t reg)
{
    /* Register in input order; the value is in output order. */
    if (m->p.refin != m->p.refout)
        reg = crc_reflect(reg, m->p.width);
    return (reg ^ m->p.xorout) & crc_width_mask(m->p.width);
}
