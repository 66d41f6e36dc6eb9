/* SPDX-License-Identifier: MIT */
/* Checksum lines: values printed in hex or base64 (of either byte order), names escaped,
 * list lines parsed back. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_line.h"
#include "sizes.h"

static const char base64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t value_text_len(unsigned width, enum value_format format)
{
    return format == VALUE_HEX ? (width + 3) / 4 : ((width + 7) / 8 + 2) / 3 * 4;
}

/* The shift that brings the value's i-th byte of n, in the format's order, to the bottom. */
static unsigned byte_shift(unsigned i, unsigned n, enum value_format format)
{
    return 8 * (format == VALUE_BASE64_LE ? i : n - 1 - i);
}

static void format_base64(char *out, uint64_t value, unsigned width, enum value_format format)
{
    unsigned n = (width + 7) / 8;
    uint8_t bytes[8];
    for (unsigned i = 0; i < n; i++)
        bytes[i] = (uint8_t)(value >> byte_shift(i, n, format));
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
    if (format != VALUE_HEX)
        format_base64(out, value, width, format);
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
static int parse_hex(const char *text, unsigned width, struct check_value *e)
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
 * ceil(width/8) bytes in the format's order: the characters that carry their 8n bits,
 * then '=' to the end of the last group of four.  0, or -1. */
static int parse_base64(const char *text, unsigned width, enum value_format format,
                        struct check_value *e)
{
    unsigned n = (width + 7) / 8;
    size_t carrying = (8 * n + 5) / 6, len = value_text_len(width, VALUE_BASE64);
    uint64_t v = 0;
    uint32_t pending = 0; /* bits decoded and not yet in a whole byte */
    unsigned npending = 0, nbytes = 0;
    for (size_t i = 0; i < carrying; i++) {
        int d = base64_digit(text[i]);
        if (d < 0)
            return -1;
        pending = pending << 6 | (unsigned)d;
        npending += 6;
        if (npending >= 8) {
            npending -= 8;
            v |= (uint64_t)(pending >> npending) << byte_shift(nbytes++, n, format);
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

int check_value_parse(const char *text, size_t len, unsigned width, enum value_format format,
                      int with_parts, struct check_value *out)
{
    size_t value_len = value_text_len(width, format);
    struct check_value v = {0, 0, 0};
    if (with_parts) {
        if (len < value_len || parse_parts(text + value_len, len - value_len, &v.parts) != 0)
            return -1;
    } else if (len != value_len) {
        return -1;
    }
    if ((format == VALUE_HEX ? parse_hex(text, width, &v)
                             : parse_base64(text, width, format, &v)) != 0)
        return -1;
    *out = v;
    return 0;
}

int name_needs_escape(const char *name)
{
    return strpbrk(name, "\n\\\r") != NULL;
}

int result_needs_escape(const char *name)
{
    return strchr(name, '\n') != NULL;
}

void name_write(struct cli_stream *out, const char *name, int escaped)
{
    if (!escaped) {
        cli_puts(out, name);
        return;
    }
    for (; *name != '\0'; name++) {
        if (*name == '\n')
            cli_puts(out, "\\n");
        else if (*name == '\r')
            cli_puts(out, "\\r");
        else if (*name == '\\')
            cli_puts(out, "\\\\");
        else
            cli_putc(out, *name);
    }
}

/* Whether tag[from, to) is text, in any case. */
static int component_is(const char *tag, size_t from, size_t to, const char *text)
{
    return to - from == strlen(text) && strncasecmp(tag + from, text, to - from) == 0;
}

/* The '/' before tag[0..end)'s last component, or end when it has none. */
static size_t last_slash(const char *tag, size_t end)
{
    for (size_t i = end; i-- > 0;)
        if (tag[i] == '/')
            return i;
    return end;
}

int check_tag_split(const char *tag, size_t len, size_t *model_len, enum value_format *format,
                    uint64_t *part_size)
{
    *format = VALUE_HEX;
    *part_size = 0;
    size_t end = len, slash = last_slash(tag, end);
    if (slash < end && end - slash - 1 < SIZE_TEXT_SIZE) {
        char text[SIZE_TEXT_SIZE];
        memcpy(text, tag + slash + 1, end - slash - 1);
        text[end - slash - 1] = '\0';
        if (cli_parse_size(text, part_size) == 0 && *part_size > 0)
            end = slash;
        else
            *part_size = 0;
    }
    slash = last_slash(tag, end);
    if (slash < end && component_is(tag, slash + 1, end, "base64")) {
        *format = VALUE_BASE64;
        end = slash;
    } else if (slash < end && component_is(tag, slash + 1, end, "base64-le")) {
        *format = VALUE_BASE64_LE;
        end = slash;
    }
    *model_len = end;
    return end > 0 ? 0 : -1;
}

/* Undoes name_write's escapes in name[0..len): the new length, or -1 when a backslash is
 * followed by anything but 'n', 'r' or '\'. */
static long unescape(char *name, size_t len)
{
    size_t out = 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (c == '\\') {
            if (++i == len)
                return -1;
            c = name[i] == 'n' ? '\n' : name[i] == 'r' ? '\r' : name[i] == '\\' ? '\\' : 0;
            if (c == 0)
                return -1;
        }
        name[out++] = c;
    }
    return (long)out;
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

enum check_line_kind check_line_split(char *line, size_t len, struct check_line *out)
{
    if (len > 0 && line[len - 1] == '\r') /* a list written with CRLF line endings */
        len--;
    if (len == 0 || line[0] == '#')
        return CHECK_LINE_BLANK;
    if (memchr(line, '\0', len) != NULL)
        return CHECK_LINE_MALFORMED;
    size_t i = 0;
    while (i < len && blank(line[i]))
        i++;
    int escaped = i < len && line[i] == '\\';
    i += (size_t)escaped;
    size_t word_end = i;
    while (word_end < len && !blank(line[word_end]) && line[word_end] != '(')
        word_end++;
    if (word_end == i)
        return CHECK_LINE_MALFORMED;
    struct check_line l = {0, NULL, 0, NULL, 0, NULL, 0};
    size_t name_start, name_end;
    if (line[word_end] == '(' || (word_end + 1 < len && line[word_end] == ' ' &&
                                  line[word_end + 1] == '(')) {
        l.tagged = 1;
        l.tag = line + i;
        l.tag_len = word_end - i;
        name_start = word_end + (line[word_end] == ' ') + 1;
        name_end = len;
        while (name_end > name_start && line[name_end - 1] != ')')
            name_end--;
        if (name_end == name_start)
            return CHECK_LINE_MALFORMED; /* no ')' after the '(' */
        size_t at = name_end--;          /* name_end: the ')' */
        while (at < len && blank(line[at]))
            at++;
        if (at == len || line[at] != '=')
            return CHECK_LINE_MALFORMED;
        at++;
        while (at < len && blank(line[at]))
            at++;
        l.value = line + at;
        l.value_len = len - at;
    } else {
        if (word_end + 2 >= len || line[word_end] != ' ' ||
            (line[word_end + 1] != ' ' && line[word_end + 1] != '*'))
            return CHECK_LINE_MALFORMED;
        l.value = line + i;
        l.value_len = word_end - i;
        name_start = word_end + 2;
        name_end = len;
    }
    if (l.value_len == 0 || name_end == name_start)
        return CHECK_LINE_MALFORMED;
    l.name = line + name_start;
    l.name_len = name_end - name_start;
    if (escaped) {
        long n = unescape(l.name, l.name_len);
        if (n <= 0)
            return CHECK_LINE_MALFORMED;
        l.name_len = (size_t)n;
    }
    l.name[l.name_len] = '\0'; /* over the ')', the CR of a CRLF line, or the NUL ending it */
    *out = l;
    return CHECK_LINE_ENTRY;
}
