/* SPDX-License-Identifier: MIT */
/* Lines of a list or key file, read with read(2) through a buffer that grows to the
 * longest line: raw bytes, NULs included, a last line without its newline included. */
#ifndef CRCFORGE_LINES_H
#define CRCFORGE_LINES_H

#include <stddef.h>
#include <sys/types.h>

struct lines {
    int fd, own_fd;
    int err; /* errno of the read that failed, 0 if none */
    int eof;
    char *buf;
    size_t cap, start, end;
};

/* name "-" is standard input.  -1 with errno when it cannot be opened. */
int lines_open(struct lines *r, const char *name);
/* The next line without its '\n', NUL-terminated at *len; -1 at the end, or on a read
 * error (r->err says which). */
ssize_t lines_next(struct lines *r, char **line);
void lines_close(struct lines *r);

#endif /* CRCFORGE_LINES_H */
