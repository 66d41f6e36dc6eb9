/* SPDX-License-Identifier: MIT */
/* crcforge bench: runs the benchmark program, crcforge-bench (bench/crcforge_bench.c).
 * The program is separate so that the tool itself links no peer library: only bench
 * needs them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "platform.h"

/* Where an installed crcforge-bench lives, relative to the tool's directory (set by
 * CMake: the libexec directory's crcforge/ seen from the bin directory). */
#ifndef CRCFORGE_BENCH_FROM_BINDIR
#define CRCFORGE_BENCH_FROM_BINDIR "../libexec/crcforge"
#endif

/* Room for a path: Linux's PATH_MAX (Windows' is MAX_PATH, 260, which long paths exceed). */
#define PATH_ROOM 4096

static const struct cli_option bench_options[] = {CLI_HELP_OPTION, {0}};

static int run_bench(int argc, char **argv);

const struct cli_command cli_bench = {
    .name = "bench",
    .synopsis = "bench [OPTION]...",
    .about = "throughput table: algorithms x implementations x sizes, beside the peer libraries",
    .options = bench_options,
    .run = run_bench,
    .passes_on = 1,
};

/* Beside the tool (a build directory), then in the install's libexec directory. */
static int run_bench(int argc, char **argv)
{
    (void)argc;
    char dir[PATH_ROOM], beside[PATH_ROOM + 32], installed[2 * PATH_ROOM];
    if (platform_program_dir(dir, sizeof dir) != 0) {
        cli_error("bench: cannot find the tool's directory: %s", platform_error_text(errno));
        return EXIT_TROUBLE;
    }
    snprintf(beside, sizeof beside, "%s/crcforge-bench" PLATFORM_EXE_SUFFIX, dir);
    snprintf(installed, sizeof installed, "%s/%s/crcforge-bench" PLATFORM_EXE_SUFFIX, dir,
             CRCFORGE_BENCH_FROM_BINDIR);
    const char *const candidates[] = {beside, installed};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        if (!platform_is_program(candidates[i]))
            continue;
        int status = platform_run_instead(candidates[i], argv);
        if (status >= 0)
            return status; /* Windows: it ran, as a process of its own */
        cli_error("bench: %s: %s", candidates[i], platform_error_text(errno));
        return EXIT_TROUBLE;
    }
    cli_error("bench: the benchmark program crcforge-bench is not installed (looked for %s "
              "and %s); it is built beside crcforge (cmake --build BUILD --target "
              "crcforge-bench)", beside, installed);
    return EXIT_TROUBLE;
}
