/* SPDX-License-Identifier: MIT */
/*
 * Dispatch: each model's path is chosen once, on first use, from a best-first list of
 * implementations.  A selection is an atomic pointer that starts at a stand-in: the
 * model's at crc_impl_unresolved, whose update resolves the path, publishes it with a
 * release store and forwards the call, so the hot path is one acquire load and an
 * indirect call, with no test; the forced path (crcforge_impl_force, the environment
 * variable CRCFORGE_IMPL) at `environment_unread`.  Resolution is idempotent, so a race
 * between two first uses only repeats the same work.  Where the CPU family's tuning table
 * gives bands of paths by length (bands.c), their record comes before the list.
 */
#include <stdlib.h>
#include <string.h>

#include "bands.h"
#include "environment.h"
#include "internal.h"

#if defined(__x86_64__)
#include "x86/impls.h"
#include "x86/tuning.h"
#else
#define CRC_X86_IMPLS
#endif
#if defined(__aarch64__)
#include "arm/impls.h"
#include "arm/tuning.h"
#else
#define CRC_ARM_IMPLS
#endif

/* Best first; "portable" serves every model and ends the list. */
static const struct crc_impl *const registry[] = {
    CRC_X86_IMPLS
    CRC_ARM_IMPLS
    &crc_impl_portable,
};
#define REGISTRY_SIZE (sizeof registry / sizeof registry[0])

const struct crc_impl *crc_impl_lookup(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < REGISTRY_SIZE; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const char *crc_impl_unusable(const struct crc_impl *impl)
{
    if (impl == NULL)
        return "unknown implementation (see `crcforge cpu --impls`)";
    if (!crc_impl_runnable(impl))
        return "this CPU cannot run that implementation";
    return NULL;
}

static uint64_t resolve_then_update(const crcforge_model *m, uint64_t reg, const uint8_t *p,
                                    size_t n)
{
    return crc_impl_resolve(m)->update(m, reg, p, n);
}

static int no_model(const crcforge_model *m)
{
    (void)m;
    return 0;
}

const struct crc_impl crc_impl_unresolved = {
    .name = "unresolved", .features = CRC_CPU_NEVER, .supports = no_model,
    .update = resolve_then_update};

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

const struct crc_impl *crc_impl_resolve(const crcforge_model *m)
{
    const struct crc_impl *force = forced_impl();
    const struct crc_impl *chosen = &crc_impl_portable;
    if (force != NULL) {
        if (force->supports(m))
            chosen = force;
    } else {
#if defined(__x86_64__)
        /* The CPU family's bands of paths by length, where its table serves m. */
        const struct crc_impl *tuned = crc_banded_impl(m);
        if (tuned != NULL)
            chosen = tuned;
        else
#elif defined(__aarch64__)
        /* The path the core's family prefers for m, where it has one. */
        const struct crc_impl *tuned = crc_arm_tuned_impl(m);
        if (tuned != NULL)
            chosen = tuned;
        else
#endif
            for (size_t i = 0; i < REGISTRY_SIZE; i++) {
                if (registry[i]->supports(m) && crc_impl_runnable(registry[i])) {
                    chosen = registry[i];
                    break;
                }
            }
    }
    if (chosen->prepare != NULL)
        chosen->prepare();
    atomic_store_explicit(&((crcforge_model *)m)->impl, chosen, memory_order_release);
    return chosen;
}

size_t crcforge_impl_count(void)
{
    return REGISTRY_SIZE;
}

const char *crcforge_impl_name(size_t i)
{
    return i < REGISTRY_SIZE ? registry[i]->name : NULL;
}

int crcforge_impl_runnable(const char *name)
{
    const struct crc_impl *impl = crc_impl_lookup(name);
    return impl != NULL && crc_impl_runnable(impl);
}

int crcforge_impl_supports(const char *name, const crcforge_model *m)
{
    const struct crc_impl *impl = crc_impl_lookup(name);
    return impl != NULL && m != NULL && impl->supports(m);
}

const char *crcforge_impl_chosen(const crcforge_model *m)
{
    if (m == NULL)
        return NULL;
    const struct crc_impl *impl = crc_selected(m);
    return (impl != &crc_impl_unresolved ? impl : crc_impl_resolve(m))->name;
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
        atomic_store(&crc_catalogue[i].impl, &crc_impl_unresolved);
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
    crc_arm_tuning_resolve();
#endif
    return crc_env_note_at(i);
}
