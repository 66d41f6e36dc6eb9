#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The C tests of the Release build with warnings as errors (build/, the build step's).
# needs: build
# weight: 30
# time limit: 15m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
require_met
bash "$(dirname "$0")/steps/build.sh" >/dev/null
ctest --test-dir build --output-on-failure -j "$(nproc)"
