/*
 * Family zen4 (tuning.h): not measured yet, so the generic table of its widest tier
 * serves it.  `bash scripts/tune/sweep.sh` on a CPU of this family writes this file anew
 * with the family's own table.
 */
#define CRC_X86_TUNING_zen4 (&crc_x86_tuning_generic_avx512_gfni)
