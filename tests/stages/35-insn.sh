#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instruction counts of the hot paths under callgrind against tests/insn_baseline.txt
# (scripts/insn_count.sh): a count more than 2% above its baseline fails.  Uses the
# Release build of stage 10-c (built again here if missing).
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd valgrind valgrind
need_cmd cmake cmake
need_cmd cc build-essential
require_met
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)" --target crcforge path_repeat >/dev/null
bash scripts/insn_count.sh build
