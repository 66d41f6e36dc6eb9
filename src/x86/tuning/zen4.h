/* SPDX-License-Identifier: MIT */
/*
 * Family zen4 (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 17 stepping 1),
 * 2026-11-26.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family zen4 SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 41 samples of 0.3 ms): the 156 .json files
 * of zen4-2026-11-26.
 * Swept: crcforge at commit 12a2ff1e46881551c3d66c8af7faa732332ed33e,
 *     kernel sources SHA-256 154a0909bccb84f654c6a4c2067f10ed6e8d740de0261e7a7a37d235bd8aa0e3
 * (scripts/tune/kernel_sources.py).
 * The kernels changed after this sweep; the table keeps the choices made from it (make_table.py
 * --stale): no sweep of these kernels yet
 * Bands: per class, the paths serving every model swept of it, the length bands of least total
 * relative loss against the fastest of them at each size (offsets 0 and 1; each path's time the
 * median over the rounds of its ratio to auto's in the same round, in 1624 of 1624 cells, else the
 * median of its samples); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.62% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 0.36% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.13% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 0.83% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=4096, fold_accumulators=4, crc32c_threeway_min=256,
 *     crc32c_hybrid256_min=2048, crc32c_hybrid512_min=3584;
 *     fold_parallel_max/fold_accumulators over 6728 cells (6728 paired), mean loss: 4096/4 8.1%,
 *         4096/8 10.0%, 0/2 10.4%, 0/8 11.0%, 0/4 11.7%, 4096/2 11.8%, 4096/1 31.6%, 0/1 40.7%;
 *         worst octave another value avoids: 4096/4 57.1% at 8192-16383 B
 *         (fold_x86_vpclmul_avx512_aligned), 0/8 60.3% at 8192-16383 B (fold_x86_vpclmul_avx2),
 *         4096/8 62.2% at 8192-16383 B (fold_x86_vpclmul_avx2), 0/2 69.9% at 8192-16383 B
 *         (fold_x86_vpclmul_avx512_aligned), 4096/2 74.2% at 8192-16383 B
 *         (fold_x86_vpclmul_avx512), 0/4 80.2% at 256-511 B (fold_x86_vpclmul_avx512_aligned), 0/1
 *         134.8% at 4096-8191 B (fold_x86_pclmul), 4096/1 162.6% at 8192-16383 B
 *         (fold_x86_vpclmul_avx2)
 *     crc32c_threeway_min over 40 cells (40 paired), mean loss: 192 7.9%, 256 8.6%, 128 10.1%, 320
 *         15.5%, 384 22.7%, 64 33.2%; worst octave another value avoids: 256 15.3% at 256-511 B +1
 *         (crc32c_x86_sse42_3way), 192 21.7% at 256-511 B +1 (crc32c_x86_sse42_3way), 128 24.0% at
 *         128-255 B (crc32c_x86_sse42_3way), 320 27.3% at 256-511 B (crc32c_x86_sse42_3way), 384
 *         47.6% at 256-511 B (crc32c_x86_sse42_3way), 64 63.9% at 64-127 B (crc32c_x86_sse42_3way)
 *     crc32c_hybrid256_min over 32 cells (32 paired), mean loss: 2048 5.5%, 2560 9.5%, 3072 11.3%,
 *         1536 13.8%, 1024 16.5%; worst octave another value avoids: 2048 16.9% at 2048-4095 B
 *         (crc32c_x86_avx2_hybrid), 1536 18.4% at 1024-2047 B +1 (crc32c_x86_avx2_hybrid), 3072
 *         21.6% at 1024-2047 B (crc32c_x86_avx2_hybrid), 2560 23.3% at 1024-2047 B
 *         (crc32c_x86_avx2_hybrid), 1024 37.4% at 1024-2047 B (crc32c_x86_avx2_hybrid)
 *     crc32c_hybrid512_min over 50 cells (50 paired), mean loss: 4097 7.0%, 3584 12.5%, 2560 14.8%,
 *         1536 16.2%, 3072 16.6%, 2048 18.7%, 1024 31.4%; worst octave another value avoids: 4097
 *         12.1% at 2048-4095 B (crc32c_x86_avx512_hybrid), 1536 20.5% at 2048-4095 B
 *         (crc32c_x86_avx512_hybrid), 3072 22.9% at 2048-4095 B (crc32c_x86_avx512_hybrid), 2560
 *         33.1% at 2048-4095 B (crc32c_x86_avx512_hybrid), 2048 43.4% at 2048-4095 B
 *         (crc32c_x86_avx512_hybrid), 1024 44.2% at 1024-2047 B +1 (crc32c_x86_avx512_hybrid)
 *     hybrid_qwords 4: the swept table's (not measured)
 */
static const struct crc_x86_tuning crc_x86_tuning_zen4 = {
    .family = "zen4",
    .source =
        "sweep of 12a2ff1e4688 (2026-11-26) on AMD EPYC; kernels changed since, choices kept: no "
        "sweep of these kernels yet",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{8912896, "crc32c_x86_avx512_hybrid"},
                                  {0, "crc32c_x86_vpclmul_avx512"}},
            [CRC_CLASS_CRC16_XMODEM] = {{1856, "fold_x86_vpclmul_avx512_aligned"},
                                        {0, "fold_x86_gfni_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_gfni_avx512"}},
        },
    .fold_parallel_max = 4096,
    .fold_accumulators = 4,
    .hybrid_qwords = 4,
    .crc32c_threeway_min = 256,
    .crc32c_hybrid256_min = 2048,
    .crc32c_hybrid512_min = 3584,
};
#define CRC_X86_TUNING_zen4 (&crc_x86_tuning_zen4)
