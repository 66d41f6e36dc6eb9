#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The native library built by other compilers and with other flags, beside stage 10-c's
# GCC Release build (build/, built here if missing), every build warning-free (-Werror):
#  - Debian's clang (build-clang), clang-19 (build-clang19) and Clang 22 through zig cc
#    (build-zig; PyPI ziglang, pinned in .ci/requirements.txt; a generic CPU of this
#    machine's architecture, as the other builds): every path of the registry forced
#    against the bitwise reference (test_engines, test_fold, test_keyslot), the
#    dispatcher under CPU masks (test_dispatch), the fixed entry points, the CLI's check
#    values, and the paths chosen the GCC build's;
#  - -march=x86-64-v3 -mpclmul -mvpclmulqdq (build-march; x86-64 CPUs with AVX2, PCLMULQDQ
#    and VPCLMULQDQ): the checks of the paths those flags guarantee compile to "yes".  The
#    paths chosen are the default build's, every path passes the same forced-path tests,
#    and forcing a path whose features are all guaranteed (fold_x86_vpclmul_avx2) makes no
#    CPU query at all, while the default build queries for it.
# Missing tools are named and the stage exits 77 (skipped).
# needs: build venv install-isal install-libdeflate
# weight: 310
# time limit: 30m
set -uo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd clang clang
need_cmd clang-19 clang-19
need_python_module ziglang "ziglang (.ci/requirements.txt)"
require_met
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

build() { # build DIR CC CFLAGS [CMAKE ARGS...]
  local dir=$1 cc=$2 cflags=$3
  shift 3
  mkdir -p "$dir"
  cmake -S . -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" \
    -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_WERROR=ON "$@" >"$dir/configure.log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" >"$dir/build.log" 2>&1 ||
    { cat "$dir/configure.log" "$dir/build.log" 2>/dev/null; return 1; }
}

check_values() { # DIR: catalogue check values through the CLI
  local want='e3069283 cbf43926 ae8b14860a799888 995dc9bbdf1939fa 31c3' got
  got=$(for a in crc32c crc32 crc64-nvme crc64-xz crc16-xmodem; do
          printf 123456789 | "$1/crcforge" sum -a "$a" | cut -d' ' -f1
        done | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "$1: CLI check values: got '$got', want '$want'"
}

forced_path_tests() { # DIR LABEL
  CRCFORGE_TEST_QUICK=1 ctest --test-dir "$1" --output-on-failure -j "$(nproc)" \
    -R '^(test_engines|test_fold|test_keyslot|test_dispatch|test_fixed_entries|test_api_errors)$' \
    >"$1/ctest.log" 2>&1 || { cat "$1/ctest.log"; fail "$2: forced-path tests"; }
  grep -E "^[0-9]+% tests passed" "$1/ctest.log" | sed "s/^/$2: /"
}

chosen() { "$1/crcforge" cpu | awk '/^CRC-/ {print $2}' | tr '\n' ' '; }

cpu_queried() { # DIR IMPL: "yes" or "no", as test_env_impl reports it
  CRCFORGE_IMPL=$2 "$1/tests/library/test_env_impl" "$2" |
    sed -n 's/.*CPU features queried: //p'
}

bash "$(dirname "$0")/steps/build.sh" >/dev/null || fail "default build"

# compiler_leg LABEL DIR CC CFLAGS [CMAKE ARGS...]
compiler_leg() {
  local label=$1 dir=$2 t0=$SECONDS
  shift 2
  if build "$dir" "$@"; then
    forced_path_tests "$dir" "$label"
    check_values "$dir"
    [ "$(chosen "$dir")" = "$(chosen build)" ] ||
      fail "$label: chose '$(chosen "$dir")', the GCC build '$(chosen build)'"
  else
    fail "$label build"
  fi
  echo "$label: $((SECONDS - t0)) s"
}

compiler_leg clang build-clang clang ""
compiler_leg clang-19 build-clang19 clang-19 ""
# zig links its own C library: no bench peers, which are the host's libraries.
compiler_leg "zig cc" build-zig "$PWD/cmake/zig-cc" "-target $(uname -m)-linux-gnu" \
  -DCRCFORGE_BENCH_PEERS=OFF

case "$(uname -m)" in
  x86_64 | amd64)
    flags=$(grep -m1 '^flags' /proc/cpuinfo)
    if [[ " $flags " == *" avx2 "* && " $flags " == *" pclmulqdq "* &&
          " $flags " == *" vpclmulqdq "* ]]; then
      if build build-march cc "-march=x86-64-v3 -mpclmul -mvpclmulqdq"; then
        forced_path_tests build-march march
        check_values build-march
        [ "$(chosen build-march)" = "$(chosen build)" ] ||
          fail "march: chose '$(chosen build-march)', the default build '$(chosen build)'"
        # A path whose features the flags guarantee runs with no CPU query.  (The vector
        # paths take kernel parameters from the CPU family's table, so they read CPUID
        # once in any build: crc32c_x86_sse42 has none.)
        got=$(cpu_queried build-march crc32c_x86_sse42)
        [ "$got" = no ] || fail "march: forcing crc32c_x86_sse42 queried the CPU ($got)"
        got=$(cpu_queried build crc32c_x86_sse42)
        [ "$got" = yes ] || fail "default build: crc32c_x86_sse42 made no CPU query ($got)"
        echo "march: forcing crc32c_x86_sse42 made no CPU query (the default build: one)"
      else
        fail "-march build"
      fi
    else
      echo "march: this CPU lacks AVX2, PCLMULQDQ or VPCLMULQDQ; the -march build is not run"
    fi
    ;;
  *) echo "march: an x86-64 leg; not run on $(uname -m)" ;;
esac

[ "$failures" -eq 0 ] || { echo "12-compilers: $failures failure(s)"; exit 1; }
echo "12-compilers: clang, clang-19, zig cc (Clang 22) and -march builds passed"
