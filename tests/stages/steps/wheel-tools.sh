#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The wheel builders' tools: .venv-wheels/ with scripts/wheel-tools.txt, pinned (zig cc,
# build, auditwheel, abi3audit, installer, ...), made or refreshed once before the stages
# that run scripts/build_wheels.sh side by side (27-wheels, 42-macos, 46-windows-wheels),
# which would otherwise each remake it at once.  Reused while that file is unchanged.
# time limit: 10m
set -euo pipefail
. "$(dirname "$0")/../lib/require.sh"
need_cmd python3 python3
require_met
cd "$(dirname "$0")/../../.."
bash scripts/build_wheels.sh --tools
echo "wheel tools: .venv-wheels/ holds scripts/wheel-tools.txt"
