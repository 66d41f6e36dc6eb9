/* SPDX-License-Identifier: MIT */
/*
 * The fixed entry points (crcforge_crc32c ... crcforge_crc16_xmodem) and their _combine
 * functions behind one signature each, so that tests can loop over them:
 * crcforge_crc32c_(crc, buf, len) and crcforge_crc32c_combine_(crc1, crc2, len2), ...
 */
#ifndef CRCFORGE_TEST_FIXED_ENTRIES_H
#define CRCFORGE_TEST_FIXED_ENTRIES_H

#include <stddef.h>
#include <stdint.h>

#include "crcforge.h"

typedef uint64_t (*fixed_crc_fn)(uint64_t crc, const void *buf, size_t len);
typedef uint64_t (*fixed_combine_fn)(uint64_t crc1, uint64_t crc2, uint64_t len2);

#define FIXED_ADAPT(fn, type)                                                             \
    static inline uint64_t fn##_(uint64_t c, const void *p, size_t n)                     \
    {                                                                                     \
        return fn((type)c, p, n);                                                         \
    }                                                                                     \
    static inline uint64_t fn##_combine_(uint64_t a, uint64_t b, uint64_t n)              \
    {                                                                                     \
        return fn##_combine((type)a, (type)b, n);                                         \
    }
FIXED_ADAPT(crcforge_crc32c, uint32_t)
FIXED_ADAPT(crcforge_crc32, uint32_t)
FIXED_ADAPT(crcforge_crc64_nvme, uint64_t)
FIXED_ADAPT(crcforge_crc64_xz, uint64_t)
FIXED_ADAPT(crcforge_crc16_xmodem, uint16_t)
#undef FIXED_ADAPT

#endif /* CRCFORGE_TEST_FIXED_ENTRIES_H */
