/* SPDX-License-Identifier: MIT */
/*
 * The generic tables, one per tier: what a CPU gets when its family has no measured table
 * (tuning.h).  Written by hand from the measurements quoted beside each band; a family's
 * own table (make_table.py) replaces them for that family.
 */

/* The CRC-32C kernels' limits in every generic table, as measured before sweeps did
 * (docs/sweeps/README.md gives the figures): the three-chain path on one chain below
 * 240 B (Zen 3), the 256-bit hybrid's loop from 3 KiB (Zen 3), the 512-bit hybrid's past
 * 4 KiB (Zen 4: MEDIUM as far as it reaches). */

/* CRC-32C on the 512-bit tier: one chain below 152 B, the parallel reduction to 5888 B,
 * the hybrid (past the fold ceiling) to 8.5 MiB, then the parallel path again, which
 * holds up better from DRAM: the crossovers of the Zen 4 sweep (zen4.h); the first is
 * also llvm-mca's for Sapphire Rapids (chain against parallel: 96 B 55 vs 54 cycles,
 * 128 B 67 vs 52). */
#define CRC32C_AVX512_BANDS                                                                \
    {                                                                                      \
        {152, "crc32c_x86_sse42"}, {5888, "crc32c_x86_vpclmul_avx512"},                    \
            {8912896, "crc32c_x86_avx512_hybrid"}, { 0, "crc32c_x86_vpclmul_avx512" }      \
    }

/* AVX-512 with VPCLMULQDQ and GFNI: the 512-bit tier, MSB-first models folded through a
 * bit reversal on GFNI from 1 KiB.  llvm-mca on Sapphire Rapids (scripts/static_estimate.py,
 * CRC-32/BZIP2, cycles a call, byte-shuffle fold against GFNI): 512 B 91 vs 99, 1 KiB 116
 * vs 115, 4 KiB 260 vs 215, 16 KiB 836 vs 599 (CRC-32 reflected: 581), the same for
 * CRC-16/XMODEM against its own path; Zen 4 measured: 1 MiB 52.0 vs 55.6 GB/s. */
static const struct crc_x86_tuning crc_x86_tuning_generic_avx512_gfni = {
    .family = "generic-avx512-gfni",
    .source = "hand-written: the tier's paths, crossovers inside them",
    .bands =
        {
            [CRC_CLASS_CRC32C] = CRC32C_AVX512_BANDS,
            [CRC_CLASS_CRC16_XMODEM] = {{1024, "crc16_xmodem_x86_vpclmul_avx512"},
                                        {0, "fold_x86_gfni_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{1024, "fold_x86_vpclmul_avx512"},
                                     {0, "fold_x86_gfni_avx512"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 2,
    .crc32c_threeway_min = 240,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};

/* AVX-512 with VPCLMULQDQ, 512-bit vectors. */
static const struct crc_x86_tuning crc_x86_tuning_generic_avx512 = {
    .family = "generic-avx512",
    .source = "hand-written: the tier's paths, crossovers inside them",
    .bands =
        {
            [CRC_CLASS_CRC32C] = CRC32C_AVX512_BANDS,
            [CRC_CLASS_CRC16_XMODEM] = {{0, "crc16_xmodem_x86_vpclmul_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx512"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    /* Sapphire Rapids' balance by llvm-mca (q=2: 37.8 B/cycle, q=3: 36.3, folding alone
     * 32); on Zen 4, q=2 69.5 GB/s against 58.9 for folding alone (q=3: 74.3). */
    .hybrid_qwords = 2,
    .crc32c_threeway_min = 240,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};

/* AVX2 with VPCLMULQDQ, 256-bit vectors. */
static const struct crc_x86_tuning crc_x86_tuning_generic_avx2 = {
    .family = "generic-avx2",
    .source = "hand-written: the tier's paths, crossovers inside them",
    .bands =
        {
            /* One chain below 192 B, three chains joined to 2 KiB, the hybrid from
             * there.  Zen 3, before the tables existed: chain 16.2 GB/s, 256-bit folding
             * 16.2 at 160 B; at 2 KiB hybrid 21.9, three chains 21.5, folding 20.3, and
             * folding at 0.81-0.98x isa-l's three chains from 128 B to 1 KiB.  Zen 4
             * masked to AVX2 (taskset, medians of 7, aligned), three chains against
             * folding: 384 B 20.4 vs 17.5, 1 KiB 22.8 vs 19.1, 1536 B 23.1 vs 19.3,
             * 2 KiB 26.4 vs 23.3 (hybrid 31.5). */
            [CRC_CLASS_CRC32C] = {{192, "crc32c_x86_sse42"},
                                  {2048, "crc32c_x86_sse42_3way"},
                                  {16u << 20, "crc32c_x86_avx2_hybrid"},
                                  {0, "crc32c_x86_vpclmul_avx2"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "crc16_xmodem_x86_vpclmul_avx2"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx2"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx2"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 6,
    .crc32c_threeway_min = 240,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};

/* SSE4.2 and PCLMULQDQ, 128-bit vectors. */
static const struct crc_x86_tuning crc_x86_tuning_generic_pclmul = {
    .family = "generic-pclmul",
    .source = "hand-written: the tier's paths, crossovers inside them",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{0, "crc32c_x86_sse42_3way"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "crc16_xmodem_x86_pclmul"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_pclmul"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_pclmul"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 6,
    .crc32c_threeway_min = 240,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
