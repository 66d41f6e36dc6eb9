#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The libFuzzer targets, under AddressSanitizer and UndefinedBehaviorSanitizer, each
# differential against an independent oracle (any difference aborts):
#   differential  every path against the bitwise reference, with random models, data,
#                 split points and CPU masks (tests/fuzz/fuzz_differential.c)
#   keyslot       crcforge_keyslot and crcforge_keyslots against the Redis hash-tag rule
#                 written in the target over the bitwise CRC-16/XMODEM, on forced paths
#   model_arg     the CLI's model argument (tools/model_arg.c: custom parameters, catalogue
#                 lines) against a parser written in the target, and the accepted models'
#                 CRC against the reference
#   check_line    a line of a sum -c list (tools/check_line.c), tagged and untagged, escaped
#                 names, hex and base64, plain and composite, against a reader written in
#                 the target from the list's rules; the lines sum writes read back as written
# The library is compiled once (build-fuzz/obj/) and linked into every target.  Each
# target starts from its corpus in tests/fuzz/corpus/TARGET (new inputs go to build-fuzz/,
# never into the repository) and runs, one target at a time (on one CPU: the runner has
# other stages use the other), a fixed number of executions: by default what 40 s gave it
# on one core here, so that the stages beside it take none of its strength, only add to its
# wall time (with a time, -max_total_time, a loaded machine ran a tenth of the inputs or fewer);
# CRCFORGE_FUZZ_RUNS executions, or CRCFORGE_FUZZ_SECONDS seconds, when set.  The stage
# prints each target's executions, time and rate (libFuzzer's final stats).
# CRCFORGE_FUZZ_TARGETS picks targets
# (space-separated names).  The longer run behind the figures in tests/fuzz/README.md:
#   CRCFORGE_FUZZ_RUNS=10000000 CRCFORGE_FUZZ_TARGETS="keyslot model_arg" bash scripts/test.sh 40-fuzz
#   CRCFORGE_FUZZ_RUNS=10000000 CRCFORGE_FUZZ_TARGETS=check_line bash scripts/test.sh 40-fuzz
#   CRCFORGE_FUZZ_SECONDS=1200 CRCFORGE_FUZZ_TARGETS=differential bash scripts/test.sh 40-fuzz
# needs:
# weight: 370
# time limit: 20m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd clang clang
need_c_compile libclang-rt-dev "clang's libFuzzer and sanitizer runtimes" \
  clang -fsanitize=fuzzer,address,undefined
require_met

out=build-fuzz
mkdir -p "$out"
isa=()
case "$(uname -m)" in
  x86_64 | amd64) isa=(src/x86/*.c) ;;
  aarch64 | arm64) isa=(src/arm/*.c) ;;
esac
shopt -s nullglob

# target NAME -> its extra sources and libFuzzer options
declare -A sources=(
  [differential]=""
  [keyslot]=""
  [model_arg]="tools/model_arg.c"
  [check_line]="tools/check_line.c tools/sizes.c tools/stream.c"
)
# Inputs up to 20000 bytes, long ones from the start (-len_control=0), reach the long
# 3-way passes and every fold block size.
declare -A options=(
  [differential]="-max_len=20000 -len_control=0"
  [keyslot]="-max_len=2000"
  [model_arg]="-max_len=300 -dict=tests/fuzz/model_arg.dict"
  [check_line]="-max_len=300 -dict=tests/fuzz/check_line.dict"
)
# The executions 40 s gave each target on one core of the 2-core AMD Zen 4 machine, in a
# run of the stages one after another (2026-11-29: 92, 10926, 9261 and 43142 per second).
declare -A runs=(
  [differential]=3800
  [keyslot]=450000
  [model_arg]=380000
  [check_line]=1770000
)
targets=(${CRCFORGE_FUZZ_TARGETS:-differential keyslot model_arg check_line})
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

for t in "${targets[@]}"; do
  [ -n "${options[$t]+set}" ] || { echo "40-fuzz: no target '$t'"; exit 2; }
done

# UBSan stops at the first report through UBSAN_OPTIONS rather than
# -fno-sanitize-recover, which makes clang 14 take minutes over the fold templates.
cflags=(-std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined
        -DCRCFORGE_API= -Iinclude -Isrc -Itools)
# compile SOURCE...: each into build-fuzz/obj/ (its path's slashes as dashes), the CPUs'
# worth at once; prints the objects.
export FUZZ_OBJ=$out/obj FUZZ_CFLAGS="${cflags[*]}"
object() { echo "$FUZZ_OBJ/$(echo "$1" | tr / -).o"; }
compile_one() { clang $FUZZ_CFLAGS -c "$1" -o "$(object "$1")"; }
export -f object compile_one
compile() {
  mkdir -p "$FUZZ_OBJ"
  printf '%s\n' "$@" | xargs -P "$(nproc)" -n 1 bash -c 'compile_one "$1"' compile >&2 || return 1
  local source
  for source in "$@"; do object "$source"; done
}
library=$(compile src/*.c "${isa[@]}")
for t in "${targets[@]}"; do
  own=$(compile ${sources[$t]} "tests/fuzz/fuzz_$t.c")
  clang "${cflags[@]}" $library $own -lpthread -o "$out/fuzz_$t"
done

failed=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t" "tests/fuzz/corpus/$t"
  start=$SECONDS
  if [ -n "${CRCFORGE_FUZZ_RUNS:-}" ]; then
    limit=(-runs="$CRCFORGE_FUZZ_RUNS")
  elif [ -n "${CRCFORGE_FUZZ_SECONDS:-}" ]; then
    limit=(-max_total_time="$CRCFORGE_FUZZ_SECONDS")
  else
    limit=(-runs="${runs[$t]}")
  fi
  # libFuzzer's progress goes to a log; a failure prints its end (the MISMATCH line says
  # what differed).
  if "$out/fuzz_$t" "${limit[@]}" ${options[$t]} -timeout=20 -rss_limit_mb=2048 \
      -artifact_prefix="$out/$t-" -print_final_stats=1 \
      "$out/corpus/$t" "tests/fuzz/corpus/$t" >"$out/$t.log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/$t.log")
    added=$(sed -n 's/^stat::new_units_added: *//p' "$out/$t.log")
    echo "fuzz $t: $runs executions in $((SECONDS - start)) s ($rate exec/s)," \
      "$added new inputs, no difference from the oracle"
  else
    tail -n 40 "$out/$t.log"
    echo "fuzz $t: FAILED after $((SECONDS - start)) s (the input is saved as $out/$t-*)"
    failed=1
  fi
done
exit "$failed"
