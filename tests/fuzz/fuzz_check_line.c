/*
 * libFuzzer differential target: one line of a `crcforge sum -c` list (check_line_parse,
 * tools/check_line.c) and the values `crcforge sum` prints (value_format).
 *
 * Input: [settings][mode][...]
 * settings: bits 0-5 the model's width - 1 (1..64), bit 6 base64 rather than hex, bit 7
 * composite values ("VALUE-PARTS", as with --part-size).
 * mode bit 0 clear: the rest of the input is the line (the bytes before its '\n').
 * mode bit 0 set: a line is built as sum prints it from [value: 8 bytes][parts: 2]
 * [name length: 1][name], hex in capitals when mode bit 1 is set; it must parse back to
 * that value, count and name.  Then the rest, three bytes an edit ([where][how][byte]:
 * replace, insert or delete), changes that line into a nearly right one to parse.
 *
 * Every line is also parsed by the parser written below from the list's rules, and the
 * two must agree: skipped, improperly formatted, or the same value, the same count, the
 * same name, and the same answer to "can a CRC of this width print as this value"; the
 * values sum prints must be the text formatted below.  Any difference aborts.
 *
 * The rules (README's command line, and the CLI tests' lines): a CR ending the line is dropped
 * (CRLF lists), and a line then empty is skipped.  A line holding a NUL is improperly
 * formatted (no file name holds one).  VALUE is what comes before the first two spaces,
 * NAME all that follows them, at least one byte.  VALUE is, for a model of width w,
 * ceil(w/4) hex digits in either case, or the RFC 4648 base64 (padded) of ceil(w/8)
 * bytes, the value big-endian; with parts, then "-" and the count, 1 to 5 decimal
 * digits without a leading 0.  Anything else is improperly formatted.  A well-formed
 * value that no CRC of width w prints (bits set above w, or base64's unused bits set)
 * is checked and FAILS.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_line.h"

enum { MAX_LINE = 512 };

struct listed {
    enum check_line_kind kind;
    uint64_t value;
    int exact;
    unsigned long parts;
    size_t name_at, name_len;
};

static int nibble(uint8_t c)
{
    static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
    for (int i = 0; i < 16; i++)
        if (c == (uint8_t)lower[i] || c == (uint8_t)upper[i])
            return i;
    return -1;
}

static int sextet(uint8_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static int fits(uint64_t v, unsigned width)
{
    return width == 64 || v < (1ull << width);
}

/* ceil(width/4) hex digits: 0, or -1. */
static int hex_value(const uint8_t *s, size_t len, unsigned width, struct listed *out)
{
    if (len != (width + 3) / 4)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (nibble(s[i]) < 0)
            return -1;
        v = v * 16 + (uint64_t)nibble(s[i]);
    }
    out->value = v;
    out->exact = fits(v, width);
    return 0;
}

/* RFC 4648 base64, decoded group by group of four characters ("=" or "==" ending only
 * the last), to exactly ceil(width/8) bytes: 0, or -1. */
static int base64_value(const uint8_t *s, size_t len, unsigned width, struct listed *out)
{
    if (len == 0 || len % 4 != 0)
        return -1;
    uint8_t bytes[8];
    size_t n = 0;
    int unused_bits_set = 0;
    for (size_t g = 0; g < len; g += 4) {
        int pads = s[g + 3] == '=' ? (s[g + 2] == '=' ? 2 : 1) : 0;
        if ((pads > 0 && g + 4 != len) || (s[g + 2] == '=' && pads != 2))
            return -1;
        uint32_t group = 0;
        for (int k = 0; k < 4; k++) {
            int d = k < 4 - pads ? sextet(s[g + k]) : 0;
            if (d < 0)
                return -1;
            group = group << 6 | (uint32_t)d;
        }
        for (int k = 0; k < 3 - pads; k++) {
            if (n == sizeof bytes)
                return -1;
            bytes[n++] = (uint8_t)(group >> (16 - 8 * k));
        }
        /* the bits of the last character that fall after the last byte */
        if (pads > 0 && (group & ((1u << (8 * pads)) - 1)) != 0)
            unused_bits_set = 1;
    }
    if (n != (width + 7) / 8)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | bytes[i];
    out->value = v;
    out->exact = !unused_bits_set && fits(v, width);
    return 0;
}

/* The line as the rules above read it. */
static void parse_listed(const uint8_t *line, size_t len, unsigned width, int base64,
                         int with_parts, struct listed *out)
{
    *out = (struct listed){CHECK_LINE_MALFORMED, 0, 0, 0, 0, 0};
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len == 0) {
        out->kind = CHECK_LINE_BLANK;
        return;
    }
    if (memchr(line, '\0', len) != NULL)
        return;
    const uint8_t *sep = memmem(line, len, "  ", 2);
    if (sep == NULL || (size_t)(sep - line) + 2 == len)
        return;
    size_t field = (size_t)(sep - line), value_len = field;
    if (with_parts) {
        const uint8_t *dash = memchr(line, '-', field);
        if (dash == NULL)
            return;
        value_len = (size_t)(dash - line);
        size_t digits = field - value_len - 1;
        if (digits < 1 || digits > 5 || dash[1] == '0')
            return;
        for (size_t i = 1; i <= digits; i++) {
            if (dash[i] < '0' || dash[i] > '9')
                return;
            out->parts = out->parts * 10 + (dash[i] - '0');
        }
    }
    if ((base64 ? base64_value : hex_value)(line, value_len, width, out) != 0)
        return;
    out->name_at = field + 2;
    out->name_len = len - out->name_at;
    out->kind = CHECK_LINE_ENTRY;
}

/* The value as the contract prints it: hex digits, or base64 as a stream of 6-bit
 * characters over the big-endian bytes, zero bits to fill the last, '=' to a multiple
 * of four.  Returns the length. */
static size_t print_value(char *out, uint64_t v, unsigned width, int base64)
{
    size_t len = 0;
    if (!base64) {
        for (unsigned d = (width + 3) / 4; d-- > 0;)
            out[len++] = "0123456789abcdef"[(v >> (4 * d)) & 15];
        return len;
    }
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned bits = 8 * ((width + 7) / 8);
    for (unsigned at = 0; at < bits; at += 6) { /* bit 0 is the first byte's top bit */
        unsigned sextet_bits = 0;
        for (unsigned b = at; b < at + 6; b++)
            sextet_bits = sextet_bits << 1 | (b < bits ? (unsigned)(v >> (bits - 1 - b)) & 1 : 0);
        out[len++] = alphabet[sextet_bits];
    }
    while (len % 4 != 0)
        out[len++] = '=';
    return len;
}

static void mismatch(const uint8_t *line, size_t len, unsigned width, int base64,
                     int with_parts, const char *what)
{
    fprintf(stderr, "MISMATCH (width %u, %s%s): %s on the line \"", width,
            base64 ? "base64" : "hex", with_parts ? ", parts" : "", what);
    for (size_t i = 0; i < len; i++)
        fprintf(stderr, line[i] >= ' ' && line[i] < 127 && line[i] != '"' ? "%c" : "\\x%02x",
                line[i]);
    fprintf(stderr, "\"\n");
    abort();
}

/* Both parsers on one line: they must agree. */
static void check(const uint8_t *line, size_t len, unsigned width, int base64, int with_parts,
                  struct listed *want)
{
    parse_listed(line, len, width, base64, with_parts, want);
    /* The tool gets its own copy, exactly len bytes, so that ASan sees a read past it. */
    char *copy = malloc(len ? len : 1);
    if (copy == NULL)
        abort();
    memcpy(copy, line, len);
    struct check_entry got = {0, 0, 0, 0, 0};
    enum check_line_kind kind = check_line_parse(copy, len, width,
                                                 base64 ? VALUE_BASE64 : VALUE_HEX,
                                                 with_parts, &got);
    free(copy);
    if (kind != want->kind)
        mismatch(line, len, width, base64, with_parts,
                 kind == CHECK_LINE_ENTRY       ? "accepted, the rules refuse it"
                 : want->kind == CHECK_LINE_ENTRY ? "refused, the rules accept it"
                                                 : "blank and improperly formatted confused");
    if (kind != CHECK_LINE_ENTRY)
        return;
    if (got.value != want->value)
        mismatch(line, len, width, base64, with_parts, "the values differ");
    if (!got.exact != !want->exact)
        mismatch(line, len, width, base64, with_parts, "disagree on whether sum prints it");
    if (got.parts != want->parts)
        mismatch(line, len, width, base64, with_parts, "the part counts differ");
    if (got.name_start != want->name_at || got.name_len != want->name_len)
        mismatch(line, len, width, base64, with_parts, "the names differ");
}

/* The input's bytes in order, zeros after its end. */
struct reader {
    const uint8_t *p;
    size_t left;
};

static uint8_t take(struct reader *r)
{
    if (r->left == 0)
        return 0;
    r->left--;
    return *r->p++;
}

/* Bytes an edit puts in, when its byte picks from this list: those the rules turn on. */
static const char edit_bytes[] = "  =-\r\0+/09aAfFgzZ";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned width = (data[0] & 63) + 1;
    int base64 = data[0] >> 6 & 1, with_parts = data[0] >> 7;
    enum value_format format = base64 ? VALUE_BASE64 : VALUE_HEX;
    uint8_t mode = data[1];
    struct listed want;
    if (!(mode & 1)) {
        check(data + 2, size - 2, width, base64, with_parts, &want);
        return 0;
    }

    struct reader r = {data + 2, size - 2};
    uint64_t value = 0;
    for (int i = 0; i < 8; i++)
        value = value << 8 | take(&r);
    if (width < 64)
        value &= (1ull << width) - 1;
    unsigned long parts = 0;
    if (with_parts) {
        parts = (unsigned long)take(&r) << 8;
        parts = (parts | take(&r)) % 10000 + 1;
    }
    /* A name a list line can hold: no NUL, no newline, no CR at its end. */
    uint8_t name[64];
    size_t name_len = take(&r) % sizeof name + 1;
    for (size_t i = 0; i < name_len; i++) {
        name[i] = take(&r);
        if (name[i] == '\0' || name[i] == '\n' || (i + 1 == name_len && name[i] == '\r'))
            name[i] = '_';
    }

    char printed[VALUE_TEXT_SIZE], expected[VALUE_TEXT_SIZE];
    value_format(printed, value, width, format, parts);
    size_t n = print_value(expected, value, width, base64);
    if (with_parts)
        n += (size_t)sprintf(expected + n, "-%lu", parts);
    expected[n] = '\0';
    if (strcmp(printed, expected) != 0 || value_text_len(width, format) != strcspn(printed, "-"))
        mismatch((const uint8_t *)printed, strlen(printed), width, base64, with_parts,
                 "value_format differs from the contract's text");

    uint8_t line[MAX_LINE];
    size_t len = n;
    memcpy(line, printed, n);
    if ((mode & 2) && !base64) /* hex in capitals reads the same */
        for (size_t i = 0; i < n && line[i] != '-'; i++)
            if (line[i] >= 'a' && line[i] <= 'f')
                line[i] = (uint8_t)(line[i] - 'a' + 'A');
    line[len++] = ' ';
    line[len++] = ' ';
    memcpy(line + len, name, name_len);
    len += name_len;
    check(line, len, width, base64, with_parts, &want);
    if (want.kind != CHECK_LINE_ENTRY || want.value != value || !want.exact ||
        want.parts != parts || want.name_len != name_len ||
        memcmp(line + want.name_at, name, name_len) != 0)
        mismatch(line, len, width, base64, with_parts, "does not read back as printed");

    while (r.left >= 3 && len < MAX_LINE) {
        size_t at = take(&r) % (len + 1);
        uint8_t how = take(&r), byte = take(&r);
        if (how & 4)
            byte = (uint8_t)edit_bytes[byte % (sizeof edit_bytes - 1)];
        switch (how % 4) {
        case 0:
        case 1:
            if (at == len)
                break;
            line[at] = byte;
            break;
        case 2:
            memmove(line + at + 1, line + at, len - at);
            line[at] = byte;
            len++;
            break;
        default:
            if (at == len)
                break;
            memmove(line + at, line + at + 1, len - at - 1);
            len--;
            break;
        }
    }
    check(line, len, width, base64, with_parts, &want);
    return 0;
}
