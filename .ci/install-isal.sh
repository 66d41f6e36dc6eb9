#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds ISA-L 2.32.1, the peer `crcforge bench` measures crcforge against, from the source
# the PyPI sdist isal==1.9.1 bundles (src/isal/isa-l, ISA-L's tag v2.32.1), assembled with
# Debian's nasm (on aarch64, by the C compiler), into a fixed prefix where bench/CMakeLists.txt looks first
# (CRCFORGE_PEERS_PREFIX, default /opt/crcforge-peers, then isa-l-2.32.1/); does nothing
# when that prefix holds this version already.  About a minute on 2 cores.
set -euo pipefail
version=2.32.1
sdist=isal==1.9.1
sdist_sha256=d210dca02a689ef2af709d2c62d2daac2e36b5d2fa06e6dc0d023c83fee77e91
prefix=${CRCFORGE_PEERS_PREFIX:-/opt/crcforge-peers}/isa-l-$version

# The version include/isa-l.h of a tree or prefix declares ("" when it has none).
header_version() {
  [ -f "$1" ] || return 0
  awk '/^#define ISAL_(MAJOR|MINOR|PATCH)_VERSION / {v[$2] = $3}
       END {if (length(v) == 3) print v["ISAL_MAJOR_VERSION"] "." v["ISAL_MINOR_VERSION"] "." v["ISAL_PATCH_VERSION"]}' "$1"
}

if [ "$(header_version "$prefix/include/isa-l.h")" = "$version" ] && [ -f "$prefix/lib/libisal.a" ]; then
  echo "install-isal: $prefix holds ISA-L $version already"
  exit 0
fi
# nasm assembles the x86 kernels; on aarch64 the C compiler assembles ISA-L's .S files.
tools="make cc python3"
[ "$(uname -m)" != x86_64 ] || tools="nasm $tools"
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "install-isal: $tool is not installed" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pip from a venv of its own: the system Python may have none.
python3 -m venv "$work/venv"
"$work/venv/bin/python3" -m pip download -q --disable-pip-version-check --no-deps \
  --no-binary isal "$sdist" -d "$work"
archive=$(ls "$work"/isal-*.tar.gz)
echo "$sdist_sha256  $archive" | sha256sum -c --quiet - ||
  { echo "install-isal: $archive is not the sdist pinned here (sha256)" >&2; exit 1; }
tar xzf "$archive" -C "$work"
src=$(echo "$work"/isal-*/src/isal/isa-l)
# make.inc names the version, which make writes into isa-l.h.
found=$(sed -n 's/^version ?= *//p' "$src/make.inc")
[ "$found" = "$version" ] ||
  { echo "install-isal: $sdist bundles ISA-L '$found', not $version" >&2; exit 1; }
echo "install-isal: building ISA-L $version into $prefix"
make -C "$src" -f Makefile.unx -j "$(nproc)" lib slib >"$work/build.log" 2>&1 ||
  { tail -n 20 "$work/build.log"; exit 1; }
make -C "$src" -f Makefile.unx install prefix="$prefix" >>"$work/build.log" 2>&1 ||
  { tail -n 20 "$work/build.log"; exit 1; }
found=$(header_version "$prefix/include/isa-l.h")
[ "$found" = "$version" ] ||
  { echo "install-isal: the installed include/isa-l.h says '$found', not $version" >&2; exit 1; }
echo "install-isal: ISA-L $(header_version "$prefix/include/isa-l.h") in $prefix"
