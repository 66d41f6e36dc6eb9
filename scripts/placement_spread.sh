#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How much short calls' speed moves with where the code lands.  Builds the shared library
# four times from this tree, the builds differing only in the size of an unrelated function
# (16, 32, 48 and 64 bytes) linked first among the portable objects and again first among
# the ISA kernels' objects, so that the code after it moves by each 16-byte step of a
# 64-byte line wherever nothing realigns it; then runs placement_bench on the four side by
# side in PROCESSES processes: auto against ISA-L at 8-256 B for CRC-32C, CRC-32 and
# CRC-64/NVME.  It says how many functions the builds put at different offsets in a line,
# and per cell prints the range of the paired ratios over builds x processes and its
# spread, each build's median, how far the worst ratio falls below the best build's
# median, and the largest spread between the builds within one process (placement alone:
# the host's state, which moves from process to process, is the same for the builds of
# one process).  With --before it also measures the tree built without its code alignment
# (CODE_ALIGNED empty, no -falign-loops); with --against REV, the commit REV built the same
# four ways, and per cell the tree's speed over REV's: in each process the median over the
# four builds of each, so that neither side rides on one placement, paired in the same
# rounds (a change's before and after).  Every build of every state runs in each process.
#
# Usage: scripts/placement_spread.sh [--quick] [--before] [--against REV] [--sizes N,...]
#                                    [--processes N] [--build DIR]
#   --build DIR  the build holding placement_bench (configured with ISA-L; default build)
#   --sizes      placement_bench's sizes (1 to 4096 bytes; default 8-256)
#   --quick      one process of placement_bench --quick (the test of this script)
# A few minutes per state: each build compiles the library once.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/placement_spread.sh [--quick] [--before] [--against REV] [--sizes N,...] [--processes N] [--build DIR]" >&2
  exit 2
}
quick= before= against= sizes=() processes=6 build=build
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=--quick processes=1 ;;
    --before) before=1 ;;
    --against) [ $# -ge 2 ] || usage; against=$2; shift ;;
    --sizes)
      [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+(,[0-9]+)*$ ]] || usage
      for n in ${2//,/ }; do
        ((10#$n >= 1 && 10#$n <= 4096)) || {
          echo "scripts/placement_spread.sh: --sizes '$2': each size is 1 to 4096 bytes" >&2
          exit 2
        }
      done
      sizes=(--sizes "$2")
      shift
      ;;
    --processes) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; processes=$2; shift ;;
    --build) [ $# -ge 2 ] || usage; build=$2; shift ;;
    *) usage ;;
  esac
  shift
done
# The builds are read as ELF shared libraries (nm -D, libcrcforge.so.X.Y.Z).
[ "$(uname -s)" = Linux ] || {
  echo "scripts/placement_spread.sh: Linux only (it loads ELF builds of libcrcforge.so); this is $(uname -s)" >&2
  exit 2
}
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
  echo "scripts/placement_spread.sh: not in a git checkout (the builds copy its tracked files)" >&2
  exit 2
}
if [ -n "$against" ] && ! git rev-parse --verify --quiet "$against^{commit}" >/dev/null; then
  echo "scripts/placement_spread.sh: --against '$against' names no commit" >&2
  exit 2
fi
[ -x "$build/placement_bench" ] || {
  echo "scripts/placement_spread.sh: no $build/placement_bench (it needs ISA-L 2.32: bash .ci/install-isal.sh, then configure $build again)" >&2
  exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c "$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')")

states=(aligned)
[ -n "$before" ] && states+=(before)
[ -n "$against" ] && states+=(against)
pads=(16 32 48 64)
case $(uname -m) in x86_64 | amd64) kernels=x86 ;; *) kernels=arm ;; esac
for state in "${states[@]}"; do
  for pad in "${pads[@]}"; do
    src=$work/src-$state-$pad
    mkdir -p "$src"
    if [ "$state" = against ]; then
      git archive "$against" | tar -xf - -C "$src"
    else
      git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$src"
    fi
    # Named to sort first in each glob of src/sources.txt, so the link puts each before
    # the objects of its folder.
    for dir in src src/$kernels; do
      name=crc_placement_pad_${dir//\//_}
      printf 'void %s(void);\nvoid %s(void) { __asm__ volatile(".rept %d\\n nop\\n .endr"); }\n' \
        "$name" "$name" "$((pad - 1))" >"$src/$dir/aaa_placement_pad.c"
    done
    if [ "$state" = before ]; then
      sed -i 's/^#define CODE_ALIGNED __attribute__((aligned(64)))$/#define CODE_ALIGNED/' "$src/src/compiler.h"
      sed -i 's/ -falign-loops=64$//' "$src/src/sources.txt"
      ! grep -q '^#define CODE_ALIGNED .*aligned' "$src/src/compiler.h" &&
        ! grep -q '^[^#].*falign-loops' "$src/src/sources.txt" ||
        { echo "scripts/placement_spread.sh: could not take the alignment out of the copy" >&2; exit 1; }
    fi
    cmake -S "$src" -B "$work/build-$state-$pad" -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_BUILD_TOOLS=OFF \
      -DCRCFORGE_BUILD_TESTS=OFF >/dev/null
    cmake --build "$work/build-$state-$pad" -j "$(nproc)" --target crcforge_shared >/dev/null
  done
done

# Where each build put its functions: each one's offset in a 64-byte line, against the
# first build's.
for state in "${states[@]}"; do
  for pad in "${pads[@]}"; do
    nm --defined-only "$work/build-$state-$pad"/libcrcforge.so.*.*.* | while read -r address type name; do
      case $type in t | T) echo "$name $((16#$address % 64))" ;; esac
    done | sort >"$work/offsets-$state-$pad"
    moved=$(comm -13 "$work/offsets-$state-${pads[0]}" "$work/offsets-$state-$pad" | wc -l)
    echo "$state, pad $pad B: $moved of $(wc -l <"$work/offsets-$state-$pad") functions elsewhere in a line than at pad ${pads[0]} B;" \
      "$(grep -E '^crcforge_(crc32c|crc32|crc64_nvme) ' "$work/offsets-$state-$pad" |
        awk '{printf "%s%s at %s", (NR > 1 ? ", " : ""), $1, $2}')"
  done
done

libs=()
for state in "${states[@]}"; do
  for pad in "${pads[@]}"; do libs+=("$(realpath "$work/build-$state-$pad"/libcrcforge.so.*.*.*)"); done
done
for ((p = 1; p <= processes; p++)); do
  "${pin[@]}" "$build/placement_bench" $quick "${sizes[@]}" "${libs[@]}" >"$work/run-$p.tsv"
done

python3 - "$work" "$against" "${states[@]}" <<'PY'
import csv, glob, re, statistics, sys
work, against, states = sys.argv[1], sys.argv[2], sys.argv[3:]
ratio = {}  # (state, algorithm, size, pad, process) -> the process's median
for path in glob.glob(f"{work}/run-*.tsv"):
    process = int(re.search(r"-(\d+)\.tsv$", path).group(1))
    for row in csv.DictReader(open(path), delimiter="\t"):
        state, pad = re.search(r"build-([a-z]+)-(\d+)/", row["library"]).groups()
        ratio[(state, row["algorithm"], int(row["size"]), int(pad), process)] = float(row["median"])
cells = sorted({k[1:3] for k in ratio})
pads = sorted({k[3] for k in ratio})
processes = sorted({k[4] for k in ratio})
print("\nISA-L's time over crcforge's, paired within each round (above 1: crcforge faster), "
      f"{len(pads)} builds x {len(processes)} processes; per cell: the range of the ratios and its "
      "spread, each build's median (pad " + "/".join(map(str, pads)) + " B), the worst ratio's "
      "fall below the best build's median, and the largest spread between the builds in one process")
for state in states:
    print(f"\n{state}:")
    print(f"{'cell':18} {'range':>11} {'spread':>6}  {'build medians':>20} {'below':>6} {'in one':>6}")
    for algorithm, size in cells:
        at = lambda pad, p: ratio[(state, algorithm, size, pad, p)]
        values = [at(pad, p) for pad in pads for p in processes]
        medians = [statistics.median(at(pad, p) for p in processes) for pad in pads]
        within = max(max(at(pad, p) for pad in pads) - min(at(pad, p) for pad in pads)
                     for p in processes)
        print(f"{algorithm + ' ' + str(size) + ' B':18} {min(values):5.2f}-{max(values):<5.2f} "
              f"{max(values) - min(values):6.3f}  {'/'.join('%.2f' % m for m in medians):>20} "
              f"{max(medians) - min(values):6.3f} {within:6.3f}")
if against:
    print(f"\nthe tree against {against}: in each process, the median over the builds of the tree's "
          f"ratio over that of {against}'s (above 1: the tree faster); the median over the processes "
          "and their range")
    for algorithm, size in cells:
        of = lambda state, p: statistics.median(ratio[(state, algorithm, size, pad, p)] for pad in pads)
        r = [of("aligned", p) / of("against", p) for p in processes]
        print(f"{algorithm + ' ' + str(size) + ' B':18} {statistics.median(r):6.3f}  "
              f"{min(r):5.3f}-{max(r):5.3f}")
PY
