#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates docs/benchmarks.md, its plots docs/benchmarks-ALGO.svg and the headline
# figures in README.md from one run on this machine: the throughput tables of crcforge's
# paths and the peers (crc32c, crc32, crc64-nvme, crc64-xz, crc16-xmodem), the small-key
# table, the latency loop and the mixed stream, the inlined short CRC-32C, the x86 units'
# ceiling, short calls direct and through a pointer (short_calls_bench), their spread
# over builds that differ only in code placement (scripts/placement_spread.sh, with the
# tree built without its code alignment beside it), auto under each family's tuning table
# this CPU runs (scripts/family_tables.py), how paired ratios vary from run to run
# (scripts/paired_spread.py), and `sum -j` on a 1 GiB file.
# Unattended; a few minutes, and a minute or two per library build (eight of them).
#
# Usage: scripts/benchmarks.sh [--quick] [--out DIR]
#   --quick    tiny samples, small file, no README change (the CI smoke run of this script)
#   --out DIR  where the page and plots go (default docs)
# Timing runs pinned to CPU 1 with taskset (when present), the two-thread run on CPUs 0-1.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/benchmarks.sh [--quick] [--out DIR]" >&2; exit 2; }
timing=() out= quick= repeat=5 file_size=1G readme=README.md command=scripts/benchmarks.sh
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 timing=(--quick) repeat=2 file_size=32M readme= command="scripts/benchmarks.sh --quick" ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift ;;
    *) usage ;;
  esac
  shift
done
# A smoke run must not overwrite the committed page and plots with its figures.
if [ -z "$out" ]; then
  if [ -n "$quick" ]; then out=$(mktemp -d); else out=docs; fi
fi
mkdir -p "$out"
version=$(git describe --always --dirty 2>/dev/null || echo unknown) # before we write docs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build=${CRCFORGE_BENCH_BUILD:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_BENCH_CRC_FAST=ON >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
# The page compares with the pinned peers: without them it would say less than it seems to.
"$build/crcforge" bench -i portable --sizes 8 --offsets 0 --repeat 1 --min-time 0 \
  --json="$work/probe.json" >/dev/null
python3 - "$work/probe.json" <<'PY' || exit 2
import json, sys
peers = {p["library"]: p for p in json.load(open(sys.argv[1]))["peers"]}
missing = [f"{name} ({how})" for name, how in (("isa-l", "bash .ci/install-isal.sh"),
                                                ("libdeflate", "bash .ci/install-libdeflate.sh"))
           if not peers[name]["built"]]
if missing:
    sys.exit("scripts/benchmarks.sh: peers not built: " + ", ".join(missing)
             + "; then configure the build again")
PY
# Pinned to the last CPU this process may use, the two-thread run to the last two (with
# taskset, and only if there are two): CPU numbers come from the affinity mask, not the host.
mapfile -t allowed < <(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)), sep="\n")')
pin=() pin_cpu= pin_pair=
if command -v taskset >/dev/null && [ ${#allowed[@]} -gt 1 ]; then
  pin_cpu=${allowed[-1]} pin_pair=${allowed[-2]},${allowed[-1]}
  pin=(taskset -c "$pin_cpu")
fi

algos=(crc32c crc32 crc64-nvme crc64-xz crc16-xmodem)
for algo in "${algos[@]}"; do
  echo "bench: $algo" >&2
  "${pin[@]}" "$build/crcforge" bench -a "$algo" "${timing[@]}" \
    --json="$work/$algo.json" --plot "$out/benchmarks-$algo.svg" >"$work/$algo.txt"
done
echo "bench: keys" >&2
"${pin[@]}" "$build/crcforge" bench --keys -a crc32c -a crc16-xmodem --offsets 0 \
  "${timing[@]}" --json="$work/keys.json" >"$work/keys.txt"
echo "bench: latency loop and mixed stream" >&2
"${pin[@]}" "$build/crcforge" bench --loop latency -a crc32c -a crc32 -a crc64-nvme \
  --offsets 0 "${timing[@]}" --json="$work/latency.json" >"$work/latency.txt"
"${pin[@]}" "$build/crcforge" bench --mixed -a crc32c -a crc32 -a crc64-nvme -a crc64-xz \
  "${timing[@]}" --json="$work/mixed.json" >"$work/mixed.txt"
"${pin[@]}" "$build/crcforge" bench --mixed --loop latency -a crc32c -a crc32 -a crc64-nvme \
  -a crc64-xz "${timing[@]}" --json="$work/mixed-latency.json" >"$work/mixed-latency.txt"
quick_flag=()
[ -z "$readme" ] && quick_flag=(--quick)
if [ -x "$build/crc32c_short_bench" ]; then
  echo "bench: short CRC-32C" >&2
  "${pin[@]}" "$build/crc32c_short_bench" "${quick_flag[@]}" >"$work/crc32c_short.txt"
fi
if [ -x "$build/x86_ceiling_bench" ]; then
  echo "bench: x86 unit ceiling" >&2
  "${pin[@]}" "$build/x86_ceiling_bench" "${quick_flag[@]}" >"$work/x86_ceiling.txt"
fi
if [ -x "$build/short_calls_bench" ]; then
  echo "bench: short calls, direct and through a pointer" >&2
  "${pin[@]}" "$build/short_calls_bench" "${quick_flag[@]}" >"$work/short_calls.txt"
fi
if [ -x "$build/placement_bench" ] && [ "$(uname -s)" = Linux ]; then
  echo "bench: short calls against code placement (four builds of the library each)" >&2
  placement_args=(--before)
  [ -n "$quick" ] && placement_args=(--quick)
  bash scripts/placement_spread.sh --build "$build" "${placement_args[@]}" >"$work/placement.txt"
fi
echo "bench: each family's tuning table this CPU runs" >&2
python3 scripts/family_tables.py --crcforge "$build/crcforge" ${pin_cpu:+--pin "$pin_cpu"} \
  ${quick:+--quick --runs 1} >"$work/family_tables.txt"
echo "bench: paired ratios against ratios of medians, run to run" >&2
python3 scripts/paired_spread.py --crcforge "$build/crcforge" ${pin_cpu:+--pin "$pin_cpu"} \
  ${quick:+--quick --runs 2} >"$work/paired_spread.txt"
echo "bench: sum -j on a $file_size file" >&2
python3 scripts/bench_threads.py --crcforge "$build/crcforge" --size "$file_size" \
  ${pin_cpu:+--cpus "$pin_cpu" --cpu-pair "$pin_pair"} \
  --repeat "$repeat" --json "$work/threads.json" >"$work/threads.txt"

python3 scripts/benchmarks_report.py --work "$work" --out "$out" ${readme:+--readme "$readme"} \
  --command "$command" --pinned "${pin[*]:-not pinned}" \
  --version "$version" "${algos[@]}"
echo "wrote $out/benchmarks.md" >&2
