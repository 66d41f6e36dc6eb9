/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer differential target: the CLI's model argument (tools/model_arg.c): a custom
 * model, "width=16,poly=0x1021,init=0,refin=false,refout=false,xorout=0", or a catalogue
 * line as `crcforge list` prints it, name="CRC-16/XMODEM" width=16 ... aliases="...".
 *
 * Input: the argument's text (up to its first NUL).  An independent parser written
 * below from the argument's rules decides whether the text is a valid model and which;
 * cli_model must agree: refuse (with a message) exactly what this parser refuses, and
 * for the others give a model with the same six parameters whose CRC of the input's
 * bytes equals the bitwise reference's (src/reference.c).  Any difference aborts.
 *
 * The rules: key=value items, none empty, separated by commas -- or, when the text holds
 * no comma outside double quotes, by spaces; an even number of '"' in all; a value may
 * be wholly in double quotes, and holds no other '"'.  Keys width, poly, init, refin,
 * refout, xorout, check, residue, name, aliases, each at most once; numbers decimal, 0x
 * hex or 0 octal, a digit first, no sign, no spaces, within 64 bits; width at most 1000
 * as text; booleans true, false, 1 or 0.  With name: the catalogue model so named (by any
 * name or alias crcforge_model_find takes), every other key given equal to its (check the
 * CRC of "123456789" by the reference, residue xorout * x^width mod poly, aliases its
 * list joined by commas).  Without name: no aliases, all six parameters, width 1..64,
 * poly, init and xorout within width bits, and check and residue, when given, the
 * model's.  Text without '=' is a catalogue name (not this target's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "internal.h"

static int errors_reported;

/* The tool prints its messages here; the target only counts them. */
void cli_error(const char *fmt, ...)
{
    (void)fmt;
    errors_reported++;
}

/* The program named in the messages (the engine's host says it). */
const char *cli_program(void)
{
    return "crcforge";
}

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* [from, to) as a number: 0 or -1. */
static int number(const char *from, const char *to, uint64_t *out)
{
    if (from == to || digit_value(*from) > 9)
        return -1;
    unsigned base = 10;
    if (*from == '0' && to - from > 1) {
        if (from[1] == 'x' || from[1] == 'X') {
            base = 16;
            from += 2;
            if (from == to)
                return -1; /* "0x": only the 0 is a number, the x is left over */
        } else {
            base = 8;
        }
    }
    uint64_t v = 0;
    for (; from < to; from++) {
        unsigned d = (unsigned)digit_value(*from);
        if (d >= base || v > (UINT64_MAX - d) / base)
            return -1;
        v = v * base + d;
    }
    *out = v;
    return 0;
}

static int boolean(const char *from, const char *to, int *out)
{
    size_t n = (size_t)(to - from);
    if ((n == 4 && memcmp(from, "true", 4) == 0) || (n == 1 && *from == '1'))
        *out = 1;
    else if ((n == 5 && memcmp(from, "false", 5) == 0) || (n == 1 && *from == '0'))
        *out = 0;
    else
        return -1;
    return 0;
}

static uint64_t width_mask(unsigned width)
{
    return width == 64 ? ~0ull : (1ull << width) - 1;
}

static uint64_t reflected(uint64_t v, unsigned width)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < width; i++, v >>= 1)
        r = r << 1 | (v & 1);
    return r;
}

/* xorout * x^width mod poly, in the output's bit order: the register after a codeword. */
static uint64_t residue_of(const crcforge_params *p)
{
    uint64_t r = 0, top = 1ull << (p->width - 1);
    for (unsigned i = p->width; i-- > 0;) {
        unsigned feedback = ((r & top) != 0) ^ (unsigned)((p->xorout >> i) & 1);
        r = (r << 1) & width_mask(p->width);
        if (feedback)
            r ^= p->poly;
    }
    return p->refout ? reflected(r, p->width) : r;
}

enum { KEYS = 10 };
static const char *const keys[KEYS] = {"width", "poly", "init", "refin", "refout", "xorout",
                                       "check", "residue", "name", "aliases"};

/* The text as a model's parameters: 0, or -1 when the tool must refuse it. */
static int parse(const char *text, crcforge_params *p)
{
    size_t quotes = 0;
    for (const char *q = text; *q; q++)
        quotes += *q == '"';
    if (quotes % 2)
        return -1;
    char sep = ' ';
    int in_quotes = 0;
    for (const char *q = text; *q; q++) {
        in_quotes ^= *q == '"';
        if (*q == ',' && !in_quotes)
            sep = ',';
    }
    unsigned seen = 0;
    uint64_t num[8] = {0};
    const char *name = NULL, *aliases = NULL;
    size_t name_len = 0, aliases_len = 0;
    const char *item = text;
    for (;;) {
        const char *end = item;
        for (in_quotes = 0; *end && (in_quotes || *end != sep); end++)
            in_quotes ^= *end == '"';
        const char *eq = memchr(item, '=', (size_t)(end - item));
        if (eq == NULL)
            return -1; /* empty, or not key=value */
        unsigned k = 0;
        while (k < KEYS && !(strlen(keys[k]) == (size_t)(eq - item) &&
                             memcmp(keys[k], item, (size_t)(eq - item)) == 0))
            k++;
        if (k == KEYS || (seen >> k & 1))
            return -1;
        seen |= 1u << k;
        const char *from = eq + 1, *to = end;
        if (from < to && *from == '"') {
            if (to - from < 2 || to[-1] != '"')
                return -1;
            from++;
            to--;
        }
        if (memchr(from, '"', (size_t)(to - from)) != NULL)
            return -1;
        int ok, flag = 0;
        switch (k) {
        case 3:
        case 4:
            ok = boolean(from, to, &flag) == 0;
            num[k] = (uint64_t)flag;
            break;
        case 8:
            name = from, name_len = (size_t)(to - from), ok = 1;
            break;
        case 9:
            aliases = from, aliases_len = (size_t)(to - from), ok = 1;
            break;
        default:
            ok = number(from, to, &num[k]) == 0 && (k != 0 || num[0] <= 1000);
            break;
        }
        if (!ok)
            return -1;
        if (*end == '\0')
            break;
        item = end + 1;
    }
    crcforge_params given = {(unsigned)num[0], num[1], num[2], (int)num[3], (int)num[4], num[5]};
    if (seen >> 8 & 1) {
        char wanted[300];
        if (name_len >= sizeof wanted)
            return -1;
        memcpy(wanted, name, name_len);
        wanted[name_len] = '\0';
        const crcforge_model *m = crcforge_model_find(wanted);
        if (m == NULL)
            return -1;
        *p = *crcforge_model_params(m);
        const uint64_t has[8] = {p->width, p->poly, p->init, (uint64_t)!!p->refin,
                                 (uint64_t)!!p->refout, p->xorout,
                                 crc_reference(p, "123456789", 9), residue_of(p)};
        for (unsigned k = 0; k < 8; k++)
            if ((seen >> k & 1) && has[k] != num[k])
                return -1;
        if (seen >> 9 & 1) {
            char list[600] = "";
            for (const char *const *a = crcforge_model_aliases(m); *a; a++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         a == crcforge_model_aliases(m) ? "" : ",", *a);
            if (strlen(list) != aliases_len || memcmp(list, aliases, aliases_len) != 0)
                return -1;
        }
        return 0;
    }
    if ((seen >> 9 & 1) || (seen & 63) != 63 || given.width < 1 || given.width > 64)
        return -1;
    uint64_t over = ~width_mask(given.width);
    if ((given.poly & over) || (given.init & over) || (given.xorout & over))
        return -1;
    *p = given;
    if ((seen >> 6 & 1) && num[6] != crc_reference(p, "123456789", 9))
        return -1;
    if ((seen >> 7 & 1) && num[7] != residue_of(p))
        return -1;
    return 0;
}

static void disagree(const char *text, const char *what)
{
    fprintf(stderr, "MISMATCH on \"%s\": %s\n", text, what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (strchr(text, '=') == NULL) { /* a catalogue name: not this parser's */
        free(text);
        return 0;
    }
    crcforge_params want = {0, 0, 0, 0, 0, 0};
    int valid = parse(text, &want) == 0;
    errors_reported = 0;
    const crcforge_model *m = cli_model(text);
    if (m == NULL) {
        if (valid)
            disagree(text, "refused, but it is a valid model");
        if (errors_reported == 0)
            disagree(text, "refused without a message");
    } else {
        if (!valid)
            disagree(text, "accepted, but it is not a valid model");
        const crcforge_params *got = crcforge_model_params(m);
        if (got->width != want.width || got->poly != want.poly || got->init != want.init ||
            !got->refin != !want.refin || !got->refout != !want.refout ||
            got->xorout != want.xorout)
            disagree(text, "parameters differ");
        if (crcforge_checksum(m, data, size) != crc_reference(&want, data, size))
            disagree(text, "its CRC differs from the reference's");
        cli_release_model(m);
    }
    free(text);
    return 0;
}
