/* SPDX-License-Identifier: MIT */
/* The CRC of one input, whole or in parts, streamed or by ranges on several threads. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "platform.h"
#include "progress.h"

/* Memory stays bounded whatever the input size.  128 KiB, not more: on the AMD EPYC this
 * was measured on, 256 KiB reads of a page-cached file cost 3-4 times more kernel time
 * per byte (the copy's destination no longer stays in L2), and sum -j 1 on a 256 MiB
 * file took 170-220 ms of CPU instead of 50-55 ms (`perf stat -e task-clock`). */
#define READ_BUFFER (128 * 1024)
#define PARALLEL_MIN (8u << 20) /* below this, threads cost more than they save */

/* Whether a call that failed is to be made again: interrupted by a signal, and the run
 * goes on.  (A signal in python -m crcforge is Python's to handle: asked at once.) */
static int again(int failed)
{
    if (!failed || errno != EINTR)
        return 0;
    if (!cli_interrupted(1))
        return 1;
    errno = EINTR;
    return 0;
}

/* Before a read: whether the run was stopped (the host asked now and then). */
static int stop_before_reading(void)
{
    if (!cli_interrupted(0))
        return 0;
    errno = EINTR;
    return 1;
}

int open_retrying(const char *name)
{
    int fd;
    do
        fd = platform_open(name);
    while (again(fd < 0));
    return fd;
}

ssize_t read_retrying(int fd, void *buf, size_t len)
{
    ssize_t got;
    if (stop_before_reading())
        return -1;
    do
        got = platform_read(fd, buf, len);
    while (again(got < 0));
    return got;
}

ssize_t pread_retrying(int fd, void *buf, size_t len, uint64_t off)
{
    ssize_t got;
    if (stop_before_reading())
        return -1;
    do
        got = platform_pread(fd, buf, len, off);
    while (again(got < 0));
    return got;
}

/* What stopped a read before the end, for the message. */
struct fault {
    int err;            /* errno of a failed read */
    int early_end;      /* the input ended before the size it had */
    int too_many_parts; /* a stream went on past MAX_PARTS parts */
    uint64_t at;        /* the offset of the failed read, or of the early end */
};

/* The states of every algorithm of s, each fed the same bytes. */
static void init_states(crcforge_state *st, const struct hash_spec *s)
{
    for (unsigned a = 0; a < s->nalgos; a++)
        crcforge_init(&st[a], s->algos[a].model);
}

static void update_states(crcforge_state *st, const struct hash_spec *s, const uint8_t *data,
                          size_t len)
{
    for (unsigned a = 0; a < s->nalgos; a++)
        crcforge_update(&st[a], data, len);
}

static void final_states(uint64_t *crcs, const crcforge_state *st, const struct hash_spec *s)
{
    for (unsigned a = 0; a < s->nalgos; a++)
        crcs[a] = crcforge_final(&st[a]);
}

/* Reads fd to its end in parts of part_size bytes (one part when 0), the CRC of part p
 * for algorithm a in crcs[p * nalgos + a]: at most max_parts, and at least one (an empty
 * input is one empty part); *count parts. */
static void hash_stream(int fd, const struct hash_spec *s, unsigned long max_parts,
                        uint64_t *crcs, unsigned long *count, uint64_t *total,
                        struct fault *f)
{
    uint8_t *buf = malloc(READ_BUFFER);
    if (buf == NULL) {
        f->err = ENOMEM;
        return;
    }
    crcforge_state st[MAX_ALGOS];
    init_states(st, s);
    uint64_t in_part = 0;
    *count = 0;
    *total = 0;
    for (;;) {
        ssize_t got = read_retrying(fd, buf, READ_BUFFER);
        if (got <= 0) {
            if (got < 0) {
                f->err = errno;
                f->at = *total;
            }
            break;
        }
        progress_add(s->progress, (uint64_t)got);
        for (size_t off = 0; off < (size_t)got;) {
            size_t take = (size_t)got - off;
            if (s->part_size != 0) {
                if (in_part == 0 && *count == max_parts) {
                    f->too_many_parts = 1;
                    goto out;
                }
                if (take > s->part_size - in_part)
                    take = (size_t)(s->part_size - in_part);
            }
            update_states(st, s, buf + off, take);
            off += take;
            in_part += take;
            if (in_part == s->part_size) {
                final_states(crcs + (*count)++ * s->nalgos, st, s);
                init_states(st, s);
                in_part = 0;
            }
        }
        *total += (uint64_t)got;
    }
    if (in_part > 0 || *count == 0)
        final_states(crcs + (*count)++ * s->nalgos, st, s);
out:
    free(buf);
}

/* A range of the file that lies in one part and is read by one thread; its CRC for
 * each algorithm. */
struct piece {
    unsigned long part;
    uint64_t off, len;
    uint64_t *crc;
};

struct worker {
    int fd;
    const struct hash_spec *spec;
    struct piece *pieces;
    size_t npieces;
    atomic_int *stop; /* set by the first worker that fails: the others need not finish */
    struct fault fault;
};

static void *worker_run(void *arg)
{
    struct worker *w = arg;
    uint8_t *buf = malloc(READ_BUFFER);
    if (buf == NULL) {
        w->fault.err = ENOMEM;
        atomic_store(w->stop, 1);
        return NULL;
    }
    for (size_t i = 0; i < w->npieces; i++) {
        struct piece *p = &w->pieces[i];
        crcforge_state st[MAX_ALGOS];
        init_states(st, w->spec);
        for (uint64_t done = 0; done < p->len;) {
            if (atomic_load_explicit(w->stop, memory_order_relaxed))
                goto out;
            size_t want = p->len - done < READ_BUFFER ? (size_t)(p->len - done) : READ_BUFFER;
            ssize_t got = pread_retrying(w->fd, buf, want, p->off + done);
            if (got <= 0) {
                w->fault.err = got < 0 ? errno : 0;
                w->fault.early_end = got == 0;
                w->fault.at = p->off + done;
                atomic_store(w->stop, 1);
                goto out;
            }
            update_states(st, w->spec, buf, (size_t)got);
            done += (uint64_t)got;
            progress_add(w->spec->progress, (uint64_t)got);
        }
        final_states(p->crc, st, w->spec);
    }
out:
    free(buf);
    return NULL;
}

/* The size bytes from base cut into `threads` ranges hashed at once (the first on this
 * thread), each range cut again where a part ends; the pieces of each part are joined
 * in order with combine, for each algorithm (crcs as hash_stream's).  Memory: threads x
 * READ_BUFFER, whatever the size. */
static void hash_parallel(int fd, uint64_t base, uint64_t size, const struct hash_spec *s,
                          uint64_t *crcs, unsigned long nparts, struct fault *f)
{
    unsigned threads = s->threads, na = s->nalgos;
    uint64_t part_size = s->part_size != 0 ? s->part_size : UINT64_MAX;
    struct piece *pieces = calloc(nparts + threads, sizeof *pieces);
    uint64_t *piece_crcs = calloc((nparts + threads) * na, sizeof *piece_crcs);
    struct worker workers[MAX_THREADS];
    pthread_t tids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    atomic_int stop = 0;
    if (pieces == NULL || piece_crcs == NULL) {
        free(pieces);
        free(piece_crcs);
        f->err = ENOMEM;
        return;
    }
    uint64_t pos = 0, step = size / threads;
    size_t n = 0;
    for (unsigned t = 0; t < threads; t++) {
        uint64_t end = t + 1 == threads ? size : step * (t + 1);
        workers[t] = (struct worker){fd, s, pieces + n, 0, &stop, {0, 0, 0, 0}};
        while (pos < end) {
            unsigned long part = (unsigned long)(pos / part_size);
            uint64_t part_end = part_size == UINT64_MAX ? size : (part + 1) * part_size;
            uint64_t stop_at = part_end < end ? part_end : end;
            pieces[n] = (struct piece){part, base + pos, stop_at - pos, piece_crcs + n * na};
            n++;
            pos = stop_at;
        }
        workers[t].npieces = (size_t)(pieces + n - workers[t].pieces);
        if (t > 0)
            started[t] = pthread_create(&tids[t], NULL, worker_run, &workers[t]) == 0;
    }
    worker_run(&workers[0]);
    for (unsigned t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tids[t], NULL);
        else
            worker_run(&workers[t]); /* no thread to be had: do it here */
    }
    for (unsigned t = 0; t < threads; t++) {
        if (workers[t].fault.err || workers[t].fault.early_end) {
            *f = workers[t].fault;
            break;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const struct piece *p = &pieces[i];
        uint64_t *part = crcs + p->part * na;
        int joined = i > 0 && pieces[i - 1].part == p->part;
        for (unsigned a = 0; a < na; a++)
            part[a] = joined ? crcforge_combine(s->algos[a].model, part[a], p->crc[a], p->len)
                             : p->crc[a];
    }
    free(pieces);
    free(piece_crcs);
}

/* The CRC of the parts' CRCs crcs[0], crcs[stride], ... (n of them), each as its
 * ceil(width/8) big-endian bytes. */
static uint64_t composite(const crcforge_model *m, const uint64_t *crcs, size_t stride,
                          unsigned long n)
{
    unsigned bytes = (crcforge_model_params(m)->width + 7) / 8;
    crcforge_state st;
    crcforge_init(&st, m);
    for (unsigned long i = 0; i < n; i++) {
        uint8_t be[8];
        for (unsigned b = 0; b < bytes; b++)
            be[b] = (uint8_t)(crcs[i * stride] >> (8 * (bytes - 1 - b)));
        crcforge_update(&st, be, bytes);
    }
    return crcforge_final(&st);
}

/* POSIX cksum's value: the CRC of the data (crc, of size bytes) continued with the size
 * as its fewest little-endian bytes (none for 0), joined with combine. */
static uint64_t append_length(const crcforge_model *m, uint64_t crc, uint64_t size)
{
    uint8_t le[8];
    size_t n = 0;
    for (; size != 0; size >>= 8)
        le[n++] = (uint8_t)size;
    return n == 0 ? crc : crcforge_combine(m, crc, crcforge_checksum(m, le, n), n);
}

/* The values of every algorithm from its part CRCs (crcs as hash_stream's), count parts
 * of size bytes in all. */
static void finish(const struct hash_spec *s, const uint64_t *crcs, unsigned long count,
                   uint64_t size, struct hash_value *out)
{
    out->parts = s->part_size != 0 ? count : 0;
    for (unsigned a = 0; a < s->nalgos; a++) {
        const struct cli_algo *algo = &s->algos[a];
        out->crc[a] = s->part_size != 0 ? composite(algo->model, crcs + a, s->nalgos, count)
                                        : crcs[a];
        if (algo->posix_cksum)
            out->crc[a] = append_length(algo->model, out->crc[a], size);
    }
}

static int same_stat(const struct platform_stat *a, const struct platform_stat *b)
{
    return a->size == b->size && a->mtime_sec == b->mtime_sec && a->mtime_nsec == b->mtime_nsec;
}

/* Says why the input gave no value; -1. */
static int report(const char *name, const struct hash_spec *s, const struct fault *f,
                  const struct platform_stat *before, const struct platform_stat *after,
                  uint64_t size)
{
    if (f->err)
        cli_error("%s: %s (reading byte %llu)", name, platform_error_text(f->err),
                  (unsigned long long)f->at);
    else if (after != NULL && before->size != after->size)
        cli_error("%s: changed while it was read (%llu bytes at the start, %llu at the end)",
                  name, (unsigned long long)before->size, (unsigned long long)after->size);
    else if (after != NULL && !same_stat(before, after))
        cli_error("%s: changed while it was read (modified: its mtime moved)", name);
    else if (f->early_end)
        cli_error("%s: ended early, at byte %llu of %llu", name, (unsigned long long)f->at,
                  (unsigned long long)size);
    else if (f->too_many_parts)
        cli_error("%s: more than %d parts of %llu bytes (S3's limit is %d parts)", name,
                  MAX_PARTS, (unsigned long long)s->part_size, MAX_PARTS);
    else
        cli_error("%s: changed while it was read (%llu bytes read of %llu)", name,
                  (unsigned long long)f->at, (unsigned long long)size);
    return -1;
}

/* Hashes the open input; -1 after saying why it gave no value. */
static int hash_fd(const char *name, int fd, int is_stdin, const struct hash_spec *s,
                   struct hash_value *out)
{
    struct platform_stat before, after;
    if (platform_stat(fd, &before) != 0) {
        cli_error("%s: %s", name, platform_error_text(errno));
        return -1;
    }
    if (before.kind == PLATFORM_DIRECTORY) {
        cli_error("%s: %s", name, platform_error_text(EISDIR));
        return -1;
    }
    /* A regular file has a size to check the reads against, and can be read by
     * ranges: from where standard input stands, when it is one. */
    int regular = before.kind == PLATFORM_REGULAR;
    int64_t at = regular && is_stdin ? platform_position(fd) : 0;
    uint64_t base = at < 0 || (uint64_t)at > before.size ? before.size : (uint64_t)at;
    uint64_t size = regular ? before.size - base : 0;
    unsigned long nparts = MAX_PARTS;
    if (regular) {
        uint64_t n = s->part_size == 0 ? 1 : size / s->part_size + (size % s->part_size != 0);
        if (n > MAX_PARTS) {
            cli_error("%s: %llu parts of %llu bytes, more than S3's limit of %d parts", name,
                      (unsigned long long)n, (unsigned long long)s->part_size, MAX_PARTS);
            return -1;
        }
        nparts = n == 0 ? 1 : (unsigned long)n;
    } else if (s->part_size == 0) {
        nparts = 1;
    }
    uint64_t *crcs = malloc(nparts * s->nalgos * sizeof *crcs);
    if (crcs == NULL) {
        cli_error("%s: %s", name, platform_error_text(ENOMEM));
        return -1;
    }
    struct fault f = {0, 0, 0, 0};
    unsigned long count = nparts;
    uint64_t total = size;
    progress_begin(s->progress, name, size);
    if (regular && s->threads > 1 && size >= PARALLEL_MIN)
        hash_parallel(fd, base, size, s, crcs, nparts, &f);
    else
        hash_stream(fd, s, nparts, crcs, &count, &total, &f);
    progress_end(s->progress); /* before any message, and before the value is printed */
    int rc = 0;
    if (f.err) {
        rc = report(name, s, &f, &before, NULL, size);
    } else if (regular) {
        /* The bytes read are those of one moment only if nothing moved meanwhile. */
        if (platform_stat(fd, &after) != 0)
            after = before;
        if (!same_stat(&before, &after) || f.early_end || f.too_many_parts) {
            rc = report(name, s, &f, &before, &after, size);
        } else if (total != size) {
            f.at = total;
            f.early_end = total < size;
            rc = report(name, s, &f, &before, &after, size);
        }
    } else if (f.too_many_parts) {
        rc = report(name, s, &f, &before, NULL, size);
    }
    if (rc == 0)
        finish(s, crcs, count, total, out);
    free(crcs);
    return rc;
}

/* An input the host reads itself, once for every algorithm: 0 when it is not one, 1 with
 * its values, -1 after saying why it gave none. */
static int hash_remote(const char *name, const struct hash_spec *s, struct hash_value *out)
{
    const struct cli_hooks *h = cli_hooks();
    if (h == NULL || h->remote == NULL)
        return 0;
    unsigned long max = s->part_size != 0 ? MAX_PARTS : 1, count = 0;
    uint64_t *crcs = malloc(max * s->nalgos * sizeof *crcs);
    uint64_t size = 0;
    char *reason = NULL;
    int rc;
    if (crcs == NULL) {
        cli_error("%s: %s", name, strerror(ENOMEM));
        rc = -1;
    } else {
        rc = h->remote(h->ctx, name, s, crcs, max, &count, &size, &reason);
        if (rc > 0 && (count == 0 || count > max)) {
            cli_error("%s: %lu values read, not 1 to %lu", name, count, max);
            rc = -1;
        } else if (rc < 0) {
            cli_error("%s: %s", name, reason != NULL ? reason : "no value");
        }
    }
    free(reason);
    if (rc > 0)
        finish(s, crcs, count, size, out);
    free(crcs);
    return rc;
}

int hash_input(const char *name, const struct hash_spec *spec, struct hash_value *out)
{
    int rc = hash_remote(name, spec, out);
    if (rc != 0)
        return rc < 0 ? HASH_FAILED : HASH_OK;
    int is_stdin = strcmp(name, "-") == 0;
    int fd = is_stdin ? cli_stdin() : open_retrying(name);
    if (fd < 0 && is_stdin)
        errno = EBADF;
    if (fd < 0 && errno == ENOENT && spec->missing_ok)
        return HASH_MISSING;
    if (fd < 0) {
        cli_error("%s: %s", name, platform_error_text(errno));
        return -1;
    }
    rc = hash_fd(name, fd, is_stdin, spec, out);
    if (!is_stdin)
        platform_close(fd);
    return rc;
}
