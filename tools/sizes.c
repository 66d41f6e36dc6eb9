/* SPDX-License-Identifier: MIT */
/* Counts and byte sizes, read and written. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sizes.h"

int cli_parse_count(const char *s, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out)
{
    unsigned long long v = 0;
    if (*s == '\0')
        return -1;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9' || v > (hi - (unsigned)(*s - '0')) / 10)
            return -1;
        v = v * 10 + (unsigned)(*s - '0');
    }
    if (v < lo)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_size(const char *s, uint64_t *out)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } suffixes[] = {{"", 0},    {"b", 0},    {"k", 10},   {"kb", 10}, {"kib", 10},
                    {"m", 20},  {"mb", 20},  {"mib", 20}, {"g", 30},  {"gb", 30},
                    {"gib", 30}, {"t", 40},  {"tb", 40},  {"tib", 40}};
    size_t digits = strspn(s, "0123456789");
    if (digits == 0 || digits > 20)
        return -1;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        if (strcasecmp(s + digits, suffixes[i].suffix) != 0)
            continue;
        char number[21];
        memcpy(number, s, digits);
        number[digits] = '\0';
        unsigned long long v;
        if (cli_parse_count(number, 0, UINT64_MAX >> suffixes[i].shift, &v) != 0)
            return -1;
        *out = (uint64_t)v << suffixes[i].shift;
        return 0;
    }
    return -1;
}

void cli_format_size(char *out, uint64_t size)
{
    static const char *const units[] = {"", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && size != 0 && size % 1024 == 0) {
        size /= 1024;
        u++;
    }
    snprintf(out, SIZE_TEXT_SIZE, "%llu%s", (unsigned long long)size, units[u]);
}
