#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tuning sweep of this CPU: `crcforge bench --json` of every path, pinned to one CPU,
# then scripts/tune/make_table.py turns it into the table of this CPU's family
# (src/x86/tuning.h).  Unattended, with only the repository, cmake, a C compiler and
# python3; a minute or two with --quick.  In full, as the READMEs of docs/sweeps/ measured
# it: 23 min on AMD Zen 3, 27 on Zen 5, 41 on Zen 4 (with three runs of each limit's value;
# the full sweep's two more runs add 6 min each there), and 69 on the Intel Xeon (family 6
# model 207) before the limits' runs were added.
#
# Usage: bash scripts/tune/sweep.sh [--out DIR] [--quick] [--install] [--family NAME]
#                                   [--build DIR]
#   --out DIR      a new directory for the JSON files, FAMILY.h, README.md, cpu.txt and
#                  sweep.log (default tune-sweep-FAMILY-DATE in the current directory)
#   --quick        tiny samples and fewer sizes: proves the pipeline, decides nothing
#   --install      also write the table to src/x86/tuning/FAMILY.h
#   --family NAME  the table's family (default: the one crcforge reads from this CPU)
#   --build DIR    the build directory (default build), configured and built here
#
# The runs, each for crc32c, crc32, crc64-nvme, crc64-xz, crc16-xmodem and CRC-64/ECMA-182,
# at sizes every 16 B from 16 B to 1 KiB, every 128 B to 4 KiB, every 512 B to 16 KiB,
# 64 KiB, 1 MiB, 16 MiB and 64 MiB, offsets 0 and 1 (crcforge bench takes 64 sizes a run:
# the list is split):
#   1. variant-fold-P-A-*.json: the folding paths (names with "pclmul", not hybrids) with
#      CRCFORGE_TUNE=fold_parallel_max=P,fold_accumulators=A, P in 0 and
#      CRC_FOLD_PARALLEL_MAX, A in 1 2 4 8; make_table.py --choose picks P and A;
#   2. variant-threeway-T-*.json: the three-chain path with those and
#      crc32c_threeway_min=T, T in 64 128 192 256 320 384; variant-hybrid256min-H-*.json:
#      the 256-bit hybrid with crc32c_hybrid256_min=H, H in 1024 1536 2048 2560 3072;
#      variant-hybrid512min-H-*.json: the 512-bit hybrid with crc32c_hybrid512_min=H, H in
#      1024 1536 2048 2560 3072 3584 4097 (4097: no loop within 4 KiB); --choose picks them;
#   3. variant-hybrid-Q-*.json: the hybrid paths with all those and hybrid_qwords=Q, Q in
#      2 4 6 8 12 16; --choose picks Q; the runs of 2. and 3. three times each, in turn
#      (variant-NAME-VALUE-runR-*.json);
#   4. sweep-*.json: every path and peer with the parameters chosen, three runs in turn
#      (sweep-runR-*.json after the first);
# then FAMILY.h from all of them, and sources.json: the commit and the digest of the kernel
# sources measured (scripts/tune/kernel_sources.py), without which make_table.py makes no
# table.  The variant runs time the baseline "read" beside their paths (a floor to read
# them against; make_table.py compares the values by the paths' own times, since "read"
# moved alone in some processes).  A path that disagrees with crcforge's reference is
# reported and left out of the table; the sweep goes on and exits 1 at the end.
set -euo pipefail

usage() {
  echo "usage: bash scripts/tune/sweep.sh [--out DIR] [--quick] [--install] [--family NAME] [--build DIR]" >&2
  exit 2
}
out= quick= install= family= build=build
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || usage; out=$(realpath -m -- "$2"); shift ;;
    --quick) quick=1 ;;
    --install) install=1 ;;
    --family) [ $# -ge 2 ] || usage; family=$2; shift ;;
    --build) [ $# -ge 2 ] || usage; build=$(realpath -m -- "$2"); shift ;;
    -h | --help) usage ;;
    *) echo "scripts/tune/sweep.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
start=$SECONDS
caller=$PWD
cd "$(dirname "$0")/../.."
version=$(git describe --always --dirty 2>/dev/null || echo "(not a git checkout)")

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_BENCH_CRC_FAST=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target crcforge >/dev/null
crcforge=$build/crcforge

algos=(crc32c crc32 crc64-nvme crc64-xz crc16-xmodem CRC-64/ECMA-182)
parallel_max=$(sed -n 's/^#define CRC_FOLD_PARALLEL_MAX \([0-9]*\).*/\1/p' src/x86/fold.h)
[ -n "$parallel_max" ] || {
  echo "sweep.sh: no '#define CRC_FOLD_PARALLEL_MAX N' in src/x86/fold.h: the fold variants need it" >&2
  exit 2
}
fold_settings=() # P,A pairs
for p in 0 "$parallel_max"; do
  for a in 1 2 4 8; do fold_settings+=("$p,$a"); done
done
if [ -n "$quick" ]; then
  timing=(--quick)
  sizes=($(seq 64 64 1024) $(seq 1536 512 4096) $(seq 6144 2048 16384) 65536 1048576)
  hybrid_qwords=(4 8)
  threeway_min=(128 256)
  hybrid256_min=(1536 3072)
  hybrid512_min=(2048 4097)
  repeats=1
  full_runs=2 # so that a smoke run pools full sweeps as a real one does
else
  timing=() # crcforge bench's rounds: 41, each sample at least 0.3 ms
  # 16 and 64 MiB: past the last-level cache, where the paths' order may change again.
  sizes=($(seq 16 16 1024) $(seq 1152 128 4096) $(seq 4608 512 16384) 65536 1048576 16777216
         67108864)
  hybrid_qwords=(2 4 6 8 12 16)
  threeway_min=(64 128 192 256 320 384)
  hybrid256_min=(1024 1536 2048 2560 3072)
  hybrid512_min=(1024 1536 2048 2560 3072 3584 4097)
  repeats=3 # runs of each limit's and hybrid_qwords' value (a few minutes each)
  full_runs=3 # runs of the full sweep (6 min each on AMD Zen 4)
fi
chunks=() # comma-separated lists of at most 64 sizes
for ((i = 0; i < ${#sizes[@]}; i += 64)); do
  chunks+=("$(IFS=,; echo "${sizes[*]:i:64}")")
done

# Pinned to the last CPU this process may use (taskset, when present).
pin=()
if command -v taskset >/dev/null; then
  cpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
  pin=(taskset -c "$cpu")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Which paths serve each model, and the family: a one-sample probe.
"$crcforge" bench "${algos[@]/#/-a}" --sizes 64 --offsets 0 --repeat 1 --min-time 0 \
  --json="$work/probe.json" >/dev/null
[ -n "$family" ] || family=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tuning"]["family"])' "$work/probe.json")
if [ "$family" = none ]; then
  echo "scripts/tune/sweep.sh: crcforge has no tuning families on this CPU" >&2
  exit 2
fi
[ -n "$out" ] || out=$caller/tune-sweep-$family-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
shopt -s nullglob
old=("$out"/*.json)
if [ ${#old[@]} -gt 0 ]; then # they would be read as part of this sweep
  echo "scripts/tune/sweep.sh: $out already holds JSON files: give a new --out DIR" >&2
  exit 2
fi
log=$out/sweep.log
: >"$log"
"$crcforge" cpu >"$out/cpu.txt"
# The kernel sources this sweep measures (make_table.py makes a table only from a sweep of
# the kernels the tree has); checked again at the end, since an edit meanwhile would make
# the runs a mixture.
python3 scripts/tune/kernel_sources.py --json --family "$family" >"$out/sources.json"

# paths I REGEX [EXCLUDE]: the crcforge paths serving the I-th algorithm whose names match
# REGEX and not EXCLUDE (the probe lists its models in the order of the -a options).
paths() {
  python3 -c '
import json, re, sys
doc = json.load(open(sys.argv[1]))
model = doc["models"][int(sys.argv[2])]["name"]
want, skip, seen = sys.argv[3], sys.argv[4], []
for r in doc["results"]:
    p = r["implementation"]
    if (r["kind"] == "crcforge" and r["algorithm"] == model and p not in ("auto", "portable")
            and re.search(want, p) and not (skip and re.search(skip, p)) and p not in seen):
        seen.append(p)
print(" ".join(seen))' "$work/probe.json" "$@" ""
}

mismatch=0
# bench INCLUDE EXCLUDE NAME=TUNE...: for every algorithm and chunk of sizes, one run per
# setting, CRCFORGE_TUNE=TUNE, into DIR/NAME-ALGO-K.json.  With INCLUDE, only the crcforge
# paths serving the algorithm whose names match it and not EXCLUDE (none: no run), and the
# baseline "read"; without, every path and peer.  The settings take turns run by run, so that a change in the
# machine's load falls on all of them alike.
bench() {
  local include=$1 exclude=$2 i k setting p
  shift 2
  for i in "${!algos[@]}"; do
    local algo=${algos[i]} selected=()
    if [ -n "$include" ]; then
      for p in $(paths "$i" "$include" "$exclude"); do selected+=(-i "$p"); done
      [ ${#selected[@]} -gt 0 ] || continue
      selected+=(-i read)
    fi
    for k in "${!chunks[@]}"; do
      for setting in "$@"; do
        local file=$out/${setting%%=*}-$(echo "$algo" | tr '/A-Z' '-a-z')-$((k + 1)).json
        local cmd=(env CRCFORGE_TUNE="${setting#*=}" "${pin[@]}" "$crcforge" bench -a "$algo"
                   "${selected[@]}" --sizes "${chunks[k]}" --offsets 0,1 "${timing[@]}"
                   --json="$file")
        local t0=$SECONDS rc=0
        "${cmd[@]}" >/dev/null 2>>"$log" || rc=$?
        echo "$(printf '%q ' "${cmd[@]}")# exit $rc, $((SECONDS - t0)) s" >>"$log"
        case $rc in
          0) ;;
          1) mismatch=1; echo "sweep.sh: a path disagrees with crcforge: see $file" >&2 ;;
          *) echo "sweep.sh: crcforge bench failed (exit $rc): see $log" >&2; exit "$rc" ;;
        esac
      done
    done
  done
}
choose() { # the parameters the variant runs so far choose, as CRCFORGE_TUNE text
  local variants=("$out"/variant-*.json)
  [ ${#variants[@]} -eq 0 ] || python3 scripts/tune/make_table.py --choose "${variants[@]}"
}

echo "sweep: family $family, ${#sizes[@]} sizes, into $out" >&2
settings=()
for s in "${fold_settings[@]}"; do
  settings+=("variant-fold-${s%,*}-${s#*,}=fold_parallel_max=${s%,*},fold_accumulators=${s#*,}")
done
echo "sweep: folding paths, fold_parallel_max 0/$parallel_max x fold_accumulators 1/2/4/8" >&2
bench pclmul hybrid "${settings[@]}"
chosen=$(choose)
# variants INCLUDE NAME KEY VALUE...: the paths matching INCLUDE under the values chosen so
# far and KEY=VALUE, $repeats runs each in turn, into variant-NAME-VALUE[-runR]-*.json.
# Several processes a value: on a virtual machine a process can run a whole run slow (the
# baseline "read" at an offset too, by 1.2-2.3x against the other processes'), and one
# process's value against another's decides a limit; the rounds of all its runs pooled, a
# run in that state is outvoted.
variants() {
  local include=$1 name=$2 key=$3 v r settings=()
  shift 3
  for ((r = 1; r <= repeats; r++)); do
    for v in "$@"; do
      settings+=("variant-$name-$v$([ "$r" -eq 1 ] || echo "-run$r")=${chosen:+$chosen,}$key=$v")
    done
  done
  echo "sweep: paths matching $include, ${chosen:+$chosen and }$key $*" >&2
  bench "$include" "" "${settings[@]}"
}
variants sse42_3way threeway crc32c_threeway_min "${threeway_min[@]}"
variants avx2_hybrid hybrid256min crc32c_hybrid256_min "${hybrid256_min[@]}"
variants avx512_hybrid hybrid512min crc32c_hybrid512_min "${hybrid512_min[@]}"
chosen=$(choose)
variants hybrid hybrid hybrid_qwords "${hybrid_qwords[@]}"
chosen=$(choose)
# The full sweep $full_runs times, each run whole before the next: its bands compare paths
# within one process, and a process can spend minutes in a state of the host that favours
# one kind of path (on a shared AMD Zen 4, the 512-bit hybrid at 0.87-0.98x of the folding
# path over 4.5-12 KiB in one sweep's run, 1.05-1.15x in the sweep before and in alternating
# processes after); make_table.py pools the runs' rounds, so that such a run is outvoted.
echo "sweep: every path and peer, CRCFORGE_TUNE=$chosen, $full_runs runs" >&2
for ((r = 1; r <= full_runs; r++)); do
  bench "" "" "sweep$([ "$r" -eq 1 ] || echo "-run$r")=$chosen"
done

if ! python3 scripts/tune/kernel_sources.py --json --family "$family" |
    cmp -s - "$out/sources.json"; then
  echo "scripts/tune/sweep.sh: the kernel sources changed during the sweep (see" \
    "scripts/tune/kernel_sources.py): its runs measured different code; sweep again" >&2
  exit 2
fi
python3 scripts/tune/make_table.py --family "$family" --out "$out/$family.h" "$out"/*.json
if [ -n "$install" ]; then
  cp "$out/$family.h" "src/x86/tuning/$family.h"
  echo "sweep: installed src/x86/tuning/$family.h" >&2
fi
elapsed=$((SECONDS - start))
cpu_line=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
i = d["cpu_id"]
print("{} ({} family {} model {})".format(d["cpu"], i["vendor"], i["family"], i["model"]))
' "$work/probe.json")
{
  echo "# Tuning sweep of family $family, $(date -u +%Y-%m-%d)"
  echo
  echo "- Command: \`bash scripts/tune/sweep.sh${quick:+ --quick}\` at crcforge $version," \
    "$((elapsed / 60)) min $((elapsed % 60)) s${quick:+ (a smoke run: its table decides nothing)}."
  echo "- CPU: $cpu_line; runs pinned with \`${pin[*]:-nothing (no taskset)}\`;" \
    "\`crcforge cpu\` in cpu.txt."
  echo "- Peers: $(python3 -c '
import json, sys
peers = json.load(open(sys.argv[1]))["peers"]
print(", ".join(p["library"] + " " + p["version"] if p["built"] else p["library"] + " not built"
                for p in peers))' "$work/probe.json")."
  echo "- Parameters the variant runs chose: \`${chosen:-none}\`."
  echo "- The table: $family.h, for src/x86/tuning/ (in the repository," \
    "\`python3 scripts/tune/make_table.py --family $family --out $family.h DIR/*.json\`" \
    "writes it again from this directory)."
  echo "- Files, each a \`crcforge bench --json\` run of the K-th part of the sizes:" \
    "variant-fold-P-A-ALGO-K.json (fold_parallel_max P, fold_accumulators A)," \
    "variant-threeway-T-ALGO-K.json (crc32c_threeway_min T)," \
    "variant-hybrid256min-H-ALGO-K.json (crc32c_hybrid256_min H)," \
    "variant-hybrid512min-H-ALGO-K.json (crc32c_hybrid512_min H)," \
    "variant-hybrid-Q-ALGO-K.json (hybrid_qwords Q), each limit's and Q's value run" \
    "$repeats times in turn (-runR before -ALGO), sweep-ALGO-K.json (every path and" \
    "peer; the whole of it $full_runs times, sweep-runR-ALGO-K.json after the first);" \
    "sources.json, the kernel sources measured (scripts/tune/kernel_sources.py);" \
    "every command and its time in sweep.log."
} >"$out/README.md"
echo "sweep: done in $elapsed s: $out/$family.h" | tee -a "$log" >&2
exit "$mismatch"
