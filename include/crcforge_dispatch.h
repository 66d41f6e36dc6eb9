/*
 * crcforge's introspection of how it runs on this machine: may change between versions
 * (include crcforge.h for the stable API).
 */
#ifndef CRCFORGE_DISPATCH_H
#define CRCFORGE_DISPATCH_H

#include "crcforge.h"

#ifdef __cplusplus
extern "C" {
#endif

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
