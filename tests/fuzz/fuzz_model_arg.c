/*
 * libFuzzer differential target: the CLI's custom-model argument (tools/model_arg.c,
 * "width=16,poly=0x1021,init=0,refin=false,refout=false,xorout=0").
 *
 * Input: the argument's text (up to its first NUL).  An independent parser written
 * below from the argument's rules decides whether the text is a valid model and which;
 * cli_model must agree: refuse (with a message) exactly what this parser refuses, and
 * for the others give a model with the same six parameters whose CRC of the input's
 * bytes equals the bitwise reference's (src/reference.c).  Any difference aborts.
 *
 * The rules: comma-separated key=value items, none empty; keys width, poly, init,
 * refin, refout, xorout, each exactly once; numbers decimal, 0x hex or 0 octal, a digit
 * first, no sign, no spaces, within 64 bits; width at most 1000 as text, then 1..64 for
 * a model; poly, init and xorout within width bits; booleans true, false, 1 or 0.  Text
 * without '=' is a catalogue name.
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

/* The text as a model's parameters: 0, or -1 when the tool must refuse it. */
static int parse(const char *text, crcforge_params *p)
{
    static const char *const keys[] = {"width", "poly", "init", "refin", "refout", "xorout"};
    unsigned seen = 0;
    const char *item = text;
    for (;;) {
        const char *end = strchr(item, ',');
        if (end == NULL)
            end = item + strlen(item);
        const char *eq = memchr(item, '=', (size_t)(end - item));
        if (eq == NULL)
            return -1; /* empty, or not key=value */
        unsigned k = 0;
        while (k < 6 && !(strlen(keys[k]) == (size_t)(eq - item) &&
                          memcmp(keys[k], item, (size_t)(eq - item)) == 0))
            k++;
        if (k == 6 || (seen >> k & 1))
            return -1;
        seen |= 1u << k;
        uint64_t v = 0;
        int ok;
        switch (k) {
        case 0: ok = number(eq + 1, end, &v) == 0 && v <= 1000, p->width = (unsigned)v; break;
        case 1: ok = number(eq + 1, end, &p->poly) == 0; break;
        case 2: ok = number(eq + 1, end, &p->init) == 0; break;
        case 3: ok = boolean(eq + 1, end, &p->refin) == 0; break;
        case 4: ok = boolean(eq + 1, end, &p->refout) == 0; break;
        default: ok = number(eq + 1, end, &p->xorout) == 0; break;
        }
        if (!ok)
            return -1;
        if (*end == '\0')
            break;
        item = end + 1;
    }
    if (seen != 63 || p->width < 1 || p->width > 64)
        return -1;
    uint64_t over = p->width == 64 ? 0 : ~0ull << p->width;
    return (p->poly & over) || (p->init & over) || (p->xorout & over) ? -1 : 0;
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
