#!/usr/bin/env bash
# Cross-builds the library, the CLI and the C tests and runs them under qemu-user:
#  - aarch64 with `-cpu max` (CRC32, PMULL, SHA3): every ARM path forced one by one
#    against the reference (test_engines loops over the registry);
#  - aarch64 with those features hidden (CRCFORGE_CPU_MASK=none, since qemu has no
#    CPU model lacking them): every ARM path must be unrunnable and the dispatcher must
#    pick the portable engine;
#  - s390x, big-endian: the portable engine gives the catalogue's values.
# CRCFORGE_TEST_QUICK leaves out test_engines' 8 GiB combine check, far too slow under
# emulation (the native stages run it); every per-path sweep stays exhaustive.
# Missing cross tools are named and the stage exits 77 (skipped).
set -uo pipefail

missing=()
have() { command -v "$1" >/dev/null 2>&1 || missing+=("$1 (Debian package $2)"); }
have aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
have qemu-aarch64 qemu-user
have s390x-linux-gnu-gcc gcc-s390x-linux-gnu
have qemu-s390x qemu-user
[ -d /usr/aarch64-linux-gnu/include ] || missing+=("aarch64 libc headers (libc6-dev-arm64-cross)")
[ -d /usr/s390x-linux-gnu/include ] || missing+=("s390x libc headers (libc6-dev-s390x-cross)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "40-cross skipped: missing ${missing[*]}"
  exit 77
fi

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The target's zlib is not installed, so test_zlib is not cross-built: CRC-32 is still
# checked against the reference and the catalogue's check value.
build() { # build DIR TOOLCHAIN
  mkdir -p "$1"
  cmake -S . -B "$1" -DCMAKE_TOOLCHAIN_FILE="cmake/$2" -DCMAKE_BUILD_TYPE=Release \
    -DCRCFORGE_WERROR=ON --no-warn-unused-cli >"$1/configure.log" 2>&1 &&
    cmake --build "$1" -j "$(nproc)" >"$1/build.log" 2>&1 ||
    { cat "$1/configure.log" "$1/build.log" 2>/dev/null; return 1; }
}

# run_tests LABEL DIR: ctest (the emulator comes from the toolchain file) plus the
# check values through the cross-built CLI.
run_tests() {
  local label=$1 dir=$2 t0=$SECONDS
  if ! CRCFORGE_TEST_QUICK=1 ctest --test-dir "$dir" -V -j "$(nproc)" \
      >"$dir/ctest-$label.log" 2>&1; then
    cat "$dir/ctest-$label.log"
    fail "$label: C tests"
  fi
  grep -E "^[0-9]+% tests passed" "$dir/ctest-$label.log" | sed "s/^/$label: /"
  local emu
  emu=$(grep -o 'CMAKE_CROSSCOMPILING_EMULATOR qemu-[a-z0-9_]* -L [^ )]*' "cmake/$3" |
        cut -d' ' -f2-)
  # Catalogue check values (CRC of "123456789"), independent of the code under test.
  local want='e3069283 cbf43926 ae8b14860a799888 995dc9bbdf1939fa 31c3'
  local got
  got=$(for a in crc32c crc32 crc64-nvme crc64-xz crc16-xmodem; do
          printf 123456789 | $emu "$dir/crcforge" sum -a "$a" | cut -d' ' -f1
        done | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "$label: CLI check values: got '$got', want '$want'"
  echo "$label: done in $((SECONDS - t0)) s"
}

# aarch64 --------------------------------------------------------------------------
if build build-aarch64 toolchain-aarch64.cmake; then
  emu="qemu-aarch64 -L /usr/aarch64-linux-gnu"

  export QEMU_CPU=max
  run_tests aarch64-max build-aarch64 toolchain-aarch64.cmake
  arm_impls=$($emu build-aarch64/crcforge cpu --impls | grep -vx portable || true)
  compiled=$(for n in $($emu build-aarch64/crcforge cpu | sed -n 's/^compiled in://p'); do
               echo "${n%(not runnable)}"; done | grep -vx portable || true)
  [ -n "$compiled" ] || fail "aarch64: no ARM path is compiled in"
  [ "$arm_impls" = "$compiled" ] ||
    fail "aarch64 -cpu max: runnable paths '$arm_impls' differ from compiled-in '$compiled'"
  if grep -q "cannot run" build-aarch64/ctest-aarch64-max.log; then
    fail "aarch64 -cpu max: test_engines skipped a path"
  fi
  echo "aarch64-max: paths forced against the reference:" $arm_impls

  # Fallback: the features hidden, nothing but the portable engine may run or be chosen.
  export CRCFORGE_CPU_MASK=none
  run_tests aarch64-nofeatures build-aarch64 toolchain-aarch64.cmake
  runnable=$($emu build-aarch64/crcforge cpu --impls | tr '\n' ' ')
  [ "$runnable" = "portable " ] || fail "aarch64 without features: runnable '$runnable'"
  chosen=$($emu build-aarch64/crcforge cpu | grep -vE '^(features|masked|compiled in):' |
           awk '{print $2}' | sort -u)
  [ "$chosen" = portable ] || fail "aarch64 without features: dispatcher chose '$chosen'"
  skipped=$(grep -c "cannot run it" build-aarch64/ctest-aarch64-nofeatures.log || true)
  [ "$skipped" = "$(echo "$compiled" | wc -l)" ] ||
    fail "aarch64 without features: $skipped ARM paths reported skipped"
  echo "aarch64-nofeatures: every ARM path skipped, portable chosen for every algorithm"
  unset CRCFORGE_CPU_MASK
  unset QEMU_CPU
else
  fail "aarch64 cross build"
fi

# s390x (big-endian) ---------------------------------------------------------------
if build build-s390x toolchain-s390x.cmake; then
  run_tests s390x build-s390x toolchain-s390x.cmake
else
  fail "s390x cross build"
fi

[ "$failures" -eq 0 ] || { echo "40-cross: $failures failure(s)"; exit 1; }
echo "40-cross: aarch64 (all ARM paths, and the fallback) and s390x (big-endian) passed"
