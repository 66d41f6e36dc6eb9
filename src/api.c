/* Entry points: the fixed algorithms, one-shot and streaming CRCs of any model. */
#include <string.h>

#include "crc16_short.h"
#include "internal.h"

/* The five fixed models have refin == refout, so value <-> register is one xor.  The
 * first use resolves the path in a separate function, so that the hot path keeps no
 * registers across a call it never makes (an 8-byte CRC-32C costs a few cycles). */
#define FIXED_ALGORITHM(fn, type, model, xorout)                                          \
    static __attribute__((noinline)) type fn##_first_use(type crc, const void *buf,      \
                                                         size_t len)                    \
    {                                                                                   \
        const crcforge_model *m = model;                                                \
        return (type)(crc_impl_resolve(m)->update(m, (uint64_t)(type)(crc ^ (xorout)), buf, \
                                                  len) ^                                \
                      (xorout));                                                        \
    }                                                                                   \
    type fn(type crc, const void *buf, size_t len)                                      \
    {                                                                                   \
        const crcforge_model *m = model;                                                \
        const struct crc_impl *impl = atomic_load_explicit(&((crcforge_model *)m)->impl,  \
                                                           memory_order_acquire);       \
        if (impl == NULL)                                                               \
            return fn##_first_use(crc, buf, len);                                       \
        return (type)(impl->update(m, (uint64_t)(type)(crc ^ (xorout)), buf, len) ^        \
                      (xorout));                                                        \
    }                                                                                   \
    type fn##_combine(type crc1, type crc2, uint64_t len2)                              \
    {                                                                                   \
        return (type)crcforge_combine(model, crc1, crc2, len2);                         \
    }

FIXED_ALGORITHM(crcforge_crc32c, uint32_t, crc_model_crc32c, 0xffffffffu)
FIXED_ALGORITHM(crcforge_crc32, uint32_t, crc_model_crc32, 0xffffffffu)
FIXED_ALGORITHM(crcforge_crc64_nvme, uint64_t, crc_model_crc64_nvme, ~(uint64_t)0)
FIXED_ALGORITHM(crcforge_crc64_xz, uint64_t, crc_model_crc64_xz, ~(uint64_t)0)

/* CRC-16/XMODEM up to 64 bytes takes the short-key path, several times faster there than
 * the streaming engines, unless a path is forced.  A start value r != 0 adds r x^(8n)
 * mod P: xored into the first two bytes of a copy, it does (n >= 2). */
uint16_t crcforge_crc16_xmodem(uint16_t crc, const void *buf, size_t len)
{
    if (len <= CRC16_SHORT_MAX && (crc == 0 || len >= 2) && !crc_impl_forced()) {
        const struct crc16_short_impl *impl = crc16_short_best();
        if (crc == 0)
            return impl->crc(&crc16_short_k, buf, len);
        uint8_t copy[CRC16_SHORT_MAX];
        memcpy(copy, buf, len);
        copy[0] ^= (uint8_t)(crc >> 8);
        copy[1] ^= (uint8_t)crc;
        return impl->crc(&crc16_short_k, copy, len);
    }
    const crcforge_model *m = crc_model_crc16_xmodem;
    return (uint16_t)crc_dispatched(m)(m, crc, buf, len);
}

uint16_t crcforge_crc16_xmodem_combine(uint16_t crc1, uint16_t crc2, uint64_t len2)
{
    return (uint16_t)crcforge_combine(crc_model_crc16_xmodem, crc1, crc2, len2);
}

uint64_t crcforge_checksum(const crcforge_model *m, const void *buf, size_t len)
{
    uint64_t reg = crc_dispatched(m)(m, crc_init_register(m), buf, len);
    return crc_register_to_value(m, reg);
}

void crcforge_init(crcforge_state *s, const crcforge_model *m)
{
    s->model = m;
    s->impl = NULL;
    s->reg = crc_init_register(m);
}

void crcforge_update(crcforge_state *s, const void *buf, size_t len)
{
    const struct crc_impl *impl = s->impl;
    crc_update_fn fn = impl != NULL ? impl->update : crc_dispatched(s->model);
    s->reg = fn(s->model, s->reg, buf, len);
}

uint64_t crcforge_final(const crcforge_state *s)
{
    return crc_register_to_value(s->model, s->reg);
}
