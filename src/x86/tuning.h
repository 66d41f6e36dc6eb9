/*
 * The x86 paths tuned per CPU family, as data: for each class of model, which path serves
 * which band of input lengths, and the kernels' parameters.  One table per family, in
 * tuning/FAMILY.h, written by scripts/tune/make_table.py from a `crcforge bench --json`
 * sweep of that family's CPU (scripts/tune/sweep.sh runs the sweep and the generator); a
 * family not measured yet points at the generic table of its widest tier
 * (tuning/generic.h).  The family is read once from CPUID (vendor, family, model) and the
 * features in use; CRCFORGE_TUNE overrides the choice and the parameters (tuning.c).
 *
 * Dispatch (dispatch.c) asks crc_x86_tuned_impl for a model's path before the registry's
 * best-first list: a record whose update walks the bands of the model's class.  A forced
 * path (CRCFORGE_IMPL, crcforge_impl_force) bypasses the bands but keeps the parameters.
 */
#ifndef CRCFORGE_X86_TUNING_H
#define CRCFORGE_X86_TUNING_H

#include "../internal.h"

#define CRC_BANDS_MAX 6

/* Inputs shorter than `below` bytes take `path` (a registry name); `below` 0: any longer
 * input, the last band of a list. */
struct crc_band {
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
    struct crc_band bands[CRC_CLASSES][CRC_BANDS_MAX];
    /* The folding kernels (fold_template.h): a message of up to fold_parallel_max bytes is
     * reduced in one step, every lane multiplied by its own distance to the end; a longer
     * one folds fold_accumulators vectors at a time first. */
    uint32_t fold_parallel_max;
    uint32_t fold_accumulators;
    /* The CRC-32C hybrids: crc32 qwords on each of the three streams beside every four
     * vectors folded (256 bytes with 512-bit vectors, 128 with 256-bit ones). */
    uint32_t hybrid_qwords;
};

/* The limits of the parameters (what the kernels and their constants are built for). */
#define CRC_FOLD_PARALLEL_MAX 4096
#define CRC_HYBRID_QWORDS_MAX 16

/* The table in use: the family's (or CRCFORGE_TUNE's), with CRCFORGE_TUNE's parameters. */
const struct crc_x86_tuning *crc_x86_tuning_resolve(void);
extern _Atomic(const struct crc_x86_tuning *) crc_x86_tuning_current;
/* Its folding parameters on their own, for the kernels' hot path (one load each, no
 * pointer): 0 until the table is resolved, so that a kernel finding fold_accumulators 0
 * resolves it (crc_x86_tuning_resolve) and reads them again. */
extern _Atomic uint32_t crc_x86_fold_parallel_max, crc_x86_fold_accumulators;
static inline const struct crc_x86_tuning *crc_x86_tuning(void)
{
    const struct crc_x86_tuning *t =
        atomic_load_explicit(&crc_x86_tuning_current, memory_order_acquire);
    return t != NULL ? t : crc_x86_tuning_resolve();
}

/* The banded path of the table in use for m, or NULL when the table has none that this
 * CPU can run for m (dispatch then takes the registry's best-first choice). */
const struct crc_impl *crc_x86_tuned_impl(const crcforge_model *m);

/* Forget the table in use (crcforge_impl_force calls it: the CPU mask may have changed). */
void crc_x86_tuning_reset(void);

/* Every family, first match first (tuning.c): its name, the features every CPU of it
 * has (all its table's paths execute), its table, and which CPUs it is (given the CPU's
 * identity and features in use). */
struct crc_x86_family {
    const char *name;
    uint32_t features;
    const struct crc_x86_tuning *table;
    int (*is)(const struct crc_cpu_id *id, uint32_t features);
};
extern const struct crc_x86_family crc_x86_families[];
extern const size_t crc_x86_family_count;
/* The family a CPU of this identity with these features (in use) belongs to: an index
 * into crc_x86_families (the last, generic one when none matches). */
size_t crc_x86_family_of(const struct crc_cpu_id *id, uint32_t features);
/* The class of a model, or CRC_CLASSES when no band serves it (width below 8). */
enum crc_model_class crc_model_class_of(const crcforge_model *m);

#endif /* CRCFORGE_X86_TUNING_H */
