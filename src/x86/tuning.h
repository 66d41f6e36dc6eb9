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
 * This is data and the code that picks it: it calls nothing of dispatch.  Dispatch
 * (dispatch.c, bands.c) turns the bands of the table in use into the paths it chooses;
 * the kernels read their parameters and limits from crc_x86_tuning().  A forced path
 * (CRCFORGE_IMPL, crcforge_impl_force) bypasses the bands but keeps the rest.
 */
#ifndef CRCFORGE_X86_TUNING_H
#define CRCFORGE_X86_TUNING_H

#include "../fold_consts.h"
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

/* The ranges of the parameters and limits: what the kernels and their constants are
 * built for (tuning.c refuses CRCFORGE_TUNE values outside them, test_tuning checks every
 * table). */
#define CRC_FOLD_PARALLEL_MAX 4096
#define CRC_HYBRID_QWORDS_MAX 16
/* One pass of three streams of one qword at least; three streams of CRC32C_STREAM_MAX
 * (crc32c_x86.h) are a whole pass, which runs whatever the limit. */
#define CRC32C_THREEWAY_MIN_LEAST 24
#define CRC32C_THREEWAY_MIN_MOST (3 * 4096)
/* One iteration of the longest hybrid pass at least (four 512-bit vectors beside three
 * streams of CRC_HYBRID_QWORDS_MAX qwords); at most, 256-bit, what SPLIT's table of shapes
 * covers (its lanes and streams within the 4 KiB of the lane and join tables), 512-bit,
 * what MEDIUM covers (every lane multiplied straight to the end: the lane table's 4 KiB). */
#define CRC32C_HYBRID_MIN_LEAST (4 * 64 + 24 * CRC_HYBRID_QWORDS_MAX)
#define CRC32C_HYBRID256_MIN_MOST 3072
#define CRC32C_HYBRID512_MIN_MOST (16 * CRC32_LANES_MAX + 1)

/* The table in use: the family's (or CRCFORGE_TUNE's), with CRCFORGE_TUNE's values. */
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
/* The table in use, or NULL until it is resolved: a kernel that reads it on every call
 * resolves it out of line then, so that its own code makes no call and keeps no frame. */
static inline const struct crc_x86_tuning *crc_x86_tuning_peek(void)
{
    return atomic_load_explicit(&crc_x86_tuning_current, memory_order_acquire);
}

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
