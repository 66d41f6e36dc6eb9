/*
 * The generic tables, one per tier: what a CPU gets when its family has no measured table
 * (tuning.h).  Written by hand from the measurements quoted beside each band; a family's
 * own table (make_table.py) replaces them for that family.
 */

/* AVX-512 with VPCLMULQDQ, 512-bit vectors. */
static const struct crc_x86_tuning crc_x86_tuning_generic_avx512 = {
    .family = "generic-avx512",
    .source = "hand-written: the tier's paths, crossovers inside them",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{0, "crc32c_x86_vpclmul_avx512"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "crc16_xmodem_x86_vpclmul_avx512"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx512"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx512"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 6,
};

/* AVX2 with VPCLMULQDQ, 256-bit vectors. */
static const struct crc_x86_tuning crc_x86_tuning_generic_avx2 = {
    .family = "generic-avx2",
    .source = "hand-written: the tier's paths, crossovers inside them",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{0, "crc32c_x86_avx2_hybrid"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "crc16_xmodem_x86_vpclmul_avx2"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_vpclmul_avx2"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_vpclmul_avx2"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 6,
};

/* SSE4.2 and PCLMULQDQ, 128-bit vectors. */
static const struct crc_x86_tuning crc_x86_tuning_generic_pclmul = {
    .family = "generic-pclmul",
    .source = "hand-written: the tier's paths, crossovers inside them",
    .bands =
        {
            [CRC_CLASS_CRC32C] = {{0, "crc32c_x86_sse42_3way"}},
            [CRC_CLASS_CRC16_XMODEM] = {{0, "crc16_xmodem_x86_pclmul"}},
            [CRC_CLASS_REFLECTED] = {{0, "fold_x86_pclmul"}},
            [CRC_CLASS_MSB_FIRST] = {{0, "fold_x86_pclmul"}},
        },
    .fold_parallel_max = 0,
    .fold_accumulators = 8,
    .hybrid_qwords = 6,
};
