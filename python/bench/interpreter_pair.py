# SPDX-License-Identifier: MIT
"""Times crcforge.crc32c in two interpreters, paired: e.g. the Linux wheel on CPython 3.13
here against the Windows wheel on the python.org CPython 3.13 under Wine.  Each command
starts a worker that stays up (so an interpreter's start-up, Wine's included, is not
timed) and times crcforge.crc32c(data) on request, a sample of a given number of calls
at a time; each round takes one sample of each, in alternating order (timing.round_order),
so a change of the machine's speed falls on both.  Per size: the median ns per call of
each and the median (quartiles) over the rounds of second over first.  Samples are wall
time (time.perf_counter: Windows' thread CPU clock ticks every 15.6 ms), so pin both to
one CPU of a quiet machine.

    taskset -c 1 python python/bench/interpreter_pair.py \\
        --first 'python3.13' --second 'wine python.exe' [--sizes 16,4096,1048576]

Each command must run a Python that imports the crcforge under test; the worker's code is
given to it with -c.
"""
import argparse
import shlex
import statistics
import subprocess

from timing import paired_ratio, round_order, whole_number

WORKER = r"""
import sys, time, crcforge
out = sys.stdout
out.write(crcforge.implementation("crc32c") + "\n")
out.flush()
buffers = {}
for line in sys.stdin:
    size, number = map(int, line.split())
    data = buffers.setdefault(size, bytes(range(256)) * (size // 256) + bytes(size % 256))
    f = crcforge.crc32c
    f(data)
    start = time.perf_counter()
    for _ in range(number):
        f(data)
    out.write(repr((time.perf_counter() - start) / number * 1e9) + "\n")
    out.flush()
"""


class Worker:
    def __init__(self, command):
        self.command = command
        self.p = subprocess.Popen([*shlex.split(command), "-c", WORKER], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.implementation = self.p.stdout.readline().strip()
        if not self.implementation:
            raise SystemExit(f"{command}: the worker did not start (does it import crcforge?)")

    def sample(self, size, number):
        self.p.stdin.write(f"{size} {number}\n")
        self.p.stdin.flush()
        answer = self.p.stdout.readline()
        if not answer:
            raise SystemExit(f"{self.command}: the worker stopped")
        return float(answer)

    def calls_for(self, size, seconds):
        """Calls of crc32c on size bytes that take about `seconds`."""
        number = 1
        while True:
            ns = self.sample(size, number)
            if ns * number >= 0.02e9:
                return max(1, int(seconds * 1e9 / ns))
            number *= 4

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", required=True, help="the command of the first interpreter")
    parser.add_argument("--second", required=True, help="the command of the second")
    parser.add_argument("--sizes", default="16,4096,1048576")
    parser.add_argument("--repeat", type=whole_number(2), default=31, help="rounds a size")
    parser.add_argument("--sample", type=float, default=0.05, help="seconds a sample")
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes: {args.sizes!r} is not a comma-separated list of byte counts")
    workers = [Worker(args.first), Worker(args.second)]
    try:
        for label, w in zip(("first", "second"), workers):
            print(f"{label}: {w.command}: crc32c on {w.implementation}")
        print(f"{'size':>8} {'first ns':>10} {'second ns':>10}  second/first  (quartiles)")
        for size in sizes:
            numbers = [w.calls_for(size, args.sample) for w in workers]
            runs = [[], []]
            for r in range(args.repeat):
                for i in round_order(r, 2):
                    runs[i].append(workers[i].sample(size, numbers[i]))
            med, q1, q3 = paired_ratio(runs[1], runs[0])
            print(f"{size:>8} {statistics.median(runs[0]):>10.1f} "
                  f"{statistics.median(runs[1]):>10.1f}  {med:>12.3f}  [{q1:.3f}, {q3:.3f}]")
    finally:
        for w in workers:
            w.close()


if __name__ == "__main__":
    main()
