/* SPDX-License-Identifier: MIT */
/*
 * Family zen4 (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 17 stepping 1),
 * 2026-11-28.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family zen4 SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 41 samples of 0.3 ms): the 156 .json files
 * of zen4-2026-11-28.
 * Swept: crcforge at commit 701b003019410ecc4ee1d4e611812bcb47133393,
 *     kernel sources SHA-256 adde0e72cc46aad4e377b2dbecd9deeb1a2242d8abb55b219283eb05b6de912d
 * (scripts/tune/kernel_sources.py).
 * The kernels changed after this sweep; the table keeps its choices (make_table.py --stale):
 * interim
 * Bands: per class, the paths serving every model swept of it, the length bands of least total
 * relative loss against the fastest of them at each size (offsets 0 and 1; each path's time the
 * median over the rounds of its ratio to auto's in the same round, in 1624 of 1624 cells, else the
 * median of its samples); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.78% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 1.66% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.24% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 1.53% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=4096, fold_accumulators=8, hybrid_qwords=4,
 *     crc32c_threeway_min=128, crc32c_hybrid256_min=3072, crc32c_hybrid512_min=4097;
 *     fold_parallel_max/fold_accumulators over 6728 cells (6728 paired), mean loss: 4096/8 8.3%,
 *         4096/4 12.6%, 0/4 13.0%, 0/2 13.4%, 4096/2 13.9%, 0/8 14.0%, 4096/1 35.4%, 0/1 45.5%;
 *         worst octave another value avoids: 4096/8 52.0% at 2048-4095 B (fold_x86_vpclmul_avx2),
 *         0/8 54.5% at 2048-4095 B (fold_x86_vpclmul_avx2), 4096/4 56.4% at 8192-16383 B
 *         (fold_x86_vpclmul_avx512), 0/4 56.7% at 2048-4095 B (fold_x86_vpclmul_avx2), 4096/2 59.3%
 *         at 8192-16383 B (fold_x86_vpclmul_avx512), 0/2 66.3% at 8192-16383 B
 *         (crc16_xmodem_x86_vpclmul_avx512), 4096/1 146.7% at 8192-16383 B
 *         (crc16_xmodem_x86_vpclmul_avx512), 0/1 162.4% at 8192-16383 B
 *         (fold_x86_vpclmul_avx512_aligned)
 *     crc32c_threeway_min over 40 cells (40 paired), mean loss: 128 7.8%, 192 8.6%, 320 11.7%, 256
 *         12.0%, 384 15.5%, 64 27.4%; worst octave another value avoids: 128 16.3% at 128-255 B
 *         (crc32c_x86_sse42_3way), 192 17.5% at 256-511 B +1 (crc32c_x86_sse42_3way), 256 19.3% at
 *         256-511 B (crc32c_x86_sse42_3way), 320 28.3% at 256-511 B (crc32c_x86_sse42_3way), 384
 *         40.6% at 256-511 B (crc32c_x86_sse42_3way), 64 60.0% at 64-127 B (crc32c_x86_sse42_3way)
 *     crc32c_hybrid256_min over 32 cells (32 paired), mean loss: 3072 0.2%, 2560 3.5%, 2048 6.6%,
 *         1536 9.0%, 1024 12.7%; worst octave another value avoids: 2560 7.7% at 2048-4095 B
 *         (crc32c_x86_avx2_hybrid), 2048 11.0% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 1536
 *         11.0% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 1024 16.7% at 1024-2047 B +1
 *         (crc32c_x86_avx2_hybrid)
 *     crc32c_hybrid512_min over 50 cells (50 paired), mean loss: 4097 4.7%, 3584 8.5%, 3072 12.8%,
 *         2560 12.9%, 2048 16.6%, 1536 22.4%, 1024 30.4%; worst octave another value avoids: 3584
 *         20.3% at 2048-4095 B (crc32c_x86_avx512_hybrid), 3072 23.8% at 2048-4095 B
 *         (crc32c_x86_avx512_hybrid), 2560 27.0% at 2048-4095 B (crc32c_x86_avx512_hybrid), 1536
 *         33.0% at 2048-4095 B (crc32c_x86_avx512_hybrid), 2048 33.0% at 2048-4095 B
 *         (crc32c_x86_avx512_hybrid), 1024 47.1% at 1024-2047 B +1 (crc32c_x86_avx512_hybrid)
 *     hybrid_qwords over 130 cells (130 paired), mean loss: 4 12.1%, 6 14.5%, 2 14.6%, 8 15.5%, 12
 *         30.4%, 16 40.7%; worst octave another value avoids: 4 12.6% at 8192-16383 B +1
 *         (crc32c_x86_avx2_hybrid), 12 21.5% at 8192-16383 B +1 (crc32c_x86_avx512_hybrid), 8 31.3%
 *         at 4096-8191 B +1 (crc32c_x86_avx2_hybrid), 6 39.3% at 8192-16383 B
 *         (crc32c_x86_avx512_hybrid), 2 47.2% at 4096-8191 B (crc32c_x86_avx2_hybrid), 16 81.9% at
 *         8192-16383 B (crc32c_x86_avx512_hybrid)
 */
static const struct crc_x86_tuning crc_x86_tuning_zen4 = {
    .family = "zen4",
    .source =
        "sweep of 701b00301941 (2026-11-28) on AMD EPYC; kernels changed since, choices kept: "
        "interim",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{8912896, "crc32c_x86_avx512_hybrid"},
                                  {0, "fold_x86_vpclmul_avx512_aligned"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_gfni_avx512"}},
        },
    .fold_parallel_max = 4096,
    .fold_accumulators = 8,
    .hybrid_qwords = 4,
    .crc32c_threeway_min = 128,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
#define CRC_X86_TUNING_zen4 (&crc_x86_tuning_zen4)
