/* SPDX-License-Identifier: MIT */
/*
 * Family zen4 (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 17 stepping 1),
 * 2026-11-29.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family zen4 SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 41 samples of 0.3 ms): the 252 .json files
 * of zen4-2026-11-29.
 * Swept: crcforge at commit 0dba2bf7111f45d196e8f9a3c75ead54ae308c32,
 *     kernel sources SHA-256 5bd67e2a286b960432bad758a658c9f4d1a222224bbee678e9f3946a6a5f5986
 * (scripts/tune/kernel_sources.py).
 * The kernels changed after this sweep; the table keeps the choices made from it (make_table.py
 * --stale): the kernels take their parameters from dispatch since; no sweep of them yet
 * Bands: per class, the paths serving every model swept of it, the length bands of least total
 * relative loss against the fastest of them at each size (offsets 0 and 1; each path's time the
 * median over the rounds of its ratio to auto's in the same round, in 1624 of 1624 cells, else the
 * median of its samples); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.34% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 1.34% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.32% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 1.29% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=4096, fold_accumulators=8, hybrid_qwords=4,
 *     crc32c_threeway_min=256, crc32c_hybrid256_min=3072, crc32c_hybrid512_min=4097;
 *     fold_parallel_max/fold_accumulators over 6728 cells (6728 paired), mean loss: 4096/8 7.1%,
 *         0/4 10.0%, 4096/4 11.9%, 4096/2 12.8%, 0/8 12.8%, 0/2 16.5%, 4096/1 36.9%, 0/1 48.2%;
 *         worst octave another value avoids: 4096/8 46.2% at 2048-4095 B (fold_x86_vpclmul_avx2),
 *         0/4 54.6% at 8192-16383 B (fold_x86_vpclmul_avx512), 0/8 57.6% at 8192-16383 B
 *         (fold_x86_vpclmul_avx2), 4096/4 60.5% at 8192-16383 B (fold_x86_vpclmul_avx2), 4096/2
 *         70.0% at 8192-16383 B (crc16_xmodem_x86_vpclmul_avx512), 0/2 71.3% at 8192-16383 B
 *         (crc32c_x86_vpclmul_avx512), 4096/1 157.0% at 8192-16383 B
 *         (fold_x86_vpclmul_avx512_aligned), 0/1 161.8% at 8192-16383 B (fold_x86_vpclmul_avx2)
 *     crc32c_threeway_min over 40 cells (40 paired), mean loss: 256 0.1%, 192 0.8%, 320 2.4%, 128
 *         5.3%, 384 6.6%, 64 23.0%; worst octave another value avoids: 128 11.5% at 128-255 B +1
 *         (crc32c_x86_sse42_3way), 384 24.1% at 256-511 B +1 (crc32c_x86_sse42_3way), 64 55.2% at
 *         64-127 B (crc32c_x86_sse42_3way)
 *     crc32c_hybrid256_min over 32 cells (32 paired), mean loss: 3072 0.3%, 2560 2.5%, 2048 5.0%,
 *         1536 8.2%, 1024 10.8%; worst octave another value avoids: 2560 3.8% at 2048-4095 B +1
 *         (crc32c_x86_avx2_hybrid), 1536 11.1% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 2048
 *         11.1% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 1024 15.3% at 1024-2047 B +1
 *         (crc32c_x86_avx2_hybrid)
 *     crc32c_hybrid512_min over 50 cells (50 paired), mean loss: 4097 0.0%, 3584 1.5%, 3072 2.1%,
 *         2560 3.0%, 2048 4.5%, 1536 9.6%, 1024 17.3%; worst octave another value avoids: 2560
 *         11.0% at 2048-4095 B +1 (crc32c_x86_avx512_hybrid), 2048 13.0% at 2048-4095 B +1
 *         (crc32c_x86_avx512_hybrid), 1536 16.8% at 1024-2047 B +1 (crc32c_x86_avx512_hybrid), 1024
 *         42.4% at 1024-2047 B +1 (crc32c_x86_avx512_hybrid)
 *     hybrid_qwords over 130 cells (130 paired), mean loss: 4 2.7%, 6 8.2%, 2 10.6%, 8 17.5%, 12
 *         25.7%, 16 28.9%; worst octave another value avoids: 4 4.9% at 8192-16383 B
 *         (crc32c_x86_avx2_hybrid), 6 14.1% at 2048-4095 B (crc32c_x86_avx2_hybrid), 2 20.7% at
 *         8192-16383 B +1 (crc32c_x86_avx2_hybrid), 8 23.4% at 4096-8191 B +1
 *         (crc32c_x86_avx512_hybrid), 12 40.5% at 8192-16383 B +1 (crc32c_x86_avx512_hybrid), 16
 *         58.7% at 8192-16383 B +1 (crc32c_x86_avx512_hybrid)
 */
static const struct crc_x86_tuning crc_x86_tuning_zen4 = {
    .family = "zen4",
    .source =
        "sweep of 0dba2bf7111f (2026-11-29) on AMD EPYC; kernels changed since, choices kept: the "
        "kernels take their parameters from dispatch since; no sweep of them yet",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{8912896, "crc32c_x86_avx512_hybrid"},
                                  {0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_gfni_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx512"}},
        },
    .fold_parallel_max = 4096,
    .fold_accumulators = 8,
    .hybrid_qwords = 4,
    .crc32c_threeway_min = 256,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
#define CRC_X86_TUNING_zen4 (&crc_x86_tuning_zen4)
