/* SPDX-License-Identifier: MIT */
/*
 * The portable engine: byte table and slicing-by-16 for any model, either bit order,
 * any width 1..64, on little- and big-endian hosts.  Models of width <= 32 use 32-bit
 * entries (16 KiB of tables), wider ones 64-bit entries (32 KiB).
 * Slicing: Kounavis and Berry, "A Systematic Approach to Building High Performance
 * Software-based CRC Generators" (ISCC 2005).
 */
#include "bytes.h"
#include "compiler.h"
#include "internal.h"
#include "keyslot.h"

#define ENTRY uint32_t
#define ENTRY_BITS 32
#define LOAD_LE crc_load_le32
#define LOAD_BE crc_load_be32
#define SUFFIX 32
#include "table_template.h"

#define ENTRY uint64_t
#define ENTRY_BITS 64
#define LOAD_LE crc_load_le64
#define LOAD_BE crc_load_be64
#define SUFFIX 64
#include "table_template.h"

struct crc_tables {
    union {
        uint32_t t32[16][256];
        uint64_t t64[16][256];
    } u;
};

static int uses_wide_entries(const crcforge_model *m)
{
    return m->p.width > 32;
}

static void fill_tables(void *t, const void *model)
{
    const crcforge_model *m = model;
    struct crc_tables *fresh = t;
    if (uses_wide_entries(m))
        build_tables_64(fresh->u.t64, &m->p);
    else
        build_tables_32(fresh->u.t32, &m->p);
}

/* Built on first use (crc_once): 16 KiB for widths up to 32, 32 KiB above. */
static const struct crc_tables *tables_of(const crcforge_model *m)
{
    const struct crc_tables *t = crc_once_peek(&m->tables);
    if (t != NULL)
        return t;
    size_t size = uses_wide_entries(m) ? sizeof t->u.t64 : sizeof t->u.t32;
    return crc_once((crc_once_slot *)&m->tables, size, fill_tables, m);
}

CODE_ALIGNED uint64_t crc_table_update(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                       size_t n, const struct crc_params *k)
{
    (void)k;
    const struct crc_tables *t = tables_of(m);
    unsigned w = m->p.width;
    if (uses_wide_entries(m)) {
        uint64_t (*t64)[256] = (uint64_t (*)[256])t->u.t64;
        if (m->p.refin)
            return update_refl_64(t64, reg, p, n);
        return update_msb_64(t64, reg << (64 - w), p, n) >> (64 - w);
    }
    uint32_t (*t32)[256] = (uint32_t (*)[256])t->u.t32;
    if (m->p.refin)
        return update_refl_32(t32, (uint32_t)reg, p, n);
    return update_msb_32(t32, (uint32_t)(reg << (32 - w)), p, n) >> (32 - w);
}

/* One table lookup a byte: the classic loop, for short inputs and as a baseline. */
CODE_ALIGNED uint64_t crc_bytewise_update(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                          size_t n, const struct crc_params *k)
{
    (void)k;
    const struct crc_tables *t = tables_of(m);
    unsigned w = m->p.width;
    const int msb = !m->p.refin;
    if (uses_wide_entries(m)) {
        uint64_t (*t64)[256] = (uint64_t (*)[256])t->u.t64;
        const unsigned s = msb ? 64 - w : 0; /* MSB-first registers sit left-aligned */
        return (msb ? bytewise_64(t64, reg << s, p, n, 1) : bytewise_64(t64, reg, p, n, 0)) >> s;
    }
    uint32_t (*t32)[256] = (uint32_t (*)[256])t->u.t32;
    const unsigned s = msb ? 32 - w : 0;
    return (msb ? bytewise_32(t32, (uint32_t)(reg << s), p, n, 1)
                : bytewise_32(t32, (uint32_t)reg, p, n, 0)) >> s;
}

/*
 * The short-key operations of keyslot.h for CRC-16/XMODEM (width 16: 32-bit entries,
 * the register at the top): slicing-by-2 over the first two rows of its tables, 2 KiB
 * read, from the zero register: an odd first byte alone, then two bytes a step, the
 * register xor the next 16 bits times x^16 being the sum of its two bytes' lookups.
 */
static unsigned crc16_slice2(const uint32_t (*t)[256], const uint8_t *p, size_t n)
{
    unsigned crc = 0;
    size_t i = 0;
    if (n & 1)
        crc = t[0][p[i++]] >> 16;
    for (; i < n; i += 2) {
        unsigned x = crc ^ (unsigned)(p[i] << 8 | p[i + 1]);
        crc = (t[1][x >> 8] ^ t[0][x & 0xff]) >> 16;
    }
    return crc;
}

static unsigned slice2_slot_of(const uint32_t (*t)[256], const uint8_t *key, size_t n)
{
    const uint8_t *part = crc_hash_tag(key, &n);
    return crc16_slice2(t, part, n) & 16383;
}

static unsigned slice2_slot(const crcforge_model *m, const uint8_t *key, size_t n)
{
    return slice2_slot_of((const uint32_t (*)[256])tables_of(m)->u.t32, key, n);
}

static size_t slice2_slots(const crcforge_model *m, const void *const *keys, const size_t *lens,
                           size_t n, uint16_t *slots)
{
    const uint32_t (*t)[256] = (const uint32_t (*)[256])tables_of(m)->u.t32;
    for (size_t i = 0; i < n; i++) {
        if (lens[i] > CRC16_SHORT_MAX)
            return i;
        slots[i] = (uint16_t)slice2_slot_of(t, keys[i], lens[i]);
    }
    return n;
}

static const struct crc_keyslot_ops slice2_keyslot = {slice2_slot, slice2_slots,
                                                      2 * 256 * sizeof(uint32_t)};

static int any_model(const crcforge_model *m)
{
    (void)m;
    return 1;
}

const struct crc_impl crc_impl_portable = {
    .name = "portable", .supports = any_model, .update = crc_table_update,
    .keyslot = &slice2_keyslot, .untuned = 1};
