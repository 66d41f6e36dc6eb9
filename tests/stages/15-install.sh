#!/usr/bin/env bash
# Install into a temporary prefix; build a consumer with pkg-config and with CMake's
# find_package; check that the shared library exports only crcforge_ symbols.
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd cc build-essential
need_cmd pkg-config pkg-config
need_cmd nm binutils
require_met
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name libcrcforge.so | head -n 1)")

export PKG_CONFIG_PATH=$libdir/pkgconfig
cc tests/consumer/main.c $(pkg-config --cflags --libs crcforge) -Wl,-rpath,"$libdir" \
  -o "$prefix/consumer-pkgconfig"
"$prefix/consumer-pkgconfig"

cmake -S tests/consumer -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
"$prefix/consumer-build/consumer"

foreign=$(nm -D --defined-only "$libdir/libcrcforge.so" | awk '{print $3}' | grep -v '^crcforge_' || true)
if [ -n "$foreign" ]; then
  echo "exported symbols without the crcforge_ prefix:"; echo "$foreign"; exit 1
fi
echo "install: pkg-config and find_package consumers OK; only crcforge_ symbols exported"
