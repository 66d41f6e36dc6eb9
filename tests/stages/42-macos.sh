#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# macOS, arm64 and x86-64, cross-built with zig cc (PyPI ziglang, pinned in
# .ci/requirements.txt; cmake/toolchain-zig-macos-*.cmake): the library (shared and
# static), the CLI, the C test programs and the benchmarks build warning-free and link;
# and the Python wheels.  Nothing runs (no macOS here): the checks are on the files.
#  - every program ctest would run, and the CLI and the libraries, is a Mach-O file of the
#    target's CPU;
#  - the shared library exports only crcforge_ symbols (beside the linker's own) and its
#    feature detection is the sysctl one (it imports sysctlbyname);
#  - scripts/build_wheels.sh builds the four macOS wheels (cp310 and cp311-abi3 for
#    macosx_11_0_arm64 and macosx_10_15_x86_64, zig cc, -undefined dynamic_lookup) from
#    the sdist and checks each as a file: scripts/check_wheel.py (the extension's name for
#    the tags, a Mach-O file of the tag's CPU whose minimum macOS is the tag's, libSystem
#    alone loaded, only Python's own symbols left to the interpreter, _PyInit__crcforge
#    alone exported), abi3audit for the abi3 ones; any build or check failing fails the
#    stage.  check_wheel.py runs again on the four here, its findings shown;
#  - check_wheel.py is shown to catch what it is for: the arm64 abi3 wheel holding the
#    x86_64 extension (the wrong CPU), and the x86_64 abi3 wheel tagged macOS 10.13 (below
#    the 10.15 its extension needs) are refused, each problem named.
# The wheels need CPython 3.10 and 3.11 with their headers (pyenv), which build them;
# without them that part alone is skipped.
# What macOS's detection decides is tested on every host, on recorded sysctl answers
# (tests/library/test_cpu_recorded.c, in the C tests of every stage).
# Missing tools are named and the stage exits 77 (skipped).
# needs: venv wheel-tools
# weight: 104
# time limit: 20m
set -uo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd llvm-nm-19 llvm-19
need_python_module ziglang "ziglang (.ci/requirements.txt)"
require_met

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools=$PWD/.venv-wheels/bin/python
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

# check_refuses WHAT WHEEL MESSAGE: check_wheel.py fails on WHEEL, naming MESSAGE.
check_refuses() {
  local log=$tmp/refused.log
  if "$tools" scripts/check_wheel.py "$2" >"$log" 2>&1; then
    cat "$log"
    fail "check_wheel.py passed $1"
  elif grep -qF -- "$3" "$log"; then
    echo "refused, $1: $(grep -F -- "$3" "$log")"
  else
    cat "$log"
    fail "check_wheel.py refused $1 without naming '$3'"
  fi
}

# The macOS wheels, built and checked; then two wheels check_wheel.py must refuse.
macos_wheels() {
  local dist=$tmp/dist t0=$SECONDS
  bash scripts/build_wheels.sh --out "$dist" --platform macosx_11_0_arm64,macosx_10_15_x86_64 \
    >"$tmp/build_wheels.log" 2>&1 ||
    { cat "$tmp/build_wheels.log"; fail "the macOS wheels: a build or check failed (scripts/build_wheels.sh)"; }
  grep -E '^crcforge-.*\.whl ' "$tmp/build_wheels.log"
  echo "macOS wheels: built and checked in $((SECONDS - t0)) s"
  local platform kind wheels=() arm64_abi3 x86_64_abi3
  for platform in macosx_11_0_arm64 macosx_10_15_x86_64; do
    for kind in cp310-cp310 cp311-abi3; do
      set -- "$dist"/crcforge-*-"$kind-$platform".whl
      if [ -f "$1" ]; then wheels+=("$1"); else fail "no $kind $platform wheel"; fi
    done
  done
  [ ${#wheels[@]} -gt 0 ] || return
  "$tools" scripts/check_wheel.py "${wheels[@]}" || fail "check_wheel.py on the macOS wheels"
  arm64_abi3=$(ls "$dist"/crcforge-*-cp311-abi3-macosx_11_0_arm64.whl 2>/dev/null)
  x86_64_abi3=$(ls "$dist"/crcforge-*-cp311-abi3-macosx_10_15_x86_64.whl 2>/dev/null)
  [ -n "$arm64_abi3" ] && [ -n "$x86_64_abi3" ] || return

  # The arm64 wheel holding the x86_64 extension.
  local bad=$tmp/bad
  mkdir -p "$bad/x86_64" "$bad/repacked" "$bad/retagged"
  "$tools" -m wheel unpack -d "$bad/unpacked" "$arm64_abi3" >/dev/null &&
    "$tools" -m wheel unpack -d "$bad/x86_64" "$x86_64_abi3" >/dev/null &&
    cp "$bad"/x86_64/*/crcforge/_crcforge.abi3.so "$bad"/unpacked/*/crcforge/_crcforge.abi3.so &&
    "$tools" -m wheel pack -d "$bad/repacked" "$bad"/unpacked/* >/dev/null ||
    { fail "could not repack the arm64 abi3 wheel with the x86_64 extension"; return; }
  check_refuses "the arm64 wheel holding the x86_64 extension" "$(ls "$bad"/repacked/*.whl)" \
    "CPU x86_64, not arm64"
  # The x86_64 wheel tagged for macOS 10.13: its extension needs 10.15 (aligned_alloc).
  cp "$x86_64_abi3" "$bad/retagged/"
  "$tools" -m wheel tags --remove --platform-tag macosx_10_13_x86_64 \
    "$bad/retagged/$(basename "$x86_64_abi3")" >/dev/null ||
    { fail "could not retag the x86_64 abi3 wheel for macOS 10.13"; return; }
  check_refuses "the x86_64 wheel tagged for macOS 10.13" \
    "$(ls "$bad"/retagged/*macosx_10_13_x86_64.whl)" "minimum macOS 10.15, not the tag's 10.13"
}

leg macos-arm64 toolchain-zig-macos-aarch64.cmake arm64
leg macos-x86_64 toolchain-zig-macos-x86_64.cmake x86_64

for v in 3.10 3.11; do
  found=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python"$v" 2>/dev/null | sort -V | tail -n 1)
  need_executable "${found:-$(command -v "python$v" || true)}" \
    "CPython $v with its headers (pyenv install $v), which builds the $v wheels"
done
wheels=" (the wheels skipped)"
if part_met "the macOS wheels"; then
  macos_wheels
  wheels="; the four wheels build and pass their checks, and the bad ones are refused"
fi

[ "$failures" -eq 0 ] || { echo "42-macos: $failures failure(s)"; exit 1; }
echo "42-macos: the library, the CLI and the C tests build and link for macOS arm64 and" \
  "x86-64$wheels"
