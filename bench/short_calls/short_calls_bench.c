/* SPDX-License-Identifier: MIT */
/*
 * short_calls_bench: crcforge's public one-shot entries against ISA-L's public (dispatched)
 * functions at 8-256 B, in the two loops a program calls them in:
 *   direct   the call written in the loop, as a caller of the library writes it
 *   pointer  through a function pointer the compiler cannot see through (as a program
 *            choosing its CRC at run time does, and as crcforge bench's harness does)
 * CRC-32C (crcforge_crc32c, crc32_iscsi), CRC-32 (crcforge_crc32, crc32_gzip_refl) and
 * CRC-64/NVME (crcforge_crc64_nvme, crc64_rocksoft_refl).  Independent calls over 256
 * buffers; each round times crcforge's loop then ISA-L's, and the figure is the median over
 * the rounds of ISA-L's time over crcforge's in the same round (above 1: crcforge faster),
 * with its quartiles, and crcforge's median ns per call.  Every function is first checked
 * against the catalogue's check value.
 *
 * Usage: short_calls_bench [--quick]   (pin it: taskset -c 1 build/short_calls_bench)
 * --quick: the checks and a short timing run, for the test suite (figures meaningless).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>
#include <isa-l/crc64.h>

#include "crcforge.h"
#include "../quick_arg.h"
#include "short_calls.h"

/* The zlib-style value of each function, 0 to start. */
static uint64_t isal_crc32c(uint64_t crc, const uint8_t *p, size_t n)
{
    return ~crc32_iscsi((unsigned char *)p, (int)n, ~(uint32_t)crc) & 0xffffffffu;
}
static uint64_t isal_crc32(uint64_t crc, const uint8_t *p, size_t n)
{
    return crc32_gzip_refl((uint32_t)crc, p, n);
}
static uint64_t isal_crc64_nvme(uint64_t crc, const uint8_t *p, size_t n)
{
    return crc64_rocksoft_refl(crc, p, n);
}

/* The call written in the loop. */
#define TIMED_LOOP(NAME, CALL) CALL_LOOP(NAME, , CALL)
TIMED_LOOP(direct_crcforge_crc32c, crcforge_crc32c(0, p, n))
TIMED_LOOP(direct_isal_crc32c, crc32_iscsi((unsigned char *)p, (int)n, 0xffffffffu))
TIMED_LOOP(direct_crcforge_crc32, crcforge_crc32(0, p, n))
TIMED_LOOP(direct_isal_crc32, crc32_gzip_refl(0, p, n))
TIMED_LOOP(direct_crcforge_crc64_nvme, crcforge_crc64_nvme(0, p, n))
TIMED_LOOP(direct_isal_crc64_nvme, crc64_rocksoft_refl(0, p, n))

/* The pointer loops call the same public functions through a pointer read each loop from
 * a volatile, so that no call can be inlined or devirtualised. */
static uint32_t (*volatile crc32c_of)(uint32_t, const void *, size_t) = crcforge_crc32c;
static unsigned (*volatile iscsi_of)(unsigned char *, int, unsigned) = crc32_iscsi;
static uint32_t (*volatile crc32_of)(uint32_t, const void *, size_t) = crcforge_crc32;
static uint32_t (*volatile gzip_of)(uint32_t, const unsigned char *, uint64_t) = crc32_gzip_refl;
static uint64_t (*volatile crc64_of)(uint64_t, const void *, size_t) = crcforge_crc64_nvme;
static uint64_t (*volatile rocksoft_of)(uint64_t, const unsigned char *, uint64_t) =
    crc64_rocksoft_refl;
CALL_POINTER_LOOP(pointer_crcforge_crc32c, crc32c_of, 0, p, n)
CALL_POINTER_LOOP(pointer_isal_crc32c, iscsi_of, (unsigned char *)p, (int)n, 0xffffffffu)
CALL_POINTER_LOOP(pointer_crcforge_crc32, crc32_of, 0, p, n)
CALL_POINTER_LOOP(pointer_isal_crc32, gzip_of, 0, p, n)
CALL_POINTER_LOOP(pointer_crcforge_crc64_nvme, crc64_of, 0, p, n)
CALL_POINTER_LOOP(pointer_isal_crc64_nvme, rocksoft_of, 0, p, n)

typedef double timed_loop(size_t n, int passes);
static const struct pair {
    const char *algorithm, *loop;
    timed_loop *crcforge, *isal;
} pairs[] = {
    {"CRC-32C", "direct", direct_crcforge_crc32c, direct_isal_crc32c},
    {"CRC-32C", "pointer", pointer_crcforge_crc32c, pointer_isal_crc32c},
    {"CRC-32", "direct", direct_crcforge_crc32, direct_isal_crc32},
    {"CRC-32", "pointer", pointer_crcforge_crc32, pointer_isal_crc32},
    {"CRC-64/NVME", "direct", direct_crcforge_crc64_nvme, direct_isal_crc64_nvme},
    {"CRC-64/NVME", "pointer", pointer_crcforge_crc64_nvme, pointer_isal_crc64_nvme},
};

/* Each function's CRC of "123456789" against the catalogue's check value. */
static int check_values(void)
{
    static const uint8_t nine[] = "123456789";
    const struct {
        const char *name;
        uint64_t got, want;
    } checks[] = {
        {"crcforge_crc32c", crcforge_crc32c(0, nine, 9), 0xe3069283},
        {"crc32_iscsi", isal_crc32c(0, nine, 9), 0xe3069283},
        {"crcforge_crc32", crcforge_crc32(0, nine, 9), 0xcbf43926},
        {"crc32_gzip_refl", isal_crc32(0, nine, 9), 0xcbf43926},
        {"crcforge_crc64_nvme", crcforge_crc64_nvme(0, nine, 9), UINT64_C(0xae8b14860a799888)},
        {"crc64_rocksoft_refl", isal_crc64_nvme(0, nine, 9), UINT64_C(0xae8b14860a799888)},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (checks[i].got != checks[i].want) {
            fprintf(stderr, "short_calls_bench: %s gives %#llx for \"123456789\", not %#llx\n",
                    checks[i].name, (unsigned long long)checks[i].got,
                    (unsigned long long)checks[i].want);
            bad = 1;
        }
    return bad;
}

int main(int argc, char **argv)
{
    const int quick = bench_quick_arg(argc, argv, "short_calls_bench");
    if (quick < 0)
        return 2;
    if (check_values())
        return 1;
    if (call_buffers_fill("short_calls_bench", CALL_BUFFER_BYTES))
        return 1;
    const int rounds = quick ? 3 : CALL_ROUNDS_MAX;
    printf("ISA-L's time over crcforge's in the same round, median (quartiles) of %d rounds; "
           "crcforge ns per call\n",
           rounds);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        for (size_t s = 0; s < CALL_SIZES; s++) {
            const size_t n = call_sizes[s];
            const int passes = call_passes(n, quick);
            double ratio[CALL_ROUNDS_MAX], ns[CALL_ROUNDS_MAX];
            pairs[i].crcforge(n, passes); /* warm-up */
            pairs[i].isal(n, passes);
            for (int r = 0; r < rounds; r++) {
                ns[r] = pairs[i].crcforge(n, passes);
                ratio[r] = pairs[i].isal(n, passes) / ns[r];
            }
            qsort(ratio, (size_t)rounds, sizeof ratio[0], call_by_value);
            qsort(ns, (size_t)rounds, sizeof ns[0], call_by_value);
            printf("%-12s %-8s %4zu B  %.2f (%.2f-%.2f)  %6.2f ns\n", pairs[i].algorithm,
                   pairs[i].loop, n, ratio[rounds / 2], ratio[rounds / 4], ratio[3 * rounds / 4],
                   ns[rounds / 2]);
        }
    return 0;
}
