/* SPDX-License-Identifier: MIT */
/* crcforge cpu: the features found, what the library could not use in its environment, and
 * the path chosen per algorithm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "crcforge_dispatch.h"

static const char *const shown[] = {"crc32c", "crc32", "crc64-nvme", "crc64-xz",
                                    "crc16-xmodem", "CRC-24/OPENPGP", "CRC-64/ECMA-182",
                                    "CRC-5/USB"};

enum { OPT_IMPLS = CLI_LONG_ONLY };
static const struct cli_option cpu_options[] = {
    {"impls", OPT_IMPLS, no_argument, NULL,
     "only the implementations this CPU can run, one a line\n"
     "(the names CRCFORGE_IMPL accepts)"},
    CLI_HELP_OPTION,
    {0},
};

static int cmd_cpu(int argc, char **argv);

const struct cli_command cli_cpu = {
    .name = "cpu", .synopsis = "cpu [--impls]",
    .about = "CPU features found and the implementation chosen per algorithm",
    .options = cpu_options, .run = cmd_cpu,
};

static int cmd_cpu(int argc, char **argv)
{
    int impls = 0;
    struct cli_parser p;
    cli_parser_init(&p, &cli_cpu, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        if (c == OPT_IMPLS) {
            impls = 1;
        } else if (c == CLI_HELP) {
            cli_print_help(cli_out(), &cli_cpu);
            return EXIT_OK;
        } else {
            return EXIT_TROUBLE;
        }
    }
    if (optind < argc) { /* name the argument that is wrong, wherever it was */
        cli_error("cpu: unknown argument '%s' (only --impls)", argv[optind]);
        return EXIT_TROUBLE;
    }
    struct cli_stream *out = cli_out();
    if (impls) {
        for (size_t i = 0; i < crcforge_impl_count(); i++)
            if (crcforge_impl_runnable(crcforge_impl_name(i)))
                cli_printf(out, "%s\n", crcforge_impl_name(i));
        return EXIT_OK;
    }
    const char *features = crcforge_cpu_features();
    cli_printf(out, "features: %s\n", *features ? features : "(none used by crcforge)");
    const char *mask = getenv("CRCFORGE_CPU_MASK");
    if (mask != NULL && *mask != '\0')
        cli_printf(out, "masked: CRCFORGE_CPU_MASK=%s keeps only those listed\n", mask);
    const crcforge_env_problem *e;
    for (size_t i = 0; (e = crcforge_env_problem_at(i)) != NULL; i++)
        cli_printf(out, "environment: %s=%s: %s; %s\n", e->variable, e->value, e->problem,
                   e->instead);
    cli_printf(out, "compiled in:");
    for (size_t i = 0; i < crcforge_impl_count(); i++)
        cli_printf(out, " %s%s", crcforge_impl_name(i),
                   crcforge_impl_runnable(crcforge_impl_name(i)) ? "" : "(not runnable)");
    cli_printf(out, "\n");
    const char *family = crcforge_tuning_family(), *table = crcforge_tuning_table();
    if (strcmp(family, "none") != 0) {
        if (strcmp(family, table) == 0)
            cli_printf(out, "tuning: %s (paths by input length, per model: PATH<BELOW,PATH)\n",
                       family);
        else
            cli_printf(out, "tuning: %s, not measured yet: the %s table (paths by input length, "
                       "per model: PATH<BELOW,PATH)\n",
                       family, table);
        cli_printf(out, "tuning table from: %s\n", crcforge_tuning_source());
    }
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        const crcforge_model *m = crcforge_model_find(shown[i]);
        cli_printf(out, "%-16s %s\n", crcforge_model_name(m), crcforge_impl_chosen(m));
    }
    return EXIT_OK;
}
