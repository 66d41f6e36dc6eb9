/* The checksum lines of `crcforge sum`, "VALUE  NAME": the value as sum prints it, and
 * one line of a list as sum -c reads it.  No I/O here: the list's reading and the
 * hashing are the caller's. */
#ifndef CRCFORGE_CHECK_LINE_H
#define CRCFORGE_CHECK_LINE_H

#include <stddef.h>
#include <stdint.h>

enum value_format { VALUE_HEX, VALUE_BASE64 };

/* Room for the longest value text: 16 hex digits or 12 base64 characters, then "-" and
 * the parts' count, and the NUL. */
#define VALUE_TEXT_SIZE 48

/* The number of characters of a value of this width without its "-PARTS":
 * ceil(width/4) hex digits, or 4 base64 characters for every 3 of its ceil(width/8)
 * bytes begun. */
size_t value_text_len(unsigned width, enum value_format format);

/* The value as sum prints it: ceil(width/4) lowercase hex digits, zero-padded, or the
 * base64 (RFC 4648, padded) of its ceil(width/8) big-endian bytes; with parts > 0 (a
 * composite checksum), then "-" and parts in decimal.  out has VALUE_TEXT_SIZE bytes. */
void value_format(char *out, uint64_t value, unsigned width, enum value_format format,
                  unsigned long parts);

enum check_line_kind {
    CHECK_LINE_BLANK,     /* nothing to check (empty, or a lone CR): skipped */
    CHECK_LINE_MALFORMED, /* not "VALUE  NAME": "improperly formatted" */
    CHECK_LINE_ENTRY,     /* a value to check against the file called name */
};

struct check_entry {
    uint64_t value;      /* the number the hex digits or the base64 bytes spell */
    int exact;           /* 1: the text is value_format's for value (hex in either case);
                            0: it sets bits no value of the width has (above the width,
                            or base64 bits past its bytes), so nothing verifies it */
    unsigned long parts; /* with parts, the count after "-"; 0 without */
    size_t name_start;   /* the name: the bytes [name_start, name_start + name_len) */
    size_t name_len;
};

/* One line of a list (its bytes without the '\n') for a model of width 1..64, values in
 * format, and with_parts when the values are composite ("VALUE-PARTS").  A CR ending the
 * line is dropped (CRLF lists).  An entry is: the value, exactly as many characters as
 * value_text_len (hex digits in either case; base64 characters and '=' where the
 * padding falls); with parts, "-" and 1 to 5 digits, not starting with 0; two spaces;
 * and a name of at least one byte (everything after the first two spaces).  A line
 * holding a NUL is malformed: no file name holds one. */
enum check_line_kind check_line_parse(const char *line, size_t len, unsigned width,
                                      enum value_format format, int with_parts,
                                      struct check_entry *out);

#endif /* CRCFORGE_CHECK_LINE_H */
