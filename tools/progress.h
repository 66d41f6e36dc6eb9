/* SPDX-License-Identifier: MIT */
/* Progress of `crcforge sum` on stderr, for inputs that take more than about a second:
 * bytes done, rate, and time left when the size is known.  On a terminal one line is
 * rewritten in place and cleared at the end; elsewhere (forced with --progress) a line a
 * second, and a last one with the total.  Never on stdout, where the values go. */
#ifndef CRCFORGE_PROGRESS_H
#define CRCFORGE_PROGRESS_H

#include <stdint.h>

enum progress_mode { PROGRESS_AUTO, PROGRESS_ON, PROGRESS_OFF };

struct progress;

/* NULL (no progress) when off, or automatic and stderr is not a terminal. */
struct progress *progress_open(enum progress_mode mode);
/* One input at a time; size 0 when unknown.  Each accepts NULL. */
void progress_begin(struct progress *p, const char *name, uint64_t size);
void progress_add(struct progress *p, uint64_t bytes); /* from any thread */
void progress_end(struct progress *p);
void progress_close(struct progress *p);

#endif /* CRCFORGE_PROGRESS_H */
