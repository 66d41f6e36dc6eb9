/* SPDX-License-Identifier: MIT */
/* ALGO arguments: catalogue names, custom parameter lists, the catalogue lines `crcforge
 * list` prints, and the algorithm of POSIX cksum. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum key { K_WIDTH, K_POLY, K_INIT, K_REFIN, K_REFOUT, K_XOROUT, K_CHECK, K_RESIDUE, K_NAME,
           K_ALIASES, NKEYS };
static const char *const keys[NKEYS] = {"width", "poly", "init", "refin", "refout", "xorout",
                                        "check", "residue", "name", "aliases"};
enum { SIX_PARAMS = (1u << 6) - 1 };

/* What a parameter list gave: each key's value as text, and the numbers read from them. */
struct given {
    unsigned seen; /* bit k: keys[k] was given */
    const char *text[NKEYS];
    crcforge_params p;
    uint64_t check, residue;
};

/* Writes the reason of a refusal into why; -1. */
__attribute__((format(printf, 3, 4))) static int refuse(char *why, size_t n, const char *fmt,
                                                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_bool(const char *s, int *out)
{
    if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0) {
        *out = 1;
        return 0;
    }
    if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0) {
        *out = 0;
        return 0;
    }
    return -1;
}

/* Decimal, 0x hex or 0 octal; a digit first, as strtoull would skip spaces and take
 * a sign ("init= -1" is not a value). */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* The separator of the items: ',' when the text holds a comma outside double quotes,
 * else ' ' (the catalogue line, whose aliases are a quoted comma list). */
static char separator(const char *text)
{
    int quoted = 0;
    for (; *text != '\0'; text++) {
        if (*text == '"')
            quoted = !quoted;
        else if (*text == ',' && !quoted)
            return ',';
    }
    return ' ';
}

/* A value in double quotes loses them ("CRC-32/ISCSI"); -1 for a quote anywhere else. */
static int unquote(char **value)
{
    char *v = *value;
    size_t len = strlen(v);
    if (v[0] == '"') {
        if (len < 2 || v[len - 1] != '"')
            return -1;
        v[len - 1] = '\0';
        *value = ++v;
    }
    return strchr(v, '"') != NULL ? -1 : 0;
}

/* One key=value item into g; 0, or -1 with the reason. */
static int take_item(const char *algo, char *item, struct given *g, char *why, size_t n)
{
    char *eq = strchr(item, '=');
    if (eq == NULL)
        return refuse(why, n, "algorithm '%s': '%s' is not key=value", algo, item);
    *eq = '\0';
    char *val = eq + 1;
    unsigned k = 0;
    while (k < NKEYS && strcmp(item, keys[k]) != 0)
        k++;
    if (k == NKEYS)
        return refuse(why, n, "algorithm '%s': unknown parameter '%s' (expected width, poly, "
                      "init, refin, refout, xorout, and from a catalogue line check, residue, "
                      "name, aliases)", algo, item);
    if (g->seen & (1u << k)) /* not "the last one wins" */
        return refuse(why, n, "algorithm '%s': %s given twice", algo, keys[k]);
    g->text[k] = val;
    uint64_t num = 0;
    int ok = unquote(&val) == 0;
    if (ok) {
        switch (k) {
        case K_WIDTH:
            ok = parse_u64(val, &num) == 0 && num <= 1000;
            g->p.width = (unsigned)num;
            break;
        case K_POLY:
            ok = parse_u64(val, &g->p.poly) == 0;
            break;
        case K_INIT:
            ok = parse_u64(val, &g->p.init) == 0;
            break;
        case K_REFIN:
            ok = parse_bool(val, &g->p.refin) == 0;
            break;
        case K_REFOUT:
            ok = parse_bool(val, &g->p.refout) == 0;
            break;
        case K_XOROUT:
            ok = parse_u64(val, &g->p.xorout) == 0;
            break;
        case K_CHECK:
            ok = parse_u64(val, &g->check) == 0;
            break;
        case K_RESIDUE:
            ok = parse_u64(val, &g->residue) == 0;
            break;
        default: /* name, aliases: text */
            break;
        }
    }
    if (!ok)
        return refuse(why, n, "algorithm '%s': bad value '%s' for %s", algo, g->text[k],
                      keys[k]);
    g->text[k] = val;
    g->seen |= 1u << k;
    return 0;
}

/* Splits copy (of algo) into items and reads each. */
static int read_items(const char *algo, char *copy, struct given *g, char *why, size_t n)
{
    char sep = separator(copy);
    for (char *item = copy, *next; item != NULL; item = next) {
        int quoted = 0;
        for (next = item; *next != '\0' && (quoted || *next != sep); next++)
            quoted ^= *next == '"';
        if (*next == '\0')
            next = NULL;
        else
            *next++ = '\0';
        if (*item == '\0')
            return refuse(why, n, "algorithm '%s': empty item (a %s too many)", algo,
                          sep == ',' ? "comma" : "space");
        if (take_item(algo, item, g, why, n) != 0)
            return -1;
    }
    return 0;
}

/* A number as `crcforge list` prints it: ceil(width/4) hex digits. */
static void hex_of(char *out, size_t n, uint64_t v, unsigned width)
{
    snprintf(out, n, "0x%0*llx", (int)((width + 3) / 4), (unsigned long long)v);
}

/* Every given key but name and aliases must be m's (whose name is owner's: a catalogue
 * name, or "the model" for one built from the six parameters). */
static int check_given(const char *algo, const struct given *g, const crcforge_model *m,
                       const char *owner, char *why, size_t n)
{
    const crcforge_params *p = crcforge_model_params(m);
    const uint64_t has[] = {p->width, p->poly, p->init, (uint64_t)!!p->refin,
                            (uint64_t)!!p->refout, p->xorout, crcforge_model_check(m),
                            crcforge_model_residue(m)};
    const uint64_t want[] = {g->p.width, g->p.poly, g->p.init, (uint64_t)!!g->p.refin,
                             (uint64_t)!!g->p.refout, g->p.xorout, g->check, g->residue};
    for (unsigned k = 0; k < K_NAME; k++) {
        if (!(g->seen & (1u << k)) || has[k] == want[k])
            continue;
        char text[32];
        if (k == K_WIDTH)
            snprintf(text, sizeof text, "%u", p->width);
        else if (k == K_REFIN || k == K_REFOUT)
            snprintf(text, sizeof text, "%s", has[k] ? "true" : "false");
        else
            hex_of(text, sizeof text, has[k], p->width);
        return refuse(why, n, "algorithm '%s': %s=%s does not match %s, whose %s is %s", algo,
                      keys[k], g->text[k], owner, keys[k], text);
    }
    return 0;
}

/* The model a name="..." names, checked against every other key given. */
static const crcforge_model *named_model(const char *algo, const struct given *g, char *why,
                                         size_t n)
{
    const crcforge_model *m = crcforge_model_find(g->text[K_NAME]);
    if (m == NULL) {
        refuse(why, n, "algorithm '%s': no catalogue model is named '%s' (see `%s list`)", algo,
               g->text[K_NAME], cli_program());
        return NULL;
    }
    if (check_given(algo, g, m, crcforge_model_name(m), why, n) != 0)
        return NULL;
    if (g->seen & (1u << K_ALIASES)) {
        char list[512] = "";
        for (const char *const *a = crcforge_model_aliases(m); *a != NULL; a++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     a == crcforge_model_aliases(m) ? "" : ",", *a);
        if (strcmp(list, g->text[K_ALIASES]) != 0) {
            refuse(why, n, "algorithm '%s': aliases=\"%s\" does not match %s, whose aliases "
                   "are \"%s\"", algo, g->text[K_ALIASES], crcforge_model_name(m), list);
            return NULL;
        }
    }
    return m;
}

/* "width=16,poly=0x1021,init=0,refin=false,refout=false,xorout=0", or the catalogue line
 * name="CRC-16/XMODEM" width=16 ... check=0x31c3 residue=0x0000 aliases="...". */
static const crcforge_model *model_from_params(const char *algo, char *why, size_t n)
{
    struct given g = {0, {NULL}, {0, 0, 0, 0, 0, 0}, 0, 0};
    char *copy = strdup(algo);
    if (copy == NULL) {
        refuse(why, n, "algorithm '%s': %s", algo, strerror(ENOMEM));
        return NULL;
    }
    const crcforge_model *result = NULL;
    size_t quotes = 0;
    for (const char *q = algo; (q = strchr(q, '"')) != NULL; q++)
        quotes++;
    if (quotes % 2 != 0) {
        refuse(why, n, "algorithm '%s': a '\"' is not closed", algo);
        goto out;
    }
    if (read_items(algo, copy, &g, why, n) != 0)
        goto out;
    if (g.seen & (1u << K_NAME)) {
        result = named_model(algo, &g, why, n);
        goto out;
    }
    if (g.seen & (1u << K_ALIASES)) {
        refuse(why, n, "algorithm '%s': aliases without the name they belong to", algo);
        goto out;
    }
    for (unsigned k = 0; k < 6; k++) {
        if (!(g.seen & (1u << k))) {
            refuse(why, n, "algorithm '%s': parameter %s is missing", algo, keys[k]);
            goto out;
        }
    }
    const char *reason = NULL;
    crcforge_model *m = crcforge_model_new(&g.p, &reason);
    if (m == NULL)
        refuse(why, n, "algorithm '%s': %s", algo, reason);
    else if (check_given(algo, &g, m, "the model", why, n) != 0)
        crcforge_model_free(m);
    else
        result = m;
out:
    free(copy);
    return result;
}

/* The model ALGO names; NULL with the reason in why. */
static const crcforge_model *model_of(const char *algo, char *why, size_t n)
{
    if (strchr(algo, '=') != NULL)
        return model_from_params(algo, why, n);
    const crcforge_model *m = crcforge_model_find(algo);
    if (m == NULL)
        refuse(why, n, "unknown algorithm '%s' (see `%s list`)", algo, cli_program());
    return m;
}

const crcforge_model *cli_model(const char *algo)
{
    char why[1024];
    const crcforge_model *m = model_of(algo, why, sizeof why);
    if (m == NULL)
        cli_error("%s", why);
    return m;
}

void cli_release_model(const crcforge_model *m)
{
    crcforge_model_free((crcforge_model *)m); /* ignores catalogue models */
}

/* POSIX cksum's name, in any case, with or without '-', '_', '.', '/' or spaces
 * (crcforge_model_find reads catalogue names so). */
static int names_posix_cksum(const char *text)
{
    const char *want = "posixcksum";
    for (; *text != '\0'; text++) {
        if (strchr("-_./ ", *text) != NULL)
            continue;
        if (*want == '\0' || tolower((unsigned char)*text) != *want++)
            return 0;
    }
    return *want == '\0';
}

int cli_algo_parse(const char *text, struct cli_algo *out, char *why, size_t n)
{
    out->posix_cksum = names_posix_cksum(text);
    out->model = out->posix_cksum ? crcforge_model_find("CRC-32/CKSUM") : model_of(text, why, n);
    return out->model != NULL ? 0 : -1;
}

int cli_algorithm(const char *text, struct cli_algo *out)
{
    char why[1024];
    if (cli_algo_parse(text, out, why, sizeof why) == 0)
        return 0;
    cli_error("%s", why);
    return -1;
}

void cli_algo_release(struct cli_algo *a)
{
    cli_release_model(a->model);
    a->model = NULL;
}

int cli_algo_equal(const struct cli_algo *a, const struct cli_algo *b)
{
    const crcforge_params *p = crcforge_model_params(a->model), *q = crcforge_model_params(b->model);
    return !a->posix_cksum == !b->posix_cksum && p->width == q->width && p->poly == q->poly &&
           p->init == q->init && !p->refin == !q->refin && !p->refout == !q->refout &&
           p->xorout == q->xorout;
}

void cli_algo_name(const struct cli_algo *a, char *out)
{
    static const char *const s3_names[][2] = {
        {"crc32c", "CRC32C"}, {"crc32", "CRC32"}, {"crc64-nvme", "CRC64NVME"}};
    if (a->posix_cksum) {
        snprintf(out, ALGO_NAME_SIZE, "POSIX-CKSUM");
        return;
    }
    for (size_t i = 0; i < sizeof s3_names / sizeof s3_names[0]; i++) {
        if (a->model == crcforge_model_find(s3_names[i][0])) {
            snprintf(out, ALGO_NAME_SIZE, "%s", s3_names[i][1]);
            return;
        }
    }
    const char *name = crcforge_model_name(a->model);
    if (crcforge_model_find(name) == a->model) {
        snprintf(out, ALGO_NAME_SIZE, "%s", name);
        return;
    }
    const crcforge_params *p = crcforge_model_params(a->model);
    int digits = (int)((p->width + 3) / 4);
    snprintf(out, ALGO_NAME_SIZE,
             "width=%u,poly=0x%0*llx,init=0x%0*llx,refin=%s,refout=%s,xorout=0x%0*llx",
             p->width, digits, (unsigned long long)p->poly, digits, (unsigned long long)p->init,
             p->refin ? "true" : "false", p->refout ? "true" : "false", digits,
             (unsigned long long)p->xorout);
}
