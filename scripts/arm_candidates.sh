#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every aarch64 candidate measured on this ARM machine, in one command: builds crcforge
# (Release) with ISA-L 2.32.1 beside it (.ci/install-isal.sh: the pinned sdist, its aarch64
# assembly), then `crcforge bench` times, for each algorithm, every path compiled in that
# this CPU runs (forced one by one), the dispatcher's choice (`auto`) and ISA-L, paired
# within each round (ratios to the fastest peer and to auto), pinned to one CPU; once with
# the build's own tuning and once under each other family table the library accepts
# (CRCFORGE_TUNE=family=NAME) and each --tune given, and CRC-32C and CRC-32 once under
# each shape of the hybrids (CRCFORGE_TUNE=hybrid_shape=S).  What the static model
# (scripts/static_estimate_arm.py) estimated, measured.  A few minutes; --quick: seconds.
#
# Usage: bash scripts/arm_candidates.sh [--out DIR] [--build DIR] [--cpu N] [--quick]
#                                       [--no-isal] [--tune KEY=VALUE,...]...
#   --out DIR    a new directory for cpu.txt, the tables (own.txt, family_NAME.txt,
#                shapes.txt) and crcforge bench's JSON
#                (default arm-candidates-HOST-DATE in the current directory)
#   --build DIR  the build directory (default build-arm-candidates), configured and built
#   --cpu N      the CPU to pin to (default the last one)
#   --quick      crcforge bench --quick: proves the pipeline, decides nothing
#   --no-isal    without ISA-L (no network for its sdist, or no interest)
#   --tune T     one more CRCFORGE_TUNE setting to time every path under (repeatable)
set -euo pipefail

usage() {
  echo "usage: bash scripts/arm_candidates.sh [--out DIR] [--build DIR] [--cpu N] [--quick] [--no-isal] [--tune KEY=VALUE,...]..." >&2
  exit 2
}
out= build=build-arm-candidates cpu= quick= isal=1 tunes=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || usage; out=$(realpath -m -- "$2"); shift ;;
    --build) [ $# -ge 2 ] || usage; build=$(realpath -m -- "$2"); shift ;;
    --cpu) [ $# -ge 2 ] || usage; cpu=$2; shift ;;
    --quick) quick=--quick ;;
    --no-isal) isal= ;;
    --tune) [ $# -ge 2 ] || usage; tunes+=("$2"); shift ;;
    -h | --help) usage ;;
    *) echo "scripts/arm_candidates.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
case $(uname -m) in
  aarch64 | arm64) ;;
  *) echo "scripts/arm_candidates.sh: this is $(uname -m), not an ARM machine (the static model for this one: scripts/static_estimate_arm.py)" >&2
     exit 2 ;;
esac
caller=$PWD
cd "$(dirname "$0")/.."
out=${out:-$caller/arm-candidates-$(hostname -s)-$(date -u +%Y%m%d-%H%M)}
cpu=${cpu:-$(($(getconf _NPROCESSORS_ONLN) - 1))}
mkdir -p "$out"
unset CRCFORGE_IMPL CRCFORGE_CPU_MASK CRCFORGE_TUNE

# ISA-L where CMake looks for it: the usual prefix, or inside the build directory when
# that cannot be written.
peers=${CRCFORGE_PEERS_PREFIX:-/opt/crcforge-peers}
if ! mkdir -p "$peers" 2>/dev/null || [ ! -w "$peers" ]; then
  peers=$build/peers
fi
if [ -n "$isal" ]; then
  CRCFORGE_PEERS_PREFIX=$peers bash .ci/install-isal.sh
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_PEERS_PREFIX="$peers" \
  >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j "$(getconf _NPROCESSORS_ONLN)" --target crcforge crcforge-bench \
    >>"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; exit 1; }
tool=$build/crcforge

{
  echo "crcforge $(git describe --always --dirty 2>/dev/null || echo '(not a git checkout)')"
  uname -a
  grep -m1 -E '^(model name|Hardware)' /proc/cpuinfo 2>/dev/null || true
  # The core's identity, as the dispatcher reads it (MIDR: implementer, part).
  grep -E '^CPU (implementer|architecture|variant|part|revision)' /proc/cpuinfo 2>/dev/null | sort -u || true
  sysctl -n machdep.cpu.brand_string hw.cpufamily 2>/dev/null || true
  "$tool" cpu
} | tee "$out/cpu.txt"
if [ -n "$isal" ] && ! grep -q 'bench peers: isa-l=1' "$out/build.log"; then
  echo "scripts/arm_candidates.sh: ISA-L was installed in $peers but the build did not find it" \
    "(see $out/build.log)" >&2
  exit 1
fi

# The tunings to time under: the build's own, each family table the library takes on this
# CPU (an unknown or unusable family is an environment problem `crcforge cpu` reports),
# each --tune given.
settings=("")
own_family=$("$tool" cpu | sed -n 's/^tuning: \([^ ]*\).*/\1/p')
for family in neoverse-n1 neoverse-v1 neoverse-v2 neoverse-n2 apple-m generic; do
  [ "$family" != "$own_family" ] || continue
  if CRCFORGE_TUNE=family=$family "$tool" cpu 2>/dev/null | grep -q '^environment:'; then
    continue
  fi
  CRCFORGE_TUNE=family=$family "$tool" cpu 2>/dev/null | grep -q "^tuning: $family" &&
    settings+=("family=$family")
done
settings+=("${tunes[@]}")
# The CRC-32C/CRC-32 hybrids' shapes (accumulators, chains, qwords a chain an iteration),
# each timed under the build's own family: the library lists them when refusing a bad one.
shapes=$(CRCFORGE_TUNE=hybrid_shape=? "$tool" cpu 2>/dev/null |
  sed -n 's/.*no such shape (\([^)]*\)).*/\1/p' | head -n 1 | tr -d ,)

sizes=64,256,1K,4K,16K,64K,1M
status=0
own="the build's own"
for setting in "${settings[@]}"; do
  name=${setting:-own}
  name=${name//[^A-Za-z0-9_.-]/_}
  for algo in crc32c crc32 crc64-nvme crc64-xz crc16-xmodem; do
    echo "== $algo, tuning: ${setting:-$own}" | tee -a "$out/$name.txt"
    # A setting crcforge bench refuses (it names the problem) stops neither the others nor
    # the other algorithms.
    CRCFORGE_TUNE=$setting taskset -c "$cpu" "$tool" bench $quick -a "$algo" --sizes "$sizes" \
      --json="$out/$name-$algo.json" 2>&1 | tee -a "$out/$name.txt" ||
      { echo "FAILED: $algo under CRCFORGE_TUNE=$setting" | tee -a "$out/$name.txt"; status=1; }
  done
done
for shape in $shapes; do
  for algo in crc32c crc32; do
    echo "== $algo, CRCFORGE_TUNE=hybrid_shape=$shape" | tee -a "$out/shapes.txt"
    CRCFORGE_TUNE=hybrid_shape=$shape taskset -c "$cpu" "$tool" bench $quick -a "$algo" \
      --sizes "$sizes" --json="$out/shape-$shape-$algo.json" 2>&1 | tee -a "$out/shapes.txt" ||
      { echo "FAILED: $algo under CRCFORGE_TUNE=hybrid_shape=$shape" | tee -a "$out/shapes.txt"; status=1; }
  done
done
echo "scripts/arm_candidates.sh: the tables and JSON are in $out"
exit $status
