#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages of .ci/apt-packages.txt with apt-get (as root: scripts/test.sh
# --install-deps runs it through sudo when it is not root), before every other install
# step and every stage.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
grep -v -e '^#' -e '^[[:space:]]*$' .ci/apt-packages.txt |
  xargs apt-get install -y -qq --no-install-recommends >/dev/null
echo "apt-install: the packages of .ci/apt-packages.txt are installed"
