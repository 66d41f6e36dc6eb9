#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times `crcforge sum -j 1 -a A -a B -a C FILE` (every algorithm in one read) against each
algorithm alone on the same page-cached file, in paired rounds: a round runs every command
once, in crcforge bench's balanced orders (python/bench/timing.py), and its ratio is the
combined run's wall time over the slowest single run's in that round.  Prints each
command's median time and the median and quartiles of the per-round ratios
(docs/benchmarks.md, "Several algorithms in one read").  Pin it for steady figures:

    taskset -c 1 python3 scripts/multi_algo_bench.py --crcforge build/crcforge \\
        --file /tmp/crcforge-1g --size 1G --rounds 41

--size makes FILE (random bytes) when it does not exist.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python" / "bench"))
from timing import paired_ratio, round_order, whole_number  # noqa: E402


def parse_size(text):
    """An argparse type: bytes, with an optional K, M or G."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    number = text.rstrip("KMGkmg")
    if not number.isdigit() or len(text) - len(number) > 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (bytes, or a number with K, M or G)")
    return int(number) * units[text[len(number):].upper()]


def make_file(path, size):
    with open(path, "wb") as f:
        left = size
        while left:
            chunk = os.urandom(min(left, 1 << 24))
            f.write(chunk)
            left -= len(chunk)


def timed(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode()}")
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crcforge", default="build/crcforge")
    ap.add_argument("--file", required=True)
    ap.add_argument("--size", type=parse_size, help="make FILE of this size (K, M, G) when it does not exist")
    ap.add_argument("-a", "--algorithm", action="append",
                    help="repeatable (default crc32c, crc64-nvme, crc32)")
    ap.add_argument("--rounds", type=whole_number(1), default=41)
    ap.add_argument("--warmup", type=whole_number(0), default=2)
    args = ap.parse_args()
    algos = args.algorithm or ["crc32c", "crc64-nvme", "crc32"]
    if not os.path.exists(args.file):
        if args.size is None:
            sys.exit(f"{args.file} does not exist (give --size to make it)")
        make_file(args.file, args.size)
    base = [args.crcforge, "sum", "-j", "1"]
    singles = {a: [*base, "-a", a, args.file] for a in algos}
    combined = [*base, *[x for a in algos for x in ("-a", a)], args.file]
    commands = [*singles.values(), combined]
    for _ in range(args.warmup):  # the file into the page cache, the binary too
        for cmd in commands:
            timed(cmd)
    times = {i: [] for i in range(len(commands))}
    for r in range(args.rounds):
        for i in round_order(r, len(commands)):
            times[i].append(timed(commands[i]))
    size = os.path.getsize(args.file)
    print(f"file {args.file}: {size} bytes; {args.rounds} paired rounds; "
          f"{' '.join(os.uname()[i] for i in (0, 2, 4))}")
    for i, cmd in enumerate(commands):
        med = statistics.median(times[i])
        print(f"  {med * 1e3:8.1f} ms  {size / med / 1e9:5.2f} GB/s  {' '.join(cmd)}")
    slowest = [max(times[i][r] for i in range(len(algos))) for r in range(args.rounds)]
    combined = times[len(commands) - 1]
    med, q1, q3 = paired_ratio(combined, slowest)
    ratios = [c / s for c, s in zip(combined, slowest)]
    print(f"combined / slowest single, per round: median {med:.3f} "
          f"(quartiles {q1:.3f}-{q3:.3f}, min {min(ratios):.3f}, max {max(ratios):.3f})")

if __name__ == "__main__":
    main()
