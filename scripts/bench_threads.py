#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""GB/s of `crcforge sum -j 1` and `-j 2` on one large file in the page cache, beside a
plain `cat FILE > /dev/null` read of it: how far threads take a whole-file checksum
towards the speed at which the kernel can hand the file over.

Usage: scripts/bench_threads.py [--crcforge build/crcforge] [--size 1G] [--repeat 5]
                                [--algo crc32] [--cpus N --cpu-pair M,N] [--json OUT]
The file is written once under $TMPDIR (random data), read once so that it sits in the
page cache, and each command is then run --repeat times; min and median GB/s (decimal)
are printed.  The CRC printed by every run is checked against Python's (zlib for crc32,
else -j 1's) before its time counts.  With --cpus and --cpu-pair (and taskset), the
one-thread commands run pinned to that CPU and the two-thread one to that pair.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib


def parse_size(text):
    """A size in bytes, with an optional K, M or G suffix (binary): the --size type."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    digits, unit = (text[:-1], units[text[-1]]) if text[-1:] in units else (text, 1)
    if not digits.isdigit() or not digits.isascii() or int(digits) == 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size (N, NK, NM or NG, N > 0)")
    return int(digits) * unit


def positive(text):
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive integer")
    return int(text)


def pinned(cpus, argv):
    if cpus and shutil.which("taskset"):
        return ["taskset", "-c", cpus, *argv]
    return argv


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv, stdout):
    """Wall seconds and CPU seconds (user + system, all threads) of one command."""
    cpu0, start = children_cpu(), time.perf_counter()
    p = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, check=False)
    elapsed, cpu = time.perf_counter() - start, children_cpu() - cpu0
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr.decode().strip()}")
    return elapsed, cpu, p.stdout if stdout == subprocess.PIPE else b""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crcforge", default="build/crcforge")
    ap.add_argument("--size", type=parse_size, default="1G")
    ap.add_argument("--repeat", type=positive, default=5)
    ap.add_argument("--algo", default="crc32")
    ap.add_argument("--cpus", help="CPU for the one-thread commands")
    ap.add_argument("--cpu-pair", help="CPUs for the two-thread command, as M,N")
    ap.add_argument("--json")
    args = ap.parse_args()
    size = args.size

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big")
        block = os.urandom(1 << 20)
        crc = 0
        with open(path, "wb") as f:
            for i in range(0, size, len(block)):
                chunk = block[: min(len(block), size - i)]
                f.write(chunk)
                crc = zlib.crc32(chunk, crc)
        with open(path, "rb") as f:  # into the page cache
            while f.read(1 << 24):
                pass

        commands = {
            "cat FILE > /dev/null": (pinned(args.cpus, ["cat", path]), subprocess.DEVNULL),
            "crcforge sum -j 1": (pinned(args.cpus, [args.crcforge, "sum", "-a", args.algo,
                                                     "-j", "1", path]), subprocess.PIPE),
            "crcforge sum -j 2": (pinned(args.cpu_pair, [args.crcforge, "sum", "-a", args.algo,
                                                         "-j", "2", path]), subprocess.PIPE),
        }
        want = f"{crc:08x}" if args.algo == "crc32" else None
        rows = []
        for name, (argv, out) in commands.items():
            times, cpus = [], []
            for _ in range(args.repeat):
                elapsed, cpu, text = timed(argv, out)
                if out == subprocess.PIPE:
                    value = text.split()[0].decode()
                    want = want or value
                    if value != want:
                        sys.exit(f"{name}: CRC {value}, expected {want}")
                times.append(elapsed)
                cpus.append(cpu)
            rows.append({"command": name, "argv": " ".join(argv).replace(path, "FILE"),
                         "gbps_best": size / min(times) / 1e9,
                         "gbps_median": size / statistics.median(times) / 1e9,
                         "cpu_seconds_median": statistics.median(cpus)})

    print(f"{size} bytes in the page cache, {args.algo}, {args.repeat} runs "
          "each; GB/s from the wall time of the whole command; CPU s = user + system time "
          "of all its threads (below the wall time x threads when other processes had the "
          "CPUs)")
    print(f"{'command':<22}  {'GB/s median':>11}  {'GB/s best':>9}  {'CPU s median':>12}")
    for r in rows:
        print(f"{r['command']:<22}  {r['gbps_median']:>11.2f}  {r['gbps_best']:>9.2f}  "
              f"{r['cpu_seconds_median']:>12.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"size": size, "algo": args.algo, "repeat": args.repeat, "rows": rows}, f,
                      indent=1)


if __name__ == "__main__":
    main()
