/* crcforge: the command-line tool.  The contract is in shared/DESIGN.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: crcforge COMMAND [ARGS]\n"
    "  sum [-a ALGO] [-j N] [--format hex|base64] [FILE...]   CRC of each input\n"
    "  sum -c [-a ALGO] [--format hex|base64] LISTFILE          verify \"HEX  NAME\" lines\n"
    "  list                                                     every catalogue model\n"
    "  cpu [--impls]                                            features and chosen paths\n"
    "  keyslot [--file F] [KEY...]                              Redis/Valkey cluster slot\n"
    "  bench [-a ALGO]... [--sizes LIST] [--keys] [--json] ...  throughput table (bench --help)\n"
    "ALGO is a catalogue name or alias (default crc32c), or width=..,poly=..,init=..,\n"
    "refin=..,refout=..,xorout=.. for a custom model.\n";

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("crcforge: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"sum", cmd_sum},
    {"list", cmd_list},
    {"cpu", cmd_cpu},
    {"keyslot", cmd_keyslot},
    {"bench", cmd_bench},
};

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
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_TROUBLE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("crcforge " CRCFORGE_VERSION);
        return EXIT_OK;
    }
    /* A bad CRCFORGE_IMPL is a usage error here, not a silent fallback. */
    const char *impl = getenv("CRCFORGE_IMPL");
    const char *why = NULL;
    if (impl != NULL && *impl != '\0' && crcforge_impl_force(impl, &why) != 0) {
        cli_error("CRCFORGE_IMPL=%s: %s", impl, why);
        return EXIT_TROUBLE;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s'", argv[1]);
    fputs(usage, stderr);
    return EXIT_TROUBLE;
}

int main(int argc, char **argv)
{
    return finish_output(run_command(argc, argv));
}
