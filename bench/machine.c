/* Facts about the machine a benchmark ran on: core cycles, and the CPU's name. */
#include <errno.h>
#include <stdio.h>
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

const char *bench_cpu_name(void)
{
    static char name[128];
    if (name[0] != '\0')
        return name;
    snprintf(name, sizeof name, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return name;
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *v = strchr(line, ':');
        if (v == NULL)
            break;
        v += strspn(v + 1, " \t") + 1;
        snprintf(name, sizeof name, "%.*s", (int)strcspn(v, "\n"), v);
        break;
    }
    fclose(f);
    return name;
}
