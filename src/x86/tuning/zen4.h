/* SPDX-License-Identifier: MIT */
/*
 * Family zen4 (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 17 stepping 1),
 * 2026-11-29.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family zen4 SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 41 samples of 0.3 ms): the 276 .json files
 * of zen4-2026-11-29e.
 * Swept: crcforge at commit 24d8ad58bc76c612a790584b29e466c427c163a7,
 *     kernel sources SHA-256 1d39f11fc7ace010e92041515d63e76dd4fa6e758bbbc6f45830fafc77c66dea
 * (scripts/tune/kernel_sources.py).
 * Bands: per class, the paths serving every model swept of it, the length bands of least total
 * relative loss against the fastest of them at each size (offsets 0 and 1; each path's time the
 * median over the rounds of its ratio to auto's in the same round, in 1624 of 1624 cells, else the
 * median of its samples); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.24% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 0.68% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.08% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 0.41% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=4096,fold_accumulators=4,hybrid_qwords=4,crc32c_hybrid512_min=4097;
 *     fold_parallel_max/fold_accumulators over 232 cells, mean loss: 4096/4 0.5%, 4096/8 2.1%, 0/8
 *         4.0%, 0/4 4.3%, 0/2 8.0%, 4096/2 8.2%, 4096/1 29.3%, 0/1 38.8%; worst octave another
 *         value avoids: 4096/2 8.2% at 8192-16383 B +1 (fold_x86_vpclmul_avx512), 0/8 13.4% at
 *         64-127 B (fold_x86_vpclmul_avx512), 0/4 13.5% at 64-127 B (fold_x86_vpclmul_avx512), 0/2
 *         13.7% at 256-511 B +1 (fold_x86_vpclmul_avx512), 0/1 69.3% at 8192-16383 B +1
 *         (fold_x86_vpclmul_avx512), 4096/1 69.3% at 8192-16383 B +1 (fold_x86_vpclmul_avx512)
 *     crc32c_hybrid512_min over 50 cells, mean loss: 3584 0.1%, 3072 0.3%, 4097 0.5%, 2560 0.8%,
 *         2048 1.8%, 1536 5.3%, 1024 12.4%; worst octave another value avoids: 2048 5.4% at
 *         2048-4095 B (crc32c_x86_avx512_hybrid), 1536 9.1% at 1024-2047 B
 *         (crc32c_x86_avx512_hybrid), 1024 27.6% at 1024-2047 B (crc32c_x86_avx512_hybrid)
 *     hybrid_qwords over 52 cells, mean loss: 4 0.0%, 2 4.5%, 6 5.7%, 8 25.5%, 12 46.6%, 16 63.3%;
 *         worst octave another value avoids: 2 3.8% at 4096-8191 B (crc32c_x86_avx512_hybrid), 6
 *         6.1% at 8192-16383 B +1 (crc32c_x86_avx512_hybrid), 8 23.3% at 4096-8191 B +1
 *         (crc32c_x86_avx512_hybrid), 12 42.4% at 8192-16383 B +1 (crc32c_x86_avx512_hybrid), 16
 *         96.4% at 4096-8191 B +1 (crc32c_x86_avx512_hybrid)
 *     crc32c_threeway_min 256: the swept table's (not measured)
 *     crc32c_hybrid256_min 3072: the swept table's (not measured)
 */
static const struct crc_x86_tuning crc_x86_tuning_zen4 = {
    .family = "zen4",
    .source = "sweep of 24d8ad58bc76 (2026-11-29) on AMD EPYC",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{8912896, "crc32c_x86_avx512_hybrid"},
                                  {0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_gfni_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_gfni_avx512"}},
        },
    .fold_parallel_max = 4096,
    .fold_accumulators = 4,
    .hybrid_qwords = 4,
    .crc32c_threeway_min = 256,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
#define CRC_X86_TUNING_zen4 (&crc_x86_tuning_zen4)
