/* SPDX-License-Identifier: MIT */
/*
 * Redis/Valkey cluster key slots: CRC-16/XMODEM of the key, or of its hash tag, mod 16384,
 * on the path selected for CRC-16/XMODEM (keyslot.h).
 */
#include "dispatch.h"
#include "keyslot.h"

/* Through the path's update: a path without short-key operations, or a key too long for
 * them.  XMODEM starts from a zero register and has no xorout, so register = CRC. */
static unsigned slot_by_update(const struct crc_selection *s, const uint8_t *key, size_t len)
{
    const crcforge_model *m = crc_model_crc16_xmodem;
    const uint8_t *part = crc_hash_tag(key, &len);
    return (unsigned)s->update(m, 0, part, len, &s->params) & 16383;
}

unsigned crcforge_keyslot(const void *key, size_t len)
{
    const crcforge_model *m = crc_model_crc16_xmodem;
    const struct crc_selection *s = crc_selected(m);
    const struct crc_keyslot_ops *ops = s->keyslot;
    if (ops != NULL && len <= CRC16_SHORT_MAX)
        return ops->slot(m, key, len);
    return slot_by_update(s, key, len);
}

void crcforge_keyslots(const void *const *keys, const size_t *lens, size_t n, uint16_t *slots)
{
    const crcforge_model *m = crc_model_crc16_xmodem;
    const struct crc_selection *s = crc_selected(m);
    if (s == &crc_unresolved && n != 0)
        s = crc_resolve(m);
    const struct crc_keyslot_ops *ops = s->keyslot;
    for (size_t i = 0; i < n;) {
        if (ops != NULL)
            i += ops->slots(m, keys + i, lens + i, n - i, slots + i);
        if (i < n) {
            slots[i] = (uint16_t)slot_by_update(s, keys[i], lens[i]);
            i++;
        }
    }
}
