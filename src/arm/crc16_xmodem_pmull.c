/* SPDX-License-Identifier: MIT */
/*
 * CRC-16/XMODEM of 0..64 bytes with PMULL: the same fold and Barrett reduction as
 * x86/crc16_xmodem_pclmul.c (whose header comment gives the mathematics), in NEON
 * (vec128.h), for little-endian hosts (impls.h).  TBL, like PSHUFB, writes zero for an
 * out-of-range index, so the same reversal window both reverses the bytes and drops
 * those of a partial first block.
 */
#include "../cpu.h"
#include "impls.h"
#include "vec128.h"

#define TARGET CRC_ARM_TARGET_PMULL

#define SHORT_FEATURES CRC_CPU_ARM_PMULL
#include "../crc16_short.h" /* the body and the key-slot operations */

/* One path per folding tier, for inputs beyond CRC16_SHORT_MAX. */
CRC16_XMODEM_PATH(arm_pmull_eor3, arm_pmull_eor3);
CRC16_XMODEM_PATH(arm_pmull, arm_pmull);
