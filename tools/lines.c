/* SPDX-License-Identifier: MIT */
/* Lines read with read(2): the fault-injection tests reach them as they reach the data. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "lines.h"
#include "platform.h"

int lines_open(struct lines *r, const char *name)
{
    *r = (struct lines){cli_stdin(), 0, 0, 0, NULL, 0, 0, 0};
    if (strcmp(name, "-") == 0)
        return 0;
    r->fd = open_retrying(name);
    r->own_fd = r->fd >= 0;
    return r->fd >= 0 ? 0 : -1;
}

ssize_t lines_next(struct lines *r, char **line)
{
    for (;;) {
        char *nl = r->end > r->start ? memchr(r->buf + r->start, '\n', r->end - r->start) : NULL;
        if (nl != NULL || (r->eof && r->end > r->start)) {
            char *begin = r->buf + r->start;
            size_t len = nl != NULL ? (size_t)(nl - begin) : r->end - r->start;
            begin[len] = '\0'; /* over the '\n', or in the byte kept free after the end */
            r->start += len + (nl != NULL);
            *line = begin;
            return (ssize_t)len;
        }
        if (r->eof || r->err)
            return -1;
        if (r->start > 0) { /* the partial line to the front, to read more after it */
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->cap - r->end < 4096 + 1) { /* +1: room for a last line's terminating NUL */
            size_t cap = r->cap ? 2 * r->cap : 64 * 1024;
            char *grown = realloc(r->buf, cap);
            if (grown == NULL) {
                r->err = ENOMEM;
                return -1;
            }
            r->buf = grown;
            r->cap = cap;
        }
        ssize_t got = read_retrying(r->fd, r->buf + r->end, r->cap - r->end - 1);
        if (got < 0)
            r->err = errno;
        else if (got == 0)
            r->eof = 1;
        else
            r->end += (size_t)got;
    }
}

void lines_close(struct lines *r)
{
    if (r->own_fd)
        platform_close(r->fd);
    free(r->buf);
}
