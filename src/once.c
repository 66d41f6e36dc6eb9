/* SPDX-License-Identifier: MIT */
/*
 * First use of derived data: compute, then publish with a compare-and-swap.  What is
 * built this way is pure (tables and constants from a polynomial, the CPU's features),
 * so threads that race on a first use compute equal objects; one is published, the
 * others are freed, and no lock is ever taken.  Readers take the published object with
 * an acquire load (crc_once_peek), which pairs with the release of the exchange.
 */
#include "compiler.h"
#include "internal.h"

const void *crc_once(crc_once_slot *slot, size_t size, void (*fill)(void *obj, const void *arg),
                     const void *arg)
{
    const void *published = crc_once_peek(slot);
    if (published != NULL)
        return published;
    /* Cache-line aligned (size rounded up, as crc_aligned_alloc requires), so that a 512-bit
     * load of aligned derived constants (fold_consts.h's reduce_lanes) never splits. */
    void *fresh = crc_aligned_alloc(64, (size + 63) / 64 * 64);
    if (fresh == NULL)
        abort(); /* at most a few tens of KiB once: nothing sensible to return instead */
    fill(fresh, arg);
    if (atomic_compare_exchange_strong_explicit(slot, &published, fresh, memory_order_acq_rel,
                                                memory_order_acquire))
        return fresh;
    crc_aligned_free(fresh); /* another thread published first; `published` is its object */
    return published;
}

void crc_once_release(crc_once_slot *slot)
{
    crc_aligned_free((void *)atomic_exchange(slot, NULL));
}
