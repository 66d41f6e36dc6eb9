/* SPDX-License-Identifier: MIT */
/* Options of the crcforge commands: one table per command drives getopt_long and the
 * help text, so that every GNU spelling works (--opt=value, --opt value, unique prefixes
 * of long names, -j2, bundled short options, "--", POSIXLY_CORRECT) and the help cannot
 * drift from what is parsed.  The options python -m crcforge adds (--scheduler, ...) are
 * in the same tables, with keys from CLI_HOST_ONLY: parsed by the same rules, their
 * values handed to the host (cli_hooks.option), and absent from the C tool. */
#ifndef CRCFORGE_OPTIONS_H
#define CRCFORGE_OPTIONS_H

#include <getopt.h>
#include <stddef.h>

#include "sizes.h"
#include "stream.h"

/* Keys of long-only options start here, above every short letter. */
#define CLI_LONG_ONLY 256
/* Keys of the host's options (python -m crcforge only) start here: parsed with the
 * others, each handed to the host as it comes (cli_hooks.option). */
#define CLI_HOST_ONLY 512
/* The table size a command may use, its terminator not counted. */
#define CLI_MAX_OPTIONS 24

struct cli_option {
    const char *name; /* long name, without "--" */
    int key;          /* its short letter, or CLI_LONG_ONLY + n, or CLI_HOST_ONLY + n */
    int has_arg;      /* no_argument, required_argument or optional_argument */
    const char *value; /* the value's name in the help ("ALGO"), NULL without a value */
    const char *help;  /* what it does; a '\n' starts another line of it */
};

/* The help option every command has: its key comes back as CLI_HELP. */
#define CLI_HELP_OPTION {"help", 'h', no_argument, NULL, "show this help and exit"}

struct cli_command {
    const char *name;
    const char *synopsis;     /* usage lines after the program's name, '\n'-separated */
    const char *about;        /* one line for the list of commands */
    const struct cli_option *options; /* ends with {0} */
    const char *notes;        /* text after the options in the help, or NULL */
    const char *unknown_hint; /* added to an unknown option's message, or NULL */
    char order;               /* getopt's: 0 options anywhere (permuted), '-' operands
                                 come back in place as CLI_OPERAND, '+' options end at
                                 the first operand */
    int (*run)(int argc, char **argv);
    int passes_on; /* runs another program of the CLI, which warns of the environment itself */
    int host;                   /* a command of the host only (python -m crcforge) */
    const char *host_synopsis;  /* the synopsis where the host options exist, or NULL */
    const char *host_notes;     /* notes before `notes` where they exist, or NULL */
};

enum {
    CLI_END = -1,    /* no more options; the operands are argv[optind..argc) */
    CLI_OPERAND = 1, /* an operand (optarg) of an in_order command */
    CLI_BAD = '?',   /* a mistake, already reported on stderr */
    CLI_HELP = 'h',  /* --help */
};

struct cli_parser {
    const struct cli_command *cmd;
    int argc;
    char **argv;
    struct option longopts[CLI_MAX_OPTIONS + 1];
    char shortopts[3 * CLI_MAX_OPTIONS + 3];
};

/* Starts reading argv (argv[0] is the command's name) with cmd's table. */
void cli_parser_init(struct cli_parser *p, const struct cli_command *cmd, int argc,
                     char **argv);
/* The next option's key with its value in optarg, or CLI_OPERAND, CLI_END, CLI_HELP,
 * CLI_BAD. */
int cli_next_option(struct cli_parser *p);

/* Whether the option or command exists in this run (host ones only for python -m
 * crcforge). */
int cli_option_live(const struct cli_option *o);
int cli_command_live(const struct cli_command *cmd);

/* The help of one command ("crcforge sum --help"), and the list of every command. */
void cli_print_help(struct cli_stream *out, const struct cli_command *cmd);
void cli_print_commands(struct cli_stream *out, const struct cli_command *const *cmds,
                        size_t count);

/* -j N: a thread count from 1 to MAX_THREADS; -1 after saying it is not one. */
int cli_parse_threads(const char *s, unsigned *threads);

#endif /* CRCFORGE_OPTIONS_H */
