/* SPDX-License-Identifier: MIT */
/* The command line of the stand-alone benchmark programs: nothing, or one --quick. */
#ifndef CRCFORGE_BENCH_QUICK_ARG_H
#define CRCFORGE_BENCH_QUICK_ARG_H

#include <stdio.h>
#include <string.h>

/* 1 for --quick, 0 for no argument; anything else is named on stderr with the usage, and
 * gives -1 (the caller exits 2). */
static inline int bench_quick_arg(int argc, char **argv, const char *prog)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    if (argc > 1 + quick) {
        fprintf(stderr, "%s: unknown argument '%s'\n", prog, argv[1 + quick]);
        fprintf(stderr, "usage: %s [--quick]\n", prog);
        return -1;
    }
    return quick;
}

#endif /* CRCFORGE_BENCH_QUICK_ARG_H */
