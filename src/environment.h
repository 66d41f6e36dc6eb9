/* SPDX-License-Identifier: MIT */
/*
 * What the library found wrong in the environment variables it reads (CRCFORGE_IMPL,
 * CRCFORGE_CPU_MASK, CRCFORGE_TUNE).  A library writes nothing to its program's stderr:
 * each reader notes here what it could not use, and crcforge_env_problem_at (dispatch.c)
 * lists the notes.
 */
#ifndef CRCFORGE_ENVIRONMENT_H
#define CRCFORGE_ENVIRONMENT_H

#include <stddef.h>

#include "compiler.h"
#include "crcforge_dispatch.h"

/* Notes a problem: the variable, its value as read, what was done instead, and the text
 * formatted from fmt.  variable and instead are kept as given (static strings); the value
 * and the text are copied.  A note equal to one already made is not made again, so that a value read anew
 * (after crcforge_impl_force) is reported once.  Thread-safe, no lock. */
void crc_env_note(const char *variable, const char *value, const char *instead,
                  const char *fmt, ...) CRC_PRINTF_FORMAT(4, 5);

/* Calls item(env, s, len, ctx) for each non-empty comma-separated item s[0..len) of env
 * (CRCFORGE_TUNE's KEY=VALUE list); a NULL env has none. */
void crc_env_each_item(const char *env,
                       void (*item)(const char *env, const char *s, size_t len, void *ctx),
                       void *ctx);

/* The i-th note made (in order), or NULL past the last. */
const crcforge_env_problem *crc_env_note_at(size_t i);

#endif /* CRCFORGE_ENVIRONMENT_H */
