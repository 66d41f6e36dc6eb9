/* crcforge sum: CRC of files or stdin, and -c verification of "HEX  NAME" lists. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Memory stays bounded whatever the input size.  128 KiB, not more: on the AMD EPYC this
 * was measured on, 256 KiB reads of a page-cached file cost 3-4 times more kernel time
 * per byte (the copy's destination no longer stays in L2), and sum -j 1 on a 256 MiB
 * file took 170-220 ms of CPU instead of 50-55 ms (`perf stat -e task-clock`). */
#define READ_BUFFER (128 * 1024)
#define PARALLEL_MIN (8u << 20)  /* below this, threads cost more than they save */
#define MAX_THREADS 64

enum format { FORMAT_HEX, FORMAT_BASE64 };

struct sum_options {
    const crcforge_model *model;
    enum format format;
    unsigned threads;
};

/* CRC of [off, off+len) of fd, or of everything until EOF when len is -1. */
static int crc_of_range(int fd, const crcforge_model *m, off_t off, long long len,
                        uint64_t *crc)
{
    uint8_t *buf = malloc(READ_BUFFER);
    if (buf == NULL) {
        errno = ENOMEM;
        return -1;
    }
    crcforge_state st;
    crcforge_init(&st, m);
    int err = 0;
    while (len != 0) {
        size_t want = READ_BUFFER;
        if (len > 0 && (long long)want > len)
            want = (size_t)len;
        ssize_t got = len >= 0 ? pread(fd, buf, want, off) : read(fd, buf, want);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            break;
        }
        if (got == 0) {
            if (len > 0)
                err = EIO; /* the file shrank under us */
            break;
        }
        crcforge_update(&st, buf, (size_t)got);
        off += got;
        if (len > 0)
            len -= got;
    }
    free(buf);
    *crc = crcforge_final(&st);
    errno = err;
    return err ? -1 : 0;
}

struct chunk {
    int fd;
    const crcforge_model *model;
    off_t off;
    long long len;
    uint64_t crc;
    int err;
};

static void *chunk_worker(void *arg)
{
    struct chunk *c = arg;
    c->err = crc_of_range(c->fd, c->model, c->off, c->len, &c->crc) == 0 ? 0 : errno;
    return NULL;
}

/* Splits a regular file into `threads` ranges hashed at once (the first on this
 * thread), joined in order with combine.  Each worker reads through its own bounded
 * buffer, so memory stays threads x READ_BUFFER whatever the size. */
static int crc_parallel(int fd, const crcforge_model *m, long long size, unsigned threads,
                        uint64_t *crc)
{
    struct chunk chunks[MAX_THREADS];
    pthread_t tids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    long long step = size / threads;
    for (unsigned i = 0; i < threads; i++) {
        chunks[i] = (struct chunk){fd, m, (off_t)(step * i),
                                   i + 1 == threads ? size - step * i : step, 0, 0};
        if (i > 0)
            started[i] = pthread_create(&tids[i], NULL, chunk_worker, &chunks[i]) == 0;
    }
    chunk_worker(&chunks[0]);
    uint64_t total = chunks[0].crc;
    int err = chunks[0].err;
    for (unsigned i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(tids[i], NULL);
        else
            chunk_worker(&chunks[i]); /* no thread to be had: do it here */
        if (chunks[i].err && !err)
            err = chunks[i].err;
        total = crcforge_combine(m, total, chunks[i].crc, (uint64_t)chunks[i].len);
    }
    *crc = total;
    errno = err;
    return err ? -1 : 0;
}

/* CRC of a named input ("-" is stdin); on failure prints the reason and returns -1. */
static int crc_of_input(const char *name, const struct sum_options *o, uint64_t *crc)
{
    int fd = strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY);
    if (fd < 0) {
        cli_error("%s: %s", name, strerror(errno));
        return -1;
    }
    struct stat sb;
    int rc;
    if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        errno = EISDIR;
        rc = -1;
    } else if (o->threads > 1 && fd != STDIN_FILENO && S_ISREG(sb.st_mode) &&
               sb.st_size >= (off_t)PARALLEL_MIN) {
        rc = crc_parallel(fd, o->model, (long long)sb.st_size, o->threads, crc);
    } else {
        rc = crc_of_range(fd, o->model, 0, -1, crc);
    }
    int saved = errno;
    if (fd != STDIN_FILENO)
        close(fd);
    if (rc != 0)
        cli_error("%s: %s", name, strerror(saved));
    return rc;
}

static void format_value(char *out, uint64_t crc, const struct sum_options *o)
{
    unsigned width = crcforge_model_params(o->model)->width;
    if (o->format == FORMAT_BASE64)
        cli_format_base64(out, crc, width);
    else
        cli_format_hex(out, crc, width);
}

/* Whether the len bytes at v are a value as format_value prints it for this model:
 * exactly ceil(width/4) hex digits (either case), or the base64 of its bytes. */
static int well_formed_value(const char *v, size_t len, const struct sum_options *o)
{
    char shape[32];
    format_value(shape, 0, o);
    if (len != strlen(shape))
        return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)v[i];
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
    FILE *list = strcmp(listname, "-") == 0 ? stdin : fopen(listname, "r");
    if (list == NULL) {
        cli_error("%s: %s", listname, strerror(errno));
        return EXIT_TROUBLE;
    }
    int status = EXIT_OK;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long lineno = 0, checked = 0;
    while ((n = getline(&line, &cap, list)) >= 0) {
        lineno++;
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        if (n > 0 && line[n - 1] == '\r') /* a list written with CRLF line endings */
            line[--n] = '\0';
        if (n == 0)
            continue;
        /* A NUL would cut the name short: the line is not what it seems. */
        char *sep = strlen(line) == (size_t)n ? strstr(line, "  ") : NULL;
        if (sep == NULL || sep[2] == '\0' || !well_formed_value(line, (size_t)(sep - line), o)) {
            char shape[32];
            format_value(shape, 0, o);
            cli_error("%s:%lu: improperly formatted line (expected \"VALUE  NAME\", VALUE "
                      "%zu %s)", listname, lineno, strlen(shape),
                      o->format == FORMAT_HEX ? "hex digits" : "base64 characters");
            status = EXIT_TROUBLE;
            continue;
        }
        *sep = '\0';
        const char *name = sep + 2;
        checked++;
        uint64_t crc;
        if (crc_of_input(name, o, &crc) != 0) {
            status = EXIT_TROUBLE;
            continue;
        }
        char actual[32];
        format_value(actual, crc, o);
        int ok = o->format == FORMAT_HEX ? strcasecmp(actual, line) == 0
                                         : strcmp(actual, line) == 0;
        printf("%s: %s\n", name, ok ? "OK" : "FAILED");
        if (!ok && status == EXIT_OK)
            status = EXIT_MISMATCH;
    }
    if (ferror(list)) {
        cli_error("%s: %s", listname, strerror(errno));
        status = EXIT_TROUBLE;
    } else if (checked == 0) {
        /* Nothing verified is not a success: the wrong or an empty file was given. */
        cli_error("%s: no checksum lines found", listname);
        status = EXIT_TROUBLE;
    }
    free(line);
    if (list != stdin)
        fclose(list);
    return status;
}

enum { OPT_FORMAT = CLI_LONG_ONLY };
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
    CLI_HELP_OPTION,
    {0},
};

static int cmd_sum(int argc, char **argv);

const struct cli_command cli_sum = {
    "sum",
    "sum [-a ALGO] [-j N] [--format hex|base64] [FILE...]\n"
    "sum -c [-a ALGO] [--format hex|base64] LISTFILE",
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
    struct sum_options o = {NULL, FORMAT_HEX, 1};
    const char *algo = "crc32c";
    int verify = 0;
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
            o.threads = (unsigned)n;
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
        case CLI_HELP:
            cli_print_help(stdout, &cli_sum);
            return EXIT_OK;
        default:
            return EXIT_TROUBLE;
        }
    }
    int i = optind;
    o.model = cli_model(algo);
    if (o.model == NULL)
        return EXIT_TROUBLE;
    int status = EXIT_OK;
    if (verify) {
        if (argc - i != 1) {
            cli_error("sum -c takes exactly one LISTFILE");
            status = EXIT_TROUBLE;
        } else {
            status = verify_list(argv[i], &o);
        }
    } else {
        static char *const stdin_only[] = {"-"};
        char *const *names = i < argc ? argv + i : stdin_only;
        int count = i < argc ? argc - i : 1;
        for (int k = 0; k < count; k++) {
            uint64_t crc;
            if (crc_of_input(names[k], &o, &crc) != 0) {
                status = EXIT_TROUBLE;
                continue;
            }
            char text[32];
            format_value(text, crc, &o);
            printf("%s  %s\n", text, names[k]);
        }
    }
    cli_release_model(o.model);
    return status; /* main checks that standard output was written */
}
