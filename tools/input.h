/* SPDX-License-Identifier: MIT */
/* The CRCs of one input of `crcforge sum`, for every algorithm asked in one read: a file,
 * standard input, a pipe or a FIFO; whole or in parts (the composite checksum of a
 * multipart upload); a large regular file by several threads; or what the host reads
 * itself (a URL in python -m crcforge, read once per algorithm).  Reads
 * are retried when interrupted or short; a read error, an early end, or a file that
 * changed while it was read gives no value. */
#ifndef CRCFORGE_INPUT_H
#define CRCFORGE_INPUT_H

#include <stdint.h>
#include <sys/types.h>

#include "cli.h"

/* S3's limit on the parts of a multipart upload. */
#define MAX_PARTS 10000
#define MAX_THREADS 64
/* The algorithms one read of an input feeds at most. */
#define MAX_ALGOS 16

struct progress;

struct hash_spec {
    const struct cli_algo *algos; /* each fed every byte, in one read of the input */
    unsigned nalgos;              /* 1..MAX_ALGOS */
    unsigned threads;             /* 1..MAX_THREADS */
    uint64_t part_size;           /* 0: the CRC of the whole input (no posix-cksum then) */
    struct progress *progress;    /* NULL: none shown */
    int missing_ok;               /* a file that does not exist is HASH_MISSING, unreported */
};

struct hash_value {
    uint64_t crc[MAX_ALGOS]; /* per algorithm: of the whole input, or with parts the
                                composite */
    unsigned long parts;     /* with parts, how many; 0 without */
};

enum { HASH_OK = 0, HASH_FAILED = -1, HASH_MISSING = 1 };

/* The value of the input called name ("-": standard input) for every algorithm: HASH_OK;
 * HASH_FAILED after reporting "crcforge: NAME: REASON" on stderr; or, with missing_ok,
 * HASH_MISSING when the file does not exist. */
int hash_input(const char *name, const struct hash_spec *spec, struct hash_value *out);

/* platform_open, platform_read and platform_pread (open(2) for reading, read(2), pread(2)),
 * retried when interrupted (unless the run was stopped: -1 with errno EINTR then): the
 * descriptor, or the bytes read (0 at the end); -1 with errno on an error (its text:
 * platform_error_text). */
int open_retrying(const char *name);
ssize_t read_retrying(int fd, void *buf, size_t len);
ssize_t pread_retrying(int fd, void *buf, size_t len, uint64_t off);

#endif /* CRCFORGE_INPUT_H */
