/* SPDX-License-Identifier: MIT */
/* crcforge list: every catalogue model, in RevEng's notation plus its aliases. */
#include <stdio.h>

#include "cli.h"

static const struct cli_option list_options[] = {CLI_HELP_OPTION, {0}};

static int cmd_list(int argc, char **argv);

const struct cli_command cli_list = {
    .name = "list", .synopsis = "list",
    .about = "every catalogue model: name, parameters, check value, aliases",
    .options = list_options, .run = cmd_list,
};

static int cmd_list(int argc, char **argv)
{
    struct cli_parser p;
    cli_parser_init(&p, &cli_list, argc, argv);
    for (int c; (c = cli_next_option(&p)) != CLI_END;) {
        if (c != CLI_HELP)
            return EXIT_TROUBLE;
        cli_print_help(cli_out(), &cli_list);
        return EXIT_OK;
    }
    if (optind < argc) {
        cli_error("list takes no arguments ('%s')", argv[optind]);
        return EXIT_TROUBLE;
    }
    struct cli_stream *out = cli_out();
    const crcforge_model *m;
    for (size_t i = 0; (m = crcforge_model_at(i)) != NULL; i++) {
        const crcforge_params *p = crcforge_model_params(m);
        int digits = (int)((p->width + 3) / 4);
        cli_printf(out, "name=\"%s\" width=%u poly=0x%0*llx init=0x%0*llx refin=%s refout=%s "
                   "xorout=0x%0*llx check=0x%0*llx residue=0x%0*llx aliases=\"",
                   crcforge_model_name(m), p->width, digits, (unsigned long long)p->poly, digits,
                   (unsigned long long)p->init, p->refin ? "true" : "false",
                   p->refout ? "true" : "false", digits, (unsigned long long)p->xorout, digits,
                   (unsigned long long)crcforge_model_check(m), digits,
                   (unsigned long long)crcforge_model_residue(m));
        for (const char *const *a = crcforge_model_aliases(m); *a; a++)
            cli_printf(out, "%s%s", a == crcforge_model_aliases(m) ? "" : ",", *a);
        cli_puts(out, "\"\n");
    }
    return EXIT_OK;
}
