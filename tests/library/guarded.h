/* SPDX-License-Identifier: MIT */
/* Buffers flush against inaccessible pages, so an overread before or after faults. */
#ifndef CRCFORGE_GUARDED_H
#define CRCFORGE_GUARDED_H

#include <stddef.h>
#include <stdint.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

struct guarded {
    uint8_t *start; /* first usable byte: a guard page lies just before */
    uint8_t *end;   /* one past the last usable byte: a guard page lies just after */
    uint8_t *map;
    size_t map_len;
};

#if defined(_WIN32)
static inline int guarded_alloc(struct guarded *g, size_t size)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    size_t page = si.dwPageSize;
    size_t body = (size + page - 1) / page * page;
    g->map_len = body + 2 * page;
    g->map = VirtualAlloc(NULL, g->map_len, MEM_RESERVE | MEM_COMMIT, PAGE_NOACCESS);
    if (g->map == NULL)
        return -1;
    DWORD was;
    if (!VirtualProtect(g->map + page, body, PAGE_READWRITE, &was))
        return -1;
    g->start = g->map + page;
    g->end = g->start + body;
    return 0;
}

static inline void guarded_free(struct guarded *g)
{
    VirtualFree(g->map, 0, MEM_RELEASE);
}
#else
static inline int guarded_alloc(struct guarded *g, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (size + page - 1) / page * page;
    g->map_len = body + 2 * page;
    g->map = mmap(NULL, g->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED)
        return -1;
    if (mprotect(g->map + page, body, PROT_READ | PROT_WRITE) != 0)
        return -1;
    g->start = g->map + page;
    g->end = g->start + body;
    return 0;
}

static inline void guarded_free(struct guarded *g)
{
    munmap(g->map, g->map_len);
}
#endif

#endif /* CRCFORGE_GUARDED_H */
