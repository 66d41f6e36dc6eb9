/* The CRC of one input of `crcforge sum`: a file, standard input, a pipe or a FIFO; whole
 * or in parts (the composite checksum of a multipart upload); a large regular file by
 * several threads; or what the host reads itself (a URL in python -m crcforge).  Reads
 * are retried when interrupted or short; a read error, an early end, or a file that
 * changed while it was read gives no value. */
#ifndef CRCFORGE_INPUT_H
#define CRCFORGE_INPUT_H

#include <stdint.h>
#include <sys/types.h>

#include "crcforge.h"

/* S3's limit on the parts of a multipart upload. */
#define MAX_PARTS 10000
#define MAX_THREADS 64

struct progress;

struct hash_spec {
    const crcforge_model *model;
    unsigned threads;          /* 1..MAX_THREADS */
    uint64_t part_size;        /* 0: the CRC of the whole input */
    struct progress *progress; /* NULL: none shown */
};

struct hash_value {
    uint64_t crc;        /* the CRC of the whole input, or with parts the composite */
    unsigned long parts; /* with parts, how many; 0 without */
};

/* The value of the input called name ("-": standard input); -1 after reporting
 * "crcforge: NAME: REASON" on stderr. */
int hash_input(const char *name, const struct hash_spec *spec, struct hash_value *out);

/* open(2) for reading, read(2) and pread(2), retried when interrupted (unless the run was
 * stopped: -1 with errno EINTR then): the descriptor, or the bytes read (0 at the end);
 * -1 with errno on an error. */
int open_retrying(const char *name);
ssize_t read_retrying(int fd, void *buf, size_t len);
ssize_t pread_retrying(int fd, void *buf, size_t len, off_t off);

#endif /* CRCFORGE_INPUT_H */
