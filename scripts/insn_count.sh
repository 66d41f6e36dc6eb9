#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions executed by the hot paths, counted by callgrind (repeatable, whatever else
# the machine does), against the committed baseline tests/insn_baseline.txt:
#   path:IMPL:ALGO   per 4 KiB through one forced path (tests/library/path_repeat run with 1 and
#                    with 3 passes, the difference halved);
#   call:FN:16       per public call of crcforge_keyslot and the fixed entries crcforge_crc32c,
#                    crcforge_crc32, crcforge_crc64_nvme, crcforge_crc64_xz on 16 bytes
#                    (1000 and 3000 calls, the difference over 2000).
# A count more than 2% above its baseline fails.  Paths that valgrind's virtual CPU
# cannot run (it has no VPCLMULQDQ or AVX-512) are not counted and say so.
# Usage: scripts/insn_count.sh [--update] [BUILD_DIR]   (default build)
#   --update rewrites the baseline from this run.
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
dir=${1:-build}
baseline=tests/insn_baseline.txt
repeat=$dir/tests/library/path_repeat
if ! command -v valgrind >/dev/null; then
  echo "insn_count: valgrind is not installed (Debian package valgrind)" >&2
  exit 77
fi
[ -x "$repeat" ] || { echo "insn_count: $repeat is not built" >&2; exit 2; }
unset CRCFORGE_IMPL CRCFORGE_CPU_MASK

collected() { # ARGS...: the instructions callgrind counts for one run of path_repeat
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$repeat" "$@" 2>&1 |
    sed -n 's/^==[0-9]*== Collected : //p'
}

impls=$(valgrind --tool=none "$dir/crcforge" cpu --impls 2>/dev/null)
run=$(mktemp)
trap 'rm -f "$run"' EXIT
for algo in crc32c crc32 crc64-nvme crc64-xz crc16-xmodem; do
  for impl in $impls; do
    rc=0
    "$repeat" "$impl" "$algo" 0 2>/dev/null || rc=$?
    [ $rc != 2 ] || continue # the path does not serve this algorithm
    [ $rc = 0 ] || { echo "insn_count: $impl $algo: wrong result" >&2; exit 1; }
    one=$(collected "$impl" "$algo" 1)
    three=$(collected "$impl" "$algo" 3)
    echo "path:$impl:$algo $(((three - one) / 2))" >>"$run"
  done
done
for fn in keyslot crc32c crc32 crc64-nvme crc64-xz; do
  one=$(collected --call "$fn" 16 1000)
  three=$(collected --call "$fn" 16 3000)
  awk -v k="call:$fn:16" -v d=$((three - one)) 'BEGIN { printf "%s %.1f\n", k, d / 2000 }' >>"$run"
done

if [ $update = 1 ]; then
  {
    echo "# Instructions per 4 KiB (path:IMPL:ALGO) and per 16-byte call (call:FN:16), counted"
    echo "# by callgrind; written by scripts/insn_count.sh --update (GCC $(gcc -dumpfullversion), $(date -u +%F))."
    cat "$run"
  } >"$baseline"
  echo "insn_count: baseline written to $baseline"
  cat "$run"
  exit 0
fi

awk -v base="$baseline" '
  BEGIN {
    while ((getline line < base) > 0)
      if (line !~ /^#/) { split(line, f, " "); want[f[1]] = f[2]; order[++n] = f[1] }
  }
  { got[$1] = $2 }
  END {
    bad = 0
    printf "%-44s %12s %12s %8s\n", "COUNTED", "BASELINE", "NOW", "NOW/BASE"
    for (i = 1; i <= n; i++) {
      k = order[i]
      if (!(k in got)) { printf "%-44s %12s %12s %8s\n", k, want[k], "-", "not run"; continue }
      r = got[k] / want[k]
      flag = r > 1.02 ? "  GREW" : ""
      if (r > 1.02) bad++
      printf "%-44s %12s %12s %8.3f%s\n", k, want[k], got[k], r, flag
    }
    for (k in got) if (!(k in want)) printf "%-44s %12s %12s %8s\n", k, "-", got[k], "new"
    if (bad) { printf "insn_count: %d count(s) grew by more than 2%%\n", bad; exit 1 }
    print "insn_count: no count grew by more than 2%"
  }' "$run"
