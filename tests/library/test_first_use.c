/* SPDX-License-Identifier: MIT */
/*
 * First use from many threads at once, through the public API only, each scenario in a
 * fresh process so that its first calls really are the library's first: every lazily
 * resolved path, table, constant and combine power is built while other threads build
 * it too.  Run under ThreadSanitizer by tests/stages/32-tsan.sh (zero reports allowed),
 * and as an ordinary test everywhere else.
 *
 *   test_first_use             runs every scenario, each in a child process (the test
 *                              binary executed again, or only forked where it cannot be
 *                              executed, as under qemu-user; this process never calls the
 *                              library)
 *   test_first_use SCENARIO    runs one scenario in this process
 *
 * In each scenario WORKERS threads wait at a barrier, then make the scenario's first call,
 * then every other operation (fixed entry points and their _combine, models by name and by
 * parameters, crcforge_checksum, streaming states of their own, crcforge_combine, key
 * slots); in the forcing scenarios FORCERS more threads switch crcforge_impl_force between
 * every runnable path and automatic choice meanwhile.  Every value is checked against the
 * bitwise reference (src/reference.c) and, for key slots, the rule written from its text
 * (slot_rule.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "check.h"
#include "fixed_entries.h"
#include "internal.h"
#include "process.h"
#include "slot_rule.h"

#define WORKERS 8
#define FORCERS 2
#define DATA_LEN 20000

static uint8_t data[DATA_LEN];
static pthread_barrier_t start;
static int forcers_stop; /* accessed atomically */
/* One custom model all workers share: made by the first worker that needs it (so that no
 * library call comes before the threads'), first hashed by all of them. */
static crcforge_model *shared_custom;
static pthread_once_t shared_custom_once = PTHREAD_ONCE_INIT;

/* What one worker found wrong; read by main after the join. */
struct worker {
    unsigned id;
    const char *scenario;
    unsigned long bad;
    char first_bad[200];
};

static void wrong(struct worker *w, const char *what, uint64_t got, uint64_t want)
{
    if (w->bad++ == 0)
        snprintf(w->first_bad, sizeof w->first_bad, "%s: got %llx, want %llx", what,
                 (unsigned long long)got, (unsigned long long)want);
}

static void expect(struct worker *w, const char *what, uint64_t got, uint64_t want)
{
    if (got != want)
        wrong(w, what, got, want);
}

/* Lengths each worker uses: short ones (the short-input paths), every fold block size,
 * long ones; shifted per worker so that threads do not all hash the same spans. */
static size_t length_at(const struct worker *w, unsigned i)
{
    static const size_t lengths[] = {0, 1, 7, 16, 31, 64, 65, 200, 1000, 4096, 5003, DATA_LEN};
    size_t n = lengths[(i + w->id) % (sizeof lengths / sizeof lengths[0])];
    return n > DATA_LEN - w->id ? DATA_LEN - w->id : n;
}

static uint64_t reference(const crcforge_model *m, const uint8_t *p, size_t n)
{
    return crc_reference(crcforge_model_params(m), p, n);
}

/* --- the fixed entry points ------------------------------------------------------- */

struct fixed_entry {
    const char *name;        /* the catalogue alias of its model */
    crcforge_params params;  /* its catalogue definition, checked against the catalogue */
    fixed_crc_fn crc;
    fixed_combine_fn combine;
};
/* The parameters are written here, not looked up, so that a fixed entry's first call can
 * be checked with no other library call before it. */
static const struct fixed_entry fixed[] = {
    {"crc32c", {32, 0x1edc6f41, 0xffffffff, 1, 1, 0xffffffff}, crcforge_crc32c_,
     crcforge_crc32c_combine_},
    {"crc32", {32, 0x04c11db7, 0xffffffff, 1, 1, 0xffffffff}, crcforge_crc32_,
     crcforge_crc32_combine_},
    {"crc64-nvme", {64, 0xad93d23594c93659, ~0ull, 1, 1, ~0ull}, crcforge_crc64_nvme_,
     crcforge_crc64_nvme_combine_},
    {"crc64-xz", {64, 0x42f0e1eba9ea3693, ~0ull, 1, 1, ~0ull}, crcforge_crc64_xz_,
     crcforge_crc64_xz_combine_},
    {"crc16-xmodem", {16, 0x1021, 0, 0, 0, 0}, crcforge_crc16_xmodem_,
     crcforge_crc16_xmodem_combine_},
};
#define FIXED_COUNT (sizeof fixed / sizeof fixed[0])

/* One fixed entry: one-shot, chained and combined values at a worker's lengths; the
 * _combine called first when combine_first. */
static void use_fixed(struct worker *w, const struct fixed_entry *f, int combine_first)
{
    const crcforge_params *params = &f->params;
    const uint8_t *p = data + w->id;
    size_t n = length_at(w, 0), cut = n / 3;
    uint64_t want = crc_reference(params, p, n);
    uint64_t want_a = crc_reference(params, p, cut), want_b = crc_reference(params, p + cut, n - cut);
    if (combine_first)
        expect(w, f->name, f->combine(want_a, want_b, n - cut), want);
    uint64_t a = f->crc(0, p, cut), b = f->crc(0, p + cut, n - cut);
    expect(w, f->name, a, want_a);
    expect(w, f->name, b, want_b);
    expect(w, f->name, f->crc(a, p + cut, n - cut), want);
    expect(w, f->name, f->combine(a, b, n - cut), want);
    for (unsigned i = 1; i < 12; i++) {
        n = length_at(w, i);
        expect(w, f->name, f->crc(0, p, n), crc_reference(params, p, n));
    }
}

/* The parameters written above are the catalogue's. */
static void check_fixed_params(void)
{
    for (size_t i = 0; i < FIXED_COUNT; i++) {
        const crcforge_params *want = &fixed[i].params;
        const crcforge_model *m = crcforge_model_find(fixed[i].name);
        const crcforge_params *got = m ? crcforge_model_params(m) : NULL;
        CHECK(got && got->width == want->width && got->poly == want->poly &&
                  got->init == want->init && !got->refin == !want->refin &&
                  !got->refout == !want->refout && got->xorout == want->xorout,
              "%s: the parameters written in the test are not the catalogue's", fixed[i].name);
    }
}

/* --- models by name and by parameters ------------------------------------------------ */

/* Catalogue models by names and aliases in several spellings. */
static const char *const model_names[] = {
    "crc32c", "CRC-32/ISCSI", "Crc-32/Iso-Hdlc", "crc64-nvme", "CRC-64/XZ", "crc-16/xmodem",
    "CRC-24/OPENPGP", "crc-16/arc", "CRC-8/SMBUS", "CRC-64/GO-ISO", "crc-31/philips",
    "CRC-12/UMTS", "CRC-82/DARC" /* not a model: width over 64 */,
};

/* One model: one-shot, a streaming state of this thread's own over a split, a state
 * pinned to the chosen path, and crcforge_combine. */
static void use_model(struct worker *w, const crcforge_model *m, const char *what)
{
    const uint8_t *p = data + w->id;
    for (unsigned i = 0; i < 4; i++) {
        size_t n = length_at(w, i * 3), cut = n / 2 + i;
        cut = cut > n ? n : cut;
        uint64_t want = reference(m, p, n);
        expect(w, what, crcforge_checksum(m, p, n), want);

        crcforge_state s;
        crcforge_init(&s, m);
        crcforge_update(&s, p, cut);
        crcforge_update(&s, p + cut, n - cut);
        expect(w, what, crcforge_final(&s), want);

        uint64_t a = crcforge_checksum(m, p, cut), b = crcforge_checksum(m, p + cut, n - cut);
        expect(w, what, crcforge_combine(m, a, b, n - cut), want);
    }
    /* A state pinned to each runnable path that serves the model. */
    size_t n = length_at(w, 5);
    uint64_t want = reference(m, p, n);
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        crcforge_state s;
        if (!crcforge_impl_runnable(name) || crcforge_init_impl(&s, m, name, NULL) != 0)
            continue;
        crcforge_update(&s, p, n);
        expect(w, name, crcforge_final(&s), want);
    }
}

static void use_models_by_name(struct worker *w)
{
    size_t count = sizeof model_names / sizeof model_names[0];
    for (size_t i = 0; i < count; i++) {
        const char *name = model_names[(i + w->id) % count];
        const crcforge_model *m = crcforge_model_find(name);
        if (strcmp(name, "CRC-82/DARC") == 0) {
            expect(w, "CRC-82/DARC found", m != NULL, 0);
            continue;
        }
        if (m == NULL) {
            wrong(w, name, 0, 1);
            continue;
        }
        use_model(w, m, name);
    }
}

/* Custom models: one per thread (some threads with the same parameters), and the shared
 * one. */
static crcforge_params custom_params(unsigned k)
{
    static const unsigned widths[] = {3, 8, 16, 21, 32, 40, 64, 64};
    crcforge_params p = {widths[k % 8], 0, 0, (int)(k & 1), (int)((k >> 1) & 1), 0};
    uint64_t mask = p.width == 64 ? ~0ull : (1ull << p.width) - 1;
    p.poly = (0x9e3779b97f4a7c15ull * (k + 1)) & mask;
    p.poly |= 1;
    p.init = (0xd1b54a32d192ed03ull * (k + 3)) & mask;
    p.xorout = (0x8cb92ba72f3d8dd7ull * (k + 5)) & mask;
    return p;
}

static void make_shared_custom(void)
{
    crcforge_params params = custom_params(7);
    shared_custom = crcforge_model_new(&params, NULL);
}

static void use_models_by_params(struct worker *w)
{
    pthread_once(&shared_custom_once, make_shared_custom);
    use_model(w, shared_custom, "shared custom model");
    for (unsigned k = w->id / 2; k < w->id / 2 + 3; k++) {
        crcforge_params params = custom_params(k);
        const char *why = NULL;
        crcforge_model *m = crcforge_model_new(&params, &why);
        if (m == NULL) {
            wrong(w, why ? why : "crcforge_model_new", 0, 1);
            continue;
        }
        use_model(w, m, "custom model");
        crcforge_model_free(m);
    }
    crcforge_params bad = {65, 1, 0, 0, 0, 0};
    const char *why = NULL;
    crcforge_model *m = crcforge_model_new(&bad, &why);
    expect(w, "width 65 refused", m == NULL && why != NULL, 1);
    crcforge_model_free(m);
}

/* --- key slots ----------------------------------------------------------------------- */

static uint16_t slot_reference(const crcforge_model *xmodem, const uint8_t *key, size_t len)
{
    key = slot_rule_hashed(key, &len);
    return (uint16_t)(reference(xmodem, key, len) & 16383);
}

/* Keys with and without hash tags, lengths 0 to 80, from this worker's bytes. */
#define KEYS 40
static void make_keys(const struct worker *w, uint8_t keys[KEYS][80], size_t lens[KEYS])
{
    for (unsigned i = 0; i < KEYS; i++) {
        lens[i] = (i * 7 + w->id) % 81;
        memcpy(keys[i], data + 100 * i + w->id, lens[i]);
        if (lens[i] > 4 && i % 3 == 0) {
            keys[i][i % lens[i]] = '{';
            keys[i][(i * 5) % lens[i]] = '}';
        }
    }
}

static void use_keyslots(struct worker *w, int batch_first)
{
    uint8_t keys[KEYS][80];
    size_t lens[KEYS];
    const void *ptrs[KEYS];
    uint16_t slots[KEYS];
    unsigned single[KEYS];
    make_keys(w, keys, lens);
    for (unsigned i = 0; i < KEYS; i++)
        ptrs[i] = keys[i];
    if (batch_first) {
        crcforge_keyslots(ptrs, lens, KEYS, slots);
        for (unsigned i = 0; i < KEYS; i++)
            single[i] = crcforge_keyslot(keys[i], lens[i]);
    } else {
        for (unsigned i = 0; i < KEYS; i++)
            single[i] = crcforge_keyslot(keys[i], lens[i]);
        crcforge_keyslots(ptrs, lens, KEYS, slots);
    }
    const crcforge_model *xmodem = crcforge_model_find("CRC-16/XMODEM");
    for (unsigned i = 0; i < KEYS; i++) {
        uint16_t want = slot_reference(xmodem, keys[i], lens[i]);
        expect(w, "crcforge_keyslot", single[i], want);
        expect(w, "crcforge_keyslots", slots[i], want);
    }
}

/* --- scenarios ------------------------------------------------------------------------ */

enum first { FIRST_FIXED, FIRST_FIXED_COMBINE, FIRST_BY_NAME, FIRST_BY_PARAMS, FIRST_COMBINE,
             FIRST_KEYSLOT, FIRST_KEYSLOTS, FIRST_MIXED };

struct scenario {
    const char *name;
    enum first first;
    size_t fixed; /* which fixed entry, for FIRST_FIXED and FIRST_FIXED_COMBINE */
    int force;    /* forcing threads run meanwhile */
    const char *env_impl; /* CRCFORGE_IMPL for the process, or NULL */
};

static const struct scenario scenarios[] = {
    {"crc32c", FIRST_FIXED, 0, 0, NULL},
    {"crc32", FIRST_FIXED, 1, 0, NULL},
    {"crc64_nvme", FIRST_FIXED, 2, 0, NULL},
    {"crc64_xz", FIRST_FIXED, 3, 0, NULL},
    {"crc16_xmodem", FIRST_FIXED, 4, 0, NULL},
    {"crc32c_combine", FIRST_FIXED_COMBINE, 0, 0, NULL},
    {"crc32_combine", FIRST_FIXED_COMBINE, 1, 0, NULL},
    {"crc64_nvme_combine", FIRST_FIXED_COMBINE, 2, 0, NULL},
    {"crc64_xz_combine", FIRST_FIXED_COMBINE, 3, 0, NULL},
    {"crc16_xmodem_combine", FIRST_FIXED_COMBINE, 4, 0, NULL},
    {"model_find", FIRST_BY_NAME, 0, 0, NULL},
    {"model_new", FIRST_BY_PARAMS, 0, 0, NULL},
    {"combine", FIRST_COMBINE, 0, 0, NULL},
    {"keyslot", FIRST_KEYSLOT, 0, 0, NULL},
    {"keyslots", FIRST_KEYSLOTS, 0, 0, NULL},
    {"mixed", FIRST_MIXED, 0, 0, NULL},
    {"mixed_forcing", FIRST_MIXED, 0, 1, NULL},
    {"crc32c_forcing", FIRST_FIXED, 0, 1, NULL},
    {"crc16_xmodem_forcing", FIRST_FIXED, 4, 1, NULL},
    {"keyslot_forcing", FIRST_KEYSLOT, 0, 1, NULL},
    {"model_new_forcing", FIRST_BY_PARAMS, 0, 1, NULL},
    {"mixed_env_portable", FIRST_MIXED, 0, 0, "portable"},
};
#define SCENARIO_COUNT (sizeof scenarios / sizeof scenarios[0])

/* Everything, starting from the scenario's first call; workers start at different
 * operations so that each kind of first call races with the others. */
static void *worker_main(void *arg)
{
    struct worker *w = arg;
    const struct scenario *sc = NULL;
    for (size_t i = 0; i < SCENARIO_COUNT; i++)
        if (strcmp(scenarios[i].name, w->scenario) == 0)
            sc = &scenarios[i];
    pthread_barrier_wait(&start);

    enum first first = sc->first;
    if (first == FIRST_MIXED)
        first = (enum first)(w->id % FIRST_MIXED);
    switch (first) {
    case FIRST_FIXED:
    case FIRST_FIXED_COMBINE:
        use_fixed(w, &fixed[sc->first == FIRST_MIXED ? w->id % FIXED_COUNT : sc->fixed],
                  first == FIRST_FIXED_COMBINE);
        break;
    case FIRST_BY_NAME: use_models_by_name(w); break;
    case FIRST_BY_PARAMS: use_models_by_params(w); break;
    case FIRST_COMBINE: {
        const crcforge_model *m = crcforge_model_find(model_names[w->id % 6]);
        uint64_t a = reference(m, data, 1000), b = reference(m, data + 1000, 3000);
        expect(w, "crcforge_combine first", crcforge_combine(m, a, b, 3000),
               reference(m, data, 4000));
        break;
    }
    case FIRST_KEYSLOT:
    case FIRST_KEYSLOTS: use_keyslots(w, first == FIRST_KEYSLOTS); break;
    case FIRST_MIXED: break;
    }
    /* Then everything else. */
    for (size_t i = 0; i < FIXED_COUNT; i++)
        use_fixed(w, &fixed[(i + w->id) % FIXED_COUNT], (int)((i + w->id) & 1));
    use_keyslots(w, (int)(w->id & 1));
    use_models_by_name(w);
    use_models_by_params(w);
    return NULL;
}

/* Switches every runnable path on and off until the workers are done. */
static void *forcer_main(void *arg)
{
    unsigned id = (unsigned)(size_t)arg;
    pthread_barrier_wait(&start);
    for (unsigned round = 0; !__atomic_load_n(&forcers_stop, __ATOMIC_ACQUIRE); round++) {
        size_t count = crcforge_impl_count();
        const char *name = round % 3 == 2 ? (round % 2 ? "auto" : NULL)
                                          : crcforge_impl_name((round + id) % count);
        if (name != NULL && strcmp(name, "auto") != 0 && !crcforge_impl_runnable(name))
            continue;
        const char *why = NULL;
        if (crcforge_impl_force(name, &why) != 0) {
            fprintf(stderr, "forcer %u: crcforge_impl_force(%s) refused: %s\n", id,
                    name ? name : "NULL", why ? why : "(no reason)");
            return (void *)1;
        }
    }
    return NULL;
}

static int run_scenario(const struct scenario *sc)
{
    if (sc->env_impl != NULL)
        setenv("CRCFORGE_IMPL", sc->env_impl, 1);
    rnd_fill(data, sizeof data);

    unsigned forcers = sc->force ? FORCERS : 0;
    static struct worker workers[WORKERS];
    pthread_t tids[WORKERS + FORCERS];
    pthread_barrier_init(&start, NULL, WORKERS + forcers);
    for (unsigned i = 0; i < WORKERS; i++) {
        workers[i] = (struct worker){.id = i, .scenario = sc->name};
        if (pthread_create(&tids[i], NULL, worker_main, &workers[i]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (unsigned i = 0; i < forcers; i++)
        if (pthread_create(&tids[WORKERS + i], NULL, forcer_main, (void *)(size_t)i) != 0) {
            perror("pthread_create");
            return 1;
        }
    for (unsigned i = 0; i < WORKERS; i++)
        pthread_join(tids[i], NULL);
    __atomic_store_n(&forcers_stop, 1, __ATOMIC_RELEASE);
    int forcer_failed = 0;
    for (unsigned i = 0; i < forcers; i++) {
        void *ret;
        pthread_join(tids[WORKERS + i], &ret);
        forcer_failed |= ret != NULL;
    }
    pthread_barrier_destroy(&start);
    crcforge_model_free(shared_custom);
    check_fixed_params();

    CHECK(!forcer_failed, "%s: a forcing thread was refused", sc->name);
    for (unsigned i = 0; i < WORKERS; i++)
        CHECK(workers[i].bad == 0, "%s: worker %u: %lu values differ from the reference; first: %s",
              sc->name, i, workers[i].bad, workers[i].first_bad);
    return check_end();
}

/* Runs a scenario in a child: this binary executed again, or, where it cannot be executed
 * (qemu-user runs a foreign binary only itself), the forked child runs it, which is as
 * fresh since this process never calls the library.  Returns the child's status. */
#if defined(_WIN32)
static int spawn_scenario(const char *self, const struct scenario *sc)
{
    (void)self; /* process_run_self finds it */
    const char *args[] = {sc->name, NULL};
    return process_run_self(args, NULL);
}
#else
static int spawn_scenario(const char *self, const struct scenario *sc)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return -1;
    }
    if (pid == 0) {
        char *argv[] = {(char *)self, (char *)sc->name, NULL};
        execv(self, argv);
        if (errno != ENOEXEC && errno != ENOENT && errno != EACCES)
            perror("execv");
        check_passed = check_failed = check_skipped = 0; /* the parent's */
        _exit(run_scenario(sc));
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            perror("waitpid");
            return -1;
        }
    return status;
}
#endif

int main(int argc, char **argv)
{
    check_begin("test_first_use");
    if (argc > 2) {
        fprintf(stderr, "usage: test_first_use [SCENARIO]\n");
        return 2;
    }
    if (argc == 2) {
        for (size_t i = 0; i < SCENARIO_COUNT; i++)
            if (strcmp(argv[1], scenarios[i].name) == 0)
                return run_scenario(&scenarios[i]);
        fprintf(stderr, "test_first_use: no scenario '%s'; scenarios:", argv[1]);
        for (size_t i = 0; i < SCENARIO_COUNT; i++)
            fprintf(stderr, " %s", scenarios[i].name);
        fputc('\n', stderr);
        return 2;
    }
    char self[4096];
#if defined(_WIN32)
    snprintf(self, sizeof self, "%s", argv[0]);
#else
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        snprintf(self, sizeof self, "%s", argv[0]);
    } else {
        self[len] = '\0';
    }
#endif
    for (size_t i = 0; i < SCENARIO_COUNT; i++) {
        int status = spawn_scenario(self, &scenarios[i]);
        int ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        CHECK(ok, "scenario %s: %s %d", scenarios[i].name,
              status >= 0 && WIFSIGNALED(status) ? "killed by signal" : "exit status",
              status < 0 ? -1 : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        printf("scenario %s: %s\n", scenarios[i].name, ok ? "ok" : "FAILED");
    }
    return check_end();
}
