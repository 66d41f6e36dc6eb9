/* SPDX-License-Identifier: MIT */
/* verify FILE URL: whether a file holds what an S3 or GCS object stores.  A command of the
 * host (python -m crcforge), which reads the object's checksum, type and part sizes and
 * computes the same value from the file (cli_hooks.verify); its options, usage and output
 * are here. */
#include <stdlib.h>

#include "cli.h"

enum { OPT_SCHEDULER = CLI_HOST_ONLY, OPT_TIMEOUT, OPT_DEADLINE };
static const struct cli_option verify_options[] = {
    {"jobs", 'j', required_argument, "N", "hash the file's ranges with N threads (1 to 64)"},
    {"scheduler", OPT_SCHEDULER, required_argument, "ADDRESS",
     "hash them on the Dask cluster at ADDRESS"},
    CLI_TIMEOUT_OPTION(OPT_TIMEOUT),
    {"deadline", OPT_DEADLINE, required_argument, "SECONDS",
     "give up when reading the object's checksum and FILE\n"
     "takes longer than SECONDS (default: no deadline)"},
    CLI_HELP_OPTION,
    {0},
};

static int cmd_verify(int argc, char **argv);

const struct cli_command cli_verify = {
    .name = "verify",
    .synopsis = "verify [-j N] [--scheduler ADDRESS] [--timeout SECONDS] [--deadline SECONDS] "
                "FILE URL",
    .about = "whether a file holds what an S3 or GCS object stores (its stored checksum)",
    .options = verify_options,
    .notes = "Reads the object's checksum, its type (FULL_OBJECT or COMPOSITE) and its part\n"
             "sizes (s3://), or its crc32c (gs://: a FULL_OBJECT CRC32C, a composed object's\n"
             "too), computes the same value from FILE, prints \"FILE: OK\" or\n"
             "\"FILE: FAILED\" with both values.  No byte of the object is read.\n"
             "\n"
             "Exit status: 0 OK, 1 FAILED, 2 bad usage, or FILE or URL could not be read.\n",
    .run = cmd_verify,
    .host = 1,
};

static void release(struct cli_verification *v)
{
    free(v->reason);
    free(v->algorithm);
    free(v->checksum_type);
    free(v->stored);
    free(v->computed);
}

/* "FILE: OK (CRC32C COMPOSITE, 3 parts: stored X, computed X)", and the sizes when they
 * differ. */
static void print(const char *file, const struct cli_verification *v)
{
    struct cli_stream *out = cli_out();
    cli_printf(out, "%s: %s (%s %s", file, v->ok ? "OK" : "FAILED", v->algorithm,
               v->checksum_type);
    if (v->parts > 0)
        cli_printf(out, ", %lu part%s", v->parts, v->parts == 1 ? "" : "s");
    cli_printf(out, ": stored %s, computed %s", v->stored, v->computed);
    if (v->file_size != v->object_size)
        cli_printf(out, "; %llu bytes, the object %llu", (unsigned long long)v->file_size,
                   (unsigned long long)v->object_size);
    cli_puts(out, ")\n");
}

static int cmd_verify(int argc, char **argv)
{
    unsigned threads = 1;
    struct cli_parser p;
    cli_parser_init(&p, &cli_verify, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        if (c == 'j') {
            if (cli_parse_threads(optarg, &threads) != 0)
                return EXIT_TROUBLE;
        } else if (c == CLI_HELP) {
            cli_print_help(cli_out(), &cli_verify);
            return EXIT_OK;
        } else {
            return EXIT_TROUBLE;
        }
    }
    if (argc - optind != 2) {
        cli_error("verify takes a FILE and a URL (see %s verify --help)", cli_program());
        return EXIT_TROUBLE;
    }
    if (cli_host_start("verify") != 0)
        return EXIT_TROUBLE;
    const char *file = argv[optind], *url = argv[optind + 1];
    struct cli_verification v = {0};
    cli_hooks()->verify(cli_hooks()->ctx, file, url, threads, &v);
    int status = v.ok ? EXIT_OK : EXIT_MISMATCH;
    if (v.failed != NULL) {
        cli_error("%s: %s", v.failed, v.reason != NULL ? v.reason : "could not be read");
        status = EXIT_TROUBLE;
    } else if (!cli_stopped()) {
        print(file, &v);
    }
    release(&v);
    return status;
}
