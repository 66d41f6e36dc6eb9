#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unpacks Debian's arm64 packages into a directory, a root for `qemu-aarch64 -L` and the
# aarch64 wheels' Python headers: `apt-get download` of the named packages, each unpacked
# with `dpkg -x` (no chroot, nothing installed, nothing configured).  apt reads arm64
# package lists of its own, kept beside the root, so the machine's dpkg and apt setup
# (its architectures, its lists) are left as they are.  The Debian release is the
# machine's (its /etc/apt sources).  Does nothing when DIR already holds these packages.
#
# Usage: scripts/debian_arm64_root.sh DIR PACKAGE...
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: scripts/debian_arm64_root.sh DIR PACKAGE..." >&2
  exit 2
fi
dir=$1
shift
wanted=$(printf '%s\n' "$@" | sort -u)
if [ -f "$dir/packages" ] && [ "$(cat "$dir/packages")" = "$wanted" ]; then
  exit 0
fi
for tool in apt-get dpkg; do
  command -v "$tool" >/dev/null ||
    { echo "debian_arm64_root: $tool is not installed (a Debian machine is needed)" >&2; exit 1; }
done
rm -rf "$dir/root" "$dir/debs" "$dir/packages"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs" "$dir/root"
apt=(apt-get -q -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
     -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o Debug::NoLocking=1
     -o APT::Sandbox::User=root)
"${apt[@]}" update >"$dir/apt/update.log" 2>&1 ||
  { tail -n 5 "$dir/apt/update.log"; echo "debian_arm64_root: apt-get update (arm64 lists) failed" >&2; exit 1; }
(cd "$dir/debs" && "${apt[@]}" download $(printf '%s:arm64 ' "$@")) >"$dir/apt/download.log" 2>&1 ||
  { tail -n 5 "$dir/apt/download.log"; echo "debian_arm64_root: apt-get download failed" >&2; exit 1; }
for deb in "$dir"/debs/*.deb; do
  dpkg -x "$deb" "$dir/root"
done
echo "$wanted" >"$dir/packages"
echo "debian_arm64_root: $(ls "$dir/debs" | wc -l) arm64 packages unpacked in $dir/root"
