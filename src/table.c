/*
 * The portable engine: byte table and slicing-by-16 for any model, either bit order,
 * any width 1..64, on little- and big-endian hosts.  Models of width <= 32 use 32-bit
 * entries (16 KiB of tables), wider ones 64-bit entries (32 KiB).
 * Slicing: Kounavis and Berry, "A Systematic Approach to Building High Performance
 * Software-based CRC Generators" (ISCC 2005).
 */
#include <stdlib.h>

#include "bytes.h"
#include "internal.h"

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

/* Built on first use; a racing builder's copy is discarded, so no lock is needed. */
static const struct crc_tables *tables_of(const crcforge_model *m)
{
    crcforge_model *mm = (crcforge_model *)m;
    struct crc_tables *t = atomic_load_explicit(&mm->tables, memory_order_acquire);
    if (t != NULL)
        return t;
    size_t size = uses_wide_entries(m) ? sizeof t->u.t64 : sizeof t->u.t32;
    struct crc_tables *fresh = malloc(size);
    if (fresh == NULL)
        abort(); /* 16-32 KiB once per model: nothing sensible to return instead */
    if (uses_wide_entries(m))
        build_tables_64(fresh->u.t64, &m->p);
    else
        build_tables_32(fresh->u.t32, &m->p);
    return CRC_PUBLISH_ONCE(&mm->tables, fresh);
}

void crc_tables_release(crcforge_model *m)
{
    free(atomic_exchange(&m->tables, NULL));
}

uint64_t crc_table_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n)
{
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
uint64_t crc_bytewise_update(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n)
{
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

static int always(void)
{
    return 1;
}

static int any_model(const crcforge_model *m)
{
    (void)m;
    return 1;
}

const struct crc_impl crc_impl_portable = {"portable", always, any_model, crc_table_update};
