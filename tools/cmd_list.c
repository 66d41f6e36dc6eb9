/* crcforge list: every catalogue model, in RevEng's notation plus its aliases. */
#include <stdio.h>

#include "cli.h"

int cmd_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        cli_error("list takes no arguments");
        return EXIT_TROUBLE;
    }
    for (size_t i = 0; i < crcforge_model_count(); i++) {
        const crcforge_model *m = crcforge_model_at(i);
        const crcforge_params *p = crcforge_model_params(m);
        int digits = (int)((p->width + 3) / 4);
        printf("name=\"%s\" width=%u poly=0x%0*llx init=0x%0*llx refin=%s refout=%s "
               "xorout=0x%0*llx check=0x%0*llx residue=0x%0*llx aliases=\"",
               crcforge_model_name(m), p->width, digits, (unsigned long long)p->poly, digits,
               (unsigned long long)p->init, p->refin ? "true" : "false",
               p->refout ? "true" : "false", digits, (unsigned long long)p->xorout, digits,
               (unsigned long long)crcforge_model_check(m), digits,
               (unsigned long long)crcforge_model_residue(m));
        for (const char *const *a = crcforge_model_aliases(m); *a; a++)
            printf("%s%s", a == crcforge_model_aliases(m) ? "" : ",", *a);
        puts("\"");
    }
    return EXIT_OK;
}
