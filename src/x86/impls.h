/* SPDX-License-Identifier: MIT */
/* The x86 implementation paths, best first, for the registry (registry.c). */
#ifndef CRCFORGE_X86_IMPLS_H
#define CRCFORGE_X86_IMPLS_H

#include "../internal.h"
#include "fold.h"

/* crc32c_sse42.c: CRC-32C on the crc32 instruction, one chain and three joined. */
extern const struct crc_impl crc_impl_crc32c_x86_sse42;
extern const struct crc_impl crc_impl_crc32c_x86_sse42_3way;
/* crc32c_avx512.c, crc32c_avx2.c: VPCLMULQDQ vectors ending on the crc32 instruction, and
 * the hybrids running it beside folding. */
extern const struct crc_impl crc_impl_crc32c_x86_avx512_hybrid;
extern const struct crc_impl crc_impl_crc32c_x86_vpclmul_avx512;
extern const struct crc_impl crc_impl_crc32c_x86_avx2_hybrid;
extern const struct crc_impl crc_impl_crc32c_x86_vpclmul_avx2;

/* crc16_xmodem_pclmul.c: CRC-16/XMODEM, the short-key kernel up to 64 bytes, then the
 * folding tier its name ends with. */
extern const struct crc_impl crc_impl_crc16_xmodem_x86_vpclmul_avx512;
extern const struct crc_impl crc_impl_crc16_xmodem_x86_vpclmul_avx2;
extern const struct crc_impl crc_impl_crc16_xmodem_x86_pclmul;

/* Entries of the form `&crc_impl_NAME,` (each declared here, defined in this folder). */
#define CRC_X86_IMPLS                                                                    \
    &crc_impl_crc32c_x86_avx512_hybrid,                                                  \
    &crc_impl_crc32c_x86_vpclmul_avx512,                                                 \
    &crc_impl_crc32c_x86_avx2_hybrid,                                                    \
    &crc_impl_crc32c_x86_vpclmul_avx2,                                                   \
    &crc_impl_crc32c_x86_sse42_3way,                                                     \
    &crc_impl_crc32c_x86_sse42,                                                          \
    &crc_impl_crc16_xmodem_x86_vpclmul_avx512,                                           \
    &crc_impl_crc16_xmodem_x86_vpclmul_avx2,                                             \
    &crc_impl_crc16_xmodem_x86_pclmul,                                                   \
    &crc_impl_fold_x86_vpclmul_avx512,                                                   \
    &crc_impl_fold_x86_vpclmul_avx512_aligned,                                           \
    &crc_impl_fold_x86_gfni_avx512,                                                      \
    &crc_impl_fold_x86_vpclmul_avx2,                                                     \
    &crc_impl_fold_x86_pclmul,

#endif
