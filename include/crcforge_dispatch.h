/* SPDX-License-Identifier: MIT */
/*
 * crcforge_dispatch.h: which implementation path serves a model, forcing one, the tuning
 * table in use and the CPU's features; what tools, tests and benchmarks look at.
 *
 * MAY CHANGE BETWEEN MINOR RELEASES; NOT COVERED BY THE ABI POLICY.  A function declared
 * here may change or disappear in any release, with no new SONAME; the path names it
 * reports are those of the build.  An application that needs only CRC values includes
 * crcforge.h alone (which this header includes).
 */
#ifndef CRCFORGE_DISPATCH_H
#define CRCFORGE_DISPATCH_H

#include "crcforge.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Implementations (paths): introspection and forcing.
 * Names: "portable" (tables, always), and the ISA paths compiled in
 * (see `crcforge cpu --impls`).
 * ------------------------------------------------------------------------- */
CRCFORGE_API size_t crcforge_impl_count(void);              /* compiled in */
CRCFORGE_API const char *crcforge_impl_name(size_t i);
CRCFORGE_API int crcforge_impl_runnable(const char *name);  /* this CPU and OS can run it */
/* Whether the path exists for model m (regardless of the CPU); 0 when m is NULL. */
CRCFORGE_API int crcforge_impl_supports(const char *name, const crcforge_model *m);
/* Name of the path the dispatcher chose for m (NULL when m is NULL): one path's name, or,
 * where the CPU family's tuning table gives m length bands, "A<128,B<3072,C": path A for
 * inputs shorter than 128 bytes, B below 3072, C for the rest (each a registry name). */
CRCFORGE_API const char *crcforge_impl_chosen(const crcforge_model *m);

/* Force every model that has a path called name onto it, the others onto "portable";
 * NULL or "auto" returns to automatic choice.
 * Key slots (crcforge_keyslot, crcforge_keyslots) run on the path of CRC-16/XMODEM, so
 * they follow it: forcing a crc16_xmodem_* path runs them on its short-key kernel;
 * forcing a path that serves CRC-16/XMODEM without short-key operations (a fold_* path)
 * computes them through that path as every CRC-16/XMODEM; forcing one that does not serve
 * it (crc32c_*), or "portable", leaves them on the portable engine (slicing-by-2 over its
 * tables).  Returns 0, or -1 with *why set when the
 * name is unknown or this CPU cannot run it.  Catalogue models take the new choice on
 * their next use; a custom model (crcforge_model_new) already resolved (hashed, or
 * passed to crcforge_impl_chosen) keeps its path.  Meant for tests and benchmarks: call
 * it before hashing.
 * The environment variable CRCFORGE_IMPL does the same, read once when the library
 * first hashes unless crcforge_impl_force came first ("auto" or empty: automatic); a
 * name that is unknown or that this CPU cannot run leaves the automatic choice, and
 * crcforge_env_problem_at (below) lists it: the library never prints. */
CRCFORGE_API int crcforge_impl_force(const char *name, const char **why);

/* Like crcforge_init, pinned to one path.  Returns 0, or -1 with *why set when m is
 * NULL, or the path is unknown, does not serve m, or cannot run on this CPU. */
CRCFORGE_API int crcforge_init_impl(crcforge_state *s, const crcforge_model *m, const char *name,
                                    const char **why);

/* The CPU family whose tuning table chose the paths by length ("zen4", "avx2-vpclmul",
 * ...; "none" where paths are not tuned per family), and the table it uses: its own, or,
 * until the family is measured, the generic table of its tier ("generic-avx2", ...). */
CRCFORGE_API const char *crcforge_tuning_family(void);
CRCFORGE_API const char *crcforge_tuning_table(void);
/* Where that table's choices come from: for a table made from a sweep, "sweep of COMMIT
 * (DATE) on CPU", and where the kernels changed after it, why its choices are kept; for a
 * hand-written one, what it rests on.  "" where paths are not tuned per family. */
CRCFORGE_API const char *crcforge_tuning_source(void);
/* The kernel parameters in use, in the form CRCFORGE_TUNE takes them:
 * "fold_parallel_max=4096,fold_accumulators=4,..." (every key, src/x86/tuning.h), the
 * table's with CRCFORGE_TUNE's values applied; and the table's own, as written.  "" where
 * paths are not tuned per family.  Benchmarks record both beside their figures, so that
 * a table made from them knows what they were timed under. */
CRCFORGE_API const char *crcforge_tuning_parameters(void);
CRCFORGE_API const char *crcforge_tuning_table_parameters(void);

/* CPU features found, as a space-separated list of names ("sse4.2 pclmulqdq ..."). */
CRCFORGE_API const char *crcforge_cpu_features(void);

/* ---------------------------------------------------------------------------
 * Catalogue details that `crcforge list` and crcforge.models() print.
 * ------------------------------------------------------------------------- */
/* The residue: the register after a valid codeword, before xorout (reflected when refout),
 * as the catalogue gives it (for a custom model, computed). */
CRCFORGE_API uint64_t crcforge_model_residue(const crcforge_model *m);

/* ---------------------------------------------------------------------------
 * The environment.  The library reads CRCFORGE_IMPL (unless crcforge_impl_force came
 * first), CRCFORGE_CPU_MASK and, on x86-64, CRCFORGE_TUNE, each once (README,
 * "Environment variables").  It never writes to stderr: a value it cannot use, in whole
 * or in part, is a problem listed here, with what it did instead.
 * ------------------------------------------------------------------------- */
typedef struct crcforge_env_problem {
    const char *variable; /* "CRCFORGE_TUNE" */
    const char *value;    /* its value, as the library read it */
    const char *problem;  /* what was wrong: "'hybrid_qwords=0': hybrid_qwords takes ..." */
    const char *instead;  /* what the library did: "ignored it: the table's value" */
} crcforge_env_problem;

/* The i-th problem (from 0, in the order found), or NULL past the last.  Reads first every
 * variable not read yet, so that the list is complete.  The problems live as long as the
 * process. */
CRCFORGE_API const crcforge_env_problem *crcforge_env_problem_at(size_t i);

#ifdef __cplusplus
}
#endif
#endif /* CRCFORGE_DISPATCH_H */
