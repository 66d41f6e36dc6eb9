"""Measures what releasing the GIL costs per call, to choose crcforge.GIL_THRESHOLD.

For each size, times crcforge.crc32c (the fastest path, so the most demanding case) with
the GIL held (threshold above the size) and released (threshold 0), uncontended, and
prints the extra time per call and its share of the call.  The threshold is set where
that share has fallen to a few percent.

    taskset -c 1 python python/bench/gil.py
"""
import statistics
import sys
import time

import crcforge
from crcforge import _crcforge

SIZES = [64, 256, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 262144]
REPEATS = 7


def per_call_ns(data, calls):
    fn = crcforge.crc32c
    best = []
    for _ in range(REPEATS):
        start = time.perf_counter_ns()
        for _ in range(calls):
            fn(data)
        best.append((time.perf_counter_ns() - start) / calls)
    return min(best), statistics.median(best)


def main():
    old = _crcforge._set_gil_threshold(0)
    print(f"crcforge {crcforge.__version__}, crc32c on {crcforge.implementation('crc32c')}, "
          f"threshold now {old}")
    print(f"{'size':>8} {'held ns':>10} {'released ns':>12} {'extra ns':>9} {'extra %':>8}"
          "   (min; median in brackets)")
    for size in SIZES:
        data = bytes(size)
        calls = max(200, 20_000_000 // (size + 200))
        _crcforge._set_gil_threshold(sys.maxsize)
        held = per_call_ns(data, calls)
        _crcforge._set_gil_threshold(0)
        released = per_call_ns(data, calls)
        extra = released[0] - held[0]
        print(f"{size:>8} {held[0]:>10.1f} {released[0]:>12.1f} {extra:>9.1f} "
              f"{100 * extra / held[0]:>7.1f}%   [{held[1]:.1f}; {released[1]:.1f}]")
    _crcforge._set_gil_threshold(old)


if __name__ == "__main__":
    main()
