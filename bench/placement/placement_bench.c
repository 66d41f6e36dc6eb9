/* SPDX-License-Identifier: MIT */
/*
 * placement_bench: how much the speed of short calls moves with where the code lands.
 * Given several builds of the shared library that differ only in placement (made by
 * scripts/placement_spread.sh), it loads them all into one process and times each one's
 * public one-shot entries at 8-256 B against ISA-L's public functions in the same rounds:
 * CRC-32C (crcforge_crc32c, crc32_iscsi), CRC-32 (crcforge_crc32, crc32_gzip_refl) and
 * CRC-64/NVME (crcforge_crc64_nvme, crc64_rocksoft_refl).  Timing the builds side by side
 * leaves the host's phases out of their differences; ISA-L, linked here once, sits at the
 * same place for all of them.
 *
 * Every call goes through a pointer (as dlsym gives it), over 256 independent buffers.
 * Each round times ISA-L and every build, in an order rotated from round to round; the
 * figure is the median over the rounds of ISA-L's time over the build's (above 1: crcforge
 * faster), with its quartiles, and the build's median ns per call.  One line a build and
 * cell, tab-separated:  library  algorithm  size  median  q1  q3  ns
 * Every function of every build is first checked against the catalogue's check value.
 *
 * Usage: placement_bench [--quick] [--sizes N,...] LIBRARY...   (pin it: taskset -c 1)
 * --quick: the checks and a short timing run, for the test suite (figures meaningless).
 * --sizes: other sizes, 1 to 4096 bytes: any two builds (before and after a change to a
 * kernel) compared side by side, each against ISA-L, in the same rounds.  Above 512 bytes the
 * buffers outgrow a 512 KiB L2 from 2 KiB on (256 of them).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>
#include <isa-l/crc64.h>

#include "../short_calls/short_calls.h"

#define LIBRARIES_MAX 16
#define SIZES_MAX 32
#define SIZE_MOST 4096

typedef uint32_t crc32_fn(uint32_t, const void *, size_t);
typedef uint64_t crc64_fn(uint64_t, const void *, size_t);

struct library {
    const char *path;
    crc32_fn *crc32c, *crc32;
    crc64_fn *crc64_nvme;
};

/* One loop per signature, the same code for every build: only the callee moves.  The
 * callee is read from a volatile, so that the call is never devirtualised. */
typedef unsigned iscsi_fn(unsigned char *, int, unsigned);
typedef uint32_t gzip_fn(uint32_t, const unsigned char *, uint64_t);
typedef uint64_t rocksoft_fn(uint64_t, const unsigned char *, uint64_t);
static crc32_fn *volatile crc32_current;
static crc64_fn *volatile crc64_current;
static iscsi_fn *volatile iscsi_of = crc32_iscsi;
static gzip_fn *volatile gzip_of = crc32_gzip_refl;
static rocksoft_fn *volatile rocksoft_of = crc64_rocksoft_refl;
CALL_POINTER_LOOP(loop_crc32, crc32_current, 0, p, n)
CALL_POINTER_LOOP(loop_crc64, crc64_current, 0, p, n)
CALL_POINTER_LOOP(loop_iscsi, iscsi_of, (unsigned char *)p, (int)n, 0xffffffffu)
CALL_POINTER_LOOP(loop_gzip, gzip_of, 0, p, n)
CALL_POINTER_LOOP(loop_rocksoft, rocksoft_of, 0, p, n)

static struct library libraries[LIBRARIES_MAX];
static size_t nlibraries;

enum algorithm { CRC32C, CRC32, CRC64_NVME, ALGORITHMS };
static const char *const algorithm_names[ALGORITHMS] = {"CRC-32C", "CRC-32", "CRC-64/NVME"};

/* ns per call of library `lib` (-1: ISA-L) at n bytes. */
static double time_one(enum algorithm a, int lib, size_t n, int passes)
{
    if (lib < 0)
        return a == CRC32C ? loop_iscsi(n, passes)
               : a == CRC32 ? loop_gzip(n, passes)
                            : loop_rocksoft(n, passes);
    if (a == CRC64_NVME) {
        crc64_current = libraries[lib].crc64_nvme;
        return loop_crc64(n, passes);
    }
    crc32_current = a == CRC32C ? libraries[lib].crc32c : libraries[lib].crc32;
    return loop_crc32(n, passes);
}

/* Loads path and checks its three functions (and ISA-L's) against the check values. */
static int load(struct library *l, const char *path)
{
    static const uint8_t nine[] = "123456789";
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "placement_bench: cannot load %s: %s\n", path, dlerror());
        return -1;
    }
    l->path = path;
    l->crc32c = (crc32_fn *)dlsym(h, "crcforge_crc32c");
    l->crc32 = (crc32_fn *)dlsym(h, "crcforge_crc32");
    l->crc64_nvme = (crc64_fn *)dlsym(h, "crcforge_crc64_nvme");
    if (l->crc32c == NULL || l->crc32 == NULL || l->crc64_nvme == NULL) {
        fprintf(stderr, "placement_bench: %s lacks crcforge_crc32c, crcforge_crc32 or "
                        "crcforge_crc64_nvme\n", path);
        return -1;
    }
    const struct {
        const char *name;
        uint64_t got, want;
    } checks[] = {
        {"crcforge_crc32c", l->crc32c(0, nine, 9), 0xe3069283},
        {"crcforge_crc32", l->crc32(0, nine, 9), 0xcbf43926},
        {"crcforge_crc64_nvme", l->crc64_nvme(0, nine, 9), UINT64_C(0xae8b14860a799888)},
        {"crc32_iscsi", ~crc32_iscsi((unsigned char *)nine, 9, 0xffffffffu) & 0xffffffffu,
         0xe3069283},
        {"crc32_gzip_refl", crc32_gzip_refl(0, nine, 9), 0xcbf43926},
        {"crc64_rocksoft_refl", crc64_rocksoft_refl(0, nine, 9), UINT64_C(0xae8b14860a799888)},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (checks[i].got != checks[i].want) {
            fprintf(stderr, "placement_bench: %s of %s gives %#llx for \"123456789\", not %#llx\n",
                    checks[i].name, path, (unsigned long long)checks[i].got,
                    (unsigned long long)checks[i].want);
            bad = 1;
        }
    return -bad;
}

/* The sizes of a --sizes list into sizes[]: their number, or 0 once the fault is on stderr. */
static size_t parse_sizes(const char *list, size_t sizes[SIZES_MAX])
{
    size_t count = 0;
    const char *p = list;
    for (;;) {
        char *end;
        const unsigned long v = strtoul(p, &end, 10);
        if (end == p || (*end != ',' && *end != '\0') || *p == '-' || v < 1 || v > SIZE_MOST) {
            fprintf(stderr, "placement_bench: --sizes '%s': each size is 1 to %d bytes\n", list,
                    SIZE_MOST);
            return 0;
        }
        if (count == SIZES_MAX) {
            fprintf(stderr, "placement_bench: --sizes '%s': at most %d sizes\n", list, SIZES_MAX);
            return 0;
        }
        sizes[count++] = v;
        if (*end == '\0')
            return count;
        p = end + 1;
    }
}

int main(int argc, char **argv)
{
    static const char usage[] = "usage: placement_bench [--quick] [--sizes N,...] LIBRARY...\n";
    int first = 1, quick = 0;
    size_t sizes[SIZES_MAX], nsizes = CALL_SIZES;
    memcpy(sizes, call_sizes, sizeof call_sizes);
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[first], "--sizes") == 0 && first + 1 < argc) {
            if ((nsizes = parse_sizes(argv[++first], sizes)) == 0)
                return 2;
        } else {
            fprintf(stderr, "placement_bench: %s '%s'\n%s",
                    strcmp(argv[first], "--sizes") == 0 ? "no list after" : "unknown option",
                    argv[first], usage);
            return 2;
        }
    }
    if (argc - first < 1 || argc - first > LIBRARIES_MAX) {
        fprintf(stderr, "placement_bench: give 1 to %d libraries\n%s", LIBRARIES_MAX, usage);
        return 2;
    }
    size_t bytes = CALL_BUFFER_BYTES;
    for (size_t s = 0; s < nsizes; s++)
        if (sizes[s] > bytes)
            bytes = (sizes[s] + 63) & ~(size_t)63;
    int bad = 0;
    for (int i = first; i < argc; i++)
        bad |= load(&libraries[nlibraries++], argv[i]) != 0;
    if (bad)
        return 1;
    if (call_buffers_fill("placement_bench", bytes))
        return 1;
    const int rounds = quick ? 3 : CALL_ROUNDS_MAX;
    const int subjects = (int)nlibraries + 1; /* ISA-L is subject 0 */
    printf("library\talgorithm\tsize\tmedian\tq1\tq3\tns\n");
    for (int a = 0; a < ALGORITHMS; a++)
        for (size_t s = 0; s < nsizes; s++) {
            const size_t n = sizes[s];
            const int passes = call_passes(n, quick);
            static double ns[LIBRARIES_MAX + 1][CALL_ROUNDS_MAX];
            for (int k = 0; k < subjects; k++) /* warm-up */
                time_one((enum algorithm)a, k - 1, n, passes);
            for (int r = 0; r < rounds; r++)
                for (int j = 0; j < subjects; j++) {
                    const int k = (j + r) % subjects;
                    ns[k][r] = time_one((enum algorithm)a, k - 1, n, passes);
                }
            for (size_t l = 0; l < nlibraries; l++) {
                double ratio[CALL_ROUNDS_MAX], own[CALL_ROUNDS_MAX];
                for (int r = 0; r < rounds; r++) {
                    ratio[r] = ns[0][r] / ns[l + 1][r];
                    own[r] = ns[l + 1][r];
                }
                qsort(ratio, (size_t)rounds, sizeof ratio[0], call_by_value);
                qsort(own, (size_t)rounds, sizeof own[0], call_by_value);
                printf("%s\t%s\t%zu\t%.4f\t%.4f\t%.4f\t%.2f\n", libraries[l].path,
                       algorithm_names[a], n, ratio[rounds / 2], ratio[rounds / 4],
                       ratio[3 * rounds / 4], own[rounds / 2]);
            }
        }
    return 0;
}
