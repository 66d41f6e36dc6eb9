/* SPDX-License-Identifier: MIT */
/*
 * The x86 paths tuned per CPU family, as data: for each class of model, which path serves
 * which band of input lengths, the kernels' parameters, and the limits inside the kernels
 * that depend on the CPU.  One table per family, in tuning/FAMILY.h, written by
 * scripts/tune/make_table.py from a `crcforge bench --json` sweep of that family's CPU
 * (scripts/tune/sweep.sh runs the sweep and the generator); a family not measured yet
 * points at the generic table of its widest tier (tuning/generic.h).  The family is read
 * once from CPUID (vendor, family, model) and the features in use; CRCFORGE_TUNE overrides
 * the choice and the values (tuning.c).
 *
 * This is data and the code that picks it: it calls nothing of dispatch.  The bands of the
 * table in use become selections (bands.c), which dispatch (dispatch.c) publishes; the
 * kernels are handed the parameters and limits (struct crc_params, crc_x86_params) in
 * every call.  A forced path (CRCFORGE_IMPL, crcforge_impl_force) bypasses the bands but
 * keeps the rest.
 */
#ifndef CRCFORGE_X86_TUNING_H
#define CRCFORGE_X86_TUNING_H

#include "../internal.h"
#include "crc32c_x86.h"
#include "fold.h"

/* Inputs shorter than `below` bytes take `path` (a registry name); `below` 0: any longer
 * input, the last band of a list. */
struct crc_x86_band {
    uint32_t below;
    const char *path;
};

/* The classes of model a table has bands for. */
enum crc_model_class {
    CRC_CLASS_CRC32C,       /* CRC-32C's polynomial and bit order: the crc32 instruction */
    CRC_CLASS_CRC16_XMODEM, /* CRC-16/XMODEM's: the short-key kernel, and key slots */
    CRC_CLASS_REFLECTED,    /* every other reflected model of width 8..64 */
    CRC_CLASS_MSB_FIRST,    /* every other MSB-first model of width 8..64 */
    CRC_CLASSES
};

struct crc_x86_tuning {
    const char *family; /* the family it was measured on, or "generic-TIER" */
    const char *source; /* where its figures came from */
    struct crc_x86_band bands[CRC_CLASSES][CRC_BANDS_MAX];
    /* The folding kernels (fold_template.h): a message of up to fold_parallel_max bytes is
     * reduced in one step, every lane multiplied by its own distance to the end; a longer
     * one folds fold_accumulators vectors at a time first. */
    uint32_t fold_parallel_max;
    uint32_t fold_accumulators;
    /* The CRC-32C hybrids: crc32 qwords on each of the three streams beside every four
     * vectors folded (256 bytes with 512-bit vectors, 128 with 256-bit ones). */
    uint32_t hybrid_qwords;
    /* Where the CRC-32C kernels change their way, crossovers of the CPU's units: the
     * three-chain path (crc32c_sse42.c) runs one chain below crc32c_threeway_min bytes,
     * where a join costs more than two more chains gain; the hybrids
     * (crc32c_vpclmul_template.h) run their loop of passes (vectors folded beside three
     * crc32 chains) from crc32c_hybrid256_min bytes (256-bit) or crc32c_hybrid512_min
     * (512-bit), passes without accumulators below (256-bit: SPLIT, vectors beside three
     * chains; 512-bit: MEDIUM, vectors beside one): two kernels of their own, so two
     * crossovers. */
    uint32_t crc32c_threeway_min;
    uint32_t crc32c_hybrid256_min;
    uint32_t crc32c_hybrid512_min;
};

/* The table in use: the family's (or CRCFORGE_TUNE's), with CRCFORGE_TUNE's values; and
 * the kernels' parameters it gives. */
const struct crc_x86_tuning *crc_x86_tuning(void);
const struct crc_params *crc_x86_params(void);

/* Forget the table in use (crcforge_impl_force calls it: the CPU mask may have changed). */
void crc_x86_tuning_reset(void);
/* The family whose table is in use: an index into crc_x86_families. */
size_t crc_x86_family_in_use(void);

/* Every family, first match first (tuning.c): its name, the features every CPU of it
 * has (all its table's paths execute), its table, and which CPUs it is (given the CPU's
 * identity and features in use). */
struct crc_x86_family {
    const char *name;
    uint32_t features;
    const struct crc_x86_tuning *table;
    int (*is)(const struct crc_cpu_id *id, uint32_t features);
};
#define CRC_X86_FAMILIES 9
extern const struct crc_x86_family crc_x86_families[CRC_X86_FAMILIES];
extern const size_t crc_x86_family_count;
/* The family a CPU of this identity with these features (in use) belongs to: an index
 * into crc_x86_families (the last, generic one when none matches). */
size_t crc_x86_family_of(const struct crc_cpu_id *id, uint32_t features);
/* The class of a model, or CRC_CLASSES when no band serves it (width below 8). */
enum crc_model_class crc_model_class_of(const crcforge_model *m);

#endif /* CRCFORGE_X86_TUNING_H */
