/* crcforge: the command-line tool.  The contract is in shared/DESIGN.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "crcforge_dispatch.h"

static const struct cli_command *const commands[] = {&cli_sum, &cli_list, &cli_cpu,
                                                    &cli_keyslot, &cli_bench};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* The options before the command. */
enum { OPT_VERSION = CLI_LONG_ONLY };
static const struct cli_option main_options[] = {
    CLI_HELP_OPTION,
    {"version", OPT_VERSION, no_argument, NULL, "print the version and exit"},
    {0},
};
/* '+': the first operand is the command, and what follows it is the command's. */
static const struct cli_command cli_main = {
    "", "COMMAND [OPTION]... [ARG]...", "", main_options, NULL, NULL, '+', NULL};

static void usage(FILE *out)
{
    cli_print_commands(out, commands, NCOMMANDS);
    fputs("ALGO is a catalogue name or alias (default crc32c), or width=..,poly=..,init=..,\n"
          "refin=..,refout=..,xorout=.. for a custom model.\n", out);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("crcforge: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Output that could not be written is a failure, whatever the command: stdout is flushed
 * and checked once here, after the command returned. */
static int finish_output(int status)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("standard output: %s", strerror(errno ? errno : EIO));
        return EXIT_TROUBLE;
    }
    return status;
}

static int run_command(int argc, char **argv)
{
    struct cli_parser p;
    cli_parser_init(&p, &cli_main, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        if (c == CLI_HELP) {
            usage(stdout);
            return EXIT_OK;
        }
        if (c == OPT_VERSION) {
            puts("crcforge " CRCFORGE_VERSION);
            return EXIT_OK;
        }
        usage(stderr); /* CLI_BAD: the mistake was named */
        return EXIT_TROUBLE;
    }
    if (optind == argc) {
        usage(stderr);
        return EXIT_TROUBLE;
    }
    /* The library only lists what it could not use in the environment: said here, and a
     * bad CRCFORGE_IMPL is a usage error, not a silent fallback. */
    int bad_impl = 0;
    const crcforge_env_problem *e;
    for (size_t i = 0; (e = crcforge_env_problem_at(i)) != NULL; i++) {
        const int impl = strcmp(e->variable, "CRCFORGE_IMPL") == 0;
        if (impl)
            cli_error("%s=%s: %s", e->variable, e->value, e->problem);
        else
            cli_error("warning: %s=%s: %s; %s", e->variable, e->value, e->problem, e->instead);
        bad_impl |= impl;
    }
    if (bad_impl)
        return EXIT_TROUBLE;
    const char *name = argv[optind];
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i]->name) == 0)
            return commands[i]->run(argc - optind, argv + optind);
    cli_error("unknown command '%s'", name);
    usage(stderr);
    return EXIT_TROUBLE;
}

int main(int argc, char **argv)
{
    return finish_output(run_command(argc, argv));
}
