/* SPDX-License-Identifier: MIT */
/*
 * A minimal test harness: CHECK counts and reports, main ends with the line
 * "N passed, N failed, N skipped".  Random data comes from a seeded generator; the seed
 * is printed and can be set with CRCFORGE_TEST_SEED to replay a failure.
 */
#ifndef CRCFORGE_CHECK_H
#define CRCFORGE_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long check_passed, check_failed, check_skipped;
static uint64_t check_rng_state;

#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        if (cond) {                                                                     \
            check_passed++;                                                             \
        } else {                                                                        \
            check_failed++;                                                             \
            if (check_failed <= 50) {                                                   \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                    \
                fprintf(stderr, __VA_ARGS__);                                           \
                fputc('\n', stderr);                                                    \
            }                                                                           \
        }                                                                               \
    } while (0)

#define SKIP(...)                                                                       \
    do {                                                                                \
        check_skipped++;                                                                \
        fprintf(stderr, "skip: ");                                                      \
        fprintf(stderr, __VA_ARGS__);                                                   \
        fputc('\n', stderr);                                                            \
    } while (0)

/* splitmix64 */
static inline uint64_t rnd64(void)
{
    uint64_t z = (check_rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t rnd_below(uint64_t n)
{
    return n ? rnd64() % n : 0;
}

static inline void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd64();
}

static inline void check_begin(const char *name)
{
    const char *env = getenv("CRCFORGE_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : 42;
    check_rng_state = seed;
    printf("%s: seed %" PRIu64 " (set CRCFORGE_TEST_SEED to change)\n", name, seed);
}

static inline int check_end(void)
{
    printf("%lu passed, %lu failed, %lu skipped\n", check_passed, check_failed, check_skipped);
    return check_failed ? 1 : 0;
}

#endif /* CRCFORGE_CHECK_H */
