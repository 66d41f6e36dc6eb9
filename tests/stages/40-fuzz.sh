#!/usr/bin/env bash
# The libFuzzer differential target (tests/fuzz/fuzz_differential.c): every path
# against the bitwise reference, with random models, data, split points and CPU masks,
# under AddressSanitizer and UndefinedBehaviorSanitizer, for CRCFORGE_FUZZ_SECONDS
# (default 60).  Needs clang with libFuzzer.
set -euo pipefail
if ! command -v clang >/dev/null; then
  echo "skipped: clang is not installed (the libFuzzer target needs it)"; exit 77
fi
out=build-fuzz
mkdir -p "$out/corpus"
isa=()
case "$(uname -m)" in
  x86_64 | amd64) isa=(src/x86/*.c) ;;
  aarch64 | arm64) isa=(src/arm/*.c) ;;
esac
shopt -s nullglob
clang -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all -Iinclude -Isrc src/*.c "${isa[@]}" tests/fuzz/fuzz_differential.c \
  -lpthread -o "$out/fuzz_differential"
# Inputs up to 20000 bytes, long ones from the start (-len_control=0), reach the long
# 3-way passes and every fold block size.
"$out/fuzz_differential" -max_total_time="${CRCFORGE_FUZZ_SECONDS:-60}" -max_len=20000 \
  -len_control=0 \
  -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$out/" "$out/corpus"
