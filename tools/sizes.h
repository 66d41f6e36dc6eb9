/* SPDX-License-Identifier: MIT */
/* Counts and byte sizes as the commands read and write them: pure functions, shared by the
 * option parser, the checksum lines (tagged lines carry a part size) and the benchmark. */
#ifndef CRCFORGE_SIZES_H
#define CRCFORGE_SIZES_H

#include <stddef.h>
#include <stdint.h>

/* A count in ASCII decimal digits only (no sign, space or suffix), from lo to hi. */
int cli_parse_count(const char *s, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out);
/* A byte size: ASCII digits, then optionally, in any case, B, K, KB, KiB, M, MB, MiB, G,
 * GB, GiB, T, TB or TiB, all powers of 1024 (as the AWS CLI reads "8MB").  -1 when not
 * one, or above UINT64_MAX. */
int cli_parse_size(const char *s, uint64_t *out);

/* Room for the longest size cli_format_size writes, with its NUL. */
#define SIZE_TEXT_SIZE 24
/* The size as cli_parse_size reads it back, shortest exact form: with the largest of KiB,
 * MiB, GiB, TiB that divides it ("8MiB", "1536KiB"), else in bytes ("5000"). */
void cli_format_size(char *out, uint64_t size);

#endif /* CRCFORGE_SIZES_H */
