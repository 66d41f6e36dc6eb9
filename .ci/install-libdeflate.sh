#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libdeflate 1.26, the newest a package registry offers (Debian has 1.14), a peer of
# `crcforge bench`: its C source comes in the crate libdeflate-sys 1.26.1 (crates.io,
# fetched with cargo and checked by its sha256), built with its own CMake build into a
# fixed prefix where bench/CMakeLists.txt looks first (CRCFORGE_PEERS_PREFIX, default
# /opt/crcforge-peers, then libdeflate-1.26/); does nothing when that prefix holds this
# version already.  Under a minute.
set -euo pipefail
version=1.26
crate=libdeflate-sys
crate_version=1.26.1
crate_sha256=d7870e5fbd2766179a937c725fb11f4ca0ef025d982beb61bd3ce755425bd19c
prefix=${CRCFORGE_PEERS_PREFIX:-/opt/crcforge-peers}/libdeflate-$version

# The version a libdeflate.h declares ("" when it has none).
header_version() {
  [ -f "$1" ] || return 0
  sed -n 's/^#define LIBDEFLATE_VERSION_STRING[[:space:]]*"\(.*\)"/\1/p' "$1"
}

if [ "$(header_version "$prefix/include/libdeflate.h")" = "$version" ] &&
    [ -f "$prefix/lib/libdeflate.a" ]; then
  echo "install-libdeflate: $prefix holds libdeflate $version already"
  exit 0
fi
command -v cargo >/dev/null || PATH=$HOME/.cargo/bin:$PATH
for tool in cargo cmake cc python3; do
  command -v "$tool" >/dev/null || { echo "install-libdeflate: $tool is not installed" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A manifest that depends on the crate alone: cargo fetches and checks it.
mkdir -p "$work/fetch/src"
: >"$work/fetch/src/lib.rs"
cat >"$work/fetch/Cargo.toml" <<TOML
[package]
name = "fetch-libdeflate"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$crate = { version = "=$crate_version", default-features = false }
TOML
cargo fetch -q --manifest-path "$work/fetch/Cargo.toml"
manifest=$(cargo metadata -q --format-version 1 --manifest-path "$work/fetch/Cargo.toml" |
  python3 -c 'import json, sys
print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"] == sys.argv[1]))' "$crate")
src=$(dirname "$manifest")
archive=$(find "${CARGO_HOME:-$HOME/.cargo}/registry/cache" -name "$crate-$crate_version.crate" | head -n 1)
[ -n "$archive" ] || { echo "install-libdeflate: cargo left no $crate-$crate_version.crate" >&2; exit 1; }
echo "$crate_sha256  $archive" | sha256sum -c --quiet - ||
  { echo "install-libdeflate: $archive is not the crate pinned here (sha256)" >&2; exit 1; }
found=$(header_version "$src/libdeflate/libdeflate.h")
[ "$found" = "$version" ] ||
  { echo "install-libdeflate: $crate $crate_version bundles libdeflate '$found', not $version" >&2; exit 1; }
echo "install-libdeflate: building libdeflate $version into $prefix"
cmake -S "$src/libdeflate" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DLIBDEFLATE_BUILD_SHARED_LIB=OFF -DLIBDEFLATE_BUILD_GZIP=OFF >"$work/build.log" 2>&1 &&
  cmake --build "$work/build" -j "$(nproc)" >>"$work/build.log" 2>&1 &&
  cmake --install "$work/build" >>"$work/build.log" 2>&1 ||
  { tail -n 20 "$work/build.log"; exit 1; }
echo "install-libdeflate: libdeflate $(header_version "$prefix/include/libdeflate.h") in $prefix"
