/* SPDX-License-Identifier: MIT */
/* Entry points: the fixed algorithms, one-shot and streaming CRCs of any model. */
#include <string.h>

#include "compiler.h"
#include "internal.h"

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
 * is one xor.  The selected path is called straight away: until the first use it is the
 * stand-in that resolves (dispatch.c).  CRC-16/XMODEM's; the other four take their paths'
 * value entries (below), which the stand-in, with value_below 0, leaves to the update. */
#define FIXED_ALGORITHM(fn, type, model, xorout)                                          \
    CODE_ALIGNED type fn(type crc, const void *buf, size_t len)                         \
    {                                                                                   \
        const crcforge_model *m = model;                                                \
        return (type)(crc_selected(m)->update(m, (uint64_t)(type)(crc ^ (xorout)), buf,  \
                                              len) ^                                    \
                      (xorout));                                                        \
    }                                                                                   \
    type fn##_combine(type crc1, type crc2, uint64_t len2)                              \
    {                                                                                   \
        return (type)crcforge_combine(model, crc1, crc2, len2);                         \
    }

#if defined(__x86_64__)
/* The chain's last n < 32 bytes, from the register c. */
static ALWAYS_INLINE uint32_t crc32c_chain_rest(uint64_t c,
                                                                        const uint8_t *p,
                                                                        size_t n)
{
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        __asm__("crc32q %1, %0" : "+r"(c) : "rm"(v));
    }
    uint32_t r = (uint32_t)c;
    if (CRC_LIKELY((n & 7) == 0))
        return r;
    if (n & 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        __asm__("crc32l %1, %0" : "+r"(r) : "rm"(v));
        p += 4;
    }
    if (n & 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        __asm__("crc32w %1, %0" : "+r"(r) : "rm"(v));
        p += 2;
    }
    if (n & 1)
        __asm__("crc32b %1, %0" : "+r"(r) : "rm"(*p));
    return r;
}

/* One chain of the crc32 instruction (SSE4.2) over p[0..n), in code compiled for any
 * x86-64: run only when the selected path says its short inputs are exactly this
 * (crc32_below), so only on a CPU with SSE4.2.  Inline assembly rather than the
 * intrinsic, so that no SSE4.2 instruction can appear outside that branch. */
static inline uint32_t crc32c_chain_here(uint32_t crc, const uint8_t *p, size_t n)
{
    uint64_t c = crc;
    /* Unrolled as the kernels' chain (x86/crc32c_x86.h): fewer instructions a byte let
     * the core run ahead into the next call's independent chain.  Laid out so that whole
     * qwords, the common case, run straight through, and inputs below 32 bytes reach the
     * qword steps with no jump: at 8-64 bytes a call's added cost is mostly its taken
     * branches, each a front-end cycle or more (Zen 3, crc32c_short_bench, throughput
     * loop: 8 and 16 B +0.62 ns over the bare loop with the 32-byte loop out of line,
     * +0.92 with it first).  The loop out of line ends the chain there too, with no jump
     * back into the qword steps, and starts a cache line, so that no iteration spans two:
     * where the code fell, the jump back and the straddling loop cost calls of 48-144 B
     * 0.3-1 ns on Zen 4 (crc32c_short_bench and paired rounds, throughput loops). */
    if (CRC_UNLIKELY(n >= 32)) {
        const uint8_t *const end = p + (n & ~(size_t)31);
        __asm__(".p2align 6\n"
                "1:\n\t"
                "crc32q (%[p]), %[c]\n\t"
                "crc32q 8(%[p]), %[c]\n\t"
                "crc32q 16(%[p]), %[c]\n\t"
                "crc32q 24(%[p]), %[c]\n\t"
                "add $32, %[p]\n\t"
                "cmp %[end], %[p]\n\t"
                "jne 1b"
                : [c] "+r"(c), [p] "+r"(p)
                : [end] "r"(end), "m"(*(const uint8_t(*)[n])p)
                : "cc");
        return crc32c_chain_rest(c, p, n & 31);
    }
    return crc32c_chain_rest(c, p, n);
}
#endif

/* A fixed algorithm's entry past its path's value entries: a band's path (its value entry
 * where it has one), or the update.  Apart, so that the entry itself stays a leaf with no
 * frame.  (No table gives the reflected class more than one band yet: for CRC-32 and the
 * CRC-64s only the update's line runs today; test_tuning checks the routing of every
 * table's bands.) */
#define THROUGH_UPDATE(fn, type, w, fixed, index, xorout)                                 \
    static CRC_NOINLINE CODE_ALIGNED type fn##_through_update(                            \
        const struct crc_impl *impl, type crc, const void *buf, size_t len)               \
    {                                                                                     \
        const crcforge_model *m = &crc_catalogue[index];                                  \
        if (len - impl->second_from < impl->second_span) /* no walk */                   \
            return impl->band_value[1][fixed].w(crc, buf, len);                           \
        if (impl->band_update != NULL) { /* the band's path called here: one call */      \
            size_t i = 0;                                                                 \
            while (impl->band_below[i] != 0 && len >= impl->band_below[i])                \
                i++;                                                                      \
            if (impl->band_value[i][fixed].w != NULL)                                     \
                return impl->band_value[i][fixed].w(crc, buf, len);                       \
            return (type)(impl->band_update[i](m, (type)(crc ^ (xorout)), buf, len) ^     \
                          (xorout));                                                      \
        }                                                                                 \
        return (type)(impl->update(m, (type)(crc ^ (xorout)), buf, len) ^ (xorout));      \
    }

/* A fixed algorithm with value entries: the selected path's (its first band's) called in
 * this one's place, with a jump; the model and its selection addressed as constants.
 * Each fixed entry starts a cache line (as crcforge_crc32c does), so that none spans two
 * wherever the linker puts it: crcforge_crc16_xmodem, where it fell across a line, ran
 * 8-byte calls in 7.3-7.6 ns against 6.5 (AMD Zen 4, crcforge bench). */
#define VALUE_ENTRY(fn, type, w, fixed, index, xorout)                                    \
    THROUGH_UPDATE(fn, type, w, fixed, index, xorout)                                     \
    CODE_ALIGNED type fn(type crc, const void *buf, size_t len)                           \
    {                                                                                     \
        const struct crc_impl *impl = crc_selected(&crc_catalogue[index]);                \
        if (len < impl->value_below)                                                      \
            return impl->value[fixed].w(crc, buf, len);                                   \
        return fn##_through_update(impl, crc, buf, len);                                  \
    }                                                                                     \
    type fn##_combine(type crc1, type crc2, uint64_t len2)                                \
    {                                                                                     \
        return (type)crcforge_combine(&crc_catalogue[index], crc1, crc2, len2);           \
    }

THROUGH_UPDATE(crcforge_crc32c, uint32_t, w32, CRC_FIXED_CRC32C, CRC_CATALOGUE_INDEX_CRC32C,
               0xffffffffu)

/* CRC-32C: short inputs that the selected path would run on one crc32 chain are run
 * here, saving the call (the header's inline path is the same loop).  Aligned to a cache
 * line: where the chain fell by chance, the calls stopped overlapping on Zen 3 once other
 * code had run (crcforge bench beside crc-fast, 64 and 128 B: 5.7 and 6.9 GB/s against
 * 11.4 and 15.8 aligned). */
CODE_ALIGNED uint32_t crcforge_crc32c(uint32_t crc, const void *buf, size_t len)
{
    const struct crc_impl *impl = crc_selected(&crc_catalogue[CRC_CATALOGUE_INDEX_CRC32C]);
#if defined(__x86_64__)
    if (CRC_LIKELY(len < impl->crc32_below))
        return ~crc32c_chain_here(~crc, buf, len);
#endif
    if (len < impl->value_below) /* the path's own entry, called in this one's place */
        return impl->value[CRC_FIXED_CRC32C].w32(crc, buf, len);
    return crcforge_crc32c_through_update(impl, crc, buf, len);
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
    uint64_t reg = crc_selected(m)->update(m, crc_init_register(m), buf, len);
    return crc_register_to_value(m, reg);
}

/* A fresh stream of m on impl (NULL: the model's selected path).  The storage past
 * struct crc_state is zeroed too, so that no byte of a state is undefined. */
static void state_start(crcforge_state *s, const crcforge_model *m, const struct crc_impl *impl)
{
    memset(s, 0, sizeof *s);
    struct crc_state *st = crc_state_of(s);
    st->model = m;
    st->impl = impl;
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
    state_start(s, m, impl);
    return 0;
}

CODE_ALIGNED void crcforge_update(crcforge_state *s, const void *buf, size_t len)
{
    struct crc_state *st = crc_state_of(s);
    const struct crc_impl *impl = st->impl != NULL ? st->impl : crc_selected(st->model);
    st->reg = impl->update(st->model, st->reg, buf, len);
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
