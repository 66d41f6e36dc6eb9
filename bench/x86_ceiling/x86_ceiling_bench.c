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

#include "crcforge.h"
#include "cpu.h"
#include "internal.h"
#include "../quick_arg.h"
#include "../timing.h"

#define TARGET __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.2")))
/* The timed loops stay out of line, so each is compiled as a kernel would be. */
#define KERNEL TARGET __attribute__((noinline))

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

enum { CRC32, FOLD_ONLY, MIX4, MIX6, MIX8, MIX10, MIX12, CRCFORGE, SUBJECTS };
static const char *const names[SUBJECTS] = {"crc32",  "fold",   "mix4",   "mix6",
                                            "mix8",   "mix10",  "mix12",  "crcforge"};
static volatile uint64_t sink;

/* One pass of subject s over n bytes. */
static void run(int s, const uint8_t *p, size_t n)
{
    if (s == CRC32) {
        sink ^= crc32_chains(p, n);
    } else if (s == CRCFORGE) {
        sink ^= crcforge_crc32c(0, p, n);
    } else {
        int q = s == FOLD_ONLY ? 0 : 4 + 2 * (s - MIX4);
        sink ^= mix(p, n / (128 + 24 * (size_t)q), q);
    }
}

int main(int argc, char **argv)
{
    int quick = bench_quick_arg(argc, argv, "x86_ceiling_bench");
    if (quick < 0)
        return 2;
    if (!crc_cpu_has(CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)) {
        printf("x86_ceiling_bench: this CPU lacks SSE4.2, AVX2 or VPCLMULQDQ; nothing to time\n");
        return 0;
    }
    enum { SAMPLES = 21 };
    const int samples = quick ? 1 : SAMPLES;
    const double sample_ns = quick ? 1e5 : 2e6;
    static const size_t sizes[] = {64 << 10, 1 << 20};
    uint8_t *buf = aligned_alloc(64, 1 << 20);
    if (buf == NULL) {
        perror("x86_ceiling_bench");
        return 1;
    }
    for (size_t i = 0; i < (1u << 20); i++)
        buf[i] = (uint8_t)(i * 2654435761u >> 24);

    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) { /* the timed call is right */
        const size_t n = sizes[si];
        uint32_t want = ~(uint32_t)crc_reference_update(&crc_model_crc32c->p, 0xffffffffu, buf, n);
        if (crcforge_crc32c(0, buf, n) != want) {
            fprintf(stderr, "x86_ceiling_bench: crcforge_crc32c is wrong at %zu bytes\n", n);
            free(buf);
            return 1;
        }
    }
    printf("GB/s, best / median of %d samples (64-byte aligned buffer)\n", samples);
    printf("%-8s", "size");
    for (int s = 0; s < SUBJECTS; s++)
        printf(" %13s", names[s]);
    printf("   best mix/crc32  crcforge/crc32\n");
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        const size_t n = sizes[si];
        /* Passes a sample: about sample_ns at 20 GB/s.  The clock is read only around
         * them, because reading a thread's CPU time is a system call (~0.5 us here). */
        const long passes = (long)(sample_ns * 20 / (double)n) + 1;
        double gbs[SUBJECTS][SAMPLES];
        for (int r = 0; r < samples; r++)
            for (int s = 0; s < SUBJECTS; s++) { /* interleaved: load changes hit all alike */
                double t0 = bench_now_ns(0);
                for (long i = 0; i < passes; i++)
                    run(s, buf, n);
                double t = bench_now_ns(0) - t0;
                gbs[s][r] = -(double)n * (double)passes / t; /* negated: ascending sort = best first */
            }
        double best[SUBJECTS], med[SUBJECTS], best_mix = 0;
        for (int s = 0; s < SUBJECTS; s++) {
            qsort(gbs[s], (size_t)samples, sizeof(double), bench_by_value);
            best[s] = -gbs[s][0];
            med[s] = -gbs[s][samples / 2];
            if (s >= MIX4 && s <= MIX12 && best[s] > best_mix)
                best_mix = best[s];
        }
        printf("%-8s", n >= (1 << 20) ? "1 MiB" : "64 KiB");
        for (int s = 0; s < SUBJECTS; s++)
            printf("  %5.1f / %5.1f", best[s], med[s]);
        printf("   %.2fx           %.2fx\n", best_mix / best[CRC32], best[CRCFORGE] / best[CRC32]);
    }
    free(buf);
    return 0;
}
