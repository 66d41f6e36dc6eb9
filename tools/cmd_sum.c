/* crcforge sum: CRC of files or stdin, whole or as the composite of parts, and -c
 * verification of "VALUE  NAME" lists. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check_line.h"
#include "cli.h"
#include "input.h"
#include "lines.h"
#include "progress.h"

struct sum_options {
    struct hash_spec hash;
    enum value_format format;
};

/* Reads "VALUE  NAME" lines and checks each; returns the exit status. */
static int verify_list(const char *listname, const struct sum_options *o)
{
    struct lines list;
    if (lines_open(&list, listname) != 0) {
        cli_error("%s: %s", listname, strerror(errno));
        return EXIT_TROUBLE;
    }
    unsigned width = crcforge_model_params(o->hash.model)->width;
    int with_parts = o->hash.part_size != 0;
    int status = EXIT_OK;
    char *line;
    ssize_t n;
    unsigned long lineno = 0, checked = 0;
    while (!cli_stopped() && (n = lines_next(&list, &line)) >= 0) {
        lineno++;
        struct check_entry e;
        switch (check_line_parse(line, (size_t)n, width, o->format, with_parts, &e)) {
        case CHECK_LINE_BLANK:
            continue;
        case CHECK_LINE_MALFORMED:
            cli_error("%s:%lu: improperly formatted line (expected \"VALUE  NAME\", VALUE "
                      "%zu %s%s)", listname, lineno, value_text_len(width, o->format),
                      o->format == VALUE_HEX ? "hex digits" : "base64 characters",
                      with_parts ? " then -PARTS" : "");
            status = EXIT_TROUBLE;
            continue;
        case CHECK_LINE_ENTRY:
            break;
        }
        char *name = line + e.name_start;
        name[e.name_len] = '\0'; /* over the CR of a CRLF line, or the NUL ending it */
        checked++;
        struct hash_value v;
        if (hash_input(name, &o->hash, &v) != 0) {
            status = EXIT_TROUBLE;
            continue;
        }
        int ok = e.exact && e.value == v.crc && e.parts == v.parts;
        fprintf(cli_out(), "%s: %s\n", name, ok ? "OK" : "FAILED");
        if (!ok && status == EXIT_OK)
            status = EXIT_MISMATCH;
    }
    if (list.err != 0) {
        cli_error("%s: %s", listname, strerror(list.err));
        status = EXIT_TROUBLE;
    } else if (checked == 0) {
        /* Nothing verified is not a success: the wrong or an empty file was given. */
        cli_error("%s: no checksum lines found", listname);
        status = EXIT_TROUBLE;
    }
    lines_close(&list);
    return status;
}

enum { OPT_FORMAT = CLI_LONG_ONLY, OPT_PART_SIZE, OPT_PROGRESS, OPT_NO_PROGRESS };
enum { OPT_SCHEDULER = CLI_HOST_ONLY };
static const struct cli_option sum_options[] = {
    {"algorithm", 'a', required_argument, "ALGO",
     "a catalogue name or alias, case-insensitive (default crc32c),\n"
     "or width=..,poly=..,init=..,refin=..,refout=..,xorout=.."},
    {"check", 'c', no_argument, NULL, "verify the \"VALUE  NAME\" lines of LISTFILE"},
    {"jobs", 'j', required_argument, "N",
     "hash a large file with N threads (1 to 64), joined with combine"},
    {"format", OPT_FORMAT, required_argument, "FORMAT",
     "hex (default), or base64: the value's big-endian bytes,\n"
     "as S3 and GCS checksum headers carry them"},
    {"part-size", OPT_PART_SIZE, required_argument, "SIZE",
     "the composite checksum S3 reports for a multipart upload in\n"
     "parts of SIZE bytes: the CRC of the parts' CRCs, then -PARTS;\n"
     "SIZE in bytes or with K, M, G, T, KB.., KiB.. (powers of 1024);\n"
     "at most 10000 parts"},
    {"progress", OPT_PROGRESS, no_argument, NULL,
     "show the progress of inputs that take more than a second on\n"
     "stderr (the default when stderr is a terminal)"},
    {"no-progress", OPT_NO_PROGRESS, no_argument, NULL, "never show it"},
    /* The host's (python -m crcforge): its values go to cli_hooks.option. */
    {"scheduler", OPT_SCHEDULER, required_argument, "ADDRESS",
     "hash the ranges of every URL on the Dask cluster whose\n"
     "scheduler is at ADDRESS (tcp://HOST:PORT); its workers open\n"
     "the URLs themselves, with their own credentials and endpoint"},
    CLI_HELP_OPTION,
    {0},
};

static int cmd_sum(int argc, char **argv);

const struct cli_command cli_sum = {
    .name = "sum",
    .synopsis = "sum [-a ALGO] [-j N] [--format hex|base64] [--part-size SIZE] [FILE...]\n"
                "sum -c [-a ALGO] [--format hex|base64] [--part-size SIZE] LISTFILE",
    .about = "CRC of each input (\"-\" or none: standard input), or with -c verify them",
    .options = sum_options,
    .notes = "Exit status: 0 good, 1 a checksum did not verify, 2 bad usage or an input that\n"
             "could not be read (the other inputs are still processed).\n",
    .run = cmd_sum,
    .host_synopsis = "sum [-a ALGO] [-j N] [--format hex|base64] [--part-size SIZE] "
                     "[--scheduler ADDRESS] [FILE|URL...]\n"
                     "sum -c [-a ALGO] [--format hex|base64] [--part-size SIZE] LISTFILE",
    .host_notes =
        "A FILE may be a URL that fsspec opens (s3://, gs://, memory://, ...; credentials\n"
        "and endpoint as the SDK finds them, e.g. AWS_ENDPOINT_URL): each range of it is\n"
        "read and hashed by a task of its own (-j threads, or the --scheduler's workers).\n"
        "Local files are read here, as the C tool reads them.\n",
};

static int cmd_sum(int argc, char **argv)
{
    struct sum_options o = {{NULL, 1, 0, NULL}, VALUE_HEX};
    const char *algo = "crc32c";
    int verify = 0;
    enum progress_mode progress = PROGRESS_AUTO;
    struct cli_parser p;
    cli_parser_init(&p, &cli_sum, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        switch (c) {
        case 'c':
            verify = 1;
            break;
        case 'a':
            algo = optarg;
            break;
        case 'j':
            if (cli_parse_threads(optarg, &o.hash.threads) != 0)
                return EXIT_TROUBLE;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "hex") == 0) {
                o.format = VALUE_HEX;
            } else if (strcmp(optarg, "base64") == 0) {
                o.format = VALUE_BASE64;
            } else {
                cli_error("--format: '%s' is not hex or base64", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_PART_SIZE:
            if (cli_parse_size(optarg, &o.hash.part_size) != 0 || o.hash.part_size == 0) {
                cli_error("--part-size: '%s' is not a size of at least 1 byte (bytes, or with "
                          "K, M, G, T, KB.., KiB..; at most %d parts an input)",
                          optarg, MAX_PARTS);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_PROGRESS:
            progress = PROGRESS_ON;
            break;
        case OPT_NO_PROGRESS:
            progress = PROGRESS_OFF;
            break;
        case CLI_HELP:
            cli_print_help(cli_out(), &cli_sum);
            return EXIT_OK;
        default:
            return EXIT_TROUBLE;
        }
    }
    if (verify && argc - optind != 1) {
        cli_error("sum -c takes exactly one LISTFILE");
        return EXIT_TROUBLE;
    }
    o.hash.model = cli_model(algo);
    if (o.hash.model == NULL)
        return EXIT_TROUBLE;
    if (cli_host_start("sum") != 0) {
        cli_release_model(o.hash.model);
        return EXIT_TROUBLE;
    }
    o.hash.progress = progress_open(progress);
    int status = EXIT_OK;
    if (verify) {
        status = verify_list(argv[optind], &o);
    } else {
        static char *const stdin_only[] = {"-"};
        char *const *names = optind < argc ? argv + optind : stdin_only;
        int count = optind < argc ? argc - optind : 1;
        for (int k = 0; k < count && !cli_stopped(); k++) {
            struct hash_value v;
            if (hash_input(names[k], &o.hash, &v) != 0) {
                status = EXIT_TROUBLE;
                continue;
            }
            char text[VALUE_TEXT_SIZE];
            value_format(text, v.crc, crcforge_model_params(o.hash.model)->width, o.format,
                         v.parts);
            fprintf(cli_out(), "%s  %s\n", text, names[k]);
        }
    }
    progress_close(o.hash.progress);
    cli_release_model(o.hash.model);
    return status; /* the engine checks that standard output was written */
}
