/* Buffers flush against PROT_NONE pages, so an overread before or after faults. */
#ifndef CRCFORGE_GUARDED_H
#define CRCFORGE_GUARDED_H

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

struct guarded {
    uint8_t *start; /* first usable byte: a guard page lies just before */
    uint8_t *end;   /* one past the last usable byte: a guard page lies just after */
    uint8_t *map;
    size_t map_len;
};

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

#endif /* CRCFORGE_GUARDED_H */
