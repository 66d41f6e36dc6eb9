#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions executed per 4 KiB by each aarch64 path, under qemu-aarch64 -cpu max.
# qemu models no time, so this counts instructions, not speed: each run is single-stepped
# (one instruction per translation block) with every block execution logged
# (-d exec,nochain); tests/library/path_repeat is run with 1 and with 3 passes over the same
# 4 KiB and the difference of the counts, halved, is one pass.  Deterministic.
# Usage: scripts/insn_per_4k.sh [BUILD_DIR]   (default build-aarch64, a cross build)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-aarch64}
emu="qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu max"
# One instruction per block: -one-insn-per-tb since qemu 8.1, -singlestep before (removed
# in 9.0).
step=-one-insn-per-tb
$emu $step "$dir/crcforge" cpu >/dev/null 2>&1 || step=-singlestep

count() { # IMPL ALGO REPEATS
  $emu $step -d exec,nochain -D /dev/stdout "$dir/tests/library/path_repeat" "$@" |
    grep -c '^Trace'
}

impls=$($emu "$dir/crcforge" cpu --impls | grep -vx portable)
printf '%-14s %-24s %12s %12s\n' ALGO PATH "INSNS/4KiB" "portable/PATH"
for algo in crc32c crc32 crc64-nvme crc16-xmodem; do
  base=
  for impl in portable $impls; do
    rc=0
    $emu "$dir/tests/library/path_repeat" "$impl" "$algo" 0 2>/dev/null || rc=$?
    [ $rc != 2 ] || continue # the path does not serve this algorithm
    [ $rc = 0 ] || { echo "$impl $algo: wrong result" >&2; exit 1; }
    one=$(count "$impl" "$algo" 1)
    three=$(count "$impl" "$algo" 3)
    n=$(((three - one) / 2))
    base=${base:-$n}
    awk -v a="$algo" -v i="$impl" -v n="$n" -v b="$base" \
      'BEGIN { printf "%-14s %-24s %12d %11.1fx\n", a, i, n, b / n }'
  done
done
