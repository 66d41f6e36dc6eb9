/* SPDX-License-Identifier: MIT */
/*
 * Family avx2-vpclmul (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 1 stepping 1),
 * 2026-11-24.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family avx2-vpclmul SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 5 samples of 10 ms): the 120 .json files of
 * avx2-vpclmul-2026-11-24.
 * Bands: per class, the paths serving every model swept of it, the length bands of
 * least total relative loss against the fastest of them at each size (medians,
 * offsets 0 and 1); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 0.27% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 0.07% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.00% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 0.03% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=0,fold_accumulators=4,hybrid_qwords=4;
 *     fold_parallel_max/fold_accumulators over 3480 cells, mean loss: 0/4 0.9%, 4096/4 1.2%, 4096/2
 *         1.4%, 4096/8 1.8%, 0/8 1.9%, 0/2 2.5%, 4096/1 31.1%, 0/1 42.5%
 *     hybrid_qwords over 74 cells, mean loss: 4 1.4%, 6 4.4%, 8 10.9%, 2 12.0%, 12 20.4%, 16 30.6%
 *     crc32c_threeway_min 240: the swept table's (not measured)
 *     crc32c_hybrid256_min 3072: the swept table's (not measured)
 *     crc32c_hybrid512_min 4097: the swept table's (not measured)
 */
static const struct crc_x86_tuning crc_x86_tuning_avx2_vpclmul = {
    .family = "avx2-vpclmul",
    .source = "scripts/tune/make_table.py: sweep of 2026-11-24 on AMD EPYC",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{296, "crc32c_x86_sse42_3way"}, {0, "crc32c_x86_avx2_hybrid"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_vpclmul_avx2"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx2"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx2"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 4,
    .hybrid_qwords = 4,
    .crc32c_threeway_min = 240,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
#define CRC_X86_TUNING_avx2_vpclmul (&crc_x86_tuning_avx2_vpclmul)
