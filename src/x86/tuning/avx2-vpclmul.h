/* SPDX-License-Identifier: MIT */
/*
 * Family avx2-vpclmul (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 1 stepping 1),
 * 2026-11-28.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family avx2-vpclmul SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 41 samples of 0.3 ms): the 142 .json files
 * of avx2-vpclmul-2026-11-28.
 * Swept: crcforge at commit 3f0f6dd6156670707f636adf4ff896a4fdd55c71,
 *     kernel sources SHA-256 147208585138093be4981ef98529d21b4fb732a15f4809a8b951e431769f1671
 * (scripts/tune/kernel_sources.py).
 * The kernels changed after this sweep; the table keeps the choices made from it (make_table.py
 * --stale): no Zen 3 sweep since; the 256-bit hybrid's SHORT took 640 B-1 KiB (on Zen 3, paired:
 * -2% to +12%), the rest changed unaligned inputs and register use
 * Bands: per class, the paths serving every model swept of it, the length bands of least total
 * relative loss against the fastest of them at each size (offsets 0 and 1; each path's time the
 * median over the rounds of its ratio to auto's in the same round, in 1624 of 1624 cells, else the
 * median of its samples); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.28% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 0.41% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.02% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 0.03% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=0, fold_accumulators=8, hybrid_qwords=6, crc32c_threeway_min=320,
 *     crc32c_hybrid256_min=3072;
 *     fold_parallel_max/fold_accumulators over 3480 cells (3480 paired), mean loss: 4096/4 10.4%,
 *         0/8 12.4%, 4096/8 12.6%, 4096/2 13.6%, 0/4 14.3%, 0/2 17.2%, 4096/1 31.7%, 0/1 38.3%;
 *         worst octave another value avoids: 0/8 50.4% at 512-1023 B (fold_x86_vpclmul_avx2), 0/4
 *         51.0% at 512-1023 B (fold_x86_vpclmul_avx2), 4096/2 62.7% at 2048-4095 B
 *         (fold_x86_pclmul), 4096/8 67.0% at 1024-2047 B (fold_x86_pclmul), 4096/4 68.6% at
 *         2048-4095 B (fold_x86_vpclmul_avx2), 0/2 69.3% at 4096-8191 B +1 (fold_x86_pclmul), 0/1
 *         149.3% at 8192-16383 B (fold_x86_pclmul), 4096/1 154.8% at 8192-16383 B (fold_x86_pclmul)
 *     crc32c_threeway_min over 40 cells (40 paired), mean loss: 320 6.4%, 192 6.5%, 128 11.9%, 256
 *         12.0%, 384 20.8%, 64 31.9%; worst octave another value avoids: 320 9.8% at 256-511 B
 *         (crc32c_x86_sse42_3way), 192 17.7% at 256-511 B +1 (crc32c_x86_sse42_3way), 256 18.1% at
 *         256-511 B +1 (crc32c_x86_sse42_3way), 128 20.1% at 128-255 B (crc32c_x86_sse42_3way), 384
 *         58.7% at 256-511 B (crc32c_x86_sse42_3way), 64 60.2% at 64-127 B (crc32c_x86_sse42_3way)
 *     crc32c_hybrid256_min over 32 cells (32 paired), mean loss: 3072 2.5%, 2560 11.6%, 1536 24.3%,
 *         2048 41.1%, 1024 47.7%; worst octave another value avoids: 3072 3.5% at 1024-2047 B +1
 *         (crc32c_x86_avx2_hybrid), 1536 30.3% at 2048-4095 B +1 (crc32c_x86_avx2_hybrid), 2560
 *         35.7% at 1024-2047 B (crc32c_x86_avx2_hybrid), 2048 60.9% at 2048-4095 B
 *         (crc32c_x86_avx2_hybrid), 1024 63.5% at 1024-2047 B (crc32c_x86_avx2_hybrid)
 *     hybrid_qwords over 74 cells (74 paired), mean loss: 6 4.6%, 8 13.6%, 4 16.3%, 16 23.2%, 2
 *         32.7%, 12 32.9%; worst octave another value avoids: 6 6.5% at 8192-16383 B
 *         (crc32c_x86_avx2_hybrid), 8 19.3% at 2048-4095 B (crc32c_x86_avx2_hybrid), 12 27.1% at
 *         8192-16383 B (crc32c_x86_avx2_hybrid), 16 30.2% at 4096-8191 B (crc32c_x86_avx2_hybrid),
 *         4 60.9% at 2048-4095 B (crc32c_x86_avx2_hybrid), 2 85.5% at 8192-16383 B
 *         (crc32c_x86_avx2_hybrid)
 *     crc32c_hybrid512_min 4097: the swept table's (not measured)
 */
static const struct crc_x86_tuning crc_x86_tuning_avx2_vpclmul = {
    .family = "avx2-vpclmul",
    .source =
        "sweep of 3f0f6dd61566 (2026-11-28) on AMD EPYC; kernels changed since, choices kept: no "
        "Zen 3 sweep since; the 256-bit hybrid's SHORT took 640 B-1 KiB (on Zen 3, paired: -2% to "
        "+12%), the rest changed unaligned inputs and register use",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{0, "crc32c_x86_avx2_hybrid"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_vpclmul_avx2"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx2"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx2"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 6,
    .crc32c_threeway_min = 320,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
#define CRC_X86_TUNING_avx2_vpclmul (&crc_x86_tuning_avx2_vpclmul)
