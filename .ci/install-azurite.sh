#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs Azurite (the Azure Storage emulator) that tests/stages/55-objectstore.sh starts,
# at a pinned version, from the npm registry, as a global package (its azurite-blob on
# npm's global bin directory, on PATH); does nothing when that version is there already.
# About a minute.
set -euo pipefail
package=azurite
# 3.37.0: the first release that checks x-ms-content-crc64 (Put Block, Put Blob, Append
# Block, Put Page: HTTP 400 Crc64Mismatch for a wrong value).  It asks for Node.js 22, and
# its blob service runs on Debian's Node.js 20 as the tests use it.
version=3.37.0

if ! command -v npm >/dev/null; then
  echo "install-azurite: npm is not installed (Node.js 20 or later runs Azurite)" >&2
  exit 1
fi
if npm ls -g --depth=0 "$package" 2>/dev/null | grep -q " $package@$version\$"; then
  echo "install-azurite: $package@$version is installed already ($(command -v azurite-blob))"
  exit 0
fi
echo "install-azurite: installing $package@$version (npm install -g)"
npm install -g --no-audit --no-fund --loglevel=error "$package@$version"
echo "install-azurite: $(command -v azurite-blob)"
