/* crcforge: the command-line tool, the engine (tools/engine.c) run on the process's own
 * standard streams, with the benchmark beside its commands.  The contract is in
 * docs/DESIGN.md. */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

static const struct cli_command *const extra[] = {&cli_bench};

int main(int argc, char **argv)
{
    const struct cli_host host = {
        .program = "crcforge", .out = stdout, .err = stderr, .in = STDIN_FILENO,
        .err_fd = STDERR_FILENO, .extra = extra, .nextra = sizeof extra / sizeof extra[0],
    };
    return cli_run(&host, argc, argv);
}
