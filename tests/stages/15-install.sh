#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install into a temporary prefix: both headers, the libraries (the shared one under
# libcrcforge.so.MAJOR), pkg-config and CMake files, the manual page and the license.  Build a consumer with pkg-config,
# with CMake's find_package, against the static archive alone, and with the installed
# stable header alone (crcforge.h without crcforge_dispatch.h) as C and as C++, with and
# without the crc32 instruction's flags (the header's inline CRC-32C, or its call); check
# that the shared library and the static archive export only crcforge_ symbols, and that
# the installed tool runs `bench`.  Without pkg-config, its consumer alone is skipped
# (and reported).
# needs: build
# weight: 5
# time limit: 10m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd cc build-essential
need_cmd c++ build-essential
need_cmd nm binutils
require_met
bash "$(dirname "$0")/steps/build.sh" >/dev/null
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name libcrcforge.so | head -n 1)")
for header in crcforge.h crcforge_dispatch.h; do
  [ -f "$prefix/include/$header" ] || { echo "install: include/$header is not installed"; exit 1; }
done
major=$(sed -n 's/^#define CRCFORGE_VERSION_MAJOR \([0-9]*\)$/\1/p' include/crcforge.h)
[ -e "$libdir/libcrcforge.so.$major" ] ||
  { echo "install: no libcrcforge.so.$major (the SONAME of major version $major)"; exit 1; }
# What a packager takes besides: the manual page and the license (the .pc file names it).
for file in share/man/man1/crcforge.1 share/doc/crcforge/LICENSE; do
  [ -f "$prefix/$file" ] || { echo "install: $file is not installed"; exit 1; }
done
cmp -s LICENSE "$prefix/share/doc/crcforge/LICENSE" || { echo "install: share/doc/crcforge/LICENSE differs from LICENSE"; exit 1; }
grep -qx "License: MIT" "$libdir/pkgconfig/crcforge.pc" || { echo "install: crcforge.pc names no License"; exit 1; }

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

# The stable header alone, as C and as C++ (both headers are in the prefix: only one here).
stable=$prefix/stable-include
mkdir "$stable"
cp "$prefix/include/crcforge.h" "$stable/"
case "$(uname -m)" in
  x86_64 | amd64) inline_flags=-msse4.2 ;;
  *) inline_flags= ;;
esac
for flags in "" $inline_flags; do
  cc -std=c11 -Wall -Wextra -Werror -pedantic $flags -x c tests/consumer/main.c -I"$stable" \
    -L"$libdir" -lcrcforge -Wl,-rpath,"$libdir" -o "$prefix/consumer-c"
  "$prefix/consumer-c"
  c++ -std=c++11 -Wall -Wextra -Werror $flags -x c++ tests/consumer/main.c -I"$stable" \
    -L"$libdir" -lcrcforge -Wl,-rpath,"$libdir" -o "$prefix/consumer-c++"
  "$prefix/consumer-c++"
done

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
# The installed tool runs its benchmark program from the install's libexec directory.
[ -x "$prefix/libexec/crcforge/crcforge-bench" ] || { echo "crcforge-bench not installed in libexec/crcforge"; exit 1; }
"$prefix/bin/crcforge" bench -i portable --sizes 64 --offsets 0 --repeat 1 --min-time 0 --csv |
  grep -q '^CRC-32/ISCSI,portable,crcforge,throughput,64,0,ok,' ||
  { echo "installed crcforge bench did not run"; exit 1; }
echo "install: pkg-config, find_package, static, stable-header-only C and C++ consumers OK;" \
  "only crcforge_ symbols exported by the shared library and the static archive; bench from libexec"
