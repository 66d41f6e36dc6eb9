/* ALGO arguments: catalogue names and custom parameter lists. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

/* "width=16,poly=0x1021,init=0,refin=false,refout=false,xorout=0" */
static const crcforge_model *model_from_params(const char *algo)
{
    crcforge_params p = {0, 0, 0, 0, 0, 0};
    unsigned seen = 0;
    static const char *const keys[] = {"width", "poly", "init", "refin", "refout", "xorout"};
    char *copy = strdup(algo);
    if (copy == NULL)
        return NULL;
    /* Split by hand: strtok_r would skip an empty item ("width=16,,poly=..."). */
    for (char *item = copy, *next; item != NULL; item = next) {
        next = strchr(item, ',');
        if (next != NULL)
            *next++ = '\0';
        if (*item == '\0') {
            cli_error("algorithm '%s': empty item (a comma too many)", algo);
            goto fail;
        }
        char *eq = strchr(item, '=');
        if (eq == NULL) {
            cli_error("algorithm '%s': '%s' is not key=value", algo, item);
            goto fail;
        }
        *eq = '\0';
        const char *val = eq + 1;
        unsigned k;
        for (k = 0; k < 6 && strcmp(item, keys[k]) != 0; k++)
            ;
        if (k < 6 && (seen & (1u << k))) { /* not "the last one wins" */
            cli_error("algorithm '%s': %s given twice", algo, keys[k]);
            goto fail;
        }
        uint64_t num = 0;
        int ok;
        switch (k) {
        case 0:
            ok = parse_u64(val, &num) == 0 && num <= 1000;
            p.width = (unsigned)num;
            break;
        case 1:
            ok = parse_u64(val, &p.poly) == 0;
            break;
        case 2:
            ok = parse_u64(val, &p.init) == 0;
            break;
        case 3:
            ok = parse_bool(val, &p.refin) == 0;
            break;
        case 4:
            ok = parse_bool(val, &p.refout) == 0;
            break;
        case 5:
            ok = parse_u64(val, &p.xorout) == 0;
            break;
        default:
            cli_error("algorithm '%s': unknown parameter '%s' (expected width, poly, init, "
                      "refin, refout, xorout)", algo, item);
            goto fail;
        }
        if (!ok) {
            cli_error("algorithm '%s': bad value '%s' for %s", algo, val, keys[k]);
            goto fail;
        }
        seen |= 1u << k;
    }
    for (unsigned k = 0; k < 6; k++) {
        if (!(seen & (1u << k))) {
            cli_error("algorithm '%s': parameter %s is missing", algo, keys[k]);
            goto fail;
        }
    }
    const char *why = NULL;
    crcforge_model *m = crcforge_model_new(&p, &why);
    if (m == NULL)
        cli_error("algorithm '%s': %s", algo, why);
    free(copy);
    return m;
fail:
    free(copy);
    return NULL;
}

const crcforge_model *cli_model(const char *algo)
{
    if (strchr(algo, '=') != NULL)
        return model_from_params(algo);
    const crcforge_model *m = crcforge_model_find(algo);
    if (m == NULL)
        cli_error("unknown algorithm '%s' (see `%s list`)", algo, cli_program());
    return m;
}

void cli_release_model(const crcforge_model *m)
{
    crcforge_model_free((crcforge_model *)m); /* ignores catalogue models */
}
