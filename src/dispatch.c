/*
 * Dispatch: each model's path is chosen once, on first use, from a best-first list
 * of implementations, and published with an atomic store; the hot path pays one
 * acquire load and an indirect call.  Resolution is idempotent, so a race between two
 * first uses only repeats the same work.  Forcing (crcforge_impl_force or the
 * environment variable CRCFORGE_IMPL) is applied here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if defined(__x86_64__)
#include "x86/impls.h"
#else
#define CRC_X86_IMPLS
#endif
#if defined(__aarch64__)
#include "arm/impls.h"
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

/* The forced path, or NULL for the automatic choice.  `forced_set` records whether
 * the environment has been read yet. */
static _Atomic(const struct crc_impl *) forced;
static atomic_int forced_set;

const struct crc_impl *crc_impl_lookup(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < REGISTRY_SIZE; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

static const char *unusable_reason(const struct crc_impl *impl)
{
    if (impl == NULL)
        return "unknown implementation (see `crcforge cpu --impls`)";
    if (!impl->runnable())
        return "this CPU cannot run that implementation";
    return NULL;
}

static const struct crc_impl *forced_impl(void)
{
    if (!atomic_load_explicit(&forced_set, memory_order_acquire)) {
        const char *env = getenv("CRCFORGE_IMPL");
        const struct crc_impl *impl = NULL;
        if (env != NULL && *env != '\0' && strcmp(env, "auto") != 0) {
            impl = crc_impl_lookup(env);
            const char *why = unusable_reason(impl);
            if (why != NULL) {
                fprintf(stderr, "crcforge: CRCFORGE_IMPL=%s: %s; using the automatic choice\n",
                        env, why);
                impl = NULL;
            }
        }
        const struct crc_impl *expected = NULL;
        atomic_compare_exchange_strong(&forced, &expected, impl);
        atomic_store_explicit(&forced_set, 1, memory_order_release);
    }
    return atomic_load_explicit(&forced, memory_order_acquire);
}

int crc_impl_forced(void)
{
    return forced_impl() != NULL;
}

const struct crc_impl *crc_impl_resolve(const crcforge_model *m)
{
    const struct crc_impl *force = forced_impl();
    const struct crc_impl *chosen = &crc_impl_portable;
    if (force != NULL) {
        if (force->supports(m))
            chosen = force;
    } else {
        for (size_t i = 0; i < REGISTRY_SIZE; i++) {
            if (registry[i]->supports(m) && registry[i]->runnable()) {
                chosen = registry[i];
                break;
            }
        }
    }
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
    return impl != NULL && impl->runnable();
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
    const struct crc_impl *impl = atomic_load_explicit(&((crcforge_model *)m)->impl,
                                                       memory_order_acquire);
    return (impl != NULL ? impl : crc_impl_resolve(m))->name;
}

int crcforge_impl_force(const char *name, const char **why)
{
    const struct crc_impl *impl = NULL;
    if (name != NULL && strcmp(name, "auto") != 0) {
        impl = crc_impl_lookup(name);
        const char *reason = unusable_reason(impl);
        if (reason != NULL) {
            if (why != NULL)
                *why = reason;
            return -1;
        }
    }
    atomic_store(&forced, impl);
    atomic_store(&forced_set, 1);
    /* Re-resolve the catalogue on next use; custom models resolved before keep theirs. */
    for (size_t i = 0; i < crc_catalogue_count; i++)
        atomic_store(&crc_catalogue[i].impl, NULL);
    return 0;
}

int crcforge_init_impl(crcforge_state *s, const crcforge_model *m, const char *name,
                       const char **why)
{
    const struct crc_impl *impl = crc_impl_lookup(name);
    const char *reason = m == NULL ? "no model given" : unusable_reason(impl);
    if (reason == NULL && !impl->supports(m))
        reason = "that implementation does not serve this model";
    if (reason != NULL) {
        if (why != NULL)
            *why = reason;
        return -1;
    }
    crcforge_init(s, m);
    s->impl = impl;
    return 0;
}
