#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Windows x86-64, cross-built and run under Wine, one program at a time:
#  - built with Debian's MinGW-w64 GCC (cmake/toolchain-mingw-w64.cmake) and with zig cc
#    -target x86_64-windows-gnu (Clang and zig's MinGW-w64 runtime,
#    cmake/toolchain-zig-windows.cmake), warnings as errors;
#  - every program statically linked: it may import Windows' own DLLs only (and test_abi
#    the library's DLL, libcrcforge-MAJOR.dll);
#  - the DLL exports exactly tests/library/exported_symbols.txt;
#  - the C tests (ctest) of the GCC build: every path forced against the bitwise reference
#    (test_engines, test_crc32c, test_fold with guard pages from VirtualAlloc), the
#    catalogue's check values, CRC-32 against MinGW-w64's zlib (test_zlib), the scenarios
#    in child processes (CreateProcess);
#  - Wine passes the host's CPUID through, so the lower tiers are reached with
#    CRCFORGE_CPU_MASK: the AVX2 tier, the SSE tier and none (the portable engine), the
#    catalogue, dispatch and fixed entries checked in each;
#  - the zig build's C tests but test_fold and test_keyslot (the GCC build runs those);
#  - the CLI's cases, tests/windows/cli_cases.sh GCC_BUILD_DIR, when that file exists (the
#    CLI is built only then);
#  - Windows on arm64, which nothing here runs: src/cpu_arm.c compiles warning-free for
#    aarch64-windows-gnu (zig cc) and reads the features from IsProcessorFeaturePresent.
# CRCFORGE_TEST_QUICK leaves out test_engines' combine over 4 GiB, as under qemu; every
# per-path sweep stays exhaustive.
# needs: venv
# weight: 320
# time limit: 25m
set -uo pipefail

. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd x86_64-w64-mingw32-gcc-posix gcc-mingw-w64-x86-64-posix
need_cmd x86_64-w64-mingw32-objdump binutils-mingw-w64-x86-64
need_cmd wine wine
need_cmd wineboot wine
need_path /usr/lib/wine/wine64 wine64 "the 64-bit Wine loader"
need_path /usr/x86_64-w64-mingw32/lib/libz.a libz-mingw-w64-dev "zlib for MinGW-w64 (test_zlib)"
need_python_module ziglang ziglang
need_cmd llvm-nm-19 llvm-19
require_met

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
started=$SECONDS

gcc_dir=build-windows-gcc
zig_dir=build-windows-zig
tools=OFF
[ -f tests/windows/cli_cases.sh ] && tools=ON

build() { # build DIR TOOLCHAIN [CMAKE ARGS...]
  local dir=$1 toolchain=$2
  shift 2
  mkdir -p "$dir"
  cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE="cmake/$toolchain" -DCMAKE_BUILD_TYPE=Release \
    -DCRCFORGE_WERROR=ON -DCRCFORGE_BUILD_TOOLS=$tools "$@" >"$dir/configure.log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" >"$dir/build.log" 2>&1 ||
    { cat "$dir/configure.log" "$dir/build.log" 2>/dev/null; return 1; }
}

# Wine's prefix in the build directory; its server started persistent, apart from ctest's
# output pipes (a server or service started by a test would hold them open), and stopped
# at the end.
export WINEPREFIX=$PWD/$gcc_dir/wineprefix WINEDEBUG=-all
wine_up() {
  mkdir -p "$WINEPREFIX"
  /usr/lib/wine/wineserver -p >/dev/null 2>&1 </dev/null
  wineboot --init >/dev/null 2>&1 </dev/null
}
trap '/usr/lib/wine/wineserver -k >/dev/null 2>&1' EXIT

# static_only DIR: every program of DIR imports Windows' DLLs only (and the library's).
static_only() {
  local exe dlls
  for exe in $(find "$1" -name '*.exe' -not -path '*/CMakeFiles/*' -not -path '*/wineprefix/*'); do
    dlls=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^\tDLL Name: //p' |
      grep -viE '^(kernel32|msvcrt|ucrtbase|api-ms-win-[a-z0-9-]+|advapi32|user32|shell32|ws2_32|bcrypt|version|ntdll|libcrcforge-[0-9]+)\.dll$')
    [ -z "$dlls" ] || fail "$exe imports $dlls"
  done
}

# exports_match DIR: the DLL's export table against tests/library/exported_symbols.txt.
exports_match() {
  local dll
  dll=$(ls "$1"/libcrcforge-*.dll 2>/dev/null | head -1)
  [ -n "$dll" ] || { fail "$1: no libcrcforge-MAJOR.dll"; return; }
  diff <(x86_64-w64-mingw32-objdump -p "$dll" |
         sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' | awk '/^\t\[/ {print $NF}' | sort) \
       <(grep -v '^#' tests/library/exported_symbols.txt | awk 'NF {print $2}' | sort) ||
    fail "$dll: its exports differ from tests/library/exported_symbols.txt (< DLL, > list)"
}

# ctest_leg LABEL DIR [CTEST ARGS...]: one test at a time (the emulator, wine, comes from
# the toolchain file).
ctest_leg() {
  local label=$1 dir=$2 t=$SECONDS
  shift 2
  if ! CRCFORGE_TEST_QUICK=1 ctest --test-dir "$dir" -V -j 1 "$@" >"$dir/ctest-$label.log" 2>&1; then
    cat "$dir/ctest-$label.log"
    fail "$label: C tests"
  fi
  grep -E "^[0-9]+% tests passed" "$dir/ctest-$label.log" | sed "s/^/$label: /"
  echo "$label: $((SECONDS - t)) s"
}

echo "== MinGW-w64 GCC"
# zlib linked statically, as every program here is (ZLIB_USE_STATIC_LIBS: CMake 3.24).
if build "$gcc_dir" toolchain-mingw-w64.cmake -DCRCFORGE_WINE=/usr/lib/wine/wine64 \
    -DZLIB_USE_STATIC_LIBS=ON; then
  echo "gcc: built in $((SECONDS - started)) s"
  wine_up
  static_only "$gcc_dir"
  exports_match "$gcc_dir"
  [ -f "$gcc_dir/tests/library/test_zlib.exe" ] || fail "$gcc_dir: test_zlib was not built"
  ctest_leg gcc "$gcc_dir"
  grep -m1 "^[0-9]*: detected:" "$gcc_dir/ctest-gcc.log"
  # test_env_impl forces each path of the registry: those the mask hides must be refused
  # (reported skipped), so the count shows the mask reached the library.
  lower_tiers='^(test_catalogue|test_fixed_entries|test_combine|test_zlib|test_api_errors|test_env_impl)$'
  paths=$(/usr/lib/wine/wine64 "$gcc_dir/tests/library/test_env_impl.exe" --list | tr -d '\r' | wc -l)
  refused() { grep -c "not a path this build and CPU run" "$gcc_dir/ctest-$1.log"; }
  CRCFORGE_CPU_MASK=sse4.1,sse4.2,pclmulqdq,avx2,vpclmulqdq \
    ctest_leg gcc-avx2-tier "$gcc_dir" -R "$lower_tiers"
  CRCFORGE_CPU_MASK=sse4.1,sse4.2,pclmulqdq ctest_leg gcc-sse-tier "$gcc_dir" -R "$lower_tiers"
  CRCFORGE_CPU_MASK=none ctest_leg gcc-portable "$gcc_dir" -R "$lower_tiers"
  for leg in avx2-tier sse-tier portable; do
    echo "gcc-$leg: $(refused gcc-$leg) of $paths paths refused"
  done
  [ "$(refused gcc-portable)" -eq $((paths - 1)) ] ||
    fail "CRCFORGE_CPU_MASK=none: $(refused gcc-portable) of $paths paths refused, not all but portable"
  [ "$(refused gcc-sse-tier)" -gt "$(refused gcc-avx2-tier)" ] ||
    fail "the SSE tier refuses no more paths than the AVX2 tier"
  if [ "$tools" = ON ]; then
    t=$SECONDS
    bash tests/windows/cli_cases.sh "$gcc_dir" || fail "tests/windows/cli_cases.sh"
    echo "CLI cases: $((SECONDS - t)) s"
  fi
else
  fail "MinGW-w64 GCC build"
fi

echo "== zig cc -target x86_64-windows-gnu"
t=$SECONDS
if build "$zig_dir" toolchain-zig-windows.cmake -DCRCFORGE_ZIG_PYTHON="$(command -v python3)" \
    -DCRCFORGE_WINE=/usr/lib/wine/wine64; then
  echo "zig: built in $((SECONDS - t)) s"
  static_only "$zig_dir"
  exports_match "$zig_dir"
  ctest_leg zig "$zig_dir" -E '^(test_fold|test_keyslot)$'
else
  fail "zig cc build"
fi

echo "== zig cc -target aarch64-windows-gnu: src/cpu_arm.c"
mkdir -p "$zig_dir"
obj=$zig_dir/cpu_arm-aarch64-windows.o
if python3 -m ziglang cc -target aarch64-windows-gnu -std=gnu11 -O2 -Wall -Wextra -Werror \
    -Iinclude -Isrc -c src/cpu_arm.c -o "$obj"; then
  llvm-nm-19 -u "$obj" | grep -qw IsProcessorFeaturePresent ||
    fail "$obj: the arm64 feature detection does not call IsProcessorFeaturePresent"
else
  fail "src/cpu_arm.c for aarch64-windows-gnu"
fi

echo "45-windows: $((SECONDS - started)) s"
[ "$failures" -eq 0 ] || { echo "45-windows: $failures failure(s)"; exit 1; }
