#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Linux binary wheels, as users install them.  scripts/build_wheels.sh builds what
# proves each platform: the sdist, both wheels (cp310, and cp311-abi3 for every later
# CPython) for manylinux_2_17_x86_64, and the abi3 one for manylinux_2_17_aarch64,
# musllinux_1_2_x86_64 and musllinux_1_2_aarch64 (each built from the sdist, each checked
# by auditwheel show, the abi3 ones by abi3audit); then
#  - `pip install --no-index --find-links DIR crcforge` into a fresh venv of each CPython,
#    3.10-3.13, picks the wheel that CPython takes (3.10's own, abi3 for the others), and
#    tests/package runs against it
#    with `python -I` from a directory outside the tree (check_paths.py checks that
#    crcforge is imported from the venv);
#  - the abi3 x86_64 wheel's dispatcher (on CPython 3.11) on older CPUs: under `qemu-x86_64 -cpu qemu64`
#    every algorithm runs on portable, under `-cpu Nehalem` (SSE4.2, no PCLMULQDQ) CRC-32C
#    on an SSE4.2 path and the others on portable, the values right
#    (tests/wheels/check_paths.py: every catalogue model and the fixed algorithms against
#    references computed from the models' parameters, and zlib);
#  - the aarch64 abi3 wheel under `qemu-aarch64 -cpu max` with Debian's arm64 python3.11
#    (apt-get download + dpkg -x, scripts/debian_arm64_root.sh; no chroot): the package
#    tests that need no other compiled module (test_objects, test_main) but for those that
#    start `python -m crcforge` in a subprocess (qemu-user runs one program, and this
#    machine has no binfmt handler for another), and check_paths.py on the
#    automatic choice and with every ARM path forced by CRCFORGE_IMPL;
#  - the musl wheels are audited only: there is no musl CPython here.
# Prints the build time and the size of every wheel.  build_wheels.sh builds from a copy
# of the tree, with the tools of the step wheel-tools: no lock on the tree.
# needs: venv wheel-tools
# weight: 480
# time limit: 30m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd python3 python3
need_cmd qemu-x86_64 qemu-user
need_cmd qemu-aarch64 qemu-user
need_cmd apt-get apt
need_cmd dpkg-deb dpkg
find_python() { # the newest pyenv CPython X.Y, else pythonX.Y on PATH (the script's choice)
  local found
  found=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$1".*/bin/python"$1" 2>/dev/null | sort -V | tail -n 1)
  [ -n "$found" ] || found=$(command -v "python$1" || true)
  echo "$found"
}
declare -A interpreter
for v in 3.10 3.11 3.12 3.13; do
  interpreter[$v]=$(find_python "$v")
  need_executable "${interpreter[$v]}" "CPython $v (pyenv install $v)"
done
require_met

root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dist=$tmp/dist
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

start=$SECONDS
bash scripts/build_wheels.sh --out "$dist" --platform manylinux_2_17_x86_64
bash scripts/build_wheels.sh --out "$dist" --wheel abi3 \
  --platform manylinux_2_17_aarch64,musllinux_1_2_x86_64,musllinux_1_2_aarch64
echo "wheels: built in $((SECONDS - start)) s:"
(cd "$dist" && ls -l | awk 'NR > 1 {printf "  %-90s %6d KiB\n", $9, $5 / 1024}')
for platform in manylinux_2_17_aarch64 musllinux_1_2_x86_64 musllinux_1_2_aarch64; do
  ls "$dist"/crcforge-*-cp311-abi3-*"$platform"*.whl >/dev/null 2>&1 || fail "no abi3 $platform wheel"
done

# The x86_64 wheels in a fresh venv of each interpreter, tested from outside the tree.
outside=$tmp/outside
mkdir -p "$outside"
for v in 3.10 3.11 3.12 3.13; do
  venv=$tmp/venv-$v
  "${interpreter[$v]}" -m venv "$venv"
  pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
  "${pip[@]}" install --no-index --find-links "$dist" crcforge
  "${pip[@]}" install -r python/test-requirements.txt >"$tmp/pip-$v.log" 2>&1 ||
    { tail -n 5 "$tmp/pip-$v.log"; fail "$v: pip could not install python/test-requirements.txt"; continue; }
  installed=$("$venv/bin/python" -I -m pip show -f crcforge | grep -o '_crcforge[^ ]*\.so' || true)
  want=_crcforge.abi3.so
  [ "$v" != 3.10 ] || want=_crcforge.cpython-310-x86_64-linux-gnu.so
  [ "$installed" = "$want" ] || fail "$v: the venv's crcforge holds '$installed', not $want"
  (cd "$outside" && "$venv/bin/python" -I "$root/tests/wheels/check_paths.py" --outside "$root" |
     tail -n 1) || fail "$v: check_paths.py"
  (cd "$outside" && "$venv/bin/python" -I -m pytest -q -p no:cacheprovider "$root/tests/package" |
     tail -n 1) || fail "$v: tests/package against the wheel"
done

# The dispatcher of the x86_64 wheel on older CPUs.
py311=$tmp/venv-3.11/bin/python
portable=(--expect crc32c=portable --expect crc32=portable --expect crc64_nvme=portable
          --expect crc64_xz=portable --expect crc16_xmodem=portable)
(cd "$outside" && qemu-x86_64 -cpu qemu64 "$py311" -I "$root/tests/wheels/check_paths.py" \
   --outside "$root" "${portable[@]}") || fail "x86_64 wheel under -cpu qemu64"
(cd "$outside" && qemu-x86_64 -cpu Nehalem "$py311" -I "$root/tests/wheels/check_paths.py" \
   --outside "$root" --expect 'crc32c=crc32c_x86_sse42_3way|crc32c_x86_sse42' "${portable[@]:2}") ||
  fail "x86_64 wheel under -cpu Nehalem"

# The aarch64 wheel under qemu-aarch64, with Debian's arm64 Python 3.11.
arm=$root/.venv-wheels/debian-arm64-python
bash scripts/debian_arm64_root.sh "$arm" python3.11-minimal libpython3.11-minimal \
  libpython3.11-stdlib libc6 libgcc-s1 zlib1g libexpat1 libffi8 liblzma5 libbz2-1.0 libssl3 \
  libuuid1 libsqlite3-0 libcrypt1 libncursesw6 libtinfo6 libreadline8 libdb5.3 media-types
site=$tmp/arm64-site
tools=$root/.venv-wheels/bin/python
"$tools" -m pip install -q --disable-pip-version-check --target "$site/wheel" --no-deps \
  --platform manylinux_2_17_aarch64 --python-version 3.11 --implementation cp --abi abi3 \
  --only-binary=:all: --no-index --find-links "$dist" crcforge
"$tools" -m pip install -q --disable-pip-version-check --target "$site/tests" \
  --platform manylinux_2_17_aarch64 --python-version 3.11 --implementation cp --abi cp311 \
  --only-binary=:all: pytest hypothesis >"$tmp/pip-arm64.log" 2>&1 ||
  { tail -n 5 "$tmp/pip-arm64.log"; fail "aarch64: pip could not fetch pytest and hypothesis"; }
arm_python() { # arm_python [VAR=VALUE...] ARGS...: Debian's arm64 python3.11 under qemu
  (cd "$outside" && env PYTHONPATH="$site/wheel:$site/tests" "$@")
}
qarm=(qemu-aarch64 -cpu max -L "$arm/root" "$arm/root/usr/bin/python3.11")
impls=$(arm_python "${qarm[@]}" -c 'import crcforge
print(" ".join(n for n, ok in crcforge.implementations().items() if ok and n != "portable"))')
echo "aarch64 wheel, -cpu max: the ARM paths it runs: $impls"
[ -n "$impls" ] || fail "aarch64 wheel: no ARM path runnable under -cpu max"
arm_python "${qarm[@]}" "$root/tests/wheels/check_paths.py" --outside "$root" | tail -n 1 ||
  fail "aarch64 wheel: automatic choice"
for impl in $impls; do
  arm_python CRCFORGE_IMPL="$impl" "${qarm[@]}" "$root/tests/wheels/check_paths.py" \
    --outside "$root" | tail -n 1 || fail "aarch64 wheel: CRCFORGE_IMPL=$impl"
done
# test_main's tests that run `python -m crcforge` as a subprocess.
subprocess_tests="test_usage or test_bench_is_the_c_programs_own"
subprocess_tests+=" or test_sum_with_options_after_files_and_double_dash"
subprocess_tests+=" or test_custom_parameters_are_strict or test_help_gives_the_timeout_objects_uses"
arm_python "${qarm[@]}" -m pytest -q -p no:cacheprovider \
  "$root/tests/package/test_objects.py" "$root/tests/package/test_main.py" \
  -k "not ($subprocess_tests)" | tail -n 1 || fail "aarch64 wheel: tests/package"

echo "27-wheels: $failures failure(s) in $((SECONDS - start)) s"
[ "$failures" -eq 0 ]
