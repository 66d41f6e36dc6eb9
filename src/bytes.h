/* SPDX-License-Identifier: MIT */
/* Endian-neutral loads: the engines see bytes in stream order on any host. */
#ifndef CRCFORGE_BYTES_H
#define CRCFORGE_BYTES_H

#include <stdint.h>
#include <string.h>

#include "compiler.h" /* CRC_HOST_LE or CRC_HOST_BE, the byte swaps */

static inline uint32_t crc_load_le32(const uint8_t *p)
{
#if defined(CRC_HOST_LE) || defined(CRC_HOST_BE)
    uint32_t v;
    memcpy(&v, p, 4);
#ifdef CRC_HOST_BE
    v = CRC_BSWAP32(v);
#endif
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

static inline uint32_t crc_load_be32(const uint8_t *p)
{
#if defined(CRC_HOST_LE) || defined(CRC_HOST_BE)
    uint32_t v;
    memcpy(&v, p, 4);
#ifdef CRC_HOST_LE
    v = CRC_BSWAP32(v);
#endif
    return v;
#else
    return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
#endif
}

static inline uint64_t crc_load_le64(const uint8_t *p)
{
    return (uint64_t)crc_load_le32(p) | (uint64_t)crc_load_le32(p + 4) << 32;
}

static inline uint64_t crc_load_be64(const uint8_t *p)
{
#ifdef CRC_HOST_LE
    uint64_t v; /* one 8-byte load and one byte swap, not two of each */
    memcpy(&v, p, 8);
    return CRC_BSWAP64(v);
#else
    return (uint64_t)crc_load_be32(p) << 32 | crc_load_be32(p + 4);
#endif
}

#endif /* CRCFORGE_BYTES_H */
