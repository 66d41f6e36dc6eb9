#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What each tuning table gives on this CPU: auto under CRCFORGE_TUNE=family=NAME, for
every family whose paths this CPU runs, as its paired ratio to the fastest ISA-L function
(ISA-L's time over auto's in the same round, median over the rounds; above 1: crcforge
faster), per algorithm, size and offset.  The sizes lie around the tables' limits (where
the CRC-32C hybrids start) and beyond, aligned and offset by one.  The families take
turns, RUNS times over, and each cell is the median over the runs; the CPU's own family
is marked *.  So a new family table is checked on the CPU it was made for against the
tables it replaces (the zen5 table against zen4's on an AMD Zen 5).

    python3 scripts/family_tables.py --crcforge build/crcforge [--runs N] [--pin CPU]
                                     [--sizes LIST] [--algorithms LIST] [--quick]

The families are those src/x86/tuning.c lists (src/arm/tuning.c on aarch64).  One whose
features this CPU lacks is named and left out (crcforge refuses to time it), and so is one
that runs another family's table (one not measured yet runs a generic one).  scripts/benchmarks.sh puts its table in
docs/benchmarks.md.
"""
import argparse
import json
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
SIZES = "1K,1536,2K,2112,2304,2560,3K,3584,4K,8K,16K,64K"
ALGORITHMS = "crc32c,crc32,crc64-nvme"
tables = {}  # family -> the name of the table it ran


def families():
    """The families crcforge knows on this architecture (src/x86/tuning.c's or
    src/arm/tuning.c's list, in its order; none elsewhere)."""
    arch = {"x86_64": "x86", "amd64": "x86", "aarch64": "arm", "arm64": "arm"}.get(
        platform.machine().lower())
    if arch is None:
        return []
    source = (ROOT / "src" / arch / "tuning.c").read_text()
    listed = re.search(r"families\[[A-Z0-9_]+\] = \{(.*?)\n\};", source, re.S)
    return re.findall(r'^\s*\{"([a-z0-9-]+)",', listed.group(1), re.M) if listed else []


def one_run(args, family, json_path):
    """auto's paired ratios under family's table: {(algorithm, size, offset): ratio}, or
    None with crcforge's reason when the library would not run that table here."""
    cmd = ([] if args.pin is None else ["taskset", "-c", str(args.pin)]) + [
        args.crcforge, "bench", *[f"-a{a}" for a in args.algorithms.split(",")],
        "-i", "auto", "-i", "isa-l", "--sizes", args.sizes, "--offsets", "0,1",
        f"--json={json_path}", *(["--quick"] if args.quick else [])]
    env = dict(os.environ, CRCFORGE_TUNE=f"family={family}")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode == 2 and "is not what the library runs" in p.stderr:
        # The library's warning, less its prefix: "family=NAME: this CPU lacks ...".
        return None, re.sub(r"^crcforge: warning: CRCFORGE_TUNE=[^:]*: |; ignored it.*$", "",
                            p.stderr.strip().splitlines()[0])
    if p.returncode != 0:
        sys.exit(f"family_tables.py: {' '.join(cmd)} (CRCFORGE_TUNE=family={family}) failed "
                 f"({p.returncode}): {p.stderr.strip()}")
    return ratios(json.loads(pathlib.Path(json_path).read_text()), family), None


def ratios(doc, family):
    """The cells of one run's JSON; the run must have used family's table and timed ISA-L."""
    if doc["tuning"]["family"] != family:
        sys.exit(f"family_tables.py: asked for family {family}, the run used "
                 f"{doc['tuning']['family']}")
    tables[family] = doc["tuning"]["table"]
    cells = {}
    for r in doc["results"]:
        if r["implementation"] == "auto" and r["status"] == "ok" and r.get("vs_fastest_peer"):
            cells[(r["algorithm"], r["size"], r["offset"])] = r["vs_fastest_peer"]["median"]
    if not cells:
        sys.exit("family_tables.py: no ratio to a peer in the run (ISA-L not built?)")
    return cells


def table(runs, own):
    """The text table: runs is {family: [cells of each run]}, own the CPU's own family."""
    names = list(runs)
    keys = sorted({k for cells in runs.values() for c in cells for k in c},
                  key=lambda k: (k[0], k[1], k[2]))
    head = ["cell"] + [n + ("*" if n == own else "") for n in names]
    rows = []
    for algorithm, size, offset in keys:
        row = [f"{algorithm} {size} B{' +1' if offset else ''}"]
        for n in names:
            values = [c[(algorithm, size, offset)] for c in runs[n] if (algorithm, size, offset) in c]
            row.append(f"{statistics.median(values):.2f}" if values else "-")
        rows.append(row)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths)))
                     for r in [head] + rows)


def positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of at least 1")
    return int(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crcforge", required=True, help="the crcforge program (built with ISA-L)")
    ap.add_argument("--runs", type=positive, default=3, help="runs of each family (default 3)")
    ap.add_argument("--pin", type=int, help="the CPU to pin the runs to (taskset)")
    ap.add_argument("--sizes", default=SIZES, help=f"crcforge bench --sizes (default {SIZES})")
    ap.add_argument("--algorithms", default=ALGORITHMS,
                    help=f"comma-separated algorithms (default {ALGORITHMS})")
    ap.add_argument("--quick", action="store_true", help="crcforge bench --quick: figures meaningless")
    args = ap.parse_args()

    if not (os.path.isfile(args.crcforge) and os.access(args.crcforge, os.X_OK)):
        sys.exit(f"family_tables.py: --crcforge {args.crcforge}: no such program")
    with tempfile.TemporaryDirectory() as work:
        probe = subprocess.run([args.crcforge, "bench", "-a", "crc32c", "--sizes", "64",
                                "--offsets", "0", "--repeat", "1", "--min-time", "0",
                                f"--json={work}/probe.json"], capture_output=True, text=True)
        if probe.returncode != 0:
            sys.exit(f"family_tables.py: {args.crcforge} bench failed: {probe.stderr.strip()}")
        own = json.loads(pathlib.Path(f"{work}/probe.json").read_text())["tuning"]["family"]
        runs, left_out, known = {}, [], families()
        for k in range(args.runs):
            for family in known:
                if family in left_out:
                    continue
                cells, why = one_run(args, family, f"{work}/{family}-{k}.json")
                if cells is not None and tables[family] != family and tables[family] in known:
                    why = f"it runs {tables[family]}'s table"  # not measured yet
                if why is not None:
                    left_out.append(family)
                    print(f"left out {family}: {why}", file=sys.stderr)
                    continue
                runs.setdefault(family, []).append(cells)
    if not runs:
        print(f"no tuning table of crcforge's runs on this CPU (left out: "
              f"{', '.join(left_out) or 'none'})")
        return
    print(f"auto under each family's table (* this CPU's own, {own}) against the fastest ISA-L "
          f"function, paired, median of {args.runs} run(s); left out (this CPU lacks their "
          f"features, or they run another's table): {', '.join(left_out) or 'none'}")
    print(table(runs, own))


if __name__ == "__main__":
    main()
