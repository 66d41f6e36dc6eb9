/* SPDX-License-Identifier: MIT */
/*
 * Family zen5 (tuning.h): measured on AMD EPYC (AuthenticAMD family 26 model 2 stepping 1),
 * 2026-11-27.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family zen5 SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 41 samples of 0.3 ms): the 156 .json files
 * of sweep-zen5-2026-11-27.
 * Swept: crcforge at commit 12f448135e82cf8c2322935a745bc45f104b66e7,
 *     kernel sources SHA-256 7763f32352b00bf646c0d18e3033021722f35ac855df923060544068c459d74d
 * (scripts/tune/kernel_sources.py) with uncommitted changes to its kernel sources.
 * The kernels changed after this sweep; the table keeps the choices made from it (make_table.py
 * --stale): no Zen 5 CPU to sweep on since; the choices are those measured on it
 * Bands: per class, the paths serving every model swept of it, the length bands of least total
 * relative loss against the fastest of them at each size (offsets 0 and 1; each path's time the
 * median over the rounds of its ratio to auto's in the same round, in 1624 of 1624 cells, else the
 * median of its samples); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.64% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 1.03% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.25% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 0.96% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=4096, fold_accumulators=4, hybrid_qwords=4,
 *     crc32c_threeway_min=192, crc32c_hybrid256_min=3072, crc32c_hybrid512_min=2048;
 *     fold_parallel_max/fold_accumulators over 6728 cells (6728 paired), mean loss: 4096/4 2.7%,
 *         4096/8 3.2%, 0/4 5.8%, 0/8 6.2%, 4096/2 7.2%, 0/2 11.8%, 4096/1 53.0%, 0/1 66.5%; worst
 *         octave another value avoids: 4096/4 20.9% at 128-255 B (fold_x86_pclmul), 4096/2 29.0% at
 *         64-127 B (fold_x86_vpclmul_avx512), 4096/8 31.1% at 64-127 B +1 (fold_x86_vpclmul_avx2),
 *         0/4 36.0% at 64-127 B +1 (fold_x86_vpclmul_avx512_aligned), 0/8 38.4% at 128-255 B
 *         (fold_x86_vpclmul_avx512), 0/2 42.4% at 128-255 B +1 (fold_x86_vpclmul_avx2), 0/1 140.3%
 *         at 8192-16383 B +1 (fold_x86_pclmul), 4096/1 140.4% at 8192-16383 B +1 (fold_x86_pclmul)
 *     crc32c_threeway_min over 40 cells (40 paired), mean loss: 192 10.0%, 128 10.2%, 320 12.5%,
 *         256 12.9%, 384 16.0%, 64 23.6%; worst octave another value avoids: 128 15.0% at 128-255 B
 *         +1 (crc32c_x86_sse42_3way), 192 15.7% at 64-127 B +1 (crc32c_x86_sse42_3way), 256 21.1%
 *         at 64-127 B (crc32c_x86_sse42_3way), 384 23.5% at 64-127 B (crc32c_x86_sse42_3way), 320
 *         26.9% at 64-127 B (crc32c_x86_sse42_3way), 64 52.2% at 64-127 B (crc32c_x86_sse42_3way)
 *     crc32c_hybrid256_min over 32 cells (32 paired), mean loss: 3072 0.8%, 2560 2.6%, 2048 4.6%,
 *         1536 8.4%, 1024 13.4%; worst octave another value avoids: 2560 3.7% at 2048-4095 B
 *         (crc32c_x86_avx2_hybrid), 2048 9.2% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 1536 9.4%
 *         at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 1024 18.9% at 1024-2047 B +1
 *         (crc32c_x86_avx2_hybrid)
 *     crc32c_hybrid512_min over 50 cells (50 paired), mean loss: 2048 0.3%, 2560 1.1%, 1536 1.4%,
 *         3072 2.0%, 3584 3.0%, 1024 3.9%, 4097 8.9%; worst octave another value avoids: 1536 4.1%
 *         at 1024-2047 B +1 (crc32c_x86_avx512_hybrid), 3584 7.8% at 2048-4095 B
 *         (crc32c_x86_avx512_hybrid), 4097 11.8% at 2048-4095 B (crc32c_x86_avx512_hybrid), 1024
 *         12.6% at 1024-2047 B +1 (crc32c_x86_avx512_hybrid)
 *     hybrid_qwords over 164 cells (164 paired), mean loss: 6 3.6%, 4 5.1%, 8 15.3%, 2 25.6%, 12
 *         33.1%, 16 45.4%; worst octave another value avoids: 4 15.5% at 2048-4095 B
 *         (crc32c_x86_avx2_hybrid), 6 19.7% at 8192-16383 B +1 (crc32c_x86_avx512_hybrid), 8 21.0%
 *         at 8192-16383 B +1 (crc32c_x86_avx2_hybrid), 12 40.9% at 8192-16383 B
 *         (crc32c_x86_avx512_hybrid), 2 43.8% at 8192-16383 B (crc32c_x86_avx2_hybrid), 16 57.4% at
 *         8192-16383 B (crc32c_x86_avx512_hybrid)
 */
static const struct crc_x86_tuning crc_x86_tuning_zen5 = {
    .family = "zen5",
    .source =
        "sweep of 12f448135e82+ (2026-11-27) on AMD EPYC; kernels changed since, choices kept: no "
        "Zen 5 CPU to sweep on since; the choices are those measured on it",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{0, "crc32c_x86_avx512_hybrid"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_vpclmul_avx512_aligned"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx512_aligned"}},
        },
    .fold_parallel_max = 4096,
    .fold_accumulators = 4,
    .hybrid_qwords = 4,
    .crc32c_threeway_min = 192,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 2048,
};
#define CRC_X86_TUNING_zen5 (&crc_x86_tuning_zen5)
