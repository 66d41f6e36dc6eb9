/* SPDX-License-Identifier: MIT */
/*
 * The environment the library reads (CRCFORGE_IMPL, CRCFORGE_CPU_MASK, CRCFORGE_TUNE), each
 * scenario in a fresh process of its own (the library reads each variable once): while the
 * library hashes every catalogue model, reports its paths, is forced and resolves again,
 * nothing appears on stderr; crcforge_env_problem_at then lists exactly the problems
 * expected, each once, naming the variable, its value exactly as set, what was wrong and
 * what was done instead; and every CRC still matches the bitwise reference.  A good
 * environment lists none.  CRCFORGE_TUNE is read on x86-64 only: its scenarios are skipped
 * elsewhere.  Each child is this binary executed again, or, where it cannot be (qemu-user),
 * only forked: this process never calls the library but for its registry's names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "crcforge_dispatch.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "process.h"

#if defined(__x86_64__)
#include "x86/tuning.h"
#define HAVE_TUNE 1
#else
#define HAVE_TUNE 0
#endif

/* A problem expected: its variable, and words of its text and of what was done instead. */
struct want {
    const char *variable, *problem, *instead;
};

struct scenario {
    const char *name;
    const char *impl, *mask, *tune; /* NULL: unset; "@unrunnable": a path masked away */
    struct want want[10];           /* ends at a NULL variable */
};

static const struct scenario scenarios[] = {
    {"good", "auto", "sse4.1,sse4.2 pclmulqdq,avx2,crc32,none", NULL, {{0}}},
    {"good tune", NULL, NULL,
     "fold_accumulators=2,hybrid_qwords=3,crc32c_hybrid256_min=1024,crc32c_hybrid512_min=4097",
     {{0}}},
    {"impl unknown", "no_such_path", NULL, NULL,
     {{"CRCFORGE_IMPL", "unknown implementation", "the automatic choice"}}},
    {"impl unrunnable", "@unrunnable", "none", NULL,
     {{"CRCFORGE_IMPL", "this CPU cannot run that implementation", "the automatic choice"}}},
    {"mask", NULL, "sse4.2,warp9 avx1024,", NULL,
     {{"CRCFORGE_CPU_MASK", "unknown feature 'warp9'", "ignored that name"},
      {"CRCFORGE_CPU_MASK", "unknown feature 'avx1024'", "ignored that name"}}},
    {"tune", NULL, NULL,
     "fold_accumulators=3,hybrid_qwords=0,bogus=1,nokey,family=nosuch,crc32c_hybrid256_min=100,"
     "crc32c_hybrid512_min=4098,crc32c_threeway_min=x,fold_parallel_max=4096",
     {{"CRCFORGE_TUNE", "'fold_accumulators=3': fold_accumulators takes a power of two",
       "the table's value"},
      {"CRCFORGE_TUNE", "'hybrid_qwords=0': hybrid_qwords takes a number from 1", "the table's"},
      {"CRCFORGE_TUNE", "'bogus=1': unknown key", "ignored it"},
      {"CRCFORGE_TUNE", "'nokey' is not KEY=VALUE", "ignored it"},
      {"CRCFORGE_TUNE", "'family=nosuch': no such family (zen5, zen4, ", "the CPU's own family"},
      {"CRCFORGE_TUNE", "'crc32c_hybrid256_min=100': crc32c_hybrid256_min takes a number from",
       "the table's value"},
      {"CRCFORGE_TUNE", "'crc32c_hybrid512_min=4098': crc32c_hybrid512_min takes a number from",
       "the table's value"},
      {"CRCFORGE_TUNE", "'crc32c_threeway_min=x'", "the table's value"}}},
    {"tune family masked away", NULL, "sse4.2", "family=zen4",
     {{"CRCFORGE_TUNE", "family=zen4: this CPU lacks features", "the CPU's own family"}}},
    {"tune family zen5 masked away", NULL, "sse4.2", "family=zen5",
     {{"CRCFORGE_TUNE", "family=zen5: this CPU lacks features", "the CPU's own family"}}},
    {"mask of no known name", NULL, "avx-512f", NULL,
     {{"CRCFORGE_CPU_MASK", "unknown feature 'avx-512f'", "ignored that name"},
      {"CRCFORGE_CPU_MASK", "no known feature name in it", "every feature masked, as with none"}}},
    {"all three", "warp", "warp9", "bogus=1",
     {{"CRCFORGE_IMPL", "unknown implementation", "the automatic choice"},
      {"CRCFORGE_CPU_MASK", "unknown feature 'warp9'", "ignored that name"},
      {"CRCFORGE_CPU_MASK", "no known feature name in it", "every feature masked, as with none"},
      {"CRCFORGE_TUNE", "'bogus=1': unknown key", "ignored it"}}},
};
#define SCENARIOS (sizeof scenarios / sizeof scenarios[0])

/* A path other than portable, which CRCFORGE_CPU_MASK=none leaves unrunnable; NULL when
 * the registry has none (the library's registry is read, not its CPU state). */
static const char *unrunnable_path(void)
{
    for (size_t i = 0; i < crcforge_impl_count(); i++)
        if (strcmp(crcforge_impl_name(i), "portable") != 0)
            return crcforge_impl_name(i);
    return NULL;
}

static const char *value_of(const char *set)
{
    return set != NULL && strcmp(set, "@unrunnable") == 0 ? unrunnable_path() : set;
}

static int uses_tune(const struct scenario *sc)
{
    if (sc->tune != NULL)
        return 1;
    for (const struct want *w = sc->want; w->variable != NULL; w++)
        if (strcmp(w->variable, "CRCFORGE_TUNE") == 0)
            return 1;
    return 0;
}

/* Everything the library does on first use and after a reset. */
static void exercise(void)
{
    uint8_t data[9000];
    rnd_fill(data, sizeof data);
    static const size_t lengths[] = {0, 1, 15, 64, 100, 256, 1000, 4096, 9000};
    for (int round = 0; round < 3; round++) {
        const crcforge_model *m;
        for (size_t k = 0; (m = crcforge_model_at(k)) != NULL; k++) {
            (void)crcforge_impl_chosen(m);
            for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
                const size_t n = lengths[i];
                CHECK(crcforge_checksum(m, data, n) == crc_reference(&m->p, data, n),
                      "%s n=%zu (round %d)", crcforge_model_name(m), n, round);
            }
        }
        CHECK(crcforge_crc32c(0, data, 1000) == crc_reference(&crc_model_crc32c->p, data, 1000),
              "crcforge_crc32c");
        (void)crcforge_cpu_features();
        (void)crcforge_tuning_family();
        crcforge_impl_force("auto", NULL); /* the table and the paths resolved again */
    }
}

/* In the child: the scenario's environment is set. */
static void run_scenario(const struct scenario *sc)
{
    FILE *log = tmpfile();
    if (log == NULL)
        abort();
    fflush(stderr);
    const int saved = dup(fileno(stderr));
    dup2(fileno(log), fileno(stderr));
    exercise();
    size_t found = 0;
    const crcforge_env_problem *problems[16];
    for (const crcforge_env_problem *p; found < 16 && (p = crcforge_env_problem_at(found));)
        problems[found++] = p;
    fflush(stderr);
    dup2(saved, fileno(stderr));

    char said[4096] = "";
    rewind(log);
    const size_t got = fread(said, 1, sizeof said - 1, log);
    said[got] = '\0';
    CHECK(got == 0, "%s: the library wrote to stderr: %s", sc->name, said);

    size_t wanted = 0;
    for (const struct want *w = sc->want; w->variable != NULL; w++, wanted++) {
        const char *value = value_of(strcmp(w->variable, "CRCFORGE_IMPL") == 0   ? sc->impl
                                     : strcmp(w->variable, "CRCFORGE_TUNE") == 0 ? sc->tune
                                                                                 : sc->mask);
        size_t matches = 0;
        for (size_t i = 0; i < found; i++)
            matches += strcmp(problems[i]->variable, w->variable) == 0 &&
                       strcmp(problems[i]->value, value) == 0 &&
                       strstr(problems[i]->problem, w->problem) != NULL &&
                       strstr(problems[i]->instead, w->instead) != NULL;
        CHECK(matches == 1, "%s: %s=%s \"%s\" (%s) listed %zu times", sc->name, w->variable,
              value, w->problem, w->instead, matches);
    }
    CHECK(found == wanted, "%s: %zu problems listed, %zu expected", sc->name, found, wanted);
    for (size_t i = 0; i < found; i++)
        printf("  %s=%s: %s; %s\n", problems[i]->variable, problems[i]->value,
               problems[i]->problem, problems[i]->instead);
    CHECK(crcforge_env_problem_at(found) == NULL, "%s: the list ends", sc->name);
    fclose(log);
}

/* What each scenario's fallback leaves in use, beside the listing. */
static void check_fallbacks(const struct scenario *sc)
{
    if (sc->mask != NULL && strcmp(sc->mask, "sse4.2,warp9 avx1024,") == 0) {
        const char *f = crcforge_cpu_features();
        CHECK(strcmp(f, "") == 0 || strcmp(f, "sse4.2") == 0,
              "%s: the known name still masks: features \"%s\"", sc->name, f);
    }
    if (sc->impl != NULL && strcmp(sc->impl, "auto") != 0)
        CHECK(strcmp(crcforge_impl_chosen(crc_model_crc32c), value_of(sc->impl)) != 0,
              "%s: the path named is not in use", sc->name);
#if HAVE_TUNE
    /* The parameters in use as text: the table's, with the good items of CRCFORGE_TUNE. */
    const struct crc_x86_tuning *own = crc_x86_families[crc_x86_family_in_use()].table;
    char want[256];
    if (strcmp(sc->name, "good tune") == 0)
        snprintf(want, sizeof want,
                 "fold_parallel_max=%u,fold_accumulators=2,hybrid_qwords=3,"
                 "crc32c_threeway_min=%u,crc32c_hybrid256_min=1024,crc32c_hybrid512_min=4097",
                 (unsigned)own->fold_parallel_max, (unsigned)own->crc32c_threeway_min);
    else
        snprintf(want, sizeof want,
                 "fold_parallel_max=%u,fold_accumulators=%u,hybrid_qwords=%u,"
                 "crc32c_threeway_min=%u,crc32c_hybrid256_min=%u,crc32c_hybrid512_min=%u",
                 sc->tune != NULL && strstr(sc->tune, "fold_parallel_max=4096") != NULL
                     ? 4096u
                     : (unsigned)own->fold_parallel_max,
                 (unsigned)own->fold_accumulators, (unsigned)own->hybrid_qwords,
                 (unsigned)own->crc32c_threeway_min, (unsigned)own->crc32c_hybrid256_min,
                 (unsigned)own->crc32c_hybrid512_min);
    CHECK(strcmp(crcforge_tuning_parameters(), want) == 0, "%s: parameters \"%s\", want \"%s\"",
          sc->name, crcforge_tuning_parameters(), want);
    snprintf(want, sizeof want,
             "fold_parallel_max=%u,fold_accumulators=%u,hybrid_qwords=%u,"
             "crc32c_threeway_min=%u,crc32c_hybrid256_min=%u,crc32c_hybrid512_min=%u",
             (unsigned)own->fold_parallel_max, (unsigned)own->fold_accumulators,
             (unsigned)own->hybrid_qwords, (unsigned)own->crc32c_threeway_min,
             (unsigned)own->crc32c_hybrid256_min, (unsigned)own->crc32c_hybrid512_min);
    CHECK(strcmp(crcforge_tuning_table_parameters(), want) == 0,
          "%s: the table's parameters \"%s\", want \"%s\"", sc->name,
          crcforge_tuning_table_parameters(), want);
    if (sc->tune != NULL && strstr(sc->tune, "fold_parallel_max=4096") != NULL) {
        const struct crc_x86_tuning *t = crc_x86_tuning();
        const struct crc_x86_tuning *table =
            crc_x86_families[crc_x86_family_in_use()].table;
        CHECK(t->fold_parallel_max == 4096, "%s: the good item is taken", sc->name);
        CHECK(t->fold_accumulators == table->fold_accumulators &&
                  t->hybrid_qwords == table->hybrid_qwords &&
                  t->crc32c_hybrid256_min == table->crc32c_hybrid256_min &&
                  t->crc32c_hybrid512_min == table->crc32c_hybrid512_min &&
                  t->crc32c_threeway_min == table->crc32c_threeway_min,
              "%s: the bad items leave the table's values", sc->name);
    }
    if (sc->tune != NULL && strncmp(sc->tune, "family=", 7) == 0)
        CHECK(strcmp(crcforge_tuning_family(), sc->tune + 7) != 0, "%s: the CPU's own family",
              sc->name);
#elif defined(__aarch64__)
    /* No scenario here sets CRCFORGE_TUNE: the ARM table's own parameters. */
    CHECK(strcmp(crcforge_tuning_parameters(), crcforge_tuning_table_parameters()) == 0 &&
              strncmp(crcforge_tuning_parameters(), "hybrid_shape=", 13) == 0,
          "%s: the table's parameters \"%s\", in use \"%s\"", sc->name,
          crcforge_tuning_table_parameters(), crcforge_tuning_parameters());
#else
    CHECK(strcmp(crcforge_tuning_parameters(), "") == 0 &&
              strcmp(crcforge_tuning_table_parameters(), "") == 0,
          "%s: no parameters untuned", sc->name);
#endif
}

int main(int argc, char **argv)
{
    check_begin("test_environment");
    if (argc == 3 && strcmp(argv[1], "--scenario") == 0) {
        const struct scenario *sc = &scenarios[atoi(argv[2])];
        run_scenario(sc);
        check_fallbacks(sc);
        return check_end();
    }
    for (size_t i = 0; i < SCENARIOS; i++) {
        const struct scenario *sc = &scenarios[i];
        if (uses_tune(sc) && !HAVE_TUNE) {
            SKIP("%s: CRCFORGE_TUNE is read on x86-64 only", sc->name);
            continue;
        }
        if (sc->impl != NULL && value_of(sc->impl) == NULL) {
            SKIP("%s: no path but portable in this build", sc->name);
            continue;
        }
        printf("%s\n", sc->name);
        fflush(NULL);
#if defined(_WIN32)
        char index[16], impl[128], mask[128], tune[256];
        snprintf(index, sizeof index, "%zu", i);
        const char *args[] = {"--scenario", index, NULL};
        const char *env[4] = {"CRCFORGE_IMPL", "CRCFORGE_CPU_MASK", "CRCFORGE_TUNE", NULL};
        if (value_of(sc->impl) != NULL)
            snprintf(impl, sizeof impl, "CRCFORGE_IMPL=%s", value_of(sc->impl)), env[0] = impl;
        if (sc->mask != NULL)
            snprintf(mask, sizeof mask, "CRCFORGE_CPU_MASK=%s", sc->mask), env[1] = mask;
        if (sc->tune != NULL)
            snprintf(tune, sizeof tune, "CRCFORGE_TUNE=%s", sc->tune), env[2] = tune;
        const int status = process_run_self(args, env);
        CHECK(status == 0, "%s: child exit %d", sc->name, status);
#else
        const pid_t pid = fork();
        if (pid == 0) {
            static const char *const names[] = {"CRCFORGE_IMPL", "CRCFORGE_CPU_MASK",
                                                "CRCFORGE_TUNE"};
            const char *values[] = {value_of(sc->impl), sc->mask, sc->tune};
            for (int v = 0; v < 3; v++) {
                if (values[v] != NULL)
                    setenv(names[v], values[v], 1);
                else
                    unsetenv(names[v]);
            }
            char index[16];
            snprintf(index, sizeof index, "%zu", i);
            execl("/proc/self/exe", argv[0], "--scenario", index, (char *)NULL);
            if (errno != ENOEXEC && errno != ENOENT && errno != EACCES)
                perror("execl");
            check_passed = check_failed = check_skipped = 0; /* the parent's */
            run_scenario(sc);
            check_fallbacks(sc);
            _exit(check_end());
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child exit %d", sc->name,
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
#endif
    }
    return check_end();
}
