/* crcforge cpu: the features found and the path chosen per algorithm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const shown[] = {"crc32c", "crc32", "crc64-nvme", "crc64-xz",
                                    "crc16-xmodem", "CRC-24/OPENPGP", "CRC-64/ECMA-182",
                                    "CRC-5/USB"};

int cmd_cpu(int argc, char **argv)
{
    int impls = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--impls") == 0) {
            impls = 1;
        } else { /* name the argument that is wrong, wherever it is */
            cli_error("cpu: unknown argument '%s' (only --impls)", argv[i]);
            return EXIT_TROUBLE;
        }
    }
    if (impls) {
        for (size_t i = 0; i < crcforge_impl_count(); i++)
            if (crcforge_impl_runnable(crcforge_impl_name(i)))
                puts(crcforge_impl_name(i));
        return EXIT_OK;
    }
    const char *features = crcforge_cpu_features();
    printf("features: %s\n", *features ? features : "(none used by crcforge)");
    const char *mask = getenv("CRCFORGE_CPU_MASK");
    if (mask != NULL && *mask != '\0')
        printf("masked: CRCFORGE_CPU_MASK=%s keeps only those listed\n", mask);
    printf("compiled in:");
    for (size_t i = 0; i < crcforge_impl_count(); i++)
        printf(" %s%s", crcforge_impl_name(i),
               crcforge_impl_runnable(crcforge_impl_name(i)) ? "" : "(not runnable)");
    printf("\n");
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        const crcforge_model *m = crcforge_model_find(shown[i]);
        printf("%-16s %s\n", crcforge_model_name(m), crcforge_impl_chosen(m));
    }
    return EXIT_OK;
}
