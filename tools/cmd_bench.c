/* crcforge bench: runs the benchmark program, crcforge-bench (bench/crcforge_bench.c).
 * The program is separate so that the tool itself links no peer library: only bench
 * needs them. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Where an installed crcforge-bench lives, relative to the tool's directory (set by
 * CMake: the libexec directory's crcforge/ seen from the bin directory). */
#ifndef CRCFORGE_BENCH_FROM_BINDIR
#define CRCFORGE_BENCH_FROM_BINDIR "../libexec/crcforge"
#endif

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

/* The tool's own directory, from /proc/self/exe; 0, or -1 with errno. */
static int tool_dir(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n < 0)
        return -1;
    if ((size_t)n >= cap - 1) {
        errno = ENAMETOOLONG;
        return -1;
    }
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (slash == NULL) {
        errno = ENOENT;
        return -1;
    }
    *slash = '\0';
    return 0;
}

/* Beside the tool (a build directory), then in the install's libexec directory. */
static int run_bench(int argc, char **argv)
{
    (void)argc;
    char dir[PATH_MAX], beside[PATH_MAX + 32], installed[2 * PATH_MAX];
    if (tool_dir(dir, sizeof dir) != 0) {
        cli_error("bench: cannot find the tool's directory (/proc/self/exe): %s",
                  strerror(errno));
        return EXIT_TROUBLE;
    }
    snprintf(beside, sizeof beside, "%s/crcforge-bench", dir);
    snprintf(installed, sizeof installed, "%s/%s/crcforge-bench", dir,
             CRCFORGE_BENCH_FROM_BINDIR);
    const char *const candidates[] = {beside, installed};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        if (access(candidates[i], X_OK) != 0)
            continue;
        execv(candidates[i], argv);
        cli_error("bench: %s: %s", candidates[i], strerror(errno));
        return EXIT_TROUBLE;
    }
    cli_error("bench: the benchmark program crcforge-bench is not installed (looked for %s "
              "and %s); it is built beside crcforge (cmake --build BUILD --target "
              "crcforge-bench)", beside, installed);
    return EXIT_TROUBLE;
}
