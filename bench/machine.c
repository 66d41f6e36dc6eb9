/* SPDX-License-Identifier: MIT */
/* Facts about the machine a benchmark ran on: core cycles, and the CPU's name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

/*
 * Core cycles come from the kernel's perf events (PERF_COUNT_HW_CPU_CYCLES of this
 * thread, user space only): they count at the core's actual clock, turbo or not.  The
 * TSC (rdtsc) is not used: it ticks at a fixed reference rate, so "cycles" from it
 * would be nanoseconds in disguise.  Where no hardware counter is exposed (most
 * virtual machines), cycles are not reported.
 */
static int cycles_fd = -2; /* -2: not tried yet */
static const char *cycles_why;

int bench_cycles_open(const char **why)
{
#if defined(__linux__)
    if (cycles_fd == -2) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.type = PERF_TYPE_HARDWARE;
        a.size = sizeof a;
        a.config = PERF_COUNT_HW_CPU_CYCLES;
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        cycles_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
        if (cycles_fd < 0) {
            static char reason[160];
            snprintf(reason, sizeof reason,
                     "perf_event_open(PERF_COUNT_HW_CPU_CYCLES): %s%s", strerror(errno),
                     errno == ENOENT ? " (no hardware cycle counter exposed here)" : "");
            cycles_why = reason;
            cycles_fd = -1;
        }
    }
#else
    cycles_why = "core cycle counter not supported on this OS";
#endif
    if (cycles_fd < 0 && why != NULL)
        *why = cycles_why;
    return cycles_fd >= 0 ? 0 : -1;
}

uint64_t bench_cycles_now(void)
{
    uint64_t count = 0;
    if (cycles_fd >= 0 && read(cycles_fd, &count, sizeof count) != (ssize_t)sizeof count)
        count = 0;
    return count;
}

/* The value of the first /proc/cpuinfo line whose key is `key`, or 0 when there is none. */
static int cpuinfo_field(const char *key, char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return 0;
    char line[512];
    int found = 0;
    const size_t klen = strlen(key);
    while (!found && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, klen) != 0)
            continue;
        const char *v = line + klen + strspn(line + klen, " \t");
        if (*v != ':')
            continue; /* a longer key: "model name" when asking for "model" */
        v += 1 + strspn(v + 1, " \t");
        snprintf(out, n, "%.*s", (int)strcspn(v, "\n"), v);
        found = 1;
    }
    fclose(f);
    return found;
}

const char *bench_cpu_name(void)
{
    static char name[128];
    if (name[0] == '\0' && !cpuinfo_field("model name", name, sizeof name))
        snprintf(name, sizeof name, "unknown CPU");
    return name;
}

static int cpuinfo_number(const char *key)
{
    char v[32], *end;
    if (!cpuinfo_field(key, v, sizeof v))
        return -1;
    long n = strtol(v, &end, 0);
    return end != v && *end == '\0' && n >= 0 && n <= 0xffff ? (int)n : -1;
}

void bench_cpu_identify(struct bench_cpu_id *id)
{
    if (!cpuinfo_field("vendor_id", id->vendor, sizeof id->vendor))
        id->vendor[0] = '\0';
    id->family = cpuinfo_number("cpu family");
    id->model = cpuinfo_number("model");
    id->stepping = cpuinfo_number("stepping");
}
