/* SPDX-License-Identifier: MIT */
/* Entry points: the fixed algorithms, one-shot and streaming CRCs of any model. */
#include <string.h>

#include "compiler.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"

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

/* The five fixed models have refin == refout and init == xorout, so value <-> register
 * is one xor.  The selection is called straight away: until the first use it is the
 * stand-in that resolves (dispatch.c).  CRC-16/XMODEM's; the other four take their paths'
 * value entries (below), which the stand-in, with value_below 0, leaves to its update. */
#define FIXED_ALGORITHM(fn, type, model, xorout)                                          \
    CODE_ALIGNED type fn(type crc, const void *buf, size_t len)                         \
    {                                                                                   \
        const crcforge_model *m = model;                                                \
        const struct crc_selection *s = crc_selected(m);                                \
        return (type)(s->update(m, (uint64_t)(type)(crc ^ (xorout)), buf, len,          \
                                &s->params) ^                                           \
                      (xorout));                                                        \
    }                                                                                   \
    type fn##_combine(type crc1, type crc2, uint64_t len2)                              \
    {                                                                                   \
        return (type)crcforge_combine(model, crc1, crc2, len2);                         \
    }

/* A fixed algorithm's entry past the first band's value entries: the band walk (internal.h),
 * the band's value entry where its path has one, else its update.  Apart, so that the
 * entry itself stays a leaf with no frame; the entry's arguments in their registers, the
 * selection (its parameters first) after them, so that the entry's jump here and this
 * one's to the value entry move none of them. */
#define PAST_FIRST_BAND(fn, type, w, fixed, index, xorout)                                \
    static CRC_NOINLINE CODE_ALIGNED type fn##_past_first_band(                           \
        type crc, const void *buf, size_t len, const struct crc_selection *s)             \
    {                                                                                     \
        const struct crc_band *b = crc_band_of(s, len);                                   \
        if (b->value[fixed].w != NULL)                                                    \
            return b->value[fixed].w(crc, buf, len, &s->params);                          \
        return (type)(b->update(&crc_catalogue[index], (type)(crc ^ (xorout)), buf, len,  \
                                &s->params) ^                                             \
                      (xorout));                                                          \
    }

/* A fixed algorithm with value entries: the selection's first band's called in this
 * one's place, with a jump; the model and its selection addressed as constants.
 * Each fixed entry starts a cache line (as crcforge_crc32c does), so that none spans two
 * wherever the linker puts it: crcforge_crc16_xmodem, where it fell across a line, ran
 * 8-byte calls in 7.3-7.6 ns against 6.5 (AMD Zen 4, crcforge bench). */
#define VALUE_ENTRY(fn, type, w, fixed, index, xorout)                                    \
    PAST_FIRST_BAND(fn, type, w, fixed, index, xorout)                                    \
    CODE_ALIGNED type fn(type crc, const void *buf, size_t len)                           \
    {                                                                                     \
        const struct crc_selection *s = crc_selected(&crc_catalogue[index]);              \
        if (len < s->value_below) {                                                       \
            const struct crc_params *k = &s->params;                                      \
            CRC_HAND_ON(k);                                                               \
            return s->value[fixed].w(crc, buf, len, k);                                   \
        }                                                                                 \
        return fn##_past_first_band(crc, buf, len, s);                                    \
    }                                                                                     \
    type fn##_combine(type crc1, type crc2, uint64_t len2)                                \
    {                                                                                     \
        return (type)crcforge_combine(&crc_catalogue[index], crc1, crc2, len2);           \
    }

PAST_FIRST_BAND(crcforge_crc32c, uint32_t, w32, CRC_FIXED_CRC32C, CRC_CATALOGUE_INDEX_CRC32C,
                0xffffffffu)

/* CRC-32C: short inputs that the selection's first paths would run on one crc32 chain
 * are run here, saving the call: the chain is the public header's (its inline path runs
 * the same).  Aligned to a cache line: where the chain fell by chance, the calls stopped
 * overlapping on Zen 3 once other code had run (crcforge bench beside crc-fast, 64 and
 * 128 B: 5.7 and 6.9 GB/s against 11.4 and 15.8 aligned). */
CODE_ALIGNED uint32_t crcforge_crc32c(uint32_t crc, const void *buf, size_t len)
{
    const struct crc_selection *s = crc_selected(&crc_catalogue[CRC_CATALOGUE_INDEX_CRC32C]);
#if defined(__x86_64__)
    if (CRC_LIKELY(len < s->crc32_below))
        return ~crcforge_crc32c_chain_(~crc, buf, len);
#endif
    if (len < s->value_below) { /* the path's own entry, called in this one's place */
        const struct crc_params *k = &s->params;
        CRC_HAND_ON(k);
        return s->value[CRC_FIXED_CRC32C].w32(crc, buf, len, k);
    }
    return crcforge_crc32c_past_first_band(crc, buf, len, s);
}

uint32_t crcforge_crc32c_combine(uint32_t crc1, uint32_t crc2, uint64_t len2)
{
    return (uint32_t)crcforge_combine(crc_model_crc32c, crc1, crc2, len2);
}

VALUE_ENTRY(crcforge_crc32, uint32_t, w32, CRC_FIXED_CRC32, CRC_CATALOGUE_INDEX_CRC32,
            0xffffffffu)
VALUE_ENTRY(crcforge_crc64_nvme, uint64_t, w64, CRC_FIXED_CRC64_NVME,
            CRC_CATALOGUE_INDEX_CRC64_NVME, ~(uint64_t)0)
VALUE_ENTRY(crcforge_crc64_xz, uint64_t, w64, CRC_FIXED_CRC64_XZ, CRC_CATALOGUE_INDEX_CRC64_XZ,
            ~(uint64_t)0)
FIXED_ALGORITHM(crcforge_crc16_xmodem, uint16_t, crc_model_crc16_xmodem, 0)

/* Starts a cache line too (AMD Zen 4, CRC-64/ECMA-182 at 8-32 B: 0.60-0.67x the fastest
 * peer where it fell after other code, 0.65-0.77x aligned). */
CODE_ALIGNED uint64_t crcforge_checksum(const crcforge_model *m, const void *buf, size_t len)
{
    const struct crc_selection *s = crc_selected(m);
    uint64_t reg = s->update(m, crc_init_register(m), buf, len, &s->params);
    return crc_register_to_value(m, reg);
}

/* A fresh stream of m on pinned (NULL: the model's selection).  The storage past
 * struct crc_state is zeroed too, so that no byte of a state is undefined. */
static void state_start(crcforge_state *s, const crcforge_model *m,
                        const struct crc_selection *pinned)
{
    memset(s, 0, sizeof *s);
    struct crc_state *st = crc_state_of(s);
    st->model = m;
    st->pinned = pinned;
    st->reg = crc_init_register(m);
}

void crcforge_init(crcforge_state *s, const crcforge_model *m)
{
    state_start(s, m, NULL);
}

int crcforge_init_impl(crcforge_state *s, const crcforge_model *m, const char *name,
                       const char **why)
{
    const struct crc_impl *impl = crc_impl_lookup(name);
    const char *reason = m == NULL ? "no model given" : crc_impl_unusable(impl);
    if (reason == NULL && !impl->supports(m))
        reason = "that implementation does not serve this model";
    if (reason != NULL) {
        if (why != NULL)
            *why = reason;
        return -1;
    }
    state_start(s, m, crc_pinned(impl));
    return 0;
}

CODE_ALIGNED void crcforge_update(crcforge_state *s, const void *buf, size_t len)
{
    struct crc_state *st = crc_state_of(s);
    const struct crc_selection *sel = st->pinned != NULL ? st->pinned : crc_selected(st->model);
    st->reg = sel->update(st->model, st->reg, buf, len, &sel->params);
}

uint64_t crcforge_final(const crcforge_state *s)
{
    const struct crc_state *st = crc_state_in(s);
    return crc_register_to_value(st->model, st->reg);
}

unsigned crcforge_version(void)
{
    return CRCFORGE_VERSION_NUMBER;
}
