/* SPDX-License-Identifier: MIT */
/*
 * Family intel-spr (tuning.h): measured on Intel(R) Xeon(R) Processor (GenuineIntel family 6 model
 * 207 stepping 2), 2026-11-25.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family intel-spr SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 5 samples of 10 ms): the 120 .json files of
 * intel-spr-sweep-2026-11-25.
 * Swept: crcforge at commit baa86196d90cd77ebb4d1165b84412f2b1bfaac7,
 *     kernel sources SHA-256 7c1e1d79e8f698f7bb76672209c1dd5aefd3f033d7fd281db20b49f4c638cffd
 * (scripts/tune/kernel_sources.py).
 * The kernels changed after this sweep; the table keeps the choices made from it (make_table.py
 * --stale): no Intel CPU to sweep on since; the choices are those measured on it
 * Bands: per class, the paths serving every model swept of it, the length bands of
 * least total relative loss against the fastest of them at each size (medians,
 * offsets 0 and 1); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.55% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 1.51% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.36% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 0.77% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=0,fold_accumulators=8,hybrid_qwords=2;
 *     fold_parallel_max/fold_accumulators over 5336 cells, mean loss: 0/8 14.4%, 0/4 14.4%, 4096/4
 *         23.4%, 4096/8 23.5%, 4096/2 24.2%, 0/2 36.3%, 4096/1 67.2%, 0/1 94.5%
 *     hybrid_qwords over 130 cells, mean loss: 2 4.7%, 4 16.2%, 6 33.4%, 8 70.3%, 12 82.2%, 16
 *         95.2%
 *     crc32c_threeway_min 240: the swept table's (not measured)
 *     crc32c_hybrid256_min 3072: the swept table's (not measured)
 *     crc32c_hybrid512_min 4097: the swept table's (not measured)
 */
static const struct crc_x86_tuning crc_x86_tuning_intel_spr = {
    .family = "intel-spr",
    .source =
        "sweep of baa86196d90c (2026-11-25) on Intel(R) Xeon(R) Processor; kernels changed since, "
        "choices kept: no Intel CPU to sweep on since; the choices are those measured on it",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{168, "crc32c_x86_sse42"},
                                  {1984, "crc32c_x86_vpclmul_avx512"},
                                  {6912, "fold_x86_vpclmul_avx512"},
                                  {0, "crc32c_x86_avx512_hybrid"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_gfni_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{120, "fold_x86_pclmul"}, {0, "fold_x86_gfni_avx512"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 2,
    .crc32c_threeway_min = 240,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
#define CRC_X86_TUNING_intel_spr (&crc_x86_tuning_intel_spr)
