#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Release build, warnings as errors, in build/ (or CRCFORGE_BUILD): the one tree of
# that configuration the stages share (10-c tests it; 12-compilers compares against it;
# 15-install, 20-cli, 35-insn, 50-redis, 55-objectstore and 60-bench use it).  Configured
# and built, or brought up to date, under a lock on the tree, so that stages running side
# by side never build into it at once.  With TARGETs, only those are built.
# The bench's peer libraries are found when the tree is configured, hence its needs.
# needs: install-isal install-libdeflate
# time limit: 20m
set -euo pipefail
. "$(dirname "$0")/../lib/require.sh"
need_cmd cmake cmake
need_cmd make make
need_cmd cc build-essential
require_met
cd "$(dirname "$0")/../../.."
build=${CRCFORGE_BUILD:-build}
mkdir -p "$build"
exec 8>"$build/.lock"
flock 8
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_WERROR=ON >/dev/null
cmake --build "$build" -j "$(nproc)" ${1:+--target "$@"}
