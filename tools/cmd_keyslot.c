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

int cmd_keyslot(int argc, char **argv)
{
    int status = EXIT_OK, i = 1;
    if (i < argc && strcmp(argv[i], "--") == 0)
        i++;
    else if (i + 1 < argc && strcmp(argv[i], "--file") == 0) {
        status = slots_of_file(argv[i + 1]);
        i += 2;
    } else if (i < argc && strcmp(argv[i], "--file") == 0) {
        cli_error("keyslot: --file needs a file name");
        return EXIT_TROUBLE;
    } else if (i == argc) {
        cli_error("keyslot: no keys: give them as arguments or one a line with --file F");
        return EXIT_TROUBLE;
    }
    for (; i < argc; i++)
        printf("%u\n", crcforge_keyslot(argv[i], strlen(argv[i])));
    return status; /* main checks that standard output was written */
}
