#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How much crcforge's ratio to the fastest peer moves from run to run, taken three ways:
paired (per round, the fastest peer's time over auto's, then the median over the rounds:
what `crcforge bench` reports), as a ratio of medians from the same runs (the fastest
peer's median time over auto's), and as a ratio of medians of a few long samples (5 of
20 ms each, how `crcforge bench` measured before it kept rounds).

    python3 scripts/paired_spread.py --crcforge build/crcforge [--runs 5] [--pin CPU]

Runs the same comparison RUNS times (auto and ISA-L, CRC-32C, CRC-32 and CRC-64/XZ at
256 B, 1 KiB, 4 KiB and 64 KiB, aligned) and prints, per algorithm and size, the ratios of
every run and their spread (largest minus smallest).  scripts/benchmarks.sh puts its table
in docs/benchmarks.md.
"""
import argparse
import json
import statistics
import subprocess
import sys

ALGOS = ["crc32c", "crc32", "crc64-xz"]
SIZES = "256,1K,4K,64K"


def one_run(args, timing):
    cmd = ([] if args.pin is None else ["taskset", "-c", str(args.pin)]) + [
        args.crcforge, "bench", *[f"-a{a}" for a in ALGOS], "--sizes", SIZES,
        "--offsets", "0", "-i", "auto", "-i", "isa-l", "--json", *timing]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"paired_spread.py: {' '.join(cmd)} failed ({p.returncode}): {p.stderr}")
    doc = json.loads(p.stdout)
    if not any(r["kind"] == "peer" for r in doc["results"]):
        sys.exit("paired_spread.py: no peer was timed (ISA-L not built)")
    ratios = {}
    for r in doc["results"]:
        if r["implementation"] != "auto" or r["status"] != "ok":
            continue
        peers = [q for q in doc["results"] if q["kind"] == "peer" and q["status"] == "ok"
                 and (q["algorithm"], q["size"]) == (r["algorithm"], r["size"])]
        of_medians = min(q["ns_median"] for q in peers) / r["ns_median"]
        ratios[(r["algorithm"], r["size"])] = (r["vs_fastest_peer"]["median"], of_medians)
    return doc, ratios


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crcforge", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pin", type=int, help="a CPU to pin the runs to (taskset -c)")
    ap.add_argument("--quick", action="store_true", help="crcforge bench --quick (smoke run)")
    args = ap.parse_args()
    if args.runs < 2:
        ap.error("--runs: at least 2, for a spread")
    rounds = ["--quick"] if args.quick else []
    long_samples = ["--quick", "--repeat", "2"] if args.quick else ["--repeat", "5",
                                                                     "--min-time", "20"]
    runs, old = [], []
    for _ in range(args.runs):  # the two ways take turns, so that both meet the same load
        runs.append(one_run(args, rounds))
        old.append(one_run(args, long_samples))
    doc = runs[0][0]
    print(f"CPU: {doc['cpu']}; {args.runs} runs each of `crcforge bench -a "
          f"{' -a '.join(ALGOS)} --sizes {SIZES} --offsets 0 -i auto -i isa-l` with "
          f"{' '.join(rounds) or 'its defaults'} ({doc['repeat']} rounds of "
          f"{doc['min_sample_seconds'] * 1000:g} ms samples) and with {' '.join(long_samples)}"
          + (f", pinned to CPU {args.pin}" if args.pin is not None else ""))
    print("auto vs the fastest ISA-L function in each run, then the spread (max - min) over "
          "the runs: paired; ratio of medians, same runs; ratio of medians, long samples")
    w = 6 * args.runs + 7
    print(f"{'algorithm':<16} {'size':>6}  {'paired':<{w}} {'of medians':<{w}} long samples")
    spreads = []
    for key in runs[0][1]:
        cols = [[r[1][key][0] for r in runs], [r[1][key][1] for r in runs],
                [r[1][key][1] for r in old]]
        spread = [max(c) - min(c) for c in cols]
        spreads.append(spread)
        print(f"{key[0]:<16} {key[1]:>6}  " + " ".join(
            "".join(f"{v:<6.2f}" for v in c) + f"({d:.3f})" for c, d in zip(cols, spread)))
    med = [statistics.median(s[i] for s in spreads) for i in range(3)]
    print(f"median spread over the cells: paired {med[0]:.3f}, ratio of medians {med[1]:.3f}, "
          f"long samples {med[2]:.3f}; paired below long samples in "
          f"{sum(s[0] < s[2] for s in spreads)} of {len(spreads)} cells")


if __name__ == "__main__":
    main()
