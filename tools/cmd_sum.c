/* crcforge sum: CRC of files or stdin, whole or as the composite of parts, and -c
 * verification of "VALUE  NAME" lists. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "input.h"
#include "lines.h"
#include "progress.h"

enum format { FORMAT_HEX, FORMAT_BASE64 };

struct sum_options {
    struct hash_spec hash;
    enum format format;
};

/* The value as printed: hex or base64, and with parts "-N". */
static void format_value(char *out, const struct hash_value *v, const struct sum_options *o)
{
    unsigned width = crcforge_model_params(o->hash.model)->width;
    if (o->format == FORMAT_BASE64)
        cli_format_base64(out, v->crc, width);
    else
        cli_format_hex(out, v->crc, width);
    if (o->hash.part_size != 0)
        sprintf(out + strlen(out), "-%lu", v->parts);
}

/* Whether the len bytes at text are a value as format_value prints it for this model:
 * exactly ceil(width/4) hex digits (either case), or the base64 of its bytes; with parts,
 * then "-" and a count of parts (digits, no leading zero). */
static int well_formed_value(const char *text, size_t len, const struct sum_options *o)
{
    char shape[48];
    struct hash_value zero = {0, 1};
    format_value(shape, &zero, o);
    size_t value_len = strcspn(shape, "-");
    if (o->hash.part_size != 0) {
        if (len <= value_len + 1 || len > value_len + 6 || text[value_len] != '-' ||
            text[value_len + 1] == '0')
            return 0;
        for (size_t i = value_len + 1; i < len; i++)
            if (text[i] < '0' || text[i] > '9')
                return 0;
    } else if (len != value_len) {
        return 0;
    }
    for (size_t i = 0; i < value_len; i++) {
        unsigned char c = (unsigned char)text[i];
        int ok = o->format == FORMAT_HEX ? isxdigit(c)
                 : shape[i] == '='       ? c == '='
                                         : isalnum(c) || c == '+' || c == '/';
        if (!ok)
            return 0;
    }
    return 1;
}

/* Reads "VALUE  NAME" lines and checks each; returns the exit status. */
static int verify_list(const char *listname, const struct sum_options *o)
{
    struct lines list;
    if (lines_open(&list, listname) != 0) {
        cli_error("%s: %s", listname, strerror(errno));
        return EXIT_TROUBLE;
    }
    int status = EXIT_OK;
    char *line;
    ssize_t n;
    unsigned long lineno = 0, checked = 0;
    while ((n = lines_next(&list, &line)) >= 0) {
        lineno++;
        if (n > 0 && line[n - 1] == '\r') /* a list written with CRLF line endings */
            line[--n] = '\0';
        if (n == 0)
            continue;
        /* A NUL would cut the name short: the line is not what it seems. */
        char *sep = strlen(line) == (size_t)n ? strstr(line, "  ") : NULL;
        if (sep == NULL || sep[2] == '\0' || !well_formed_value(line, (size_t)(sep - line), o)) {
            char shape[48];
            struct hash_value zero = {0, 1};
            format_value(shape, &zero, o);
            cli_error("%s:%lu: improperly formatted line (expected \"VALUE  NAME\", VALUE "
                      "%zu %s%s)", listname, lineno, strcspn(shape, "-"),
                      o->format == FORMAT_HEX ? "hex digits" : "base64 characters",
                      o->hash.part_size != 0 ? " then -PARTS" : "");
            status = EXIT_TROUBLE;
            continue;
        }
        *sep = '\0';
        const char *name = sep + 2;
        checked++;
        struct hash_value v;
        if (hash_input(name, &o->hash, &v) != 0) {
            status = EXIT_TROUBLE;
            continue;
        }
        char actual[48];
        format_value(actual, &v, o);
        int ok = o->format == FORMAT_HEX ? strcasecmp(actual, line) == 0
                                         : strcmp(actual, line) == 0;
        printf("%s: %s\n", name, ok ? "OK" : "FAILED");
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
    CLI_HELP_OPTION,
    {0},
};

static int cmd_sum(int argc, char **argv);

const struct cli_command cli_sum = {
    "sum",
    "sum [-a ALGO] [-j N] [--format hex|base64] [--part-size SIZE] [FILE...]\n"
    "sum -c [-a ALGO] [--format hex|base64] [--part-size SIZE] LISTFILE",
    "CRC of each input (\"-\" or none: standard input), or with -c verify them",
    sum_options,
    "Exit status: 0 good, 1 a checksum did not verify, 2 bad usage or an input that\n"
    "could not be read (the other inputs are still processed).\n",
    NULL,
    0,
    cmd_sum,
};

static int cmd_sum(int argc, char **argv)
{
    struct sum_options o = {{NULL, 1, 0, NULL}, FORMAT_HEX};
    const char *algo = "crc32c";
    int verify = 0;
    enum progress_mode progress = PROGRESS_AUTO;
    unsigned long long n;
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
            if (cli_parse_count(optarg, 1, MAX_THREADS, &n) != 0) {
                cli_error("-j: '%s' is not a thread count from 1 to %d", optarg, MAX_THREADS);
                return EXIT_TROUBLE;
            }
            o.hash.threads = (unsigned)n;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "hex") == 0) {
                o.format = FORMAT_HEX;
            } else if (strcmp(optarg, "base64") == 0) {
                o.format = FORMAT_BASE64;
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
            cli_print_help(stdout, &cli_sum);
            return EXIT_OK;
        default:
            return EXIT_TROUBLE;
        }
    }
    o.hash.model = cli_model(algo);
    if (o.hash.model == NULL)
        return EXIT_TROUBLE;
    o.hash.progress = progress_open(progress);
    int status = EXIT_OK;
    if (verify) {
        if (argc - optind != 1) {
            cli_error("sum -c takes exactly one LISTFILE");
            status = EXIT_TROUBLE;
        } else {
            status = verify_list(argv[optind], &o);
        }
    } else {
        static char *const stdin_only[] = {"-"};
        char *const *names = optind < argc ? argv + optind : stdin_only;
        int count = optind < argc ? argc - optind : 1;
        for (int k = 0; k < count; k++) {
            struct hash_value v;
            if (hash_input(names[k], &o.hash, &v) != 0) {
                status = EXIT_TROUBLE;
                continue;
            }
            char text[48];
            format_value(text, &v, &o);
            printf("%s  %s\n", text, names[k]);
        }
    }
    progress_close(o.hash.progress);
    cli_release_model(o.hash.model);
    return status; /* main checks that standard output was written */
}
