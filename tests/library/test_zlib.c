/* SPDX-License-Identifier: MIT */
/* CRC-32 against zlib, an independent implementation: crc32 and crc32_combine64. */
#define _LARGEFILE64_SOURCE 1 /* crc32_combine64 */
#include <zlib.h>

#include "check.h"
#include "crcforge.h"

int main(void)
{
    check_begin("test_zlib");
    enum { SIZE = 1 << 20 };
    uint8_t *data = malloc(SIZE);
    rnd_fill(data, SIZE);
    for (int k = 0; k < 2000; k++) {
        size_t n = k < 1100 ? (size_t)k : rnd_below(SIZE - 64), off = rnd_below(64);
        uint32_t seed = k % 3 == 0 ? 0 : (uint32_t)rnd64();
        uint32_t want = (uint32_t)crc32(seed, data + off, (uInt)n);
        CHECK(crcforge_crc32(seed, data + off, n) == want, "crc32 len %zu seed %08x", n, seed);
    }
    for (int k = 0; k < 2000; k++) {
        uint32_t a = (uint32_t)rnd64(), b = (uint32_t)rnd64();
        uint64_t len2 = k < 10 ? (uint64_t)k : rnd64() >> rnd_below(64);
        if (k == 10)
            len2 = (5ull << 30) + 7; /* above 4 GiB */
        uint32_t want = (uint32_t)crc32_combine64(a, b, (z_off64_t)(len2 & INT64_MAX));
        CHECK(crcforge_crc32_combine(a, b, len2 & INT64_MAX) == want, "combine len2 %llu",
              (unsigned long long)len2);
    }
    free(data);
    return check_end();
}
