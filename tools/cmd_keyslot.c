/* crcforge keyslot: the Redis/Valkey cluster slot of each key. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One key a line, raw bytes; a last line without its newline is a key too. */
static int slots_of_file(const char *name)
{
    FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
    if (f == NULL) {
        cli_error("%s: %s", name, strerror(errno));
        return EXIT_TROUBLE;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            n--;
        printf("%u\n", crcforge_keyslot(line, (size_t)n));
    }
    int status = EXIT_OK;
    if (ferror(f)) {
        cli_error("%s: %s", name, strerror(errno));
        status = EXIT_TROUBLE;
    }
    free(line);
    if (f != stdin)
        fclose(f);
    return status;
}

/* Before "--", an argument starting with '-' is an option: --file F, anywhere among
 * the keys; any other is a mistake, not a key.  Checked before any slot is printed. */
static int check_options(int argc, char **argv, int *keys)
{
    *keys = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            *keys += argc - i - 1;
            return 0;
        }
        if (strcmp(argv[i], "--file") == 0) {
            if (++i == argc) {
                cli_error("keyslot: --file needs a file name");
                return -1;
            }
            (*keys)++;
        } else if (argv[i][0] == '-') {
            cli_error("keyslot: unknown option '%s' (keys starting with '-' go after --)",
                      argv[i]);
            return -1;
        } else {
            (*keys)++;
        }
    }
    return 0;
}

int cmd_keyslot(int argc, char **argv)
{
    int keys;
    if (check_options(argc, argv, &keys) != 0)
        return EXIT_TROUBLE;
    if (keys == 0) {
        cli_error("keyslot: no keys: give them as arguments or one a line with --file F");
        return EXIT_TROUBLE;
    }
    int status = EXIT_OK, literal = 0;
    for (int i = 1; i < argc; i++) {
        if (!literal && strcmp(argv[i], "--") == 0) {
            literal = 1;
        } else if (!literal && strcmp(argv[i], "--file") == 0) {
            if (slots_of_file(argv[++i]) != EXIT_OK)
                status = EXIT_TROUBLE;
        } else {
            printf("%u\n", crcforge_keyslot(argv[i], strlen(argv[i])));
        }
    }
    return status; /* main checks that standard output was written */
}
