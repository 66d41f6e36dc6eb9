#!/usr/bin/env bash
# Install into a temporary prefix; build a consumer with pkg-config, with CMake's
# find_package and against the static archive alone; check that the shared library and
# the static archive export only crcforge_ symbols.  Without pkg-config, its consumer alone
# is skipped (and reported).
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd cc build-essential
need_cmd nm binutils
require_met
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name libcrcforge.so | head -n 1)")

if have_cmd pkg-config pkg-config "the consumer built with pkg-config"; then
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  cc tests/consumer/main.c $(pkg-config --cflags --libs crcforge) -Wl,-rpath,"$libdir" \
    -o "$prefix/consumer-pkgconfig"
  "$prefix/consumer-pkgconfig"
fi

cmake -S tests/consumer -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
"$prefix/consumer-build/consumer"

# The static archive alone: it needs no other library (no threads library either).
cc tests/consumer/main.c -I"$prefix/include" "$libdir/libcrcforge.a" -o "$prefix/consumer-static"
"$prefix/consumer-static"

foreign=$(nm -D --defined-only "$libdir/libcrcforge.so" | awk '{print $3}' | grep -v '^crcforge_' || true)
if [ -n "$foreign" ]; then
  echo "libcrcforge.so: exported symbols without the crcforge_ prefix:"; echo "$foreign"; exit 1
fi
# Global (upper-case type letter) defined symbols of the archive's members.
foreign=$(nm --defined-only "$libdir/libcrcforge.a" | awk 'NF == 3 && $2 ~ /[A-Z]/ {print $3}' |
          grep -v '^crcforge_' || true)
if [ -n "$foreign" ]; then
  echo "libcrcforge.a: global symbols without the crcforge_ prefix:"; echo "$foreign"; exit 1
fi
echo "install: pkg-config, find_package and static consumers OK; only crcforge_ symbols" \
  "exported by the shared library and the static archive"
