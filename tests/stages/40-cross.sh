#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-builds the library, the CLI and the C tests and runs them under qemu-user.
#  aarch64, one leg per CPU feature set; in each, the path the dispatcher chooses for
#  CRC-32C, CRC-32 and CRC-64/NVME is checked, and the dispatched results against the
#  catalogue's check values (test_catalogue and the CLI):
#   - `-cpu max` (CRC32, PMULL, SHA3): all C tests; test_engines forces every ARM path
#     one by one against the reference, and none may be skipped;
#   - `-cpu neoverse-n1` (CRC32, PMULL, no SHA3; its MIDR picks the neoverse-n1 family):
#     test_engines and test_arm_tuning, the family's hybrid dispatched, and
#     CRCFORGE_TUNE=family=;
#   - `-cpu cortex-a53` (CRC32, PMULL, no SHA3): a real model without EOR3 (generic family);
#   - `-cpu max` with CRCFORGE_CPU_MASK=crc32, then =pmull: one feature without the other
#     (qemu has no CPU model lacking CRC32 or PMULL, so the mask hides them);
#   - `-cpu max` with CRCFORGE_CPU_MASK=none: all C tests; every ARM path must be
#     reported unrunnable (skipped) and the portable engine chosen for every algorithm.
#  Then scripts/insn_per_4k.sh prints the instructions per 4 KiB of each path (figures).
#  The aarch64 shared library and static archive export only crcforge_ symbols, and its
#  files call one way down the library's layers (tests/library/test_layers.py).
#  aarch64 built with Debian's clang (cmake/toolchain-aarch64-clang.cmake), `-cpu max`:
#  the same paths compiled in, test_engines forcing every one of them (none skipped),
#  test_fold, test_keyslot and test_arm_tuning, and the CLI's check values.
#  s390x, big-endian: all C tests and the CLI's check values on the portable engine.
# CRCFORGE_TEST_QUICK leaves out test_engines' combine over 4 GiB, far too slow under
# emulation (the native stages run it); every per-path sweep stays exhaustive.
# The targets' zlib is not installed, so test_zlib is not cross-built (CRC-32 is still
# checked against the reference and the check value).
# Missing cross tools are named and the stage exits 77 (skipped).
# needs:
# weight: 860
# time limit: 40m
set -uo pipefail

. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need_cmd aarch64-linux-gnu-nm binutils-aarch64-linux-gnu
need_cmd qemu-aarch64 qemu-user
need_cmd clang clang
need_cmd python3 python3
need_cmd s390x-linux-gnu-gcc gcc-s390x-linux-gnu
need_cmd qemu-s390x qemu-user
need_path /usr/aarch64-linux-gnu/include libc6-dev-arm64-cross "aarch64 libc headers"
need_path /usr/s390x-linux-gnu/include libc6-dev-s390x-cross "s390x libc headers"
require_met

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

build() { # build DIR TOOLCHAIN
  mkdir -p "$1"
  cmake -S . -B "$1" -DCMAKE_TOOLCHAIN_FILE="cmake/$2" -DCMAKE_BUILD_TYPE=Release \
    -DCRCFORGE_WERROR=ON --no-warn-unused-cli >"$1/configure.log" 2>&1 &&
    cmake --build "$1" -j "$(nproc)" >"$1/build.log" 2>&1 ||
    { cat "$1/configure.log" "$1/build.log" 2>/dev/null; return 1; }
}

# ctest_leg LABEL DIR [CTEST ARGS...]: the C tests (the emulator comes from the
# toolchain file), verbose into a log that later checks read.
ctest_leg() {
  local label=$1 dir=$2
  shift 2
  if ! CRCFORGE_TEST_QUICK=1 ctest --test-dir "$dir" -V -j "$(nproc)" "$@" \
      >"$dir/ctest-$label.log" 2>&1; then
    cat "$dir/ctest-$label.log"
    fail "$label: C tests"
  fi
  grep -E "^[0-9]+% tests passed" "$dir/ctest-$label.log" | sed "s/^/$label: /"
}

# check_values LABEL EMULATOR DIR: catalogue check values (CRC of "123456789"),
# independent of the code under test, through the cross-built CLI.
check_values() {
  local want='e3069283 cbf43926 ae8b14860a799888 995dc9bbdf1939fa 31c3' got
  got=$(for a in crc32c crc32 crc64-nvme crc64-xz crc16-xmodem; do
          printf 123456789 | $2 "$3/crcforge" sum -a "$a" | cut -d' ' -f1
        done | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "$1: CLI check values: got '$got', want '$want'"
}

# aarch64 --------------------------------------------------------------------------
A64="qemu-aarch64 -L /usr/aarch64-linux-gnu"
a64_dir=build-aarch64

# chosen: the paths `crcforge cpu` reports for CRC-32C, CRC-32 and CRC-64/NVME.
chosen() {
  $A64 $a64_dir/crcforge cpu |
    awk '$1 == "CRC-32/ISCSI" || $1 == "CRC-32/ISO-HDLC" || $1 == "CRC-64/NVME" {print $2}' |
    tr '\n' ' ' | sed 's/ $//'
}

# a64_leg LABEL QEMU_CPU MASK WANT_CHOSEN TESTS: one feature set; TESTS full (every C
# test), light (test_catalogue) or a ctest -R pattern.
a64_leg() {
  local label=$1 t0=$SECONDS
  export QEMU_CPU=$2
  if [ -n "$3" ]; then export CRCFORGE_CPU_MASK=$3; else unset CRCFORGE_CPU_MASK; fi
  if [ "$5" = full ]; then
    ctest_leg "$label" $a64_dir
  elif [ "$5" = light ]; then
    ctest_leg "$label" $a64_dir -R '^test_catalogue$'
  else
    ctest_leg "$label" $a64_dir -R "$5"
  fi
  check_values "$label" "$A64" $a64_dir
  local got
  got=$(chosen)
  [ "$got" = "$4" ] || fail "$label: dispatcher chose '$got', expected '$4'"
  echo "$label: features '$($A64 $a64_dir/crcforge cpu | sed -n 's/^features: //p')'," \
    "chosen for CRC-32C, CRC-32, CRC-64/NVME: $got ($((SECONDS - t0)) s)"
  unset QEMU_CPU CRCFORGE_CPU_MASK
}

if build $a64_dir toolchain-aarch64.cmake; then
  compiled=$(QEMU_CPU=max $A64 $a64_dir/crcforge cpu | sed -n 's/^compiled in://p' |
             tr ' ' '\n' | sed 's/(not runnable)$//' | grep -v -e '^$' -e '^portable$')
  [ -n "$compiled" ] || fail "aarch64: no ARM path is compiled in"
  foreign=$(aarch64-linux-gnu-nm -D --defined-only $a64_dir/libcrcforge.so | awk '{print $3}' |
            grep -v '^crcforge_' || true)
  [ -z "$foreign" ] || fail "aarch64: exported symbols without the crcforge_ prefix:" $foreign
  foreign=$(aarch64-linux-gnu-nm --defined-only $a64_dir/libcrcforge.a |
            awk 'NF == 3 && $2 ~ /[A-Z]/ {print $3}' | grep -v '^crcforge_' || true)
  [ -z "$foreign" ] || fail "aarch64: archive globals without the crcforge_ prefix:" $foreign
  # The layers of the aarch64 build's files one way (the native stages check x86-64's).
  NM=aarch64-linux-gnu-nm python3 tests/library/test_layers.py --build $a64_dir ||
    fail "aarch64: the library's layers (tests/library/test_layers.py)"

  a64_leg aarch64-max max "" \
    "crc32c_arm_crc32_3way crc32_arm_crc32_3way fold_arm_pmull_eor3" full
  runnable=$(QEMU_CPU=max $A64 $a64_dir/crcforge cpu --impls | grep -vx portable)
  [ "$runnable" = "$compiled" ] ||
    fail "aarch64-max: runnable paths '$runnable' differ from compiled-in '$compiled'"
  ! grep -q "cannot run it" $a64_dir/ctest-aarch64-max.log ||
    fail "aarch64-max: test_engines skipped a path"
  echo "aarch64-max: paths forced against the reference:" $(grep '^[0-9]*: path ' \
    $a64_dir/ctest-aarch64-max.log | awk '{print $3}')

  # A core with a family table (its MIDR read under qemu): Neoverse N1, no SHA3, its
  # hybrid shape dispatched; test_engines sweeps it (auto) and forces every path runnable
  # there, test_arm_tuning every shape of the tier without EOR3.
  a64_leg aarch64-neoverse-n1 neoverse-n1 "" \
    "crc32c_arm_hybrid crc32_arm_hybrid fold_arm_pmull" \
    '^(test_catalogue|test_engines|test_arm_tuning)$'
  grep -q "^tuning: neoverse-n1 " <(QEMU_CPU=neoverse-n1 $A64 $a64_dir/crcforge cpu) ||
    fail "aarch64-neoverse-n1: crcforge cpu names no family neoverse-n1"
  # CRCFORGE_TUNE names another family: its paths where the CPU runs them (max: every
  # feature), refused with a note where it lacks one (N1: no SHA3).
  got=$(QEMU_CPU=max CRCFORGE_TUNE=family=neoverse-v2 chosen)
  [ "$got" = "crc32c_arm_hybrid_eor3 crc32_arm_hybrid_eor3 fold_arm_pmull_eor3" ] ||
    fail "aarch64-max, CRCFORGE_TUNE=family=neoverse-v2: chose '$got'"
  QEMU_CPU=neoverse-n1 CRCFORGE_TUNE=family=neoverse-v2 $A64 $a64_dir/crcforge cpu |
    grep -q "^environment: CRCFORGE_TUNE=family=neoverse-v2: .*lacks features" ||
    fail "aarch64-neoverse-n1: CRCFORGE_TUNE=family=neoverse-v2 taken without a note"

  a64_leg aarch64-cortex-a53 cortex-a53 "" \
    "crc32c_arm_crc32_3way crc32_arm_crc32_3way fold_arm_pmull" light
  a64_leg aarch64-crc32-only max crc32 "crc32c_arm_crc32 crc32_arm_crc32 portable" light
  a64_leg aarch64-pmull-only max pmull "fold_arm_pmull fold_arm_pmull fold_arm_pmull" light

  a64_leg aarch64-nofeatures max none "portable portable portable" full
  runnable=$(QEMU_CPU=max CRCFORGE_CPU_MASK=none $A64 $a64_dir/crcforge cpu --impls |
             tr '\n' ' ')
  [ "$runnable" = "portable " ] || fail "aarch64-nofeatures: runnable '$runnable'"
  skipped=$(sed -n 's/.*skip: \([a-z0-9_]*\): this CPU cannot run it$/\1/p' \
              $a64_dir/ctest-aarch64-nofeatures.log | sort -u)
  [ "$skipped" = "$(echo "$compiled" | sort)" ] ||
    fail "aarch64-nofeatures: paths reported skipped '$skipped', expected '$compiled'"

  # Figures, not assertions: instructions per 4 KiB of each path (qemu models no time).
  t0=$SECONDS
  bash scripts/insn_per_4k.sh $a64_dir || fail "aarch64: instruction counts"
  echo "aarch64 instruction counts: $((SECONDS - t0)) s"
else
  fail "aarch64 cross build"
fi

# aarch64 with clang ---------------------------------------------------------------
a64c_dir=build-aarch64-clang
if build $a64c_dir toolchain-aarch64-clang.cmake; then
  t0=$SECONDS
  compiled_clang=$(QEMU_CPU=max $A64 $a64c_dir/crcforge cpu | sed -n 's/^compiled in://p' |
                   tr ' ' '\n' | sed 's/(not runnable)$//' | grep -v -e '^$' -e '^portable$')
  [ "$compiled_clang" = "${compiled:-}" ] ||
    fail "aarch64-clang: compiled in '$compiled_clang', the GCC build '${compiled:-}'"
  export QEMU_CPU=max
  ctest_leg aarch64-clang $a64c_dir -R '^(test_engines|test_fold|test_keyslot|test_arm_tuning)$'
  check_values aarch64-clang "$A64" $a64c_dir
  unset QEMU_CPU
  ! grep -q "cannot run it" $a64c_dir/ctest-aarch64-clang.log ||
    fail "aarch64-clang: test_engines skipped a path"
  echo "aarch64-clang: paths forced against the reference:" $(grep '^[0-9]*: path ' \
    $a64c_dir/ctest-aarch64-clang.log | awk '{print $3}') "($((SECONDS - t0)) s)"
else
  fail "aarch64 clang cross build"
fi

# s390x (big-endian) ---------------------------------------------------------------
if build build-s390x toolchain-s390x.cmake; then
  t0=$SECONDS
  ctest_leg s390x build-s390x
  check_values s390x "qemu-s390x -L /usr/s390x-linux-gnu" build-s390x
  echo "s390x: done in $((SECONDS - t0)) s"
else
  fail "s390x cross build"
fi

[ "$failures" -eq 0 ] || { echo "40-cross: $failures failure(s)"; exit 1; }
echo "40-cross: aarch64 (every ARM path, and the dispatcher under five feature sets)," \
  "aarch64 built with clang (every ARM path) and s390x (big-endian) passed"
