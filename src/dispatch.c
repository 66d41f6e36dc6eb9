/* SPDX-License-Identifier: MIT */
/*
 * Dispatch: each model's selection (struct crc_selection, internal.h) is resolved once, on
 * first use, and published; then nothing of it changes.  A model's selection is an atomic
 * pointer that starts at the stand-in crc_unresolved, whose update resolves it, publishes
 * it with a release store and forwards the call, so the hot path is one acquire load and
 * an indirect call, with no test; the forced path (crcforge_impl_force, the environment
 * variable CRCFORGE_IMPL) at `environment_unread`.  Resolution is idempotent, so a race
 * between two first uses only repeats the same work.  What it resolves to: the forced
 * path, or where the CPU family's tuning table gives bands of paths by length (bands.c)
 * their selection, or the path the family prefers (aarch64), or the registry's best first;
 * every path handed the parameters of the tuning in use, fixed then (an untuned path,
 * whose kernels read none, is handed none, and no tuning is read for it).
 */
#include <stdlib.h>
#include <string.h>

#include "bands.h"
#include "dispatch.h"
#include "environment.h"
#include "registry.h"

#if defined(__x86_64__)
#include "x86/tuning.h"
#define FAMILIES CRC_X86_FAMILIES
#elif defined(__aarch64__)
#include "arm/tuning.h"
#define FAMILIES CRC_ARM_FAMILIES
#else
#define FAMILIES 1
#endif

/* The tuning in use: its family (an index below FAMILIES) and its kernels' parameters. */
static size_t family_in_use(void)
{
#if defined(__x86_64__)
    return crc_x86_family_in_use();
#elif defined(__aarch64__)
    return crc_arm_family_in_use();
#else
    return 0;
#endif
}

const struct crc_params *crc_params_in_use(void)
{
#if defined(__x86_64__)
    return crc_x86_params();
#elif defined(__aarch64__)
    return crc_arm_params();
#else
    static const struct crc_params none;
    return &none;
#endif
}

/* Every path alone, with one family's parameters (crc_registry's order): built once per
 * family, and once with none (the last), which the untuned paths take. */
static crc_once_slot singles[FAMILIES + 1];

static void fill_singles(void *obj, const void *arg)
{
    struct crc_selection *one = obj;
    for (size_t i = 0; i < crc_registry_size; i++)
        crc_selection_single(&one[i], crc_registry[i], arg);
}

const struct crc_selection *crc_pinned(const struct crc_impl *impl)
{
    static const struct crc_params none;
    const struct crc_selection *one =
        impl->untuned ? crc_once(&singles[FAMILIES], crc_registry_size * sizeof *one,
                                 fill_singles, &none)
                      : crc_once(&singles[family_in_use()], crc_registry_size * sizeof *one,
                                 fill_singles, crc_params_in_use());
    size_t i = 0;
    while (crc_registry[i] != impl)
        i++;
    if (impl->prepare != NULL) /* before the selection can be published */
        impl->prepare();
    return &one[i];
}

static uint64_t resolve_then_update(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                    size_t n, const struct crc_params *k)
{
    (void)k;
    const struct crc_selection *s = crc_resolve(m);
    return s->update(m, reg, p, n, &s->params);
}

const struct crc_selection crc_unresolved = {
    .update = resolve_then_update, .bands = 1,
    .band = {{.below = SIZE_MAX, .update = resolve_then_update}}, .name = "unresolved",
    .features = CRC_CPU_NEVER};

static int no_model(const crcforge_model *m)
{
    (void)m;
    return 0;
}

/* The forced path, NULL for the automatic choice, or `environment_unread` until
 * CRCFORGE_IMPL has been read (unless crcforge_impl_force came first). */
static const struct crc_impl environment_unread = {
    .name = "unread", .features = CRC_CPU_NEVER, .supports = no_model};
static _Atomic(const struct crc_impl *) forced = &environment_unread;

static const struct crc_impl *forced_from_environment(void)
{
    const char *env = getenv("CRCFORGE_IMPL");
    if (env == NULL || *env == '\0' || strcmp(env, "auto") == 0)
        return NULL;
    const struct crc_impl *impl = crc_impl_lookup(env);
    const char *why = crc_impl_unusable(impl);
    if (why != NULL) {
        crc_env_note("CRCFORGE_IMPL", env, "the automatic choice", "%s", why);
        return NULL;
    }
    return impl;
}

static const struct crc_impl *forced_impl(void)
{
    const struct crc_impl *impl = atomic_load_explicit(&forced, memory_order_acquire);
    if (impl == &environment_unread) {
        const struct crc_impl *read = forced_from_environment();
        if (atomic_compare_exchange_strong(&forced, &impl, read))
            impl = read;
    }
    return impl;
}

const struct crc_selection *crc_resolve(const crcforge_model *m)
{
    const struct crc_impl *force = forced_impl();
    const struct crc_selection *chosen = NULL;
    const struct crc_impl *impl = &crc_impl_portable;
    if (force != NULL) {
        if (force->supports(m))
            impl = force;
    } else {
#if defined(__x86_64__)
        /* The CPU family's bands of paths by length, where its table serves m. */
        chosen = crc_banded(m);
#elif defined(__aarch64__)
        /* The path the core's family prefers for m, where it has one. */
        const struct crc_impl *tuned = crc_arm_tuned_impl(m);
        if (tuned != NULL)
            impl = tuned;
        else
#endif
        if (chosen == NULL) {
            for (size_t i = 0; i < crc_registry_size; i++) {
                if (crc_registry[i]->supports(m) && crc_impl_runnable(crc_registry[i])) {
                    impl = crc_registry[i];
                    break;
                }
            }
        }
    }
    if (chosen == NULL)
        chosen = crc_pinned(impl);
    atomic_store_explicit(&((crcforge_model *)m)->impl, chosen, memory_order_release);
    return chosen;
}

const char *crcforge_impl_chosen(const crcforge_model *m)
{
    if (m == NULL)
        return NULL;
    const struct crc_selection *s = crc_selected(m);
    return (s != &crc_unresolved ? s : crc_resolve(m))->name;
}

int crcforge_impl_force(const char *name, const char **why)
{
    const struct crc_impl *impl = NULL;
    if (name != NULL && strcmp(name, "auto") != 0) {
        impl = crc_impl_lookup(name);
        const char *reason = crc_impl_unusable(impl);
        if (reason != NULL) {
            if (why != NULL)
                *why = reason;
            return -1;
        }
    }
    atomic_store(&forced, impl);
#if defined(__x86_64__)
    crc_x86_tuning_reset(); /* a CPU mask set before forcing may change the family */
    crc_bands_reset();
#elif defined(__aarch64__)
    crc_arm_tuning_reset();
#endif
    /* Re-resolve the catalogue on next use; custom models resolved before keep theirs. */
    for (size_t i = 0; i < crc_catalogue_count; i++)
        atomic_store(&crc_catalogue[i].impl, &crc_unresolved);
    return 0;
}

const crcforge_env_problem *crcforge_env_problem_at(size_t i)
{
    /* Every variable read, by the code that reads it, if it was not yet. */
    (void)crc_cpu_features();
    (void)forced_impl();
#if defined(__x86_64__)
    (void)crc_x86_tuning();
#elif defined(__aarch64__)
    (void)crc_arm_params();
#endif
    return crc_env_note_at(i);
}
