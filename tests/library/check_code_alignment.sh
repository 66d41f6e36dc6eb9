#!/bin/sh
# SPDX-License-Identifier: MIT
# The public CRC entries and every x86-64 kernel's entries start a 64-byte line in the
# built library (CODE_ALIGNED, compiler.h), whatever the build's flags: each
# pattern below must name at least one function, and every function it names (its
# compiler-split .cold and clone parts aside) must lie on a 64-byte boundary.
# Usage: check_code_alignment.sh NM LIBRARY
set -eu
nm=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nm" --defined-only "$lib" | awk '$2 ~ /^[tT]$/ && $3 !~ /\./ {print $1, $3}' >"$tmp/text"
failed=0
for pattern in \
  '^crcforge_(crc32c|crc32|crc64_nvme|crc64_xz|crc16_xmodem|checksum|update)$' \
  '^crcforge_(crc32c|crc32|crc64_nvme|crc64_xz)_past_first_band$' \
  '^(update|short_update|fold_update)_x86_' \
  '^value_crc(32c|32|64_nvme|64_xz)_x86_' \
  '^crc32c_x86_' \
  '^crc_band_walk$' \
  '^crc_(table|bytewise)_update$'; do
  awk -v p="$pattern" '$2 ~ p' "$tmp/text" >"$tmp/named"
  if [ ! -s "$tmp/named" ]; then
    echo "FAIL: no function of $lib matches $pattern"
    failed=1
    continue
  fi
  while read -r address name; do
    if [ $((0x$address % 64)) -ne 0 ]; then
      echo "FAIL: $name at 0x$address, $((0x$address % 64)) bytes past a 64-byte line"
      failed=1
    fi
  done <"$tmp/named"
  echo "$pattern: $(wc -l <"$tmp/named") functions"
done
exit $failed
