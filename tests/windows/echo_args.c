/* SPDX-License-Identifier: MIT */
/* echo_args ARG...: each argument as the C runtime split it, one a line between brackets,
 * then exit status 7.  Stands in for crcforge-bench in cli_cases.sh, so that what
 * `crcforge bench` hands on can be seen. */
#include <fcntl.h>
#include <io.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    _setmode(_fileno(stdout), _O_BINARY); /* "\n" as it is */
    for (int i = 0; i < argc; i++)
        printf("[%s]\n", argv[i]);
    return 7;
}
