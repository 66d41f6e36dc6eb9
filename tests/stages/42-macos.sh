#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# macOS, arm64 and x86-64, cross-built with zig cc (PyPI ziglang, pinned in
# .ci/requirements.txt; cmake/toolchain-zig-macos-*.cmake): the library (shared and
# static), the CLI, the C test programs and the benchmarks build warning-free and link.
# Nothing runs (no macOS here): the checks are on the files.
#  - every program ctest would run, and the CLI and the libraries, is a Mach-O file of the
#    target's CPU;
#  - the shared library exports only crcforge_ symbols (beside the linker's own) and its
#    feature detection is the sysctl one (it imports sysctlbyname).
# What macOS's detection decides is tested on every host, on recorded sysctl answers
# (tests/library/test_cpu_recorded.c, in the C tests of every stage).
# Missing tools are named and the stage exits 77 (skipped).
# needs: venv
# weight: 65
# time limit: 20m
set -uo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd llvm-nm-19 llvm-19
need_python_module ziglang "ziglang (.ci/requirements.txt)"
require_met

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

build() { # build DIR TOOLCHAIN
  mkdir -p "$1"
  cmake -S . -B "$1" -DCMAKE_TOOLCHAIN_FILE="cmake/$2" -DCMAKE_BUILD_TYPE=Release \
    -DCRCFORGE_WERROR=ON >"$1/configure.log" 2>&1 &&
    cmake --build "$1" -j "$(nproc)" >"$1/build.log" 2>&1 ||
    { cat "$1/configure.log" "$1/build.log" 2>/dev/null; return 1; }
}

# macho_cpu FILE: the CPU of a 64-bit Mach-O file (arm64, x86_64), else "not Mach-O".
macho_cpu() {
  local head
  head=$(od -An -tx1 -N8 "$1" 2>/dev/null | tr -d ' \n')
  case $head in
    cffaedfe0c000001) echo arm64 ;;
    cffaedfe07000001) echo x86_64 ;;
    *) echo "not Mach-O" ;;
  esac
}

# leg LABEL TOOLCHAIN CPU
leg() {
  local label=$1 dir=build-$1 cpu=$3 t0=$SECONDS
  if ! build "$dir" "$2"; then
    fail "$label: build"
    return
  fi
  # The programs of the C tests, as ctest lists them (the first word of each command that
  # is a built file; the rest run through sh).
  local programs
  programs=$(ctest --test-dir "$dir" --show-only=json-v1 | python3 -c '
import json, os, sys
for t in json.load(sys.stdin)["tests"]:
    cmd = t.get("command") or []
    if cmd and os.path.isabs(cmd[0]) and not cmd[0].endswith("/sh"):
        print(cmd[0])
' | sort -u)
  [ -n "$programs" ] || fail "$label: ctest lists no test program"
  local lib=$dir/libcrcforge.dylib n=0 file got
  for file in $programs "$dir/crcforge" "$dir/crcforge-bench" "$lib"; do
    got=$(macho_cpu "$file")
    [ "$got" = "$cpu" ] || fail "$label: $file: $got, want a Mach-O file for $cpu"
    n=$((n + 1))
  done
  [ -f "$dir/libcrcforge.a" ] || fail "$label: no static library"
  local foreign
  foreign=$(llvm-nm-19 -gU "$lib" | awk '{print $3}' |
            grep -v -e '^_crcforge_' -e '^__mh_dylib_header$' -e '^___dso_handle$')
  [ -z "$foreign" ] || fail "$label: exported symbols without the crcforge_ prefix:" $foreign
  llvm-nm-19 -u "$lib" | grep -qx '_sysctlbyname' ||
    fail "$label: the library does not import sysctlbyname (no macOS feature detection)"
  echo "$label: $n Mach-O $cpu files (the library, the CLI, crcforge-bench and" \
    "$(echo "$programs" | wc -l) test programs) in $((SECONDS - t0)) s"
}

leg macos-arm64 toolchain-zig-macos-aarch64.cmake arm64
leg macos-x86_64 toolchain-zig-macos-x86_64.cmake x86_64

[ "$failures" -eq 0 ] || { echo "42-macos: $failures failure(s)"; exit 1; }
echo "42-macos: the library, the CLI and the C tests build and link for macOS arm64 and x86-64"
