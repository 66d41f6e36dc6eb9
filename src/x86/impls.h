/* The x86 implementation paths, best first, for the registry in dispatch.c. */
#ifndef CRCFORGE_X86_IMPLS_H
#define CRCFORGE_X86_IMPLS_H

#include "../internal.h"
#include "fold.h"

/* Entries of the form `&crc_impl_NAME,` (each declared here, defined in this folder). */
#define CRC_X86_IMPLS                                                                    \
    &crc_impl_fold_x86_vpclmul_avx512,                                                   \
    &crc_impl_fold_x86_vpclmul_avx2,                                                     \
    &crc_impl_fold_x86_pclmul,

#endif
