/* SPDX-License-Identifier: MIT */
/* crcforge sum -c: the lines of a list verified as sha256sum -c verifies them -- the same
 * output, summary warnings and exit status -- with tagged lines of any algorithm, format
 * and part size among untagged ones.  Consecutive lines naming the same file with the same
 * part size (as `sum -a A -a B` writes them) are checked in one read of it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "platform.h"
#include "sum.h"

/* The algorithms the tagged lines of a list name, parsed once each (a list of many files
 * names few).  Bounded: when full it is emptied, once no line waits on its algorithms. */
#define CACHED_ALGOS 64
struct algo_cache {
    unsigned n;
    char *text[CACHED_ALGOS];
    struct cli_algo algo[CACHED_ALGOS];
};

/* A line to check, waiting for its file to be read with the others naming it. */
struct entry {
    const struct cli_algo *algo;
    enum value_format format;
    struct check_value want;
};

struct list_run {
    const struct check_options *o;
    const char *title; /* the list in messages: its name, or "standard input" */
    int from_stdin;
    char expected[TAG_SIZE]; /* the untagged lines' ALGO, in messages */
    unsigned long malformed, unreadable, mismatched;
    int well_formed, matched;
    /* Without --warn, the first improperly formatted line that says more than that. */
    unsigned long hint_line;
    char hint[320];
    struct algo_cache cache;
    /* The lines of one file waiting to be checked. */
    char *name;
    uint64_t part_size;
    struct entry entries[MAX_ALGOS];
    unsigned nentries;
};

/* "NAME: RESULT" on stdout, the name escaped only when it holds a newline. */
static void print_result(const char *name, const char *result)
{
    struct cli_stream *out = cli_out();
    int escaped = result_needs_escape(name);
    if (escaped)
        cli_putc(out, '\\');
    name_write(out, name, escaped);
    cli_printf(out, ": %s\n", result);
}

/* Reads the waiting lines' file once, for all their algorithms, and checks each. */
static void check_waiting(struct list_run *r)
{
    if (r->nentries == 0)
        return;
    const struct check_options *o = r->o;
    struct cli_algo algos[MAX_ALGOS];
    for (unsigned i = 0; i < r->nentries; i++)
        algos[i] = *r->entries[i].algo;
    struct hash_spec spec = {algos, r->nentries, o->threads, r->part_size, o->progress,
                             o->ignore_missing};
    struct hash_value v;
    int rc = hash_input(r->name, &spec, &v);
    int quiet = o->output == CHECK_OUTPUT_QUIET, status = o->output == CHECK_OUTPUT_STATUS;
    for (unsigned i = 0; i < r->nentries && rc != HASH_MISSING && !cli_stopped(); i++) {
        const struct check_value *want = &r->entries[i].want;
        if (rc != HASH_OK) {
            r->unreadable++;
            if (!status)
                print_result(r->name, "FAILED open or read");
            continue;
        }
        if (want->exact && want->value == v.crc[i] && want->parts == v.parts) {
            r->matched = 1;
            if (!quiet && !status)
                print_result(r->name, "OK");
            continue;
        }
        r->mismatched++;
        if (status)
            continue;
        print_result(r->name, "FAILED");
        if (want->parts != v.parts) {
            char size[SIZE_TEXT_SIZE];
            cli_format_size(size, r->part_size);
            cli_error("%s: the line says %lu part%s, %lu computed with --part-size %s", r->name,
                      want->parts, want->parts == 1 ? "" : "s", v.parts, size);
        }
    }
    free(r->name);
    r->name = NULL;
    r->nentries = 0;
}

static void empty_cache(struct algo_cache *c)
{
    for (unsigned i = 0; i < c->n; i++) {
        free(c->text[i]);
        cli_algo_release(&c->algo[i]);
    }
    c->n = 0;
}

/* The algorithm a tagged line's MODEL names (text[0..len)); NULL with the reason. */
static const struct cli_algo *tag_algorithm(struct list_run *r, const char *text, size_t len,
                                            char *why, size_t n)
{
    struct algo_cache *c = &r->cache;
    for (unsigned i = 0; i < c->n; i++)
        if (strlen(c->text[i]) == len && memcmp(c->text[i], text, len) == 0)
            return &c->algo[i];
    if (c->n == CACHED_ALGOS) {
        check_waiting(r);
        empty_cache(c);
    }
    char *copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, text, len);
        copy[len] = '\0';
    }
    if (copy == NULL) {
        snprintf(why, n, "%s", strerror(ENOMEM));
        return NULL;
    }
    if (cli_algo_parse(copy, &c->algo[c->n], why, n) != 0) {
        free(copy);
        return NULL;
    }
    c->text[c->n] = copy;
    return &c->algo[c->n++];
}

/* The well-known models of a width, as -a suggestions: "-a crc64-nvme or -a crc64-xz". */
static void suggest_models(char *out, size_t n, unsigned lo, unsigned hi)
{
    static const char *const known[] = {"crc32c", "crc32", "crc64-nvme", "crc64-xz",
                                        "crc16-xmodem"};
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        unsigned w = crcforge_model_params(crcforge_model_find(known[i]))->width;
        if (w >= lo && w <= hi && at < n)
            at += (size_t)snprintf(out + at, n - at, "%s-a %s", at > 0 ? " or " : "", known[i]);
    }
    if (at == 0 && lo == hi)
        snprintf(out, n, "-a with a model of width %u (%s list)", lo, cli_program());
    else if (at == 0)
        snprintf(out, n, "-a with a model of width %u to %u (%s list)", lo, hi, cli_program());
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static int is_base64(char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '+' ||
           c == '/';
}

/* What a value that is not the expected one looks like, and what would read it ("16 hex
 * digits: looks like a 64-bit CRC: try -a crc64-nvme or -a crc64-xz"); empty when it looks
 * like no value at all.  A tagged line (tag: its ALGO) has its algorithm wrong, not the
 * options: only what it looks like then. */
static void value_shape(char *out, size_t n, const char *v, size_t len, unsigned width,
                        enum value_format format, int with_parts, const char *tag)
{
    out[0] = '\0';
    const char *dash = memchr(v, '-', len);
    size_t base = dash != NULL ? (size_t)(dash - v) : len, hex = 0, b64 = 0, pads = 0;
    while (hex < base && is_hex(v[hex]))
        hex++;
    while (b64 < base && is_base64(v[b64]))
        b64++;
    while (b64 + pads < base && pads < 2 && v[b64 + pads] == '=')
        pads++;
    int in_hex = base > 0 && hex == base && base <= 16;
    size_t bytes = base / 4 * 3 - pads;
    if (!in_hex && !(base > 0 && base % 4 == 0 && b64 + pads == base && bytes <= 8))
        return;
    if (!dash != !with_parts && tag == NULL) {
        snprintf(out, n, dash != NULL ? "a composite value (VALUE-PARTS): try --part-size "
                                        "with the part size it was made with"
                                      : "not a composite value (no -PARTS): try without "
                                        "--part-size");
        return;
    }
    unsigned hi = in_hex ? 4 * (unsigned)base : 8 * (unsigned)bytes, lo = in_hex ? hi - 3 : hi - 7;
    char looks[96];
    snprintf(looks, sizeof looks, "%zu %s: looks like a %u-bit CRC%s", base,
             in_hex ? "hex digits" : "base64 characters", hi, in_hex ? "" : " in base64");
    if (tag != NULL) {
        snprintf(out, n, "%s, not a value of %s", looks, tag);
        return;
    }
    char models[160] = "";
    if (width < lo || width > hi)
        suggest_models(models, sizeof models, lo, hi);
    const char *other_format = in_hex == (format == VALUE_HEX) ? ""
                               : in_hex                        ? "--format hex"
                                                               : "--format base64";
    if (*other_format != '\0' || *models != '\0')
        snprintf(out, n, "%s: try %s%s%s", looks, other_format,
                 *other_format != '\0' && *models != '\0' ? " with " : "", models);
}

/* An improperly formatted line: counted, named with --warn (with why, when known), and
 * otherwise kept to be told once if it is the first that says more. */
static void improperly_formatted(struct list_run *r, unsigned long lineno, const char *why)
{
    r->malformed++;
    check_waiting(r); /* what the lines before it found comes first */
    if (r->o->output == CHECK_OUTPUT_WARN) {
        char expected[TAG_SIZE + 96];
        snprintf(expected, sizeof expected, "expected \"VALUE  NAME\" with VALUE as %s gives it, "
                 "or \"ALGO (NAME) = VALUE\"", r->expected);
        cli_error("%s: %lu: improperly formatted %s checksum line (%s)", r->title, lineno,
                  r->expected, why != NULL && *why != '\0' ? why : expected);
    } else if (r->hint_line == 0 && why != NULL && *why != '\0') {
        r->hint_line = lineno;
        snprintf(r->hint, sizeof r->hint, "%s", why);
    }
}

static void take_line(struct list_run *r, char *line, size_t len, unsigned long lineno)
{
    const struct check_options *o = r->o;
    struct check_line l;
    switch (check_line_split(line, len, &l)) {
    case CHECK_LINE_BLANK:
        return;
    case CHECK_LINE_MALFORMED:
        improperly_formatted(r, lineno, NULL);
        return;
    case CHECK_LINE_ENTRY:
        break;
    }
    if (r->from_stdin && strcmp(l.name, "-") == 0) {
        improperly_formatted(r, lineno, "standard input is the list itself");
        return;
    }
    struct entry e = {&o->algo, o->format, {0, 0, 0}};
    uint64_t part_size = o->part_size;
    char why[1100] = "", tag[TAG_SIZE] = "";
    if (l.tagged) {
        size_t model_len;
        if (check_tag_split(l.tag, l.tag_len, &model_len, &e.format, &part_size) != 0 ||
            (e.algo = tag_algorithm(r, l.tag, model_len, why, sizeof why)) == NULL) {
            improperly_formatted(r, lineno, why);
            return;
        }
        snprintf(tag, sizeof tag, "%.*s", (int)l.tag_len, l.tag);
        if (e.algo->posix_cksum && part_size != 0) {
            improperly_formatted(r, lineno, "posix-cksum has no composite form");
            return;
        }
        if (e.format == VALUE_BASE64_LE && part_size != 0) {
            improperly_formatted(r, lineno, NO_COMPOSITE_LE);
            return;
        }
    }
    unsigned width = crcforge_model_params(e.algo->model)->width;
    if (check_value_parse(l.value, l.value_len, width, e.format, part_size != 0, &e.want) != 0) {
        value_shape(why, sizeof why, l.value, l.value_len, width, e.format, part_size != 0,
                    l.tagged ? tag : NULL);
        improperly_formatted(r, lineno, why);
        return;
    }
    r->well_formed = 1;
    if (r->nentries > 0 && (r->nentries == MAX_ALGOS || r->part_size != part_size ||
                            strcmp(r->name, l.name) != 0))
        check_waiting(r);
    if (r->nentries == 0) {
        r->name = strdup(l.name);
        r->part_size = part_size;
        if (r->name == NULL) {
            cli_error("%s: %s", l.name, strerror(ENOMEM));
            r->unreadable++;
            return;
        }
    }
    r->entries[r->nentries++] = e;
}

/* sha256sum's summary, in its words and order. */
static void summarize(const struct list_run *r)
{
    if (r->malformed > 0)
        cli_error("WARNING: %lu line%s improperly formatted", r->malformed,
                  r->malformed == 1 ? " is" : "s are");
    if (r->hint_line > 0)
        cli_error("%s: %lu: %s", r->title, r->hint_line, r->hint);
    if (r->unreadable > 0)
        cli_error("WARNING: %lu listed file%s could not be read", r->unreadable,
                  r->unreadable == 1 ? "" : "s");
    if (r->mismatched > 0)
        cli_error("WARNING: %lu computed checksum%s did NOT match", r->mismatched,
                  r->mismatched == 1 ? "" : "s");
    if (r->o->ignore_missing && !r->matched)
        cli_error("%s: no file was verified", r->title);
}

int sum_check(const char *name, const struct check_options *o)
{
    struct list_run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.from_stdin = strcmp(name, "-") == 0;
    r.title = r.from_stdin ? "standard input" : name;
    sum_tag(r.expected, &o->algo, o->format, o->part_size);
    struct lines list;
    if (lines_open(&list, name) != 0) {
        cli_error("%s: %s", r.title, platform_error_text(errno));
        return 0;
    }
    char *line;
    ssize_t n;
    unsigned long lineno = 0;
    while (!cli_stopped() && (n = lines_next(&list, &line)) >= 0)
        take_line(&r, line, (size_t)n, ++lineno);
    check_waiting(&r);
    empty_cache(&r.cache);
    int ok = 0;
    if (list.err != 0) {
        cli_error("%s: %s", r.title, platform_error_text(list.err));
    } else if (!r.well_formed) {
        cli_error("%s: no properly formatted checksum lines found", r.title);
        if (r.hint_line > 0 && o->output != CHECK_OUTPUT_STATUS)
            cli_error("%s: %lu: %s", r.title, r.hint_line, r.hint);
    } else {
        if (o->output != CHECK_OUTPUT_STATUS)
            summarize(&r);
        ok = r.matched && r.mismatched == 0 && r.unreadable == 0 &&
             (!o->strict || r.malformed == 0);
    }
    lines_close(&list);
    return ok;
}
