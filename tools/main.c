/* SPDX-License-Identifier: MIT */
/* crcforge: the command-line tool, the engine (tools/engine.c) run on the process's own
 * standard streams, with the benchmark beside its commands.  The contract is in
 * docs/DESIGN.md. */
#include <stdio.h>

#include "cli.h"
#include "platform.h"

static const struct cli_command *const extra[] = {&cli_bench};

int main(int argc, char **argv)
{
    if (platform_start(&argc, &argv) != 0) /* argv in UTF-8 from here on */
        return EXIT_TROUBLE;
    struct cli_stream out, err;
    cli_stream_of_file(&out, stdout);
    cli_stream_of_file(&err, stderr);
    const struct cli_host host = {
        .program = "crcforge", .out = &out, .err = &err, .in = fileno(stdin),
        .err_fd = fileno(stderr), .extra = extra, .nextra = sizeof extra / sizeof extra[0],
    };
    return cli_run(&host, argc, argv);
}
