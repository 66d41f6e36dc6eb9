#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Release build with warnings as errors; the C tests.
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd make make
need_cmd cc build-essential
require_met
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure
