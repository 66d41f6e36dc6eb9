/* SPDX-License-Identifier: MIT */
/* crcforge keyslot: the Redis/Valkey cluster slot of each key. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lines.h"
#include "platform.h"

/* "SLOT", or with the key "SLOT  KEY" (the key's bytes as they are). */
static void print_slot(const char *key, size_t len, int with_keys)
{
    struct cli_stream *out = cli_out();
    cli_printf(out, "%u", crcforge_keyslot(key, len));
    if (with_keys) {
        cli_puts(out, "  ");
        cli_write(out, key, len);
    }
    cli_putc(out, '\n');
}

/* One key a line, raw bytes (a CR is part of its key); a last line without its newline
 * is a key too. */
static int slots_of_file(const char *name, int with_keys)
{
    struct lines keys;
    if (lines_open(&keys, name) != 0) {
        cli_error("%s: %s", name, platform_error_text(errno));
        return EXIT_TROUBLE;
    }
    char *line;
    ssize_t n;
    while (!cli_stopped() && (n = lines_next(&keys, &line)) >= 0)
        print_slot(line, (size_t)n, with_keys);
    int status = EXIT_OK;
    if (keys.err != 0) { /* the keys before were given their slots */
        cli_error("%s: %s", name, platform_error_text(keys.err));
        status = EXIT_TROUBLE;
    }
    lines_close(&keys);
    return status;
}

enum { OPT_FILE = CLI_LONG_ONLY, OPT_WITH_KEYS };
static const struct cli_option keyslot_options[] = {
    {"file", OPT_FILE, required_argument, "F",
     "the keys of F, one a line (raw bytes; \"-\": standard input), in\n"
     "their place among the keys given as arguments"},
    {"with-keys", OPT_WITH_KEYS, no_argument, NULL, "print \"SLOT  KEY\", the key beside its slot"},
    CLI_HELP_OPTION,
    {0},
};

static int cmd_keyslot(int argc, char **argv);

const struct cli_command cli_keyslot = {
    .name = "keyslot",
    .synopsis = "keyslot [--with-keys] [--file F] [KEY...]",
    .about = "Redis/Valkey cluster slot (0..16383) of each key, one a line, in order",
    .options = keyslot_options,
    .notes = "Without KEY or --file, the keys are the lines of standard input.  A line is a\n"
             "key as it is, raw bytes (a CR is part of it); a last line without a newline is\n"
             "a key too.  A key holding {TAG}, with at least one byte between the first '{'\n"
             "and the first '}' after it, is hashed by TAG alone, as Redis and Valkey do.\n"
             "Keys that start with '-' go after \"--\".\n",
    .unknown_hint = "keys starting with '-' go after --",
    .order = '-', /* --file F stands in its place among the keys */
    .run = cmd_keyslot,
};

/* One key or one file of keys, in the order given. */
struct keyslot_item {
    int is_file;
    const char *text;
};

static int cmd_keyslot(int argc, char **argv)
{
    /* Every mistake is found before any slot is printed. */
    struct keyslot_item *items = calloc((size_t)argc, sizeof *items);
    if (items == NULL) {
        cli_error("keyslot: %s", strerror(ENOMEM));
        return EXIT_TROUBLE;
    }
    size_t n = 0;
    int with_keys = 0;
    struct cli_parser p;
    cli_parser_init(&p, &cli_keyslot, argc, argv);
    int c, status = EXIT_OK;
    while ((c = cli_next_option(&p)) != CLI_END) {
        if (c == OPT_WITH_KEYS) {
            with_keys = 1;
        } else if (c == CLI_OPERAND || c == OPT_FILE) {
            items[n++] = (struct keyslot_item){c == OPT_FILE, optarg};
        } else {
            if (c == CLI_HELP)
                cli_print_help(cli_out(), &cli_keyslot);
            free(items);
            return c == CLI_HELP ? EXIT_OK : EXIT_TROUBLE;
        }
    }
    for (int i = optind; i < argc; i++) /* after "--": keys, whatever they look like */
        items[n++] = (struct keyslot_item){0, argv[i]};
    if (n == 0) /* none given: the lines of standard input */
        items[n++] = (struct keyslot_item){1, "-"};
    for (size_t i = 0; i < n && !cli_stopped(); i++) {
        if (!items[i].is_file)
            print_slot(items[i].text, strlen(items[i].text), with_keys);
        else if (slots_of_file(items[i].text, with_keys) != EXIT_OK)
            status = EXIT_TROUBLE;
    }
    free(items);
    return status; /* the engine checks that standard output was written */
}
