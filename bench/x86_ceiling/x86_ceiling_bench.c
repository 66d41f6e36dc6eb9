/* SPDX-License-Identifier: MIT */
/*
 * x86_ceiling_bench: how many bytes a second the two units that CRC-32C kernels use can
 * take on this CPU, alone and together, beside what crcforge_crc32c reaches.
 *   crc32      three independent crc32 chains, 8 bytes a step: the crc32 unit's limit, and
 *              the method of the crc32-only peers (google-crc32c, crc32c, ISA-L's SSE path)
 *   fold       four 256-bit VPCLMULQDQ folding accumulators: the carry-less unit's limit
 *   mixQ       one loop doing both: 128 bytes folded and Q qwords on each of three crc32
 *              chains an iteration (the shape of crc32c_x86_avx2_hybrid)
 *   crcforge   crcforge_crc32c, the dispatched library call (first checked against the
 *              bitwise reference at both sizes)
 * The probe loops compute no CRC (their constant is arbitrary and no chain is joined):
 * they are the instruction mix alone, an upper bound on any kernel built from it.  If
 * the units overlapped fully, the best mix would take crc32 + fold bytes a second.
 *
 * Usage: x86_ceiling_bench [--quick]   (pin it: taskset -c 1 build/x86_ceiling_bench)
 * --quick: one short sample each, for the test suite (figures meaningless).
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compiler.h"
#include "crcforge.h"
#include "cpu.h"
#include "internal.h"
#include "../quick_arg.h"

#define TARGET CRC_TARGET("avx2,vpclmulqdq,pclmul,sse4.2,crc32")
/* The timed loops stay out of line, so each is compiled as a kernel would be. */
#define KERNEL TARGET CRC_NOINLINE

static TARGET inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static KERNEL uint64_t crc32_chains(const uint8_t *p, size_t n)
{
    const size_t l = n / 24 * 8;
    uint64_t a = 0, b = 0, c = 0;
    for (size_t i = 0; i < l; i += 8) {
        a = _mm_crc32_u64(a, load64(p + i));
        b = _mm_crc32_u64(b, load64(p + l + i));
        c = _mm_crc32_u64(c, load64(p + 2 * l + i));
    }
    return a ^ b ^ c;
}

#define FOLD(x, k, q)                                                                      \
    _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(x, k, 0x00),                \
                                      _mm256_clmulepi64_epi128(x, k, 0x11)),               \
                     _mm256_loadu_si256((const void *)(q)))

/* Folds 128 bytes an iteration over the first 128*it bytes, and runs `q` qwords on each
 * of three chains an iteration over the rest (q = 0: folding alone). */
static KERNEL uint64_t mix(const uint8_t *p, size_t it, int q)
{
    const __m256i k = _mm256_set1_epi64x(0x1db710640);
    const size_t l = 8 * (size_t)q * it;
    const uint8_t *a = p + 128 * it;
    __m256i x0 = _mm256_loadu_si256((const void *)p), x1 = _mm256_loadu_si256((const void *)(p + 32));
    __m256i x2 = _mm256_loadu_si256((const void *)(p + 64)), x3 = _mm256_loadu_si256((const void *)(p + 96));
    uint64_t s0 = 0, s1 = 0, s2 = 0;
    for (size_t i = 1; i < it; i++) {
        for (int j = 0; j < q; j++, a += 8) {
            s0 = _mm_crc32_u64(s0, load64(a));
            s1 = _mm_crc32_u64(s1, load64(a + l));
            s2 = _mm_crc32_u64(s2, load64(a + 2 * l));
        }
        const uint8_t *b = p + 128 * i;
        x0 = FOLD(x0, k, b);
        x1 = FOLD(x1, k, b + 32);
        x2 = FOLD(x2, k, b + 64);
        x3 = FOLD(x3, k, b + 96);
    }
    __m256i x = _mm256_xor_si256(_mm256_xor_si256(x0, x1), _mm256_xor_si256(x2, x3));
    return (uint64_t)_mm256_extract_epi64(x, 0) ^ s0 ^ s1 ^ s2;
}

/* The subjects, as the benchmarks' timing loop calls them: one pass over n bytes. */
static uint64_t run_crc32(const void *ctx, const uint8_t *p, size_t n)
{
    (void)ctx;
    return crc32_chains(p, n);
}

/* ctx: the qwords a chain per 128 folded bytes (0: folding alone). */
static uint64_t run_mix(const void *ctx, const uint8_t *p, size_t n)
{
    int q = *(const int *)ctx;
    return mix(p, n / (128 + 24 * (size_t)q), q);
}

static uint64_t run_crcforge(const void *ctx, const uint8_t *p, size_t n)
{
    (void)ctx;
    return crcforge_crc32c(0, p, n);
}

static const int qwords[] = {0, 4, 6, 8, 10, 12};
enum { CRC32, FOLD_ONLY, MIX4, MIX12 = MIX4 + 4, CRCFORGE, SUBJECTS };
static const struct bench_subject subjects[SUBJECTS] = {
    {.name = "crc32", .fn = run_crc32},
    {.name = "fold", .fn = run_mix, .ctx = &qwords[0]},
    {.name = "mix4", .fn = run_mix, .ctx = &qwords[1]},
    {.name = "mix6", .fn = run_mix, .ctx = &qwords[2]},
    {.name = "mix8", .fn = run_mix, .ctx = &qwords[3]},
    {.name = "mix10", .fn = run_mix, .ctx = &qwords[4]},
    {.name = "mix12", .fn = run_mix, .ctx = &qwords[5]},
    {.name = "crcforge", .fn = run_crcforge},
};

int main(int argc, char **argv)
{
    int quick = bench_quick_arg(argc, argv, "x86_ceiling_bench");
    if (quick < 0)
        return 2;
    if (!crc_cpu_has(CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)) {
        printf("x86_ceiling_bench: this CPU lacks SSE4.2, AVX2 or VPCLMULQDQ; nothing to time\n");
        return 0;
    }
    static const size_t sizes[] = {64 << 10, 1 << 20};
    enum { NSIZES = sizeof sizes / sizeof *sizes };
    uint8_t *buf = crc_aligned_alloc(64, 1 << 20);
    if (buf == NULL) {
        perror("x86_ceiling_bench");
        return 1;
    }
    for (size_t i = 0; i < (1u << 20); i++)
        buf[i] = (uint8_t)(i * 2654435761u >> 24);

    for (size_t si = 0; si < NSIZES; si++) { /* the timed call is right */
        const size_t n = sizes[si];
        uint32_t want = ~(uint32_t)crc_reference_update(&crc_model_crc32c->p, 0xffffffffu, buf, n);
        if (crcforge_crc32c(0, buf, n) != want) {
            fprintf(stderr, "x86_ceiling_bench: crcforge_crc32c is wrong at %zu bytes\n", n);
            crc_aligned_free(buf);
            return 1;
        }
    }
    /* Samples of 2 ms: reading a thread's CPU time is a system call (~0.5 us here). */
    struct bench_config cfg = {.min_sample_seconds = quick ? 1e-4 : 2e-3, .repeat = quick ? 1 : 21};
    printf("GB/s, best / median of %u samples (64-byte aligned buffer)\n", cfg.repeat);
    struct bench_table *t = bench_table_new(NSIZES + 1, SUBJECTS + 3);
    bench_table_set(t, 0, 0, "size");
    for (int s = 0; s < SUBJECTS; s++) {
        bench_table_set(t, 0, 1 + s, "%s", subjects[s].name);
        bench_table_column(t, 1 + s, 0, 1);
    }
    bench_table_set(t, 0, SUBJECTS + 1, "best mix/crc32");
    bench_table_set(t, 0, SUBJECTS + 2, "crcforge/crc32");
    for (size_t si = 0; si < NSIZES; si++) {
        const size_t n = sizes[si];
        struct bench_input in = {.buf = buf, .len = n, .count = 1};
        struct bench_timing timing[SUBJECTS];
        bench_time(&cfg, subjects, SUBJECTS, &in, NULL, timing);
        double best[SUBJECTS], best_mix = 0;
        bench_table_set(t, 1 + si, 0, "%s", n >= (1 << 20) ? "1 MiB" : "64 KiB");
        for (int s = 0; s < SUBJECTS; s++) {
            best[s] = (double)n / timing[s].ns_best; /* bytes per ns = GB/s */
            bench_table_set(t, 1 + si, 1 + s, "%5.1f / %5.1f", best[s],
                            (double)n / timing[s].ns_median);
            if (s >= MIX4 && s <= MIX12 && best[s] > best_mix)
                best_mix = best[s];
        }
        bench_table_set(t, 1 + si, SUBJECTS + 1, "%.2fx", best_mix / best[CRC32]);
        bench_table_set(t, 1 + si, SUBJECTS + 2, "%.2fx", best[CRCFORGE] / best[CRC32]);
    }
    bench_table_print(stdout, t);
    bench_table_free(t);
    crc_aligned_free(buf);
    return 0;
}
