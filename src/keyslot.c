/* SPDX-License-Identifier: MIT */
/*
 * Redis/Valkey cluster key slots: CRC-16/XMODEM of the key, or of its hash tag, mod 16384,
 * on the path selected for CRC-16/XMODEM (keyslot.h).
 */
#include "keyslot.h"

int crc16_xmodem_serves(const crcforge_model *m)
{
    const crcforge_params *x = &crc_model_crc16_xmodem->p;
    /* The register convention keeps init, refout and xorout out of the update. */
    return m->p.width == x->width && m->p.poly == x->poly && m->p.refin == x->refin;
}

/* Through the path's update: a path without short-key operations, or a key too long for
 * them.  XMODEM starts from a zero register and has no xorout, so register = CRC. */
static unsigned slot_by_update(const struct crc_impl *impl, const uint8_t *key, size_t len)
{
    const crcforge_model *m = crc_model_crc16_xmodem;
    const uint8_t *part = crc_hash_tag(key, &len);
    return (unsigned)impl->update(m, 0, part, len) & 16383;
}

unsigned crcforge_keyslot(const void *key, size_t len)
{
    const crcforge_model *m = crc_model_crc16_xmodem;
    const struct crc_impl *impl = crc_selected(m);
    const struct crc_keyslot_ops *ops = impl->keyslot;
    if (ops != NULL && len <= CRC16_SHORT_MAX)
        return ops->slot(m, key, len);
    return slot_by_update(impl, key, len);
}

void crcforge_keyslots(const void *const *keys, const size_t *lens, size_t n, uint16_t *slots)
{
    const crcforge_model *m = crc_model_crc16_xmodem;
    const struct crc_impl *impl = crc_selected(m);
    if (impl == &crc_impl_unresolved && n != 0)
        impl = crc_impl_resolve(m);
    const struct crc_keyslot_ops *ops = impl->keyslot;
    for (size_t i = 0; i < n;) {
        if (ops != NULL)
            i += ops->slots(m, keys + i, lens + i, n - i, slots + i);
        if (i < n) {
            slots[i] = (uint16_t)slot_by_update(impl, keys[i], lens[i]);
            i++;
        }
    }
}
