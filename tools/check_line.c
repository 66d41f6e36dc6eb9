/* "VALUE  NAME" lines: values printed in hex or base64, and list lines parsed back. */
#include <stdio.h>
#include <string.h>

#include "check_line.h"

static const char base64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t value_text_len(unsigned width, enum value_format format)
{
    return format == VALUE_HEX ? (width + 3) / 4 : ((width + 7) / 8 + 2) / 3 * 4;
}

static void format_base64(char *out, uint64_t value, unsigned width)
{
    unsigned n = (width + 7) / 8;
    uint8_t bytes[8];
    for (unsigned i = 0; i < n; i++)
        bytes[i] = (uint8_t)(value >> (8 * (n - 1 - i)));
    for (unsigned i = 0; i < n; i += 3) {
        uint32_t chunk = (uint32_t)bytes[i] << 16;
        if (i + 1 < n)
            chunk |= (uint32_t)bytes[i + 1] << 8;
        if (i + 2 < n)
            chunk |= bytes[i + 2];
        *out++ = base64_digits[(chunk >> 18) & 63];
        *out++ = base64_digits[(chunk >> 12) & 63];
        *out++ = i + 1 < n ? base64_digits[(chunk >> 6) & 63] : '=';
        *out++ = i + 2 < n ? base64_digits[chunk & 63] : '=';
    }
    *out = '\0';
}

void value_format(char *out, uint64_t value, unsigned width, enum value_format format,
                  unsigned long parts)
{
    if (format == VALUE_BASE64)
        format_base64(out, value, width);
    else
        sprintf(out, "%0*llx", (int)((width + 3) / 4), (unsigned long long)value);
    if (parts != 0)
        sprintf(out + strlen(out), "-%lu", parts);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int base64_digit(char c)
{
    const char *at = c != '\0' ? strchr(base64_digits, c) : NULL;
    return at != NULL ? (int)(at - base64_digits) : -1;
}

static int above_width(uint64_t value, unsigned width)
{
    return width < 64 && value >> width != 0;
}

/* The value_text_len(width, VALUE_HEX) characters at text as hex: 0, or -1. */
static int parse_hex(const char *text, unsigned width, struct check_entry *e)
{
    uint64_t v = 0;
    for (size_t i = 0; i < value_text_len(width, VALUE_HEX); i++) {
        int d = hex_digit(text[i]);
        if (d < 0)
            return -1;
        v = v << 4 | (unsigned)d;
    }
    e->value = v;
    e->exact = !above_width(v, width);
    return 0;
}

/* The value_text_len(width, VALUE_BASE64) characters at text as base64 of the value's
 * ceil(width/8) bytes: the characters that carry their 8n bits, then '=' to the end of
 * the last group of four.  0, or -1. */
static int parse_base64(const char *text, unsigned width, struct check_entry *e)
{
    unsigned n = (width + 7) / 8;
    size_t carrying = (8 * n + 5) / 6, len = value_text_len(width, VALUE_BASE64);
    uint64_t v = 0;
    uint32_t pending = 0; /* bits decoded and not yet in a whole byte */
    unsigned npending = 0;
    for (size_t i = 0; i < carrying; i++) {
        int d = base64_digit(text[i]);
        if (d < 0)
            return -1;
        pending = pending << 6 | (unsigned)d;
        npending += 6;
        if (npending >= 8) {
            npending -= 8;
            v = v << 8 | (pending >> npending);
            pending &= (1u << npending) - 1;
        }
    }
    for (size_t i = carrying; i < len; i++)
        if (text[i] != '=')
            return -1;
    e->value = v;
    /* The 2 or 4 bits after the last byte are zero in what value_format prints. */
    e->exact = pending == 0 && !above_width(v, width);
    return 0;
}

/* "-" and 1 to 5 digits not starting with 0 (10000, S3's most parts, has 5): 0, or -1. */
static int parse_parts(const char *text, size_t len, unsigned long *parts)
{
    if (len < 2 || len > 6 || text[0] != '-' || text[1] == '0')
        return -1;
    unsigned long count = 0;
    for (size_t i = 1; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return -1;
        count = count * 10 + (unsigned long)(text[i] - '0');
    }
    *parts = count;
    return 0;
}

enum check_line_kind check_line_parse(const char *line, size_t len, unsigned width,
                                      enum value_format format, int with_parts,
                                      struct check_entry *out)
{
    if (len > 0 && line[len - 1] == '\r') /* a list written with CRLF line endings */
        len--;
    if (len == 0)
        return CHECK_LINE_BLANK;
    if (memchr(line, '\0', len) != NULL)
        return CHECK_LINE_MALFORMED;
    size_t sep = 0;
    while (sep + 1 < len && !(line[sep] == ' ' && line[sep + 1] == ' '))
        sep++;
    if (sep + 2 >= len) /* no two spaces, or nothing after them */
        return CHECK_LINE_MALFORMED;
    size_t value_len = value_text_len(width, format);
    struct check_entry e = {0, 0, 0, sep + 2, len - (sep + 2)};
    if (with_parts) {
        if (sep < value_len || parse_parts(line + value_len, sep - value_len, &e.parts) != 0)
            return CHECK_LINE_MALFORMED;
    } else if (sep != value_len) {
        return CHECK_LINE_MALFORMED;
    }
    if ((format == VALUE_HEX ? parse_hex(line, width, &e) : parse_base64(line, width, &e)) != 0)
        return CHECK_LINE_MALFORMED;
    *out = e;
    return CHECK_LINE_ENTRY;
}
