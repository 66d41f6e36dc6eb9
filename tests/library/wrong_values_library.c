/* SPDX-License-Identifier: MIT */
/* A library with crcforge's three one-shot entries that return wrong values: what
 * placement_bench must refuse to time (tests/library/CMakeLists.txt). */
#include <stddef.h>
#include <stdint.h>

uint32_t crcforge_crc32c(uint32_t crc, const void *buf, size_t len);
uint32_t crcforge_crc32(uint32_t crc, const void *buf, size_t len);
uint64_t crcforge_crc64_nvme(uint64_t crc, const void *buf, size_t len);

uint32_t crcforge_crc32c(uint32_t crc, const void *buf, size_t len)
{
    (void)buf;
    return crc + (uint32_t)len;
}
uint32_t crcforge_crc32(uint32_t crc, const void *buf, size_t len)
{
    (void)buf;
    return crc + (uint32_t)len;
}
uint64_t crcforge_crc64_nvme(uint64_t crc, const void *buf, size_t len)
{
    (void)buf;
    return crc + len;
}
