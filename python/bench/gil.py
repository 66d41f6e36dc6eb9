# SPDX-License-Identifier: MIT
"""Measures what releasing the GIL costs per call, to choose crcforge.GIL_THRESHOLD.

For each size, times crcforge.crc32c (the fastest path, so the most demanding case) with
the GIL held (threshold above the size) and released (threshold 0), uncontended, their
samples taken in the same rounds (timing.py), and prints the extra time per call and its
share of the call: the median (quartiles) over the rounds of released over held.  Time is the thread's CPU time, which leaves out moments when other processes had
the CPU.  The threshold is set where that share has fallen to a few percent.

    taskset -c 1 python python/bench/gil.py
    python python/bench/gil.py --threads     # also: wall time of 1 vs N threads (unpinned)
"""
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import crcforge
from crcforge import _crcforge
from timing import paired_ratio, time_rounds

SIZES = [64, 256, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 262144]
REPEATS = 15


def main():
    old = _crcforge._set_gil_threshold(0)
    print(f"crcforge {crcforge.__version__}, crc32c on {crcforge.implementation('crc32c')}, "
          f"threshold now {old}")
    print(f"{'size':>8} {'held ns':>10} {'released ns':>12} {'extra ns':>9} {'extra %':>8}"
          "   (medians over the rounds; extra: paired, quartiles in brackets)")
    for size in SIZES:
        rounds = time_rounds(
            [("held", crcforge.crc32c, lambda: _crcforge._set_gil_threshold(sys.maxsize)),
             ("released", crcforge.crc32c, lambda: _crcforge._set_gil_threshold(0))],
            bytes(size), REPEATS, 0.02)
        held, released = statistics.median(rounds["held"]), statistics.median(rounds["released"])
        ratio, q1, q3 = paired_ratio(rounds["released"], rounds["held"])
        print(f"{size:>8} {held:>10.1f} {released:>12.1f} {(ratio - 1) * held:>9.1f} "
              f"{100 * (ratio - 1):>7.1f}%   [{100 * (q1 - 1):.1f}%, {100 * (q3 - 1):.1f}%]")
    _crcforge._set_gil_threshold(old)
    if "--threads" in sys.argv:
        scaling()


def scaling(blocks=256, size=1 << 20):
    """Wall time to hash `blocks` buffers of `size` bytes with 1..N threads."""
    data = [os.urandom(size) for _ in range(8)]
    cpus = len(os.sched_getaffinity(0))
    print(f"threads: {blocks} x {size >> 10} KiB crc32c, {cpus} CPUs available")
    for threads in range(1, cpus + 1):
        runs = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            with ThreadPoolExecutor(threads) as pool:
                list(pool.map(lambda i: crcforge.crc32c(data[i % 8]), range(blocks)))
            runs.append(time.perf_counter() - start)
        print(f"  {threads} thread(s): min {min(runs) * 1e3:.1f} ms, median "
              f"{statistics.median(runs) * 1e3:.1f} ms, {blocks * size / min(runs) / 1e9:.1f} GB/s")


if __name__ == "__main__":
    main()
