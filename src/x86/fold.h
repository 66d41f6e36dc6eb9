/* SPDX-License-Identifier: MIT */
/*
 * The folding kernels (fold_template.h, one per tier), for the registry and for other x86
 * kernels that hand them the long part of a buffer (library-internal).  Each serves every
 * model with fold_supported(m) (width 8..64), the GFNI tier those that are MSB-first, with
 * internal.h's update signature; the caller's own features must include the tier's.
 */
#ifndef CRCFORGE_X86_FOLD_H
#define CRCFORGE_X86_FOLD_H

#include "../internal.h"

/* What each tier executes (its record's features; fold_*.c take theirs from here). */
#define CRC_FEATURES_x86_pclmul (CRC_CPU_SSE41 | CRC_CPU_PCLMUL)
#define CRC_FEATURES_x86_vpclmul_avx2 (CRC_FEATURES_x86_pclmul | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL)
#define CRC_FEATURES_x86_vpclmul_avx512                                                     \
    (CRC_FEATURES_x86_vpclmul_avx2 | CRC_CPU_AVX512F | CRC_CPU_AVX512BW | CRC_CPU_AVX512VL |   \
     CRC_CPU_AVX512VBMI)
#define CRC_FEATURES_x86_gfni_avx512 (CRC_FEATURES_x86_vpclmul_avx512 | CRC_CPU_GFNI)

/* The most bytes folded in one parallel step (struct crc_params' fold_parallel_max; the
 * reduce_lanes constants cover it). */
#define CRC_FOLD_PARALLEL_MAX 4096

uint64_t fold_update_x86_pclmul(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                size_t n, const struct crc_params *k);
uint64_t fold_update_x86_vpclmul_avx2(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                      size_t n, const struct crc_params *k);
uint64_t fold_update_x86_vpclmul_avx512(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                        size_t n, const struct crc_params *k);
/* The accumulators' loads of fold_x86_vpclmul_avx512_aligned aligned from this many bytes
 * (a candidate for the tuning sweeps; fold_template.h, ALIGNED_FROM). */
#define CRC_FOLD_ALIGNED_FROM 2048
/* MSB-first models only (fold_msb_first_supported). */
uint64_t fold_update_x86_gfni_avx512(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                     size_t n, const struct crc_params *k);

extern const struct crc_impl crc_impl_fold_x86_pclmul;
extern const struct crc_impl crc_impl_fold_x86_vpclmul_avx2;
extern const struct crc_impl crc_impl_fold_x86_vpclmul_avx512;
extern const struct crc_impl crc_impl_fold_x86_vpclmul_avx512_aligned;
extern const struct crc_impl crc_impl_fold_x86_gfni_avx512;

#endif /* CRCFORGE_X86_FOLD_H */
