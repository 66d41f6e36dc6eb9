/* SPDX-License-Identifier: MIT */
/*
 * CRCFORGE_IMPL read by the library itself (the CLI and Python force through the API
 * first, so they never reach it).  ctest runs this with the variable set, once for every
 * name of the registry (`test_env_impl --list`) and once for an unknown one:
 *   test_env_impl NAME     CRCFORGE_IMPL=NAME: every catalogue model the path serves
 *                          chooses it, every other one "portable"
 *   test_env_impl -BAD     CRCFORGE_IMPL=BAD (unknown): the automatic choice, and the
 *                          problem listed by crcforge_env_problem_at
 * and every model's check value and random data against the reference either way, with
 * nothing on stderr.  It prints whether the CPU's features were queried (none is needed
 * when the build's flags guarantee every feature of a forced path that takes no parameters
 * from the CPU family's tuning table: tests/stages/12-compilers.sh checks that) before it
 * asks for the problems, which reads every variable.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cpu.h"
#include "crcforge_dispatch.h"
#include "internal.h"

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < crcforge_impl_count(); i++)
            puts(crcforge_impl_name(i));
        return 0;
    }
    check_begin("test_env_impl");
    if (argc != 2) {
        fprintf(stderr, "usage: test_env_impl NAME | -BAD | --list\n");
        return 2;
    }
    const char *env = getenv("CRCFORGE_IMPL");
    const int bad = argv[1][0] == '-';
    const char *want = bad ? argv[1] + 1 : argv[1];
    if (env == NULL || strcmp(env, want) != 0) {
        fprintf(stderr, "test_env_impl: run it with CRCFORGE_IMPL=%s\n", want);
        return 2;
    }
    if (!bad && !crcforge_impl_runnable(want)) {
        SKIP("CRCFORGE_IMPL=%s: not a path this build and CPU run", want);
        return check_end();
    }
    /* Whatever the library would write to stderr: caught in a file. */
    FILE *log = tmpfile();
    int saved = dup(fileno(stderr));
    fflush(stderr);
    dup2(fileno(log), fileno(stderr));

    uint8_t data[1000];
    rnd_fill(data, sizeof data);
    unsigned long wrong_path = 0, wrong_value = 0;
    const crcforge_model *m;
    for (size_t i = 0; (m = crcforge_model_at(i)) != NULL; i++) {
        const char *chosen = crcforge_impl_chosen(m);
        if (bad)
            wrong_path += strcmp(chosen, want) == 0;
        else
            wrong_path += strcmp(chosen, crcforge_impl_supports(want, m) ? want : "portable");
        size_t n = rnd_below(sizeof data + 1);
        wrong_value += crcforge_checksum(m, "123456789", 9) != crcforge_model_check(m) ||
                       crcforge_checksum(m, data, n) != crc_reference(&m->p, data, n);
    }

    fflush(stderr);
    dup2(saved, fileno(stderr));
    char text[4096] = "";
    rewind(log);
    size_t got = fread(text, 1, sizeof text - 1, log);
    text[got] = '\0';
    fputs(text, stderr);
    CHECK(got == 0, "the library wrote to stderr");
    CHECK(wrong_path == 0, "%lu models on the wrong path", wrong_path);
    printf("CRCFORGE_IMPL=%s: CPU features queried: %s\n", want, crc_cpu_queried() ? "yes" : "no");
    CHECK(wrong_value == 0, "%lu models give wrong values", wrong_value);
    const crcforge_env_problem *p = crcforge_env_problem_at(0);
    if (bad)
        CHECK(p != NULL && strcmp(p->variable, "CRCFORGE_IMPL") == 0 &&
                  strcmp(p->value, want) == 0 && crcforge_env_problem_at(1) == NULL,
              "CRCFORGE_IMPL=%s listed as the one problem", want);
    else
        CHECK(p == NULL, "a problem listed: %s=%s: %s", p->variable, p->value, p->problem);
    return check_end();
}
