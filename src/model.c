/* SPDX-License-Identifier: MIT */
/* Models: lookup in the catalogue by name or alias, custom models and their validation. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int same_name(const char *a, const char *b)
{
    while (*a && lower((unsigned char)*a) == lower((unsigned char)*b))
        a++, b++;
    return *a == '\0' && *b == '\0';
}

/* Punctuation-blind comparison: "crc16xmodem" finds CRC-16/XMODEM. */
static int loose_char(int c)
{
    return c == '-' || c == '/' || c == '_' || c == ' ' || c == '.';
}

static int loosely_same_name(const char *a, const char *b)
{
    for (;;) {
        while (loose_char(*a))
            a++;
        while (loose_char(*b))
            b++;
        if (*a == '\0' || *b == '\0')
            return *a == *b;
        if (lower((unsigned char)*a) != lower((unsigned char)*b))
            return 0;
        a++, b++;
    }
}

static int model_named(const crcforge_model *m, const char *name,
                       int (*same)(const char *, const char *))
{
    if (same(m->name, name))
        return 1;
    for (const char *const *a = m->aliases; *a; a++)
        if (same(*a, name))
            return 1;
    return 0;
}

const crcforge_model *crcforge_model_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < crc_catalogue_count; i++)
        if (model_named(&crc_catalogue[i], name, same_name))
            return &crc_catalogue[i];
    /* Only an unambiguous loose match counts. */
    const crcforge_model *found = NULL;
    for (size_t i = 0; i < crc_catalogue_count; i++) {
        if (model_named(&crc_catalogue[i], name, loosely_same_name)) {
            if (found != NULL)
                return NULL;
            found = &crc_catalogue[i];
        }
    }
    return found;
}

const crcforge_model *crcforge_model_at(size_t i)
{
    return i < crc_catalogue_count ? &crc_catalogue[i] : NULL;
}

static const char *invalid_reason(const crcforge_params *p)
{
    if (p->width < 1 || p->width > 64)
        return "width must be 1 to 64";
    uint64_t mask = crc_width_mask(p->width);
    if (p->poly & ~mask)
        return "poly has bits above the width";
    if (p->init & ~mask)
        return "init has bits above the width";
    if (p->xorout & ~mask)
        return "xorout has bits above the width";
    return NULL;
}

static const char *const no_aliases[] = {NULL};

crcforge_model *crcforge_model_new(const crcforge_params *p, const char **why)
{
    const char *reason = p == NULL ? "no parameters given" : invalid_reason(p);
    if (reason != NULL) {
        if (why != NULL)
            *why = reason;
        return NULL;
    }
    crcforge_model *m = calloc(1, sizeof *m);
    if (m == NULL) {
        if (why != NULL)
            *why = "out of memory";
        return NULL;
    }
    m->name = "custom";
    m->aliases = no_aliases;
    m->p = *p;
    m->p.refin = p->refin != 0;
    m->p.refout = p->refout != 0;
    m->custom = 1;
    m->impl = &crc_unresolved;
    m->check = crc_reference(&m->p, "123456789", 9); /* leaves tables to first use */
    /* The residue (register after a valid codeword, before xorout, reflected when refout)
     * is xorout * x^width mod P, and x^width = poly mod P. */
    m->residue = crc_mulmod(p->xorout, p->poly, &m->p);
    if (m->p.refout)
        m->residue = crc_reflect(m->residue, p->width);
    return m;
}

void crcforge_model_free(crcforge_model *m)
{
    if (m == NULL || !m->custom)
        return;
    crc_once_release(&m->tables);
    crc_once_release(&m->consts);
    crc_once_release(&m->join);
    free(m);
}

const char *crcforge_model_name(const crcforge_model *m)
{
    return m->name;
}

const char *const *crcforge_model_aliases(const crcforge_model *m)
{
    return m->aliases;
}

const crcforge_params *crcforge_model_params(const crcforge_model *m)
{
    return &m->p;
}

uint64_t crcforge_model_check(const crcforge_model *m)
{
    return m->check;
}

uint64_t crcforge_model_residue(const crcforge_model *m)
{
    return m->residue;
}
