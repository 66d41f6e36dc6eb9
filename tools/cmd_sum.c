/* SPDX-License-Identifier: MIT */
/* crcforge sum: CRCs of files or stdin for one or several algorithms in one read, whole or
 * as the composite of parts, printed as "VALUE  NAME" or tagged "ALGO (NAME) = VALUE"
 * lines; -c verifies such lists (tools/sum_check.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "sum.h"

void sum_tag(char *out, const struct cli_algo *algo, enum value_format format,
             uint64_t part_size)
{
    char name[ALGO_NAME_SIZE], size[SIZE_TEXT_SIZE] = "";
    cli_algo_name(algo, name);
    if (part_size != 0)
        cli_format_size(size, part_size);
    static const char *const suffix[] = {[VALUE_HEX] = "", [VALUE_BASE64] = "/base64",
                                         [VALUE_BASE64_LE] = "/base64-le"};
    snprintf(out, TAG_SIZE, "%s%s%s%s", name, suffix[format], part_size != 0 ? "/" : "", size);
}

/* One line of output: "VALUE  NAME", or tagged "ALGO (NAME) = VALUE"; a name holding a
 * newline, a backslash or a CR is escaped, and the line then starts with '\'. */
static void print_value(const char *name, const char *tag, uint64_t value, unsigned width,
                        enum value_format format, unsigned long parts)
{
    struct cli_stream *out = cli_out();
    char text[VALUE_TEXT_SIZE];
    value_format(text, value, width, format, parts);
    int escaped = name_needs_escape(name);
    if (escaped)
        cli_putc(out, '\\');
    if (tag != NULL) {
        cli_printf(out, "%s (", tag);
        name_write(out, name, escaped);
        cli_printf(out, ") = %s\n", text);
    } else {
        cli_printf(out, "%s  ", text);
        name_write(out, name, escaped);
        cli_putc(out, '\n');
    }
}

enum { OPT_FORMAT = CLI_LONG_ONLY, OPT_PART_SIZE, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_TAG,
       OPT_QUIET, OPT_STATUS, OPT_IGNORE_MISSING, OPT_STRICT };
enum { OPT_SCHEDULER = CLI_HOST_ONLY, OPT_TIMEOUT, OPT_DEADLINE };
static const struct cli_option sum_options[] = {
    {"algorithm", 'a', required_argument, "ALGO",
     "a catalogue name or alias, case-insensitive (default crc32c),\n"
     "width=..,poly=..,init=..,refin=..,refout=..,xorout=.., a line of\n"
     "`crcforge list`, or posix-cksum (what the cksum command prints);\n"
     "given several times, each input is read once for them all"},
    {"check", 'c', no_argument, NULL,
     "verify the lines of each LISTFILE (none: standard input)"},
    {"tag", OPT_TAG, no_argument, NULL,
     "print tagged lines, ALGO (NAME) = VALUE, as sha256sum --tag\n"
     "(the default with several -a)"},
    {"jobs", 'j', required_argument, "N",
     "hash a large file with N threads (1 to 64), joined with combine"},
    {"format", OPT_FORMAT, required_argument, "FORMAT",
     "hex (default); base64: the value's big-endian bytes, as\n"
     "S3 and GCS checksum headers carry them; base64-le: its\n"
     "little-endian bytes, as Azure's x-ms-content-crc64 (-a\n"
     "crc64-nvme) carries them"},
    {"part-size", OPT_PART_SIZE, required_argument, "SIZE",
     "the composite checksum S3 reports for a multipart upload in\n"
     "parts of SIZE bytes: the CRC of the parts' CRCs, then -PARTS;\n"
     "SIZE in bytes or with K, M, G, T, KB.., KiB.. (powers of 1024);\n"
     "at most 10000 parts"},
    {"quiet", OPT_QUIET, no_argument, NULL, "-c: print no OK line"},
    {"status", OPT_STATUS, no_argument, NULL, "-c: print nothing; the exit status says"},
    {"warn", 'w', no_argument, NULL, "-c: name every improperly formatted line"},
    {"strict", OPT_STRICT, no_argument, NULL, "-c: an improperly formatted line fails"},
    {"ignore-missing", OPT_IGNORE_MISSING, no_argument, NULL,
     "-c: skip listed files that do not exist"},
    {"progress", OPT_PROGRESS, no_argument, NULL,
     "show the progress of inputs that take more than a second on\n"
     "stderr (the default when stderr is a terminal)"},
    {"no-progress", OPT_NO_PROGRESS, no_argument, NULL, "never show it"},
    /* The host's (python -m crcforge): its values go to cli_hooks.option. */
    {"scheduler", OPT_SCHEDULER, required_argument, "ADDRESS",
     "hash the ranges of every URL on the Dask cluster whose\n"
     "scheduler is at ADDRESS (tcp://HOST:PORT); its workers open\n"
     "the URLs themselves, with their own credentials and endpoint"},
    CLI_TIMEOUT_OPTION(OPT_TIMEOUT),
    {"deadline", OPT_DEADLINE, required_argument, "SECONDS",
     "give up on a URL not read and hashed within SECONDS\n"
     "(default: no deadline)"},
    CLI_HELP_OPTION,
    {0},
};

static int cmd_sum(int argc, char **argv);

const struct cli_command cli_sum = {
    .name = "sum",
    .synopsis = "sum [-a ALGO]... [--tag] [-j N] [--format hex|base64|base64-le] "
                "[--part-size SIZE] [FILE...]\n"
                "sum -c [-a ALGO] [--format hex|base64|base64-le] [--part-size SIZE] "
                "[OPTION]... [LISTFILE...]",
    .about = "CRC of each input (\"-\" or none: standard input), or with -c verify them",
    .options = sum_options,
    .notes = "Lines are \"VALUE  NAME\", or tagged \"ALGO (NAME) = VALUE\" (with --tag, or several\n"
             "-a), ALGO being MODEL[/base64|/base64-le][/SIZE].  -c checks both kinds, as\n"
             "sha256sum -c does: a tagged line with its own algorithm, format and part size,\n"
             "the others with -a, --format and --part-size.\n"
             "\n"
             "Exit status: 0 good; 1 an input that could not be read (the others are still\n"
             "processed), or with -c a listed file that did not verify or could not be read,\n"
             "a list with no properly formatted line (with --strict, with any improperly\n"
             "formatted line), or one that could not be read; 2 bad usage.\n",
    .run = cmd_sum,
    .host_synopsis = "sum [-a ALGO]... [--tag] [-j N] [--format hex|base64|base64-le] "
                     "[--part-size SIZE] [--scheduler ADDRESS] [--timeout SECONDS] "
                     "[--deadline SECONDS] [FILE|URL...]\n"
                     "sum -c [-a ALGO] [--format hex|base64|base64-le] [--part-size SIZE] "
                     "[OPTION]... [LISTFILE...]",
    .host_notes =
        "A FILE may be a URL that fsspec opens (s3://, gs://, memory://, ...; credentials\n"
        "and endpoint as the SDK finds them, e.g. AWS_ENDPOINT_URL): each range of it is\n"
        "read and hashed by a task of its own (-j threads, or the --scheduler's workers),\n"
        "once for every -a.  Local files are read here, as the C tool reads them.  A URL\n"
        "whose request timed out in every attempt, or that was not done by its --deadline,\n"
        "is an input that could not be read.\n",
};

/* Every -a in order, each algorithm once (the first of the names that give it). */
static int read_algorithms(char **texts, unsigned ntexts, struct cli_algo *algos,
                           unsigned *count)
{
    *count = 0;
    for (unsigned i = 0; i < ntexts; i++) {
        struct cli_algo a;
        if (cli_algorithm(texts[i], &a) != 0)
            return -1;
        unsigned k = 0;
        while (k < *count && !cli_algo_equal(&algos[k], &a))
            k++;
        if (k < *count) {
            cli_algo_release(&a);
            continue;
        }
        if (*count == MAX_ALGOS) {
            cli_algo_release(&a);
            cli_error("sum: at most %d algorithms (-a) in one run", MAX_ALGOS);
            return -1;
        }
        algos[(*count)++] = a;
    }
    return 0;
}

/* The values of every input; the exit status. */
static int print_sums(char *const *names, int count, const struct hash_spec *spec,
                      enum value_format format, int tagged)
{
    char tags[MAX_ALGOS][TAG_SIZE];
    for (unsigned a = 0; a < spec->nalgos; a++)
        sum_tag(tags[a], &spec->algos[a], format, spec->part_size);
    int status = EXIT_OK;
    for (int k = 0; k < count && !cli_stopped(); k++) {
        struct hash_value v;
        if (hash_input(names[k], spec, &v) != HASH_OK) {
            status = EXIT_MISMATCH; /* as sha256sum: the others are still done */
            continue;
        }
        for (unsigned a = 0; a < spec->nalgos; a++)
            print_value(names[k], tagged ? tags[a] : NULL, v.crc[a],
                        crcforge_model_params(spec->algos[a].model)->width, format, v.parts);
    }
    return status;
}

static int cmd_sum(int argc, char **argv)
{
    struct check_options o = {{NULL, 0}, VALUE_HEX, 0, 1, NULL, CHECK_OUTPUT_ALL, 0, 0};
    char **algo_texts = calloc((size_t)argc, sizeof *algo_texts);
    unsigned ntexts = 0;
    int verify = 0, tag = 0;
    const char *check_only = NULL; /* the last option that means something to -c only */
    enum progress_mode progress = PROGRESS_AUTO;
    if (algo_texts == NULL) {
        cli_error("sum: %s", strerror(ENOMEM));
        return EXIT_TROUBLE;
    }
    int status = EXIT_TROUBLE;
    struct cli_parser p;
    cli_parser_init(&p, &cli_sum, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        switch (c) {
        case 'c':
            verify = 1;
            break;
        case 'a':
            algo_texts[ntexts++] = optarg;
            break;
        case 'j':
            if (cli_parse_threads(optarg, &o.threads) != 0)
                goto out;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "hex") == 0) {
                o.format = VALUE_HEX;
            } else if (strcmp(optarg, "base64") == 0) {
                o.format = VALUE_BASE64;
            } else if (strcmp(optarg, "base64-le") == 0) {
                o.format = VALUE_BASE64_LE;
            } else {
                cli_error("--format: '%s' is not hex, base64 or base64-le", optarg);
                goto out;
            }
            break;
        case OPT_PART_SIZE:
            if (cli_parse_size(optarg, &o.part_size) != 0 || o.part_size == 0) {
                cli_error("--part-size: '%s' is not a size of at least 1 byte (bytes, or with "
                          "K, M, G, T, KB.., KiB..; at most %d parts an input)",
                          optarg, MAX_PARTS);
                goto out;
            }
            break;
        case OPT_TAG:
            tag = 1;
            break;
        case OPT_QUIET:
        case OPT_STATUS:
        case 'w':
            o.output = c == OPT_QUIET ? CHECK_OUTPUT_QUIET
                       : c == 'w'     ? CHECK_OUTPUT_WARN
                                      : CHECK_OUTPUT_STATUS;
            check_only = c == OPT_QUIET ? "--quiet" : c == 'w' ? "--warn" : "--status";
            break;
        case OPT_STRICT:
            o.strict = 1;
            check_only = "--strict";
            break;
        case OPT_IGNORE_MISSING:
            o.ignore_missing = 1;
            check_only = "--ignore-missing";
            break;
        case OPT_PROGRESS:
            progress = PROGRESS_ON;
            break;
        case OPT_NO_PROGRESS:
            progress = PROGRESS_OFF;
            break;
        case CLI_HELP:
            cli_print_help(cli_out(), &cli_sum);
            status = EXIT_OK;
            goto out;
        default:
            goto out;
        }
    }
    if (!verify && check_only != NULL) {
        cli_error("sum: %s means something only with -c (verifying lists)", check_only);
        goto out;
    }
    if (verify && tag) {
        cli_error("sum: --tag is for writing lists, not with -c (tagged lines are read as "
                  "they are)");
        goto out;
    }
    struct cli_algo algos[MAX_ALGOS];
    unsigned nalgos = 0;
    static char *default_algo[] = {"crc32c"};
    if (read_algorithms(ntexts > 0 ? algo_texts : default_algo, ntexts > 0 ? ntexts : 1, algos,
                        &nalgos) != 0)
        goto release;
    if (verify && nalgos > 1) {
        cli_error("sum -c: one -a at most: it names the algorithm of the untagged lines "
                  "(tagged lines name their own)");
        goto release;
    }
    if (o.format == VALUE_BASE64_LE && o.part_size != 0) {
        cli_error("sum: %s", NO_COMPOSITE_LE);
        goto release;
    }
    for (unsigned a = 0; a < nalgos; a++) {
        if (algos[a].posix_cksum && o.part_size != 0) {
            cli_error("sum: posix-cksum has no composite form (--part-size)");
            goto release;
        }
    }
    if (cli_host_start("sum") != 0)
        goto release;
    o.progress = progress_open(progress);
    static char *const stdin_only[] = {"-"};
    char *const *names = optind < argc ? argv + optind : stdin_only;
    int count = optind < argc ? argc - optind : 1;
    if (verify) {
        o.algo = algos[0];
        status = EXIT_OK;
        for (int k = 0; k < count && !cli_stopped(); k++)
            if (!sum_check(names[k], &o))
                status = EXIT_MISMATCH;
    } else {
        struct hash_spec spec = {algos, nalgos, o.threads, o.part_size, o.progress, 0};
        status = print_sums(names, count, &spec, o.format, tag || nalgos > 1);
    }
    progress_close(o.progress);
release:
    for (unsigned a = 0; a < nalgos; a++)
        cli_algo_release(&algos[a]);
out:
    free(algo_texts);
    return status; /* the engine checks that standard output was written */
}
