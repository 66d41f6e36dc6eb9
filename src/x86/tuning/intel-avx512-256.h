/* SPDX-License-Identifier: MIT */
/*
 * Family intel-avx512-256 (tuning.h): not measured yet, so the generic table of its widest tier
 * serves it.  `bash scripts/tune/sweep.sh` on a CPU of this family writes this file anew
 * with the family's own table.
 */
#define CRC_X86_TUNING_intel_avx512_256 (&crc_x86_tuning_generic_avx2)
