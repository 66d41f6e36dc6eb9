/* SPDX-License-Identifier: MIT */
/* Option tables read with getopt_long, the help printed from them, and -j's thread count. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "options.h"

int cli_option_live(const struct cli_option *o)
{
    return o->key < CLI_HOST_ONLY || cli_extended();
}

int cli_command_live(const struct cli_command *cmd)
{
    return !cmd->host || cli_extended();
}

void cli_parser_init(struct cli_parser *p, const struct cli_command *cmd, int argc,
                     char **argv)
{
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    char *s = p->shortopts;
    /* POSIXLY_CORRECT as '+' (the first operand ends the options), read here rather than
     * left to getopt: MinGW-w64's getopt reads it with getenv_s(&n, NULL, 0, ...), which
     * Wine answers with ERANGE, so it was never seen there. */
    if (cmd->order != 0)
        *s++ = cmd->order;
    else if (getenv("POSIXLY_CORRECT") != NULL)
        *s++ = '+';
    *s++ = ':';     /* a missing value is told apart from an unknown option */
    size_t n = 0;
    for (const struct cli_option *o = cmd->options; o->name != NULL; o++) {
        if (!cli_option_live(o))
            continue;
        p->longopts[n++] = (struct option){o->name, o->has_arg, NULL, o->key};
        if (o->key < CLI_LONG_ONLY) {
            *s++ = (char)o->key;
            if (o->has_arg != no_argument)
                *s++ = ':';
            if (o->has_arg == optional_argument)
                *s++ = ':';
        }
    }
    *s = '\0';
    p->longopts[n] = (struct option){NULL, 0, NULL, 0};
    opterr = 0;
    /* A fresh scan, as glibc does it only from 0: the ordering ('-', '+') and
     * POSIXLY_CORRECT are read again, and nothing of a scan before is left (a run in
     * the Python extension follows others in the same process). */
    optind = 0;
}

/* "crcforge: sum: MESSAGE" (no command name before the command). */
__attribute__((format(printf, 2, 3))) static void option_error(const struct cli_parser *p,
                                                               const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    const char *name = p->cmd->name;
    cli_error("%s%s%s", name, *name ? ": " : "", message);
}

/* "unknown option '-x' (see crcforge sum --help)", or the command's own hint. */
static void report_unknown(const struct cli_parser *p, int len, const char *typed)
{
    const char *name = p->cmd->name;
    if (p->cmd->unknown_hint != NULL)
        option_error(p, "unknown option '%.*s' (%s)", len, typed, p->cmd->unknown_hint);
    else
        option_error(p, "unknown option '%.*s' (see %s%s%s --help)", len, typed,
                     cli_program(), *name ? " " : "", name);
}

static const struct cli_option *option_of_key(const struct cli_command *cmd, int key)
{
    for (const struct cli_option *o = cmd->options; o->name != NULL; o++)
        if (o->key == key && cli_option_live(o))
            return o;
    return NULL;
}

/* A long option as typed ("--form=x"), when getopt could not use it: unknown, a prefix
 * of several names, or given a value it does not take. */
static void report_long(const struct cli_parser *p, const char *typed, int c)
{
    size_t len = strcspn(typed + 2, "=");
    if (c == ':') {
        option_error(p, "option '%.*s' needs a value", (int)(len + 2), typed);
        return;
    }
    if (optopt != 0) {
        option_error(p, "option '--%s' takes no value ('%s')",
                     option_of_key(p->cmd, optopt)->name, typed);
        return;
    }
    unsigned matches = 0;
    for (const struct cli_option *o = p->cmd->options; o->name != NULL; o++)
        matches += cli_option_live(o) && strncmp(o->name, typed + 2, len) == 0;
    if (matches > 1) {
        char names[256] = "";
        for (const struct cli_option *o = p->cmd->options; o->name != NULL; o++)
            if (cli_option_live(o) && strncmp(o->name, typed + 2, len) == 0)
                snprintf(names + strlen(names), sizeof names - strlen(names), " --%s",
                         o->name);
        option_error(p, "option '%.*s' is ambiguous (it begins:%s)", (int)(len + 2), typed,
                     names);
        return;
    }
    report_unknown(p, (int)(len + 2), typed);
}

/* A host option is handed to the host here, and the scan goes on: the commands see only
 * their own options. */
static int hand_to_host(const struct cli_parser *p, const struct cli_option *o)
{
    const struct cli_hooks *h = cli_hooks();
    return cli_host_message(h->option(h->ctx, p->cmd->name, o->name, optarg));
}

int cli_next_option(struct cli_parser *p)
{
    int c;
    const struct cli_option *o;
    while ((c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL)) != -1 &&
           c >= CLI_HOST_ONLY && (o = option_of_key(p->cmd, c)) != NULL)
        if (hand_to_host(p, o) != 0)
            return CLI_BAD;
    if (c != '?' && c != ':')
        return c;
    /* After a long option getopt has stepped past it, so it is the last argument read;
     * a short letter is named by optopt.  A '?' for a letter of the table can only be its
     * long name given a value it does not take. */
    const char *last = p->argv[optind - 1];
    int is_long = strncmp(last, "--", 2) == 0 && last[2] != '\0' &&
                  (c == ':' || optopt == 0 || option_of_key(p->cmd, optopt) != NULL);
    if (is_long) {
        report_long(p, last, c);
    } else if (c == ':') {
        option_error(p, "option '-%c' needs a value", optopt);
    } else {
        char letter[3] = {'-', (char)optopt, '\0'};
        report_unknown(p, 2, letter);
    }
    return CLI_BAD;
}

/* "  -a, --algorithm=ALGO" and the help beside it, its further lines below. */
static void print_option(struct cli_stream *out, const struct cli_option *o)
{
    enum { COLUMN = 26 };
    char left[96];
    int n = o->key < CLI_LONG_ONLY ? snprintf(left, sizeof left, "  -%c, --%s", o->key, o->name)
                                   : snprintf(left, sizeof left, "      --%s", o->name);
    if (o->value != NULL)
        snprintf(left + n, sizeof left - (size_t)n,
                 o->has_arg == optional_argument ? "[=%s]" : "=%s", o->value);
    cli_puts(out, left);
    int col = (int)strlen(left);
    if (col >= COLUMN - 1) {
        cli_putc(out, '\n');
        col = 0;
    }
    for (const char *line = o->help; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        cli_printf(out, "%*s%.*s\n", COLUMN - col, "", (int)len, line);
        col = 0;
        line += len + (line[len] == '\n');
    }
}

static void print_synopsis(struct cli_stream *out, const struct cli_command *cmd,
                           const char *first, const char *others)
{
    const char *line =
        cli_extended() && cmd->host_synopsis != NULL ? cmd->host_synopsis : cmd->synopsis;
    for (int i = 0; *line != '\0'; i++) {
        size_t len = strcspn(line, "\n");
        cli_printf(out, "%s%s %.*s\n", i == 0 ? first : others, cli_program(), (int)len, line);
        line += len + (line[len] == '\n');
    }
}

void cli_print_help(struct cli_stream *out, const struct cli_command *cmd)
{
    print_synopsis(out, cmd, "usage: ", "       ");
    cli_printf(out, "%s\n\noptions:\n", cmd->about);
    for (const struct cli_option *o = cmd->options; o->name != NULL; o++)
        if (cli_option_live(o))
            print_option(out, o);
    if (cli_extended() && cmd->host_notes != NULL)
        cli_printf(out, "\n%s", cmd->host_notes);
    if (cmd->notes != NULL)
        cli_printf(out, "\n%s", cmd->notes);
}

void cli_print_commands(struct cli_stream *out, const struct cli_command *const *cmds,
                        size_t count)
{
    cli_printf(out, "usage: %s COMMAND [OPTION]... [ARG]...\n", cli_program());
    for (size_t i = 0; i < count; i++)
        cli_printf(out, "  %-9s %s\n", cmds[i]->name, cmds[i]->about);
    cli_puts(out, "\n");
    for (size_t i = 0; i < count; i++)
        print_synopsis(out, cmds[i], "  ", "  ");
    cli_printf(out, "\n`%s COMMAND --help` describes a command's options.\n", cli_program());
}

int cli_parse_threads(const char *s, unsigned *threads)
{
    unsigned long long n;
    if (cli_parse_count(s, 1, MAX_THREADS, &n) != 0) {
        cli_error("-j: '%s' is not a thread count from 1 to %d", s, MAX_THREADS);
        return -1;
    }
    *threads = (unsigned)n;
    return 0;
}
