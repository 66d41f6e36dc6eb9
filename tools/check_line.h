/* SPDX-License-Identifier: MIT */
/* The checksum lines of `crcforge sum`: values as sum prints them, names escaped as
 * sha256sum escapes them, the ALGO of a tagged line, and one line of a list as sum -c reads
 * it.  No I/O here but writing a name to a stream: the list's reading and the hashing are
 * the caller's.
 *
 *   VALUE  NAME              untagged: the algorithm is the one -a names
 *   ALGO (NAME) = VALUE      tagged: ALGO is MODEL[/base64|/base64-le][/SIZE]
 *
 * A line starts with '\' when its name holds a newline, a backslash or a CR, each then
 * written "\n", "\\" or "\r". */
#ifndef CRCFORGE_CHECK_LINE_H
#define CRCFORGE_CHECK_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "stream.h"

/* hex; base64 of the value's big-endian bytes (S3's and GCS's checksum fields); base64 of
 * its little-endian bytes (Azure Blob Storage's x-ms-content-crc64). */
enum value_format { VALUE_HEX, VALUE_BASE64, VALUE_BASE64_LE };

/* Room for the longest value text: 16 hex digits or 12 base64 characters, then "-" and
 * the parts' count, and the NUL. */
#define VALUE_TEXT_SIZE 48

/* The number of characters of a value of this width without its "-PARTS":
 * ceil(width/4) hex digits, or 4 base64 characters for every 3 of its ceil(width/8)
 * bytes begun. */
size_t value_text_len(unsigned width, enum value_format format);

/* The value as sum prints it: ceil(width/4) lowercase hex digits, zero-padded, or the
 * base64 (RFC 4648, padded) of its ceil(width/8) bytes, big-endian or little-endian; with
 * parts > 0 (a composite checksum), then "-" and parts in decimal.  out has
 * VALUE_TEXT_SIZE bytes. */
void value_format(char *out, uint64_t value, unsigned width, enum value_format format,
                  unsigned long parts);

struct check_value {
    uint64_t value;      /* the number the hex digits or the base64 bytes spell */
    int exact;           /* 1: the text is value_format's for value (hex in either case);
                            0: it sets bits no value of the width has (above the width,
                            or base64 bits past its bytes), so nothing verifies it */
    unsigned long parts; /* with parts, the count after "-"; 0 without */
};

/* text[0..len) as a value of a model of width 1..64 in format: exactly value_text_len
 * characters (hex digits in either case; base64 characters and '=' where the padding
 * falls); with_parts (composite values), then "-" and 1 to 5 digits, not starting with
 * 0.  0, or -1 when it is not one. */
int check_value_parse(const char *text, size_t len, unsigned width, enum value_format format,
                      int with_parts, struct check_value *out);

/* Whether a name is written escaped in a checksum line: it holds a newline, a backslash
 * or a CR. */
int name_needs_escape(const char *name);
/* Whether a name is written escaped in sum -c's "NAME: OK" lines: only when it holds a
 * newline, as Debian's sha256sum -c (coreutils 9.1) does; the other names as they are. */
int result_needs_escape(const char *name);
/* The name as it is, or escaped ("\n", "\\", "\r" for those bytes). */
void name_write(struct cli_stream *out, const char *name, int escaped);

/* A tagged line's ALGO, MODEL[/base64|/base64-le][/SIZE] (SIZE as --part-size reads it,
 * at least 1; the format in any case): the MODEL is tag[0..*model_len), at least one
 * byte.  0, or -1. */
int check_tag_split(const char *tag, size_t len, size_t *model_len, enum value_format *format,
                    uint64_t *part_size);

enum check_line_kind {
    CHECK_LINE_BLANK,     /* nothing to check (empty, a lone CR, or a '#' comment) */
    CHECK_LINE_MALFORMED, /* neither form: "improperly formatted" */
    CHECK_LINE_ENTRY,     /* a value to check against the file called name */
};

struct check_line {
    int tagged;
    const char *tag;   /* tagged: the ALGO, tag_len bytes */
    size_t tag_len;
    const char *value; /* the VALUE's text, value_len bytes (not parsed here) */
    size_t value_len;
    char *name;        /* unescaped in place and NUL-terminated; name_len bytes, at least 1 */
    size_t name_len;
};

/* One line of a list, its len bytes without the '\n' (line[len] is written over: the
 * buffer has len + 1 bytes).  A CR ending it is dropped (CRLF lists); a line then empty,
 * or starting with '#', is skipped.  Spaces and tabs before the line are skipped, then a
 * '\' says the name is escaped.  The line is tagged when its first word (up to a space, a
 * tab or '(') is followed by "(" or " (": the word is ALGO, NAME runs to the last ')' of
 * the line, then '=' between optional spaces or tabs, and VALUE is the rest.  Otherwise
 * the word is VALUE, followed by a space, then a space or '*' (sha256sum's binary mode),
 * and NAME is the rest.  An escaped name may hold only "\n", "\\" and "\r" after a
 * backslash.  A line holding a NUL, or whose NAME or VALUE would be empty, is
 * malformed. */
enum check_line_kind check_line_split(char *line, size_t len, struct check_line *out);

#endif /* CRCFORGE_CHECK_LINE_H */
