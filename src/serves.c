/* SPDX-License-Identifier: MIT */
/*
 * Which fixed register a model computes, for the records' supports tests and the tuning's
 * classes: the register convention (internal.h) keeps init, refout and xorout out of the
 * update, so a model is served by a path of CRC-32C (CRC-16/XMODEM) when its width, poly
 * and bit order are that model's.
 */
#include "internal.h"

static int same_register(const crcforge_model *m, const crcforge_model *of)
{
    return m->p.width == of->p.width && m->p.poly == of->p.poly && m->p.refin == of->p.refin;
}

int crc32c_serves(const crcforge_model *m)
{
    return same_register(m, crc_model_crc32c);
}

int crc16_xmodem_serves(const crcforge_model *m)
{
    return same_register(m, crc_model_crc16_xmodem);
}
