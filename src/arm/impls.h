/* The aarch64 implementation paths, best first, for the registry in dispatch.c. */
#ifndef CRCFORGE_ARM_IMPLS_H
#define CRCFORGE_ARM_IMPLS_H

#include "../internal.h"

/* Entries of the form `&crc_impl_NAME,` (each declared here, defined in this folder). */
#define CRC_ARM_IMPLS

#endif
