#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instruction counts of the hot paths under callgrind against tests/insn_baseline.txt
# (scripts/insn_count.sh): a count more than 2% above its baseline fails.  Uses the
# Release build (build/, the build step's).
# needs: build
# weight: 10
# time limit: 20m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd valgrind valgrind
need_cmd cmake cmake
need_cmd cc build-essential
require_met
bash "$(dirname "$0")/steps/build.sh" crcforge path_repeat >/dev/null
bash scripts/insn_count.sh build
