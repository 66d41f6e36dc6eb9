/* SPDX-License-Identifier: MIT */
/* The registry (registry.h) and what crcforge_dispatch.h asks of it. */
#include <string.h>

#include "registry.h"

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

const struct crc_impl *const crc_registry[] = {
    CRC_X86_IMPLS
    CRC_ARM_IMPLS
    &crc_impl_portable,
};
const size_t crc_registry_size = sizeof crc_registry / sizeof crc_registry[0];

const struct crc_impl *crc_impl_lookup(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < crc_registry_size; i++)
        if (strcmp(crc_registry[i]->name, name) == 0)
            return crc_registry[i];
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

size_t crcforge_impl_count(void)
{
    return crc_registry_size;
}

const char *crcforge_impl_name(size_t i)
{
    return i < crc_registry_size ? crc_registry[i]->name : NULL;
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
