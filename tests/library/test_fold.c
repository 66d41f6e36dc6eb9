/* SPDX-License-Identifier: MIT */
/*
 * The folding kernels, forced one by one, over every catalogue model of width 8..64 they
 * serve (the GFNI tiers: the MSB-first ones) and random models of any width 8..64 (even
 * polynomials included):
 *  - every length 0..1200 (all block-size thresholds of every tier) at alignments 0..2 and
 *    with the end flush against a guard page, from random start registers, against the
 *    bitwise reference (the emulated tiers, which test_engines does not reach, at every
 *    length 0..4096 and alignment 0..63 too, on models of widths 8, 16, 32 and 64);
 *  - random lengths up to 3 MiB against the portable engine (itself checked against the
 *    reference in test_engines);
 *  - streaming over random splits that cut inside the kernels' blocks, against the
 *    reference;
 *  - each kernel's value entries (the fixed algorithms' public entries as the kernel runs
 *    them: CRC-32C, CRC-32, CRC-64/NVME, CRC-64/XZ), emulated tiers included, at every
 *    length 0..4096 and alignment 0..63, against the reference.
 * On x86-64 the 512-bit tiers' logic (the aligned tier's cut included) also runs with its
 * AVX-512 and GFNI operations emulated on AVX2 (fold_emulated_avx512.h), each emulated
 * instruction checked against its definition and, where this CPU has it, against the
 * instruction itself; every
 * family's table is checked to hold kernel parameters the kernels are built for; and the
 * kernels run again in child processes under CRCFORGE_TUNE, one for each accumulator
 * count and around the parallel step's bounds, over every length 0..4096 (alignments 0,
 * 1, 31, 63, every alignment for the aligned tiers, whose cut the buffer's alignment
 * places, and flush against a guard page on either side).  A kernel this CPU cannot run
 * is reported as skipped.
 */
#include <string.h>
#if !defined(_WIN32)
#include <spawn.h>
#endif

#include "check.h"
#include "guarded.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "process.h"
#if defined(__x86_64__)
#include <immintrin.h>

#include "x86/tuning.h"

/* The real instructions the emulation stands for (defined before the emulation header,
 * which replaces their names). */
CRC_TARGET("avx512f,avx512bw") static void
real_maskz_loadu_epi8(uint8_t *out, uint64_t mask, const void *p)
{
    _mm512_storeu_si512(out, _mm512_maskz_loadu_epi8(mask, p));
}

CRC_TARGET("avx512f,avx512bw,avx512vl") static void
real_maskz_loadu_epi8_128(uint8_t *out, uint64_t mask, const void *p)
{
    _mm_storeu_si128((__m128i *)(void *)out, _mm_maskz_loadu_epi8((uint16_t)mask, p));
}

CRC_TARGET("avx512f,avx512bw,avx512vbmi") static void
real_maskz_permutexvar_epi8(uint8_t out[64], uint64_t mask, const uint8_t idx[64],
                            const uint8_t x[64])
{
    _mm512_storeu_si512(out, _mm512_maskz_permutexvar_epi8(mask, _mm512_loadu_si512(idx),
                                                           _mm512_loadu_si512(x)));
}

CRC_TARGET("gfni,avx512f,avx512bw") static void real_gf2p8affine512(uint8_t out[64],
                                                                   const uint8_t x[64],
                                                                   const uint64_t a[8])
{
    _mm512_storeu_si512(out, _mm512_gf2p8affine_epi64_epi8(_mm512_loadu_si512(x),
                                                           _mm512_loadu_si512(a), 0x5c));
}

CRC_TARGET("gfni,avx") static void real_gf2p8affine128(uint8_t out[16],
                                                      const uint8_t x[16],
                                                      const uint64_t a[2])
{
    _mm_storeu_si128((__m128i *)out,
                     _mm_gf2p8affine_epi64_epi8(_mm_loadu_si128((const __m128i *)x),
                                                _mm_loadu_si128((const __m128i *)a), 0x5c));
}

#include "fold_emulated_avx512.h"
#endif

#define SWEEP_MAX 1200
/* The emulated tiers, outside the registry that test_engines sweeps: lengths 0..4096 at
 * alignments 0..63 on a model of each kind. */
#define FULL_MAX 4096
#define FULL_ALIGNS 64
#define BIG (3 << 20)
#define TUNED_MAX 4096
_Static_assert(TUNED_MAX == FULL_MAX, "the children sweep the value entries over FULL_MAX");

/* Lengths 0..max at alignments 0..aligns-1, and flush against the guard page after the
 * data, from a random start register, against the bitwise reference. */
/* The parameters a path's kernels are handed: the tuning's in use (with CRCFORGE_TUNE's),
 * as dispatch fixes them for every path (the emulated tiers are none of the registry's). */
static const struct crc_params *params_of(const struct crc_impl *k)
{
    (void)k;
    return crc_params_in_use();
}

static void sweep(const struct crc_impl *k, const crcforge_model *m, const uint8_t *data,
                  struct guarded *g, size_t max, size_t aligns)
{
    /* reg[n]: the reference register after data[0..n) from a random start. */
    static uint64_t reg[FULL_MAX + 1];
    reg[0] = rnd64() & crc_width_mask(m->p.width);
    for (size_t n = 1; n <= max; n++)
        reg[n] = crc_reference_update(&m->p, reg[n - 1], data + n - 1, 1);
    unsigned long bad = 0;
    for (size_t a = 0; a < aligns; a++) {
        uint8_t *buf = g->start + a;
        memcpy(buf, data, max);
        for (size_t n = 0; n <= max; n++)
            bad += k->update(m, reg[0], buf, n, params_of(k)) != reg[n];
    }
    for (size_t n = 0; n <= max; n++) {
        uint8_t *buf = g->end - n;
        memcpy(buf, data, n);
        bad += k->update(m, reg[0], buf, n, params_of(k)) != reg[n];
    }
    CHECK(bad == 0, "%s %s: %lu of %zu cases (lengths 0..%zu, %zu alignments) differ from the "
          "reference", k->name, m->name, bad, (aligns + 1) * (max + 1), max, aligns);
}

static void big_random(const struct crc_impl *k, const crcforge_model *m, const uint8_t *data)
{
    for (int i = 0; i < 2; i++) {
        size_t off = rnd_below(64), n = rnd_below(BIG - 64);
        uint64_t start = rnd64() & crc_width_mask(m->p.width);
        uint64_t want = crc_table_update(m, start, data + off, n, NULL);
        CHECK(k->update(m, start, data + off, n, params_of(k)) == want, "%s %s: %zu bytes at offset %zu",
              k->name, m->name, n, off);
    }
}

static void splits(const struct crc_impl *k, const crcforge_model *m, const uint8_t *data)
{
    enum { SIZE = 20000 };
    uint64_t want = crc_reference(&m->p, data, SIZE);
    for (int trial = 0; trial < 4; trial++) {
        uint64_t reg = crc_init_register(m);
        size_t done = 0;
        while (done < SIZE) {
            /* Pieces of 1..2100 bytes: the cuts land inside every tier's blocks. */
            size_t piece = 1 + rnd_below(trial < 2 ? 300 : 2100);
            if (piece > SIZE - done)
                piece = SIZE - done;
            reg = k->update(m, reg, data + done, piece, params_of(k));
            done += piece;
        }
        CHECK(crc_register_to_value(m, reg) == want, "%s %s: streaming split trial %d", k->name, m->name,
              trial);
    }
}

/* Whether the path has value entries (then of every fixed algorithm it serves). */
static int has_values(const struct crc_impl *k)
{
    for (int f = 0; f < CRC_FIXED_COUNT; f++)
        if (k->value[f].w32 != NULL)
            return 1;
    return 0;
}

/* The fixed algorithms of the value entries (internal.h), by CRC_FIXED_... */
static const struct {
    int fixed;
    int wide; /* w64 rather than w32 */
    const char *name;
} fixed_models[] = {
    {CRC_FIXED_CRC32C, 0, "CRC-32/ISCSI"},
    {CRC_FIXED_CRC32, 0, "CRC-32/ISO-HDLC"},
    {CRC_FIXED_CRC64_NVME, 1, "CRC-64/NVME"},
    {CRC_FIXED_CRC64_XZ, 1, "CRC-64/XZ"},
};

static uint64_t value_call(const struct crc_impl *k, int f, uint64_t crc, const uint8_t *buf,
                           size_t n)
{
    const struct crc_params *params = params_of(k);
    return fixed_models[f].wide ? k->value[fixed_models[f].fixed].w64(crc, buf, n, params)
                                : k->value[fixed_models[f].fixed].w32((uint32_t)crc, buf, n,
                                                                      params);
}

/* A kernel's value entries, as the fixed entries call them (each CRC value in and out):
 * one for every fixed algorithm it serves, every length 0..FULL_MAX at every align_step-th
 * alignment 0..FULL_ALIGNS-1 and flush against the guard page on either side, from a
 * random start value, against the bitwise reference. */
static void value_entries(const struct crc_impl *k, const uint8_t *data, struct guarded *g,
                          size_t align_step)
{
    for (size_t f = 0; f < sizeof fixed_models / sizeof fixed_models[0]; f++) {
        const crcforge_model *m = crcforge_model_find(fixed_models[f].name);
        const union crc_value_fn e = k->value[fixed_models[f].fixed];
        if (!has_values(k) || !k->supports(m)) {
            CHECK(!has_values(k) || (e.w32 == NULL && e.w64 == NULL),
                  "%s: a value entry for %s, which it does not serve", k->name, m->name);
            continue;
        }
        CHECK(e.w32 != NULL, "%s: a value entry for %s", k->name, m->name);
        if (e.w32 == NULL)
            continue;
        /* value[n]: the CRC value after data[0..n) from a random value (the fixed models'
         * value is the register xor xorout, init == xorout) */
        static uint64_t value[FULL_MAX + 1];
        const uint64_t x = m->p.xorout;
        uint64_t reg = (rnd64() & crc_width_mask(m->p.width)) ^ x;
        value[0] = reg ^ x;
        for (size_t n = 1; n <= FULL_MAX; n++) {
            reg = crc_reference_update(&m->p, reg, data + n - 1, 1);
            value[n] = reg ^ x;
        }
        unsigned long bad = 0;
        size_t cases = 2 * (FULL_MAX + 1);
        for (size_t a = 0; a < FULL_ALIGNS; a += align_step, cases += FULL_MAX + 1) {
            uint8_t *buf = g->start + a;
            memcpy(buf, data, FULL_MAX);
            for (size_t n = 0; n <= FULL_MAX; n++)
                bad += value_call(k, (int)f, value[0], buf, n) != value[n];
        }
        for (size_t n = 0; n <= FULL_MAX; n++) {
            memcpy(g->end - n, data, n);
            bad += value_call(k, (int)f, value[0], g->end - n, n) != value[n];
            memcpy(g->start, data, n);
            bad += value_call(k, (int)f, value[0], g->start, n) != value[n];
        }
        CHECK(bad == 0, "%s %s (value entry): %lu of %zu cases (lengths 0..%d, alignments "
              "0..%d step %zu, both guard pages) differ from the reference", k->name, m->name,
              bad, cases, FULL_MAX, FULL_ALIGNS - 1, align_step);
    }
}

/* The folding kernels of the registry (its "fold_" paths), and on x86-64 the emulated
 * 512-bit tiers; returns how many. */
static size_t fold_kernels(const struct crc_impl **list)
{
    size_t count = 0;
    for (size_t i = 0; i < crcforge_impl_count(); i++)
        if (strncmp(crcforge_impl_name(i), "fold_", 5) == 0)
            list[count++] = crc_impl_lookup(crcforge_impl_name(i));
#if defined(__x86_64__)
    if (count > 0) {
        list[count++] = &crc_impl_fold_x86_emulated_avx512;
        list[count++] = &crc_impl_fold_x86_emulated_gfni_avx512;
        list[count++] = &crc_impl_fold_x86_emulated_avx512_aligned;
    }
#endif
    return count;
}

/* The GFNI tiers fold an MSB-first model's mirror: they serve MSB-first models only. */
static int msb_only(const struct crc_impl *k)
{
    return strstr(k->name, "gfni") != NULL;
}

#if defined(__x86_64__)
/* A byte-masked load of `width` bytes into out (the emulation's, or the instruction's). */
typedef void (*masked_load_fn)(uint8_t *out, uint64_t mask, const void *p);
static EMU_TARGET void emu_masked_load_512(uint8_t *out, uint64_t mask, const void *p)
{
    emu_storeu(out, emu_maskz_loadu_epi8(mask, p));
}
static EMU_TARGET void emu_masked_load_128(uint8_t *out, uint64_t mask, const void *p)
{
    _mm_storeu_si128((__m128i *)(void *)out, emu_maskz_loadu_epi8_128((uint16_t)mask, p));
}

/* The byte-masked load of `width` bytes (64 or 16): only the selected bytes read (a mask
 * reaching into the guard page after the buffer would fault), zeros elsewhere; the
 * emulation against that definition, and the instruction where the CPU has `real_has`. */
static void masked_loads(const struct guarded *g, size_t width, masked_load_fn emu,
                         masked_load_fn real, int real_ok, const char *what, const char *real_has)
{
    unsigned long bad = 0, bad_real = 0;
    for (int t = 0; t < 2000; t++) {
        const size_t inside = 1 + rnd_below(width); /* bytes before the guard page */
        const uint8_t *p = g->end - inside;
        const uint64_t first = inside == 64 ? ~0ull : (1ull << inside) - 1;
        /* every third a run up to the buffer's end, as the kernels' loads */
        const uint64_t mask = t % 3 == 0 ? first : rnd64() & first;
        uint8_t want[64], got[64], inst[64];
        for (size_t i = 0; i < width; i++)
            want[i] = (mask >> i & 1) ? p[i] : 0;
        emu(got, mask, p);
        bad += memcmp(got, want, width) != 0;
        if (real_ok) {
            real(inst, mask, p);
            bad_real += memcmp(inst, want, width) != 0;
        }
    }
    CHECK(bad == 0, "emulated %s: %lu of 2000 masked loads wrong", what, bad);
    CHECK(bad_real == 0, "%s: %lu of 2000 masked loads differ from its definition", what,
          bad_real);
    if (!real_ok)
        SKIP("%s against the real instruction: this CPU has no %s", what, real_has);
}

/* Each emulated instruction against its definition, and against the instruction itself
 * where this CPU has it. */
static EMU_TARGET void emulated_instructions(void)
{
    /* The byte-masked loads, against the guard page after the buffer. */
    struct guarded g;
    if (guarded_alloc(&g, 4096) != 0) {
        CHECK(0, "guarded_alloc");
        return;
    }
    rnd_fill(g.start, (size_t)(g.end - g.start));
    masked_loads(&g, 64, emu_masked_load_512, real_maskz_loadu_epi8,
                 crc_cpu_has(CRC_CPU_AVX512F | CRC_CPU_AVX512BW), "vmovdqu8 {z}",
                 "AVX-512BW");
    /* The same on xmm: the first n bytes, as the short value entries load 1..15 bytes. */
    masked_loads(&g, 16, emu_masked_load_128, real_maskz_loadu_epi8_128,
                 crc_cpu_has(CRC_CPU_AVX512F | CRC_CPU_AVX512BW | CRC_CPU_AVX512VL),
                 "vmovdqu8 xmm {z}", "AVX-512BW/VL");
    guarded_free(&g);

    /* vpermb {z}: byte i is byte idx[i] mod 64 where the mask has bit i, else 0; random
     * indices (all 8 bits), and the head's windows (crc_byte_index_window at +h, the
     * bytes below 64 - h masked off). */
    const int real_vbmi = crc_cpu_has(CRC_CPU_AVX512F | CRC_CPU_AVX512BW | CRC_CPU_AVX512VBMI);
    unsigned long bad = 0, bad_real = 0;
    for (int t = 0; t < 1000; t++) {
        uint8_t idx[64], x[64], want[64], emu[64], real[64];
        uint64_t mask = rnd64();
        rnd_fill(idx, sizeof idx);
        rnd_fill(x, sizeof x);
        if (t < 64) { /* h = t + 1 */
            memcpy(idx, crc_byte_index_window + t + 1, 64);
            mask = ~0ull << (63 - t);
        }
        for (int i = 0; i < 64; i++)
            want[i] = (mask >> i & 1) ? x[idx[i] % 64] : 0;
        if (t < 64) /* the head: the first h bytes moved up to its end */
            for (int i = 0; i < 64; i++)
                bad += want[i] != (i >= 63 - t ? x[i - (63 - t)] : 0);
        emu_storeu(emu, emu_maskz_permutexvar_epi8(mask, emu_loadu(idx), emu_loadu(x)));
        bad += memcmp(emu, want, 64) != 0;
        if (real_vbmi) {
            real_maskz_permutexvar_epi8(real, mask, idx, x);
            bad_real += memcmp(real, want, 64) != 0;
        }
    }
    CHECK(bad == 0, "emulated vpermb {z}: %lu of 1000 permutes wrong", bad);
    CHECK(bad_real == 0, "vpermb {z}: %lu of 1000 permutes differ from its definition",
          bad_real);
    if (!real_vbmi)
        SKIP("vpermb {z} against the real instruction: this CPU has no AVX-512VBMI");

    /* GF2P8AFFINEQB: with the bit-reversal matrix, each byte's bits reversed (the one use
     * in the kernels); with any matrix and immediate, as the instruction computes. */
    uint8_t x[64], emu[64], real[64];
    uint64_t a[8];
    rnd_fill(x, sizeof x);
    for (int i = 0; i < 8; i++)
        a[i] = 0x8040201008040201;
    emu_storeu(emu, emu_gf2p8affine512(emu_loadu(x), emu_loadu(a), 0));
    bad = 0;
    for (int i = 0; i < 64; i++)
        bad += emu[i] != (uint8_t)crc_reflect(x[i], 8);
    __m128i r128 = emu_gf2p8affine128(_mm_loadu_si128((const __m128i *)x),
                                      _mm_loadu_si128((const __m128i *)a), 0);
    _mm_storeu_si128((__m128i *)emu, r128);
    for (int i = 0; i < 16; i++)
        bad += emu[i] != (uint8_t)crc_reflect(x[i], 8);
    CHECK(bad == 0, "emulated GF2P8AFFINEQB: %lu bytes not bit-reversed", bad);
    if (!crc_cpu_has(CRC_CPU_GFNI | CRC_CPU_AVX512F)) {
        SKIP("GF2P8AFFINEQB against the real instruction: this CPU has no GFNI with AVX-512");
        return;
    }
    bad = 0;
    for (int t = 0; t < 500; t++) {
        rnd_fill(x, sizeof x);
        for (int i = 0; i < 8; i++)
            a[i] = rnd64();
        real_gf2p8affine512(real, x, a);
        emu_storeu(emu, emu_gf2p8affine512(emu_loadu(x), emu_loadu(a), 0x5c));
        bad += memcmp(emu, real, 64) != 0;
        real_gf2p8affine128(real, x, a);
        r128 = emu_gf2p8affine128(_mm_loadu_si128((const __m128i *)x),
                                  _mm_loadu_si128((const __m128i *)a), 0x5c);
        _mm_storeu_si128((__m128i *)emu, r128);
        bad += memcmp(emu, real, 16) != 0;
    }
    CHECK(bad == 0, "emulated GF2P8AFFINEQB: %lu of 1000 random cases differ from the "
                    "instruction", bad);
}

/* What the kernels are built for (fold_template.h: reduce_lanes covers
 * CRC_FOLD_PARALLEL_MAX bytes, the loop takes 1, 2, 4 or 8 accumulators), in every table. */
static void tables_fit_kernels(void)
{
    for (size_t i = 0; i < crc_x86_family_count; i++) {
        const struct crc_x86_tuning *t = crc_x86_families[i].table;
        CHECK(t->fold_parallel_max <= CRC_FOLD_PARALLEL_MAX,
              "family %s: fold_parallel_max %u above %d", crc_x86_families[i].name,
              (unsigned)t->fold_parallel_max, CRC_FOLD_PARALLEL_MAX);
        uint32_t a = t->fold_accumulators;
        CHECK(a == 1 || a == 2 || a == 4 || a == 8, "family %s: fold_accumulators %u",
              crc_x86_families[i].name, (unsigned)a);
    }
}

/* The parameters each child runs with: every accumulator count with the loop from the
 * shortest input it can take, and the parallel step's bound inside, at and above the
 * lengths where the loop would start. */
static const struct {
    unsigned accumulators, parallel_max;
} tunings[] = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {2, 1000}, {8, 1337}, {1, 200}, {8, 4096}};

/* Child: every length 0..TUNED_MAX through every folding kernel under CRCFORGE_TUNE. */
static void tuned_lengths(unsigned accumulators, unsigned parallel_max)
{
    const struct crc_x86_tuning *t = crc_x86_tuning();
    CHECK(t->fold_accumulators == accumulators && t->fold_parallel_max == parallel_max,
          "CRCFORGE_TUNE not in use: fold_accumulators %u, fold_parallel_max %u",
          (unsigned)t->fold_accumulators, (unsigned)t->fold_parallel_max);
    static const char *const models[] = {"CRC-32/ISO-HDLC", "CRC-64/XZ",      "CRC-8/MAXIM-DOW",
                                         "CRC-16/XMODEM",   "CRC-24/OPENPGP", "CRC-64/ECMA-182"};
    const struct crc_impl *list[crcforge_impl_count() + 3];
    const size_t count = fold_kernels(list);
    static uint8_t data[TUNED_MAX];
    static uint64_t reg[TUNED_MAX + 1];
    rnd_fill(data, sizeof data);
    struct guarded g;
    if (guarded_alloc(&g, TUNED_MAX + 64) != 0) {
        CHECK(0, "guarded_alloc");
        return;
    }
    for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++) {
        const crcforge_model *m = crcforge_model_find(models[mi]);
        reg[0] = rnd64() & crc_width_mask(m->p.width);
        for (size_t n = 1; n <= TUNED_MAX; n++)
            reg[n] = crc_reference_update(&m->p, reg[n - 1], data + n - 1, 1);
        for (size_t i = 0; i < count; i++) {
            const struct crc_impl *k = list[i];
            if (!crc_impl_runnable(k) || !k->supports(m))
                continue;
            unsigned long bad = 0, cases = 2 * (TUNED_MAX + 1);
            /* The aligned tiers cut the message where the buffer's alignment says: every
             * alignment for them, four for the others. */
            const int every = strstr(k->name, "aligned") != NULL;
            static const size_t aligns[] = {0, 1, 31, 63};
            for (size_t a = 0; a < (every ? 64 : 4); a++, cases += TUNED_MAX + 1) {
                uint8_t *buf = g.start + (every ? a : aligns[a]);
                memcpy(buf, data, TUNED_MAX);
                for (size_t n = 0; n <= TUNED_MAX; n++)
                    bad += k->update(m, reg[0], buf, n, params_of(k)) != reg[n];
            }
            for (size_t n = 0; n <= TUNED_MAX; n++) {
                memcpy(g.end - n, data, n);
                bad += k->update(m, reg[0], g.end - n, n, params_of(k)) != reg[n];
                memcpy(g.start, data, n);
                bad += k->update(m, reg[0], g.start, n, params_of(k)) != reg[n];
            }
            CHECK(bad == 0,
                  "%s %s (fold_accumulators %u, fold_parallel_max %u): %lu of %lu length/"
                  "placement cases differ from the reference",
                  k->name, m->name, accumulators, parallel_max, bad, cases);
        }
    }
    /* the value entries reach the passes of the same tuning (alignments 0, 21, 42, 63;
     * every one for the aligned tiers) */
    for (size_t i = 0; i < count; i++)
        if (crc_impl_runnable(list[i]))
            value_entries(list[i], data, &g, strstr(list[i]->name, "aligned") ? 1 : 21);
    guarded_free(&g);
}

/* Parent: one child a tuning; its own checks decide (its exit status). */
#if defined(_WIN32)
static void tuned_children(void)
{
    for (size_t i = 0; i < sizeof tunings / sizeof tunings[0]; i++) {
        char tune[96], acc[16], par[16];
        snprintf(tune, sizeof tune, "CRCFORGE_TUNE=fold_accumulators=%u,fold_parallel_max=%u",
                 tunings[i].accumulators, tunings[i].parallel_max);
        snprintf(acc, sizeof acc, "%u", tunings[i].accumulators);
        snprintf(par, sizeof par, "%u", tunings[i].parallel_max);
        const char *args[] = {"--tuned", acc, par, NULL}, *env[] = {tune, NULL};
        int status = process_run_self(args, env);
        CHECK(status == 0, "child with %s failed (exit %d)", tune, status);
    }
}
#else
static void tuned_children(void)
{
    extern char **environ;
    size_t envc = 0;
    while (environ[envc] != NULL)
        envc++;
    char *envp[envc + 2];
    size_t e = 0;
    for (size_t i = 0; i < envc; i++)
        if (strncmp(environ[i], "CRCFORGE_TUNE=", 14) != 0)
            envp[e++] = environ[i];
    for (size_t i = 0; i < sizeof tunings / sizeof tunings[0]; i++) {
        char tune[96], acc[16], par[16];
        snprintf(tune, sizeof tune, "CRCFORGE_TUNE=fold_accumulators=%u,fold_parallel_max=%u",
                 tunings[i].accumulators, tunings[i].parallel_max);
        snprintf(acc, sizeof acc, "%u", tunings[i].accumulators);
        snprintf(par, sizeof par, "%u", tunings[i].parallel_max);
        envp[e] = tune;
        envp[e + 1] = NULL;
        char *argv[] = {"test_fold", "--tuned", acc, par, NULL};
        pid_t pid;
        int status = -1;
        fflush(stdout);
        int rc = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp);
        if (rc == 0)
            waitpid(pid, &status, 0);
        CHECK(rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "child with %s failed (spawn %d, status %d)", tune, rc, status);
    }
}
#endif
#endif

int main(int argc, char **argv)
{
#if defined(__x86_64__)
    if (argc == 4 && strcmp(argv[1], "--tuned") == 0) {
        check_begin("test_fold --tuned");
        printf("%s %s\n", getenv("CRCFORGE_TUNE"), "(lengths 0..4096)");
        tuned_lengths((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
        return check_end();
    }
#else
    (void)argc, (void)argv;
#endif
    check_begin("test_fold");
    uint8_t *data = malloc(BIG);
    rnd_fill(data, BIG);
    struct guarded g;
    if (guarded_alloc(&g, FULL_MAX + FULL_ALIGNS) != 0) {
        CHECK(0, "guarded_alloc");
        return check_end();
    }
    const struct crc_impl *list[crcforge_impl_count() + 3];
    const size_t count = fold_kernels(list);
    if (count == 0)
        SKIP("folding kernels: none compiled in on this architecture");
    for (size_t i = 0; i < count; i++) {
        const struct crc_impl *k = list[i];
        if (!crc_impl_runnable(k)) {
            SKIP("%s: this CPU cannot run it", k->name);
            continue;
        }
        size_t served = 0;
        for (size_t j = 0; j < crc_catalogue_count; j++) {
            const crcforge_model *m = &crc_catalogue[j];
            int in_range = m->p.width >= 8 && m->p.width <= 64 && !(msb_only(k) && m->p.refin);
            CHECK(k->supports(m) == in_range, "%s %s: serves exactly widths 8..64%s", k->name,
                  m->name, msb_only(k) ? ", MSB-first" : "");
            if (!k->supports(m))
                continue;
            served++;
            sweep(k, m, data, &g, SWEEP_MAX, 3);
            big_random(k, m, data);
            splits(k, m, data);
        }
        /* Random parameters beyond the catalogue: any width 8..64, even polynomials too. */
        for (int r = 0; r < 24; r++) {
            crcforge_params prm = {8 + (unsigned)rnd_below(57), 0, 0,
                                   msb_only(k) ? 0 : (int)rnd_below(2), (int)rnd_below(2), 0};
            uint64_t mask = crc_width_mask(prm.width);
            prm.poly = rnd64() & mask;
            prm.init = rnd64() & mask;
            prm.xorout = rnd64() & mask;
            crcforge_model *m = crcforge_model_new(&prm, NULL);
            sweep(k, m, data, &g, SWEEP_MAX, 3);
            splits(k, m, data);
            crcforge_model_free(m);
        }
        if (strstr(k->name, "emulated") != NULL) {
            static const char *const full[] = {"CRC-16/XMODEM", "CRC-32/BZIP2", "CRC-64/ECMA-182",
                                               "CRC-32/ISCSI", "CRC-64/XZ", "CRC-8/SMBUS"};
            for (size_t j = 0; j < sizeof full / sizeof full[0]; j++) {
                const crcforge_model *m = crcforge_model_find(full[j]);
                if (k->supports(m))
                    sweep(k, m, data, &g, FULL_MAX, FULL_ALIGNS);
            }
        }
        value_entries(k, data, &g, 1);
        printf("%s: %zu catalogue models and 24 random ones\n", k->name, served);
    }
    guarded_free(&g);
    free(data);
#if defined(__x86_64__)
    emulated_instructions();
    tables_fit_kernels();
    tuned_children();
#endif
    return check_end();
}
