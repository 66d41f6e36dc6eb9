/* The count and byte-size arguments of the crcforge commands (and of the Python package's
 * part_size, which reads a size as --part-size does). */
#ifndef CRCFORGE_NUMBERS_H
#define CRCFORGE_NUMBERS_H

#include <stdint.h>

/* A count in ASCII decimal digits only (no sign, space or suffix), from lo to hi. */
int cli_parse_count(const char *s, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out);
/* A byte size: ASCII digits, then optionally, in any case, B, K, KB, KiB, M, MB, MiB, G,
 * GB, GiB, T, TB or TiB, all powers of 1024 (as the AWS CLI reads "8MB").  -1 when not
 * one, or above UINT64_MAX. */
int cli_parse_size(const char *s, uint64_t *out);
/* -j N: a thread count from 1 to MAX_THREADS; -1 after saying it is not one. */
int cli_parse_threads(const char *s, unsigned *threads);

#endif /* CRCFORGE_NUMBERS_H */
