/* SPDX-License-Identifier: MIT */
/* CRC-32 against zlib, an independent implementation: crc32 and crc32_combine64. */
#define _LARGEFILE64_SOURCE 1 /* crc32_combine64 */
#include <limits.h>
#include <zlib.h>

#include "check.h"
#include "crcforge.h"

/* zlib's lengths for combine: 64 bits where it has them.  MinGW-w64's zlib (Debian's
 * libz-mingw-w64-dev) is built with long for them, 32 bits on Windows, so there the
 * lengths compared reach 2^31 - 1 (test_combine checks longer ones against its own
 * square-and-multiply). */
#if defined(_WIN32)
#define ZLIB_COMBINE crc32_combine
#define ZLIB_LEN_MAX ((uint64_t)LONG_MAX)
typedef z_off_t zlib_len;
#else
#define ZLIB_COMBINE crc32_combine64
#define ZLIB_LEN_MAX ((uint64_t)INT64_MAX)
typedef z_off64_t zlib_len;
#endif

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
        uint64_t len2 = (k < 10 ? (uint64_t)k : rnd64() >> rnd_below(64)) & ZLIB_LEN_MAX;
        if (k == 10 && ZLIB_LEN_MAX > UINT32_MAX)
            len2 = (5ull << 30) + 7; /* above 4 GiB */
        uint32_t want = (uint32_t)ZLIB_COMBINE(a, b, (zlib_len)len2);
        CHECK(crcforge_crc32_combine(a, b, len2) == want, "combine len2 %llu",
              (unsigned long long)len2);
    }
    free(data);
    return check_end();
}
