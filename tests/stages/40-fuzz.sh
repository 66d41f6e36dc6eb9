#!/usr/bin/env bash
# The libFuzzer differential target (tests/fuzz/fuzz_differential.c): every path
# against the bitwise reference, with random models, data, split points and CPU masks,
# under AddressSanitizer and UndefinedBehaviorSanitizer, for CRCFORGE_FUZZ_SECONDS
# (default 60).  Needs clang with libFuzzer.
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd clang clang
need_c_compile libclang-rt-dev "clang's libFuzzer and sanitizer runtimes" \
  clang -fsanitize=fuzzer,address,undefined
require_met
out=build-fuzz
mkdir -p "$out/corpus"
isa=()
case "$(uname -m)" in
  x86_64 | amd64) isa=(src/x86/*.c) ;;
  aarch64 | arm64) isa=(src/arm/*.c) ;;
esac
shopt -s nullglob
# UBSan stops at the first report through UBSAN_OPTIONS rather than
# -fno-sanitize-recover, which makes clang 14 take minutes over the fold templates.
clang -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
  -Iinclude -Isrc src/*.c "${isa[@]}" tests/fuzz/fuzz_differential.c \
  -lpthread -o "$out/fuzz_differential"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Inputs up to 20000 bytes, long ones from the start (-len_control=0), reach the long
# 3-way passes and every fold block size.  libFuzzer's progress goes to a log; a failure
# prints its end (the MISMATCH line names the path, the model and the length).
seconds=${CRCFORGE_FUZZ_SECONDS:-60}
if "$out/fuzz_differential" -max_total_time="$seconds" -max_len=20000 -len_control=0 \
    -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$out/" -print_final_stats=1 \
    "$out/corpus" >"$out/fuzz.log" 2>&1; then
  grep -E '^INFO: Seed|^Done|^stat::(number_of_executed_units|new_units_added)' "$out/fuzz.log"
  echo "fuzz: no difference from the reference in ${seconds} s"
else
  tail -n 40 "$out/fuzz.log"
  echo "fuzz: FAILED (crash input saved under $out/)"
  exit 1
fi
