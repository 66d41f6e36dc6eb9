/* SPDX-License-Identifier: MIT */
/* The engine's output streams, a run's standard output and standard error: a stdio FILE
 * (the crcforge program, the benchmark's help), or a host's write function behind a
 * buffer of the stream's own (python -m crcforge, whose output goes to whatever
 * sys.stdout is).  A FILE cannot be made of a function everywhere: fopencookie is glibc's
 * and musl's, funopen the BSDs' and macOS's, and the Windows C runtime has neither.
 *
 * Each call below is whole with respect to the other threads' calls on the same stream
 * (the progress thread shares standard error with the run), as stdio's calls are. */
#ifndef CRCFORGE_STREAM_H
#define CRCFORGE_STREAM_H

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

/* A host's writer: all len bytes of buf written, or -1 with errno set. */
typedef ssize_t cli_writer(void *cookie, const char *buf, size_t len);

enum { CLI_STREAM_BUFFER = 8192 };

struct cli_stream {
    FILE *file; /* stdio's stream, which does the rest; NULL for a writer */
    cli_writer *write;
    void *cookie;
    int line_buffered; /* a writer's buffer is written out at each newline, else when full */
    int error;         /* the errno of the writer's first failure; nothing is written after */
    pthread_mutex_t lock;
    size_t used;
    char buffer[CLI_STREAM_BUFFER];
};

/* A stream over f; nothing to release. */
void cli_stream_of_file(struct cli_stream *s, FILE *f);
/* A stream over a host's writer: 0, or an error number. */
int cli_stream_of_writer(struct cli_stream *s, cli_writer *write, void *cookie,
                         int line_buffered);
/* A writer's stream: what is buffered written out, and the stream released. */
void cli_stream_close(struct cli_stream *s);

/* fwrite of len bytes, fputs, putc, fprintf (the count written, or negative): 0 on success,
 * -1 once anything written to the stream failed. */
int cli_write(struct cli_stream *s, const void *buf, size_t len);
int cli_puts(struct cli_stream *s, const char *text);
int cli_putc(struct cli_stream *s, int c);
int cli_printf(struct cli_stream *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fflush, and ferror after it: 0, or -1 with errno set when anything written to the stream
 * failed. */
int cli_flush(struct cli_stream *s);

#endif /* CRCFORGE_STREAM_H */
