#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The C tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
# needs: install-isal install-libdeflate
# weight: 250
# time limit: 30m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd cc build-essential
need_c_compile gcc "the AddressSanitizer and UBSan runtimes (libasan, libubsan)" cc -fsanitize=address,undefined
require_met
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCRCFORGE_SANITIZE=ON \
  -DCRCFORGE_WERROR=ON >/dev/null
cmake --build build-sanitize -j "$(nproc)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)"
