/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer differential target: one line of a `crcforge sum -c` list (check_line_split,
 * check_tag_split and check_value_parse in tools/check_line.c), and the lines `crcforge
 * sum` writes (value_format, name_write, cli_format_size).
 *
 * Input: [settings][mode][...]
 * settings: bits 0-5 the model's width - 1 (1..64), bit 6 base64 rather than hex, bit 7
 * composite values ("VALUE-PARTS", as with --part-size).
 * mode bit 3 with settings bit 6: base64 of the value's little-endian bytes (base64-le).
 * mode bit 0 clear: the rest of the input is the line (the bytes before its '\n').
 * mode bit 0 set: a line is built as sum writes it from [value: 8 bytes][parts: 2]
 * [name length: 1][name][tag: 1][part size: 8], untagged ("VALUE  NAME"), or tagged
 * ("ALGO (NAME) = VALUE") when mode bit 2 is set, hex in capitals when mode bit 1 is set;
 * it must read back as that value, count, name and ALGO.  Then the rest, three bytes an
 * edit ([where][how][byte]: replace, insert or delete), changes that line into a nearly
 * right one to read.
 *
 * Every line is also read by the reader written below from the list's rules, and the two
 * must agree: skipped, improperly formatted, or tagged or not with the same ALGO, VALUE
 * text and NAME (unescaped); the ALGO split alike into model, format and part size; the
 * VALUE read alike (the settings' width, format and parts for it) -- the same value, the
 * same count, the same answer to "can a CRC of this width print as this value".  What
 * sum writes must be the text the target writes itself.  Any difference aborts.
 *
 * The rules (tools/check_line.h, README's command line, docs/DESIGN.md):
 * - A CR ending the line is dropped; a line then empty, or whose first byte is '#', is
 *   skipped.  A line holding a NUL is improperly formatted.
 * - Spaces and tabs at the start are skipped; a '\' then says the name is escaped: in it
 *   a backslash is followed by 'n' (newline), 'r' (CR) or '\' (itself), nothing else.
 * - The first word runs to a space, a tab or '('.  When "(" or " (" follows it, the line
 *   is tagged: the word is ALGO, the NAME runs from the '(' to the line's last ')', then
 *   come optional spaces and tabs, '=', optional spaces and tabs, and VALUE: the rest.
 *   Otherwise the word is VALUE, then a space, then a space or '*', and NAME is the rest.
 *   An empty word, NAME or VALUE is improperly formatted.
 * - ALGO is MODEL[/base64|/base64-le][/SIZE]: a last component that is a size of at least
 *   1 byte (1 to 20 digits, then nothing or, in any case, b, k, kb, kib, m, ..., tib,
 *   powers of 1024, within 64 bits) is the part size; then a last component "base64" or
 *   "base64-le", in any case, the format; MODEL, the rest, is not empty.
 * - VALUE, for a model of width w: ceil(w/4) hex digits in either case, or the RFC 4648
 *   base64 (padded) of ceil(w/8) bytes, the value big-endian (base64) or little-endian
 *   (base64-le); with parts, then "-" and
 *   the count, 1 to 5 decimal digits without a leading 0.  A well-formed value that no
 *   CRC of width w prints (bits set above w, or base64's unused bits set) is read, and
 *   FAILS when checked.
 * - sum writes "VALUE  NAME" or "ALGO (NAME) = VALUE"; when the name holds a newline, a
 *   backslash or a CR, the line starts with '\' and those are written \n, \\, \r.
 */
#define _GNU_SOURCE /* memmem, memrchr, open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_line.h"
#include "sizes.h"

enum { MAX_LINE = 600 };

/* A line as the rules read it. */
struct listed {
    enum check_line_kind kind;
    int tagged;
    size_t tag_at, tag_len, value_at, value_len;
    uint8_t name[MAX_LINE];
    size_t name_len;
};

struct value_read {
    int ok;
    uint64_t value;
    int exact;
    unsigned long parts;
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

static int is_blank(uint8_t c)
{
    return c == ' ' || c == '\t';
}

/* ceil(width/4) hex digits: 0, or -1. */
static int hex_value(const uint8_t *s, size_t len, unsigned width, struct value_read *out)
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
 * the last), to exactly ceil(width/8) bytes, the value's big-endian or (little) its
 * little-endian ones: 0, or -1. */
static int base64_value(const uint8_t *s, size_t len, unsigned width, int little,
                        struct value_read *out)
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
        v = v << 8 | bytes[little ? n - 1 - i : i];
    out->value = v;
    out->exact = !unused_bits_set && fits(v, width);
    return 0;
}

/* VALUE[-PARTS] as the rules read it. */
static void read_value(const uint8_t *s, size_t len, unsigned width, int base64, int little,
                       int with_parts, struct value_read *out)
{
    *out = (struct value_read){0, 0, 0, 0};
    size_t value_len = len;
    if (with_parts) {
        const uint8_t *dash = memchr(s, '-', len);
        if (dash == NULL)
            return;
        value_len = (size_t)(dash - s);
        size_t digits = len - value_len - 1;
        if (digits < 1 || digits > 5 || dash[1] == '0')
            return;
        for (size_t i = 1; i <= digits; i++) {
            if (dash[i] < '0' || dash[i] > '9')
                return;
            out->parts = out->parts * 10 + (dash[i] - '0');
        }
    }
    out->ok = (base64 ? base64_value(s, value_len, width, little, out)
                      : hex_value(s, value_len, width, out)) == 0;
}

/* A size as --part-size reads it: 1 to 20 digits, an optional suffix; 0, or -1. */
static int read_size(const uint8_t *s, size_t len, uint64_t *out)
{
    static const char *const suffixes[] = {"", "b", "k", "kb", "kib", "m", "mb", "mib",
                                           "g", "gb", "gib", "t", "tb", "tib"};
    size_t digits = 0;
    while (digits < len && s[digits] >= '0' && s[digits] <= '9')
        digits++;
    if (digits == 0 || digits > 20)
        return -1;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t n = strlen(suffixes[i]);
        if (n != len - digits || strncasecmp((const char *)s + digits, suffixes[i], n) != 0)
            continue;
        unsigned shift = suffixes[i][0] == '\0' || suffixes[i][0] == 'b' ? 0
                         : suffixes[i][0] == 'k'                         ? 10
                         : suffixes[i][0] == 'm'                         ? 20
                         : suffixes[i][0] == 'g'                         ? 30
                                                                         : 40;
        unsigned __int128 v = 0;
        for (size_t k = 0; k < digits; k++)
            v = v * 10 + (s[k] - '0');
        v <<= shift;
        if (v > UINT64_MAX)
            return -1;
        *out = (uint64_t)v;
        return 0;
    }
    return -1;
}

/* ALGO as the rules split it: 0, or -1. */
static int split_tag(const uint8_t *tag, size_t len, size_t *model_len, int *base64,
                     int *little, uint64_t *part_size)
{
    *base64 = *little = 0;
    *part_size = 0;
    const uint8_t *slash = len ? memrchr(tag, '/', len) : NULL;
    uint64_t size;
    if (slash != NULL && read_size(slash + 1, (size_t)(tag + len - slash - 1), &size) == 0 &&
        size >= 1) {
        *part_size = size;
        len = (size_t)(slash - tag);
    }
    slash = len ? memrchr(tag, '/', len) : NULL;
    size_t component = slash != NULL ? (size_t)(tag + len - slash - 1) : 0;
    if (slash != NULL && (component == 6 || component == 9) &&
        strncasecmp((const char *)slash + 1, "base64-le", component) == 0) {
        *base64 = 1;
        *little = component == 9;
        len = (size_t)(slash - tag);
    }
    *model_len = len;
    return len > 0 ? 0 : -1;
}

/* The line as the rules read it. */
static void read_line(const uint8_t *line, size_t len, struct listed *out)
{
    memset(out, 0, sizeof *out);
    out->kind = CHECK_LINE_MALFORMED;
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len == 0 || line[0] == '#') {
        out->kind = CHECK_LINE_BLANK;
        return;
    }
    if (memchr(line, '\0', len) != NULL)
        return;
    size_t at = 0;
    while (at < len && is_blank(line[at]))
        at++;
    int escaped = at < len && line[at] == '\\';
    at += (size_t)escaped;
    size_t word = at;
    while (word < len && !is_blank(line[word]) && line[word] != '(')
        word++;
    if (word == at)
        return;
    const uint8_t *name;
    size_t name_len;
    if (word < len && (line[word] == '(' || (word + 1 < len && line[word] == ' ' &&
                                             line[word + 1] == '('))) {
        out->tagged = 1;
        out->tag_at = at;
        out->tag_len = word - at;
        const uint8_t *open = line + word + (line[word] == ' ');
        const uint8_t *close = memrchr(open + 1, ')', (size_t)(line + len - open - 1));
        if (close == NULL || close == open + 1)
            return;
        name = open + 1;
        name_len = (size_t)(close - name);
        const uint8_t *v = close + 1, *end = line + len;
        while (v < end && is_blank(*v))
            v++;
        if (v == end || *v != '=')
            return;
        v++;
        while (v < end && is_blank(*v))
            v++;
        if (v == end)
            return;
        out->value_at = (size_t)(v - line);
        out->value_len = (size_t)(end - v);
    } else {
        if (len - word < 3 || line[word] != ' ' || (line[word + 1] != ' ' && line[word + 1] != '*'))
            return;
        out->value_at = at;
        out->value_len = word - at;
        name = line + word + 2;
        name_len = len - word - 2;
    }
    for (size_t i = 0; i < name_len; i++) {
        uint8_t c = name[i];
        if (escaped && c == '\\') {
            if (++i == name_len)
                return;
            c = name[i] == 'n' ? '\n' : name[i] == 'r' ? '\r' : name[i] == '\\' ? '\\' : 0;
            if (c == 0)
                return;
        }
        out->name[out->name_len++] = c;
    }
    out->kind = CHECK_LINE_ENTRY;
}

static void mismatch(const uint8_t *line, size_t len, unsigned width, int base64, int little,
                     int with_parts, const char *what)
{
    fprintf(stderr, "MISMATCH (width %u, %s%s): %s on the line \"", width,
            base64 ? (little ? "base64-le" : "base64") : "hex", with_parts ? ", parts" : "",
            what);
    for (size_t i = 0; i < len; i++)
        fprintf(stderr, line[i] >= ' ' && line[i] < 127 && line[i] != '"' ? "%c" : "\\x%02x",
                line[i]);
    fprintf(stderr, "\"\n");
    abort();
}

/* Both readers on one line: they must agree.  want gets the rules' reading. */
static void check(const uint8_t *line, size_t len, unsigned width, int base64, int little,
                  int with_parts, struct listed *want)
{
    read_line(line, len, want);
    /* The tool gets its own copy with the one byte after it that it may write, set to
     * what no rule takes for an end; ASan sees a read past that. */
    char *copy = malloc(len + 1);
    if (copy == NULL)
        abort();
    memcpy(copy, line, len);
    copy[len] = 'Z';
    struct check_line got;
    enum check_line_kind kind = check_line_split(copy, len, &got);
#define DIFFER(what) mismatch(line, len, width, base64, little, with_parts, what)
    if (kind != want->kind)
        DIFFER(kind == CHECK_LINE_ENTRY         ? "accepted, the rules refuse it"
               : want->kind == CHECK_LINE_ENTRY ? "refused, the rules accept it"
                                                : "blank and improperly formatted confused");
    if (kind == CHECK_LINE_ENTRY) {
        if (!got.tagged != !want->tagged)
            DIFFER("tagged and untagged confused");
        if (got.name_len != want->name_len || memcmp(got.name, want->name, got.name_len) != 0 ||
            got.name[got.name_len] != '\0')
            DIFFER("the names differ");
        if (got.value != copy + want->value_at || got.value_len != want->value_len)
            DIFFER("the values' texts differ");
        if (got.tagged && (got.tag != copy + want->tag_at || got.tag_len != want->tag_len))
            DIFFER("the ALGOs differ");
        if (got.tagged) {
            size_t model_len = 0, want_model = 0;
            enum value_format format;
            int want_base64, want_little;
            uint64_t size = 0, want_size = 0;
            int rc = check_tag_split(got.tag, got.tag_len, &model_len, &format, &size);
            int want_rc = split_tag(line + want->tag_at, want->tag_len, &want_model,
                                    &want_base64, &want_little, &want_size);
            if (rc != want_rc ||
                (rc == 0 && (model_len != want_model || size != want_size ||
                             (format != VALUE_HEX) != want_base64 ||
                             (format == VALUE_BASE64_LE) != want_little)))
                DIFFER("the ALGOs split differently");
        }
        struct value_read v;
        read_value(line + want->value_at, want->value_len, width, base64, little, with_parts,
                   &v);
        struct check_value gv = {0, 0, 0};
        enum value_format format = !base64 ? VALUE_HEX : little ? VALUE_BASE64_LE : VALUE_BASE64;
        int rc = check_value_parse(got.value, got.value_len, width, format, with_parts, &gv);
        if ((rc == 0) != v.ok)
            DIFFER(rc == 0 ? "value accepted, the rules refuse it"
                           : "value refused, the rules accept it");
        if (rc == 0 && (gv.value != v.value || !gv.exact != !v.exact || gv.parts != v.parts))
            DIFFER("the values read differ");
    }
#undef DIFFER
    free(copy);
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

/* The value as the contract prints it: hex digits, or base64 as a stream of 6-bit
 * characters over the big-endian bytes (little: the little-endian ones), zero bits to
 * fill the last, '=' to a multiple of four.  Returns the length. */
static size_t print_value(char *out, uint64_t v, unsigned width, int base64, int little)
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
    if (little) { /* the bytes in the other order, read as big-endian */
        uint64_t swapped = 0;
        for (unsigned i = 0; i < bits / 8; i++)
            swapped = swapped << 8 | (v >> (8 * i) & 0xff);
        v = swapped;
    }
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

/* A size in its shortest exact form: the largest of KiB..TiB dividing it, else bytes. */
static size_t print_size(char *out, uint64_t size)
{
    static const char *const units[] = {"", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    while (u < 4 && size % 1024 == 0) {
        size /= 1024;
        u++;
    }
    return (size_t)sprintf(out, "%llu%s", (unsigned long long)size, units[u]);
}

/* Models a tag may name (the tag's text is not read by the line's rules). */
static const char *const models[] = {
    "CRC32C", "CRC-64/XZ", "POSIX-CKSUM", "x",
    ("width=16,poly=0x1021,init=0x0000,refin=false,refout=false,xorout=0x0000")};

/* Bytes an edit puts in, when its byte picks from this list: those the rules turn on. */
static const char edit_bytes[] = "  =-\r\0+/09aAfFgzZ()\\nr*#\t";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned width = (data[0] & 63) + 1;
    int base64 = data[0] >> 6 & 1, with_parts = data[0] >> 7;
    uint8_t mode = data[1];
    int little = base64 && (mode >> 3 & 1);
    enum value_format format = !base64 ? VALUE_HEX : little ? VALUE_BASE64_LE : VALUE_BASE64;
    struct listed want;
    if (!(mode & 1)) {
        check(data + 2, size - 2 < MAX_LINE ? size - 2 : MAX_LINE, width, base64, little,
              with_parts, &want);
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
    /* Any name without a NUL: newlines, CRs and backslashes are escaped. */
    uint8_t name[64];
    size_t name_len = take(&r) % sizeof name + 1;
    for (size_t i = 0; i < name_len; i++) {
        name[i] = take(&r);
        if (name[i] == '\0')
            name[i] = '_';
    }
    const char *model = models[take(&r) % (sizeof models / sizeof models[0])];
    uint64_t part_size = 0;
    for (int i = 0; i < 8; i++)
        part_size = part_size << 8 | take(&r);
    part_size = with_parts ? part_size >> (take(&r) % 64) | 1 : 0;
    int tagged = mode >> 2 & 1;

    char printed[VALUE_TEXT_SIZE], expected[VALUE_TEXT_SIZE];
    value_format(printed, value, width, format, parts);
    size_t n = print_value(expected, value, width, base64, little);
    if (with_parts)
        n += (size_t)sprintf(expected + n, "-%lu", parts);
    expected[n] = '\0';
    if (strcmp(printed, expected) != 0 || value_text_len(width, format) != strcspn(printed, "-"))
        mismatch((const uint8_t *)printed, strlen(printed), width, base64, little, with_parts,
                 "value_format differs from the contract's text");
    char size_text[SIZE_TEXT_SIZE], size_expected[SIZE_TEXT_SIZE];
    cli_format_size(size_text, part_size);
    size_expected[print_size(size_expected, part_size)] = '\0';
    if (with_parts && strcmp(size_text, size_expected) != 0) /* sizes of parts: from 1 */
        mismatch((const uint8_t *)size_text, strlen(size_text), width, base64, little, with_parts,
                 "cli_format_size differs from the shortest exact size");

    /* The name as sum writes it, through name_write, against the target's own escaping. */
    char name_text[sizeof name + 1];
    memcpy(name_text, name, name_len);
    name_text[name_len] = '\0';
    int escaped = name_needs_escape(name_text);
    char *written = NULL;
    size_t written_len = 0;
    FILE *file = open_memstream(&written, &written_len);
    if (file == NULL)
        abort();
    struct cli_stream stream;
    cli_stream_of_file(&stream, file);
    name_write(&stream, name_text, escaped);
    fclose(file);
    uint8_t escaped_name[2 * sizeof name];
    size_t escaped_len = 0;
    int wants_escape = 0;
    for (size_t i = 0; i < name_len; i++) {
        uint8_t c = name[i];
        int special = c == '\n' || c == '\r' || c == '\\';
        wants_escape |= special;
        if (special)
            escaped_name[escaped_len++] = '\\';
        escaped_name[escaped_len++] = c == '\n' ? 'n' : c == '\r' ? 'r' : c;
    }
    if (!wants_escape)
        memcpy(escaped_name, name, escaped_len = name_len);
    if (!escaped != !wants_escape || written_len != escaped_len ||
        memcmp(written, escaped_name, escaped_len) != 0)
        mismatch((const uint8_t *)written, written_len, width, base64, little, with_parts,
                 "name_write differs from the contract's escaping");
    free(written);

    uint8_t line[MAX_LINE];
    size_t len = 0;
    char algo[200];
    size_t algo_len = (size_t)snprintf(algo, sizeof algo, "%s%s%s%s", model,
                                       !base64 ? "" : little ? "/base64-le" : "/base64",
                                       with_parts ? "/" : "", with_parts ? size_text : "");
    if (wants_escape)
        line[len++] = '\\';
    if (tagged) {
        memcpy(line + len, algo, algo_len);
        len += algo_len;
        memcpy(line + len, " (", 2);
        len += 2;
        memcpy(line + len, escaped_name, escaped_len);
        len += escaped_len;
        memcpy(line + len, ") = ", 4);
        len += 4;
    }
    size_t value_at = len;
    memcpy(line + len, printed, n);
    if ((mode & 2) && !base64) /* hex in capitals reads the same */
        for (size_t i = value_at; i < value_at + n && line[i] != '-'; i++)
            if (line[i] >= 'a' && line[i] <= 'f')
                line[i] = (uint8_t)(line[i] - 'a' + 'A');
    len += n;
    if (!tagged) {
        line[len++] = ' ';
        line[len++] = ' ';
        memcpy(line + len, escaped_name, escaped_len);
        len += escaped_len;
    }
    check(line, len, width, base64, little, with_parts, &want);
    struct value_read v;
    read_value(line + want.value_at, want.value_len, width, base64, little, with_parts, &v);
    size_t model_len;
    int tag_base64, tag_little;
    uint64_t tag_size;
    if (want.kind != CHECK_LINE_ENTRY || !want.tagged != !tagged || !v.ok || v.value != value ||
        !v.exact || v.parts != parts || want.name_len != name_len ||
        memcmp(want.name, name, name_len) != 0)
        mismatch(line, len, width, base64, little, with_parts, "does not read back as written");
    if (tagged && (want.tag_len != algo_len ||
                   split_tag(line + want.tag_at, want.tag_len, &model_len, &tag_base64,
                             &tag_little, &tag_size) != 0 ||
                   model_len != strlen(model) || tag_base64 != base64 ||
                   tag_little != little || tag_size != part_size))
        mismatch(line, len, width, base64, little, with_parts,
                 "the ALGO does not read back as written");

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
    check(line, len, width, base64, little, with_parts, &want);
    return 0;
}
