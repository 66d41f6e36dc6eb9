/* SPDX-License-Identifier: MIT */
/* One run of the tool for its host: the options before the command, the command, the
 * messages, Ctrl-C, and the check of standard output at the end. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* The run under way (one at a time: getopt's state is global anyway). */
static const struct cli_host *host;
static pthread_t run_thread;
static atomic_int stopped;
static struct timespec last_asked;

/* How often a running command asks the host whether to stop: a Ctrl-C is seen within
 * this, and asking (the GIL, in Python) costs nothing next to the reads between. */
#define ASK_EVERY_NS (20 * 1000 * 1000)

struct cli_stream *cli_out(void)
{
    return host->out;
}

struct cli_stream *cli_err(void)
{
    return host->err;
}

int cli_stdin(void)
{
    return host->in;
}

int cli_err_fd(void)
{
    return host->err_fd;
}

const char *cli_program(void)
{
    return host->program;
}

const struct cli_hooks *cli_hooks(void)
{
    return host->hooks;
}

int cli_extended(void)
{
    return host->hooks != NULL && host->hooks->option != NULL;
}

int cli_stopped(void)
{
    return atomic_load_explicit(&stopped, memory_order_relaxed);
}

void cli_stop(void)
{
    atomic_store(&stopped, 1);
}

int cli_interrupted(int at_once)
{
    if (cli_stopped())
        return 1;
    const struct cli_hooks *h = host->hooks;
    if (h == NULL || h->interrupted == NULL || !pthread_equal(pthread_self(), run_thread))
        return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long since = (long long)(now.tv_sec - last_asked.tv_sec) * 1000000000 +
                      (now.tv_nsec - last_asked.tv_nsec);
    if (!at_once && since < ASK_EVERY_NS)
        return 0;
    last_asked = now;
    if (h->interrupted(h->ctx))
        atomic_store(&stopped, 1);
    return cli_stopped();
}

void cli_error(const char *fmt, ...)
{
    if (cli_stopped())
        return;
    /* The whole line in one write, so that threads' messages never mix. */
    char small[1024], *line = small;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small + 10, sizeof small - 11, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n + 11 >= sizeof small && (line = malloc((size_t)n + 12)) != NULL) {
        va_start(ap, fmt);
        vsnprintf(line + 10, (size_t)n + 1, fmt, ap);
        va_end(ap);
    } else if (line == NULL) {
        line = small; /* cut short rather than lost */
        n = (int)sizeof small - 12;
    }
    memcpy(line, "crcforge: ", 10);
    line[10 + n] = '\n';
    cli_write(cli_err(), line, (size_t)n + 11);
    cli_flush(cli_err());
    if (line != small)
        free(line);
}

int cli_host_message(char *message)
{
    if (message == NULL)
        return 0;
    cli_error("%s", message);
    free(message);
    return -1;
}

int cli_host_start(const char *command)
{
    const struct cli_hooks *h = host->hooks;
    return h != NULL && h->start != NULL ? cli_host_message(h->start(h->ctx, command)) : 0;
}

static const struct cli_command *const own_commands[] = {&cli_sum, &cli_list, &cli_cpu,
                                                         &cli_keyslot, &cli_verify};
enum { NOWN = sizeof own_commands / sizeof own_commands[0], MAX_COMMANDS = 16 };

/* The commands of this run, the host's extras after the engine's; their count. */
static size_t live_commands(const struct cli_command **out)
{
    size_t n = 0;
    for (size_t i = 0; i < NOWN + host->nextra && n < MAX_COMMANDS; i++) {
        const struct cli_command *c = i < NOWN ? own_commands[i] : host->extra[i - NOWN];
        if (cli_command_live(c))
            out[n++] = c;
    }
    return n;
}

/* The options before the command. */
enum { OPT_VERSION = CLI_LONG_ONLY };
static const struct cli_option main_options[] = {
    CLI_HELP_OPTION,
    {"version", OPT_VERSION, no_argument, NULL, "print the version and exit"},
    {0},
};
/* '+': the first operand is the command, and what follows it is the command's. */
static const struct cli_command cli_main = {
    .name = "", .synopsis = "COMMAND [OPTION]... [ARG]...", .about = "",
    .options = main_options, .order = '+'};

static void usage(struct cli_stream *out)
{
    const struct cli_command *commands[MAX_COMMANDS];
    cli_print_commands(out, commands, live_commands(commands));
    cli_puts(out, "ALGO is a catalogue name or alias (default crc32c), or width=..,poly=..,"
                  "init=..,\nrefin=..,refout=..,xorout=.. for a custom model.\n");
}

static int run_command(int argc, char **argv)
{
    struct cli_parser p;
    cli_parser_init(&p, &cli_main, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        if (c == CLI_HELP) {
            usage(cli_out());
            return EXIT_OK;
        }
        if (c == OPT_VERSION) {
            cli_puts(cli_out(), "crcforge " CRCFORGE_VERSION "\n");
            return EXIT_OK;
        }
        usage(cli_err()); /* CLI_BAD: the mistake was named */
        return EXIT_TROUBLE;
    }
    if (optind == argc) {
        usage(cli_err());
        return EXIT_TROUBLE;
    }
    const char *impl = getenv("CRCFORGE_IMPL");
    const char *why = NULL;
    if (impl != NULL && *impl != '\0' && crcforge_impl_force(impl, &why) != 0) {
        cli_error("CRCFORGE_IMPL=%s: %s", impl, why);
        return EXIT_TROUBLE;
    }
    const char *name = argv[optind];
    const struct cli_command *commands[MAX_COMMANDS];
    for (size_t i = 0, n = live_commands(commands); i < n; i++) {
        if (strcmp(name, commands[i]->name) != 0)
            continue;
        /* The library never prints: what it could not use in the environment is said
         * here, as warnings (a bad CRCFORGE_IMPL was a usage error above). */
        const crcforge_env_problem *e;
        for (size_t k = 0; !commands[i]->passes_on && (e = crcforge_env_problem_at(k)) != NULL;
             k++)
            if (strcmp(e->variable, "CRCFORGE_IMPL") != 0)
                cli_error("warning: %s=%s: %s; %s", e->variable, e->value, e->problem,
                          e->instead);
        return commands[i]->run(argc - optind, argv + optind);
    }
    cli_error("unknown command '%s'", name);
    usage(cli_err());
    return EXIT_TROUBLE;
}

/* Output that could not be written is a failure, whatever the command: standard output
 * is flushed and checked once here, after the command returned. */
static int finish_output(int status)
{
    errno = 0;
    if (cli_flush(cli_out()) != 0) {
        cli_error("standard output: %s", strerror(errno ? errno : EIO));
        return EXIT_TROUBLE;
    }
    return status;
}

int cli_run(const struct cli_host *h, int argc, char **argv)
{
    host = h;
    run_thread = pthread_self();
    atomic_store(&stopped, 0);
    clock_gettime(CLOCK_MONOTONIC, &last_asked);
    int status = finish_output(run_command(argc, argv));
    return cli_stopped() ? EXIT_TROUBLE : status;
}
