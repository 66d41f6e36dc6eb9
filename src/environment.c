/* SPDX-License-Identifier: MIT */
/*
 * The notes of environment problems (environment.h): a list that only grows, each note
 * appended with a compare-and-swap on the last one's link, no lock.  Two threads reading
 * the same value for the first time may both append the same note; the list is read
 * without the repeats.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "environment.h"

struct note {
    crcforge_env_problem problem;
    _Atomic(struct note *) next;
    char text[]; /* the value, then the problem */
};

static _Atomic(struct note *) first;

static int same(const crcforge_env_problem *a, const crcforge_env_problem *b)
{
    return strcmp(a->variable, b->variable) == 0 && strcmp(a->value, b->value) == 0 &&
           strcmp(a->problem, b->problem) == 0 && strcmp(a->instead, b->instead) == 0;
}

/* The note equal to p among those before `upto` (NULL: all), or NULL. */
static const struct note *earlier(const crcforge_env_problem *p, const struct note *upto)
{
    for (const struct note *n = atomic_load(&first); n != NULL && n != upto;
         n = atomic_load(&n->next))
        if (same(&n->problem, p))
            return n;
    return NULL;
}

void crc_env_note(const char *variable, const char *value, const char *instead,
                  const char *fmt, ...)
{
    if (value == NULL)
        value = "";
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    const int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    const size_t vlen = strlen(value) + 1;
    struct note *n = malloc(sizeof *n + vlen + (size_t)(len > 0 ? len : 0) + 1);
    if (n == NULL)
        abort(); /* a few bytes, once per problem: nothing sensible to do instead */
    memcpy(n->text, value, vlen);
    vsnprintf(n->text + vlen, (size_t)(len > 0 ? len : 0) + 1, fmt, again);
    va_end(again);
    n->problem = (crcforge_env_problem){variable, n->text, n->text + vlen, instead};
    atomic_init(&n->next, NULL);
    if (earlier(&n->problem, NULL) != NULL) {
        free(n);
        return;
    }
    _Atomic(struct note *) *link = &first;
    for (struct note *expected = NULL;
         !atomic_compare_exchange_strong(link, &expected, n); expected = NULL)
        link = &expected->next; /* another note came first: append after it */
}

const crcforge_env_problem *crc_env_note_at(size_t i)
{
    for (const struct note *n = atomic_load(&first); n != NULL; n = atomic_load(&n->next)) {
        if (earlier(&n->problem, n) != NULL)
            continue; /* a repeat of a racing first read */
        if (i-- == 0)
            return &n->problem;
    }
    return NULL;
}

void crc_env_each_item(const char *env,
                       void (*item)(const char *env, const char *s, size_t len, void *ctx),
                       void *ctx)
{
    for (const char *s = env != NULL ? env : ""; *s;) {
        const size_t len = strcspn(s, ",");
        if (len > 0)
            item(env, s, len, ctx);
        s += len + (s[len] != '\0');
    }
}
