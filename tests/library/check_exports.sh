#!/bin/sh
# SPDX-License-Identifier: MIT
# The shared library's interface against what is committed: it exports exactly the functions
# of exported_symbols.txt, each header declares (CRCFORGE_API) exactly the ones listed with
# it, and the SONAME is libcrcforge.so.MAJOR.
# Usage: check_exports.sh NM READELF LIBRARY LIST MAJOR HEADER...
set -eu
nm=$1 readelf=$2 lib=$3 list=$4 major=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

grep -v '^#' "$list" | awk 'NF {print $2}' | sort >"$tmp/listed"
"$nm" -D --defined-only "$lib" | awk '{print $NF}' | sort >"$tmp/exported"
if ! diff "$tmp/listed" "$tmp/exported" >"$tmp/diff"; then
  echo "FAIL: $lib exports other functions than $list ('<' listed only, '>' exported only):"
  grep '^[<>]' "$tmp/diff"
  failed=1
fi

for header in "$@"; do
  name=$(basename "$header")
  grep -v '^#' "$list" | awk -v h="$name" '$1 == h {print $2}' | sort >"$tmp/listed_h"
  sed -n 's/^CRCFORGE_API [^(]*[ *]\(crcforge_[a-z0-9_]*\)(.*/\1/p' "$header" |
    sort >"$tmp/declared"
  if ! diff "$tmp/listed_h" "$tmp/declared" >"$tmp/diff"; then
    echo "FAIL: $name declares other functions than $list gives it" \
      "('<' listed only, '>' declared only):"
    grep '^[<>]' "$tmp/diff"
    failed=1
  fi
done

soname=$("$readelf" -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" != "libcrcforge.so.$major" ]; then
  echo "FAIL: SONAME '$soname', not libcrcforge.so.$major (the major version)"
  failed=1
fi

[ "$failed" = 0 ] || exit 1
stable=$(grep -c '^crcforge\.h ' "$list")
echo "exports: $(wc -l <"$tmp/exported") functions as listed ($stable of them the stable" \
  "header's), SONAME $soname"
