/* SPDX-License-Identifier: MIT */
/*
 * Family zen4 (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 17 stepping 1),
 * 2026-11-29.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family zen4 SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 41 samples of 0.3 ms): the 252 .json files
 * of zen4-2026-11-29b.
 * Swept: crcforge at commit 7514f3e0585360e63d7ad024c4158af4d55cb760,
 *     kernel sources SHA-256 058f1e68c002456d3dc1034125916e9ab9e4bcae7647a20065e5bfe8e5ac3c59
 * (scripts/tune/kernel_sources.py).
 * The kernels changed after this sweep; the table keeps the choices made from it (make_table.py
 * --stale): the crc32 chain's last 0-31 bytes went back to the qword loop (its limits lie at 256 B
 * and above); the hybrid aligns its loads from 32 KiB only (unaligned 4.25-24 KiB 1.01-1.10x
 * faster, the rest alike: its band only gains)
 * Bands: per class, the paths serving every model swept of it, the length bands of least total
 * relative loss against the fastest of them at each size (offsets 0 and 1; each path's time the
 * median over the rounds of its ratio to auto's in the same round, in 1624 of 1624 cells, else the
 * median of its samples); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.83% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 0.71% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.20% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 0.41% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=4096, fold_accumulators=4, hybrid_qwords=4,
 *     crc32c_threeway_min=256, crc32c_hybrid256_min=3072, crc32c_hybrid512_min=4097;
 *     fold_parallel_max/fold_accumulators over 6728 cells (6728 paired), mean loss: 4096/4 10.6%,
 *         4096/8 11.1%, 0/4 13.1%, 0/2 13.3%, 0/8 14.1%, 4096/2 14.2%, 4096/1 42.5%, 0/1 45.6%;
 *         worst octave another value avoids: 0/8 57.1% at 2048-4095 B (fold_x86_vpclmul_avx2),
 *         4096/4 57.7% at 8192-16383 B (fold_x86_vpclmul_avx512_aligned), 0/4 60.8% at 4096-8191 B
 *         (fold_x86_vpclmul_avx2), 4096/8 61.5% at 4096-8191 B (fold_x86_vpclmul_avx2), 0/2 74.9%
 *         at 8192-16383 B (fold_x86_vpclmul_avx512), 4096/2 95.5% at 256-511 B +1
 *         (fold_x86_vpclmul_avx512_aligned), 0/1 157.6% at 8192-16383 B (fold_x86_pclmul), 4096/1
 *         158.8% at 8192-16383 B (fold_x86_pclmul)
 *     crc32c_threeway_min over 40 cells (40 paired), mean loss: 256 0.1%, 192 1.2%, 320 1.9%, 128
 *         6.2%, 384 8.0%, 64 36.3%; worst octave another value avoids: 320 3.6% at 256-511 B +1
 *         (crc32c_x86_sse42_3way), 128 21.0% at 128-255 B +1 (crc32c_x86_sse42_3way), 384 26.0% at
 *         256-511 B +1 (crc32c_x86_sse42_3way), 64 98.3% at 64-127 B (crc32c_x86_sse42_3way)
 *     crc32c_hybrid256_min over 32 cells (32 paired), mean loss: 3072 0.1%, 2560 2.3%, 2048 4.8%,
 *         1536 8.0%, 1024 10.9%; worst octave another value avoids: 2560 3.8% at 2048-4095 B +1
 *         (crc32c_x86_avx2_hybrid), 1536 11.0% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 2048
 *         11.0% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 1024 15.4% at 1024-2047 B +1
 *         (crc32c_x86_avx2_hybrid)
 *     crc32c_hybrid512_min over 50 cells (50 paired), mean loss: 4097 0.0%, 3584 8.3%, 3072 10.5%,
 *         2560 12.8%, 2048 14.6%, 1536 19.7%, 1024 27.3%; worst octave another value avoids: 3072
 *         5.5% at 2048-4095 B (crc32c_x86_avx512_hybrid), 1536 34.0% at 2048-4095 B
 *         (crc32c_x86_avx512_hybrid), 2048 34.0% at 2048-4095 B (crc32c_x86_avx512_hybrid), 2560
 *         34.0% at 2048-4095 B (crc32c_x86_avx512_hybrid), 1024 39.0% at 1024-2047 B +1
 *         (crc32c_x86_avx512_hybrid)
 *     hybrid_qwords over 130 cells (130 paired), mean loss: 4 3.7%, 6 6.7%, 2 15.2%, 8 19.6%, 12
 *         19.9%, 16 37.7%; worst octave another value avoids: 4 13.3% at 8192-16383 B
 *         (crc32c_x86_avx2_hybrid), 6 15.8% at 8192-16383 B (crc32c_x86_avx2_hybrid), 8 33.4% at
 *         8192-16383 B (crc32c_x86_avx512_hybrid), 12 38.5% at 8192-16383 B +1
 *         (crc32c_x86_avx512_hybrid), 2 39.7% at 8192-16383 B (crc32c_x86_avx2_hybrid), 16 70.9% at
 *         8192-16383 B (crc32c_x86_avx512_hybrid)
 */
static const struct crc_x86_tuning crc_x86_tuning_zen4 = {
    .family = "zen4",
    .source =
        "sweep of 7514f3e05853 (2026-11-29) on AMD EPYC; kernels changed since, choices kept: the "
        "crc32 chain's last 0-31 bytes went back to the qword loop (its limits lie at 256 B and "
        "above); the hybrid aligns its loads from 32 KiB only (unaligned 4.25-24 KiB 1.01-1.10x "
        "faster, the rest alike: its band only gains)",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{8912896, "crc32c_x86_avx512_hybrid"},
                                  {0, "crc32c_x86_vpclmul_avx512"}},
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
