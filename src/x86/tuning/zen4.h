/*
 * Family zen4 (tuning.h): measured on AMD EPYC (AuthenticAMD family 25 model 17 stepping 1),
 * 2026-11-23.
 * Written by scripts/tune/make_table.py (do not edit; sweep again):
 *     python3 scripts/tune/make_table.py --family zen4 SWEEP.json...
 * from `crcforge bench --json` sweeps (crcforge 0.1.0, 5 samples of 10 ms): the 120 .json files of
 * zen4-2026-11-23.
 * Bands: per class, the paths serving every model swept of it, the length bands of
 * least total relative loss against the fastest of them at each size (medians,
 * offsets 0 and 1); each band beyond the first had to lower the mean loss by 0.5%.
 * Mean loss of the bands chosen, per model, offset and size:
 *     CRC-32C: 1.90% over 116 sizes (CRC-32/ISCSI)
 *     CRC-16/XMODEM: 2.88% over 116 sizes (CRC-16/XMODEM)
 *     reflected: 0.39% over 116 sizes (CRC-32/ISO-HDLC, CRC-64/NVME, CRC-64/XZ)
 *     MSB-first: 1.74% over 116 sizes (CRC-16/XMODEM, CRC-64/ECMA-182)
 * Parameters: fold_parallel_max=4096,fold_accumulators=8,hybrid_qwords=4;
 *     fold_parallel_max/fold_accumulators over 5244 cells, mean loss: 4096/8 20.1%, 4096/2 21.0%,
 *         0/4 23.8%, 4096/4 23.8%, 0/8 24.7%, 0/2 26.6%, 4096/1 40.8%, 0/1 49.4%
 *     hybrid_qwords over 122 cells, mean loss: 4 8.8%, 6 17.1%, 2 33.5%, 8 42.4%, 12 42.7%, 16
 *         53.6%
 *     crc32c_threeway_min 240: the swept table's (not measured)
 *     crc32c_hybrid256_min 3072: the swept table's (not measured)
 *     crc32c_hybrid512_min 4097: the swept table's (not measured)
 */
static const struct crc_x86_tuning crc_x86_tuning_zen4 = {
    .family = "zen4",
    .source = "scripts/tune/make_table.py: sweep of 2026-11-23 on AMD EPYC",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{152, "crc32c_x86_sse42"},
                                  {5888, "crc32c_x86_vpclmul_avx512"},
                                  {8912896, "crc32c_x86_avx512_hybrid"},
                                  {0, "crc32c_x86_vpclmul_avx512"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx512"}},
        },
    .fold_parallel_max = 4096,
    .fold_accumulators = 8,
    .hybrid_qwords = 4,
    .crc32c_threeway_min = 240,
    .crc32c_hybrid256_min = 3072,
    .crc32c_hybrid512_min = 4097,
};
#define CRC_X86_TUNING_zen4 (&crc_x86_tuning_zen4)
