/* Clock and sorting helpers shared by the benchmark programs (crcforge bench and the
 * stand-alone keyslot_bench and crc32c_short_bench). */
#ifndef CRCFORGE_BENCH_TIMING_H
#define CRCFORGE_BENCH_TIMING_H

#include <time.h>

/* Now in ns: elapsed time (wall_clock), or this thread's CPU time, which leaves out the
 * time a shared machine gives to other processes. */
static inline double bench_now_ns(int wall_clock)
{
    struct timespec ts;
    clock_gettime(wall_clock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* qsort comparator of doubles, ascending (min and median of samples). */
static inline int bench_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif /* CRCFORGE_BENCH_TIMING_H */
