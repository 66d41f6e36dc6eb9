/* SPDX-License-Identifier: MIT */
/* crcforge sum: what its two halves share -- tools/cmd_sum.c (the values of inputs, and
 * the options) and tools/sum_check.c (-c, the verification of lists). */
#ifndef CRCFORGE_SUM_H
#define CRCFORGE_SUM_H

#include "check_line.h"
#include "cli.h"
#include "input.h"

/* Room for a tagged line's ALGO: the algorithm's name, "/base64-le", "/SIZE", the NUL. */
#define TAG_SIZE (ALGO_NAME_SIZE + 11 + SIZE_TEXT_SIZE)

/* Why base64-le and a part size do not go together: the composite rule joins the parts'
 * big-endian bytes, as S3 does, and Azure, the store of little-endian values, has no
 * composite checksum. */
#define NO_COMPOSITE_LE "base64-le has no composite form (--part-size): S3's composite " \
                        "checksums are big-endian, and Azure has none"

/* The ALGO of a tagged line: MODEL[/base64|/base64-le][/SIZE] ("CRC32C",
 * "CRC-64/XZ/base64/8MiB", "CRC64NVME/base64-le"). */
void sum_tag(char *out, const struct cli_algo *algo, enum value_format format,
             uint64_t part_size);

/* What sum -c prints of the lines it checks (sha256sum's options; the last given wins). */
enum check_output {
    CHECK_OUTPUT_ALL,    /* NAME: OK and NAME: FAILED, the summary warnings */
    CHECK_OUTPUT_QUIET,  /* --quiet: no OK lines */
    CHECK_OUTPUT_STATUS, /* --status: nothing but what stops a list being read */
    CHECK_OUTPUT_WARN,   /* --warn: all, and a message for each improperly formatted line */
};

struct check_options {
    struct cli_algo algo; /* the untagged lines': -a, --format, --part-size */
    enum value_format format;
    uint64_t part_size;
    unsigned threads;
    struct progress *progress;
    enum check_output output;
    int ignore_missing, strict;
};

/* Verifies the lines of the list called name ("-": standard input): 1 when every file
 * listed verified (sha256sum -c's success), 0 otherwise. */
int sum_check(const char *name, const struct check_options *o);

#endif /* CRCFORGE_SUM_H */
