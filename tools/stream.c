/* SPDX-License-Identifier: MIT */
/* The engine's output streams: stdio's, or a host's writer behind a buffer (stream.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

void cli_stream_of_file(struct cli_stream *s, FILE *f)
{
    *s = (struct cli_stream){.file = f};
}

int cli_stream_of_writer(struct cli_stream *s, cli_writer *write, void *cookie,
                         int line_buffered)
{
    s->file = NULL;
    s->write = write;
    s->cookie = cookie;
    s->line_buffered = line_buffered;
    s->error = 0;
    s->used = 0;
    return pthread_mutex_init(&s->lock, NULL);
}

/* The writer's first failure is kept, and what follows it dropped (lock held). */
static void emit(struct cli_stream *s, const char *p, size_t len)
{
    if (s->error == 0 && len > 0 && s->write(s->cookie, p, len) < 0)
        s->error = errno != 0 ? errno : EIO;
}

/* 0, or -1 with errno once the writer has failed (lock held). */
static int status(const struct cli_stream *s)
{
    if (s->error == 0)
        return 0;
    errno = s->error;
    return -1;
}

static void drain(struct cli_stream *s)
{
    emit(s, s->buffer, s->used);
    s->used = 0;
}

/* len bytes into a writer's stream, as stdio buffers them (lock held). */
static int put(struct cli_stream *s, const char *p, size_t len)
{
    int newline = s->line_buffered && memchr(p, '\n', len) != NULL;
    while (len > 0 && s->error == 0) {
        if (s->used == 0 && len >= sizeof s->buffer) { /* more than the buffer holds */
            emit(s, p, len);
            break;
        }
        size_t n = sizeof s->buffer - s->used;
        if (n > len)
            n = len;
        memcpy(s->buffer + s->used, p, n);
        s->used += n;
        p += n;
        len -= n;
        if (s->used == sizeof s->buffer)
            drain(s);
    }
    if (newline)
        drain(s);
    return status(s);
}

static int put_locked(struct cli_stream *s, const char *p, size_t len)
{
    pthread_mutex_lock(&s->lock);
    int rc = put(s, p, len);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void cli_stream_close(struct cli_stream *s)
{
    pthread_mutex_lock(&s->lock);
    drain(s);
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_destroy(&s->lock);
}

int cli_write(struct cli_stream *s, const void *buf, size_t len)
{
    if (s->file != NULL)
        return fwrite(buf, 1, len, s->file) == len ? 0 : -1;
    return put_locked(s, buf, len);
}

int cli_puts(struct cli_stream *s, const char *text)
{
    if (s->file != NULL)
        return fputs(text, s->file) == EOF ? -1 : 0;
    return put_locked(s, text, strlen(text));
}

int cli_putc(struct cli_stream *s, int c)
{
    if (s->file != NULL)
        return putc(c, s->file) == EOF ? -1 : 0;
    char byte = (char)c;
    return put_locked(s, &byte, 1);
}

int cli_printf(struct cli_stream *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (s->file != NULL) {
        int n = vfprintf(s->file, fmt, ap);
        va_end(ap);
        return n;
    }
    char small[512], *text = small;
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small) {
        if ((text = malloc((size_t)n + 1)) == NULL)
            return -1;
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    if (n >= 0 && put_locked(s, text, (size_t)n) != 0)
        n = -1;
    if (text != small)
        free(text);
    return n;
}

int cli_flush(struct cli_stream *s)
{
    if (s->file != NULL)
        return fflush(s->file) != 0 || ferror(s->file) ? -1 : 0;
    pthread_mutex_lock(&s->lock);
    drain(s);
    int rc = status(s);
    pthread_mutex_unlock(&s->lock);
    return rc;
}
