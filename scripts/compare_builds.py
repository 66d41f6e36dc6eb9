#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A change's before and after at any size: two crcforge builds' `crcforge bench`, in
alternating processes, each timing a path against ISA-L in the same rounds.

    compare_builds.py NEW OLD [--algos A,...] [--sizes LIST] [--offsets LIST]
                      [--impl PATH] [--processes N] [--repeat N] [--pin CPU]
    compare_builds.py NEW --against REV [...]

NEW and OLD are crcforge executables; --against REV builds the commit REV (Release, into a
temporary directory) as OLD.  Each process gives, per cell (algorithm, size, offset), the
median over its rounds of the path's speed over the fastest ISA-L function's in the same
round; per cell this prints NEW's and OLD's medians over the processes and the median and
range over the process pairs of NEW's ratio over OLD's (above 1: NEW faster).  The two
take turns, NEW first in odd pairs, so that a change in the machine's speed falls on both.
Where placement_spread.sh pairs builds in one process (1 B to 4 KiB), this reaches any size:
the shared peer carries the pairing across processes.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    print(f"compare_builds.py: {message}", file=sys.stderr)
    sys.exit(2)


def build_commit(rev, into):
    """crcforge built from the commit rev (its tracked files) in `into`."""
    check = subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "--quiet",
                            f"{rev}^{{commit}}"], capture_output=True, text=True)
    if check.returncode != 0:
        fail(f"--against '{rev}' names no commit")
    src = os.path.join(into, "src")
    os.makedirs(src)
    archive = subprocess.run(["git", "-C", ROOT, "archive", check.stdout.strip()],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    build = os.path.join(into, "build")
    for cmd in (["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release"],
                ["cmake", "--build", build, "-j", str(os.cpu_count() or 1), "--target",
                 "crcforge"]):
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"building {rev}: {' '.join(cmd)}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return os.path.join(build, "crcforge")


def one_process(binary, args):
    """{(algorithm, size, offset): the path's median ratio to the fastest peer}."""
    cmd = ([] if args.pin is None else ["taskset", "-c", str(args.pin)]) + [
        binary, "bench", *[f"-a{a}" for a in args.algos.split(",")], "-i", args.impl,
        "-i", "isa-l", "--sizes", args.sizes, "--offsets", args.offsets,
        "--repeat", str(args.repeat), "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    doc = json.loads(done.stdout)
    out = {}
    for r in doc["results"]:
        if r["implementation"] != args.impl or r["loop"] != "throughput":
            continue
        if r["status"] != "ok":
            fail(f"{binary}: {args.impl} gave a wrong {r['algorithm']} at {r['size']} bytes")
        if not isinstance(r.get("vs_fastest_peer"), dict):
            fail(f"{binary}: no ISA-L function was timed (build it: bash .ci/install-isal.sh)")
        out[(r["algorithm"], r["size"], r["offset"])] = r["vs_fastest_peer"]["median"]
    return doc, out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("new", help="the crcforge executable after the change")
    ap.add_argument("old", nargs="?", help="the one before (or --against REV)")
    ap.add_argument("--against", metavar="REV", help="build the commit REV as the one before")
    ap.add_argument("--algos", default="crc32c,crc32,crc64-nvme")
    ap.add_argument("--sizes", default="8K,16K,64K,256K,1M,16M")
    ap.add_argument("--offsets", default="0,1")
    ap.add_argument("--impl", default="auto", help="the subject (default auto)")
    ap.add_argument("--processes", type=int, default=6, help="per build (default 6)")
    ap.add_argument("--repeat", type=int, default=15, help="crcforge bench's rounds")
    ap.add_argument("--pin", type=int, metavar="CPU", help="taskset -c CPU")
    args = ap.parse_args(argv)
    if (args.old is None) == (args.against is None):
        ap.error("give the build before as OLD or as --against REV, not both")
    if args.processes < 1 or args.repeat < 1:
        ap.error("--processes and --repeat: at least 1")
    for binary in (args.new, args.old):
        if binary is not None and not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            fail(f"{binary}: no such executable")
    work = tempfile.mkdtemp(prefix="compare-builds-")
    try:
        old = args.old or build_commit(args.against, work)
        pairs, doc = {}, None
        for i in range(args.processes):
            order = [(0, args.new), (1, old)] if i % 2 == 0 else [(1, old), (0, args.new)]
            got = {}
            for k, binary in order:
                doc, got[k] = one_process(binary, args)
            for cell in got[0]:
                pairs.setdefault(cell, []).append((got[0][cell], got[1].get(cell)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"CPU: {doc['cpu']}; {args.processes} processes of each build, alternating"
          + (f", pinned to CPU {args.pin}" if args.pin is not None else "")
          + f"; `crcforge bench -i {args.impl} -i isa-l --repeat {args.repeat}`")
    print(f"OLD: {args.against or old}")
    print("per cell: NEW's and OLD's speed over ISA-L's fastest (median over the processes), "
          "then NEW over OLD: median over the process pairs (range)")
    for cell in sorted(pairs):
        got = [(a, b) for a, b in pairs[cell] if b is not None]
        q = [a / b for a, b in got]
        print(f"{cell[0]:<16} {cell[1]:>9} +{cell[2]}  {statistics.median(a for a, _ in got):.3f}"
              f"  {statistics.median(b for _, b in got):.3f}  {statistics.median(q):.3f} "
              f"({min(q):.3f}-{max(q):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
