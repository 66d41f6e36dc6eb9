#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CLI contract and the independent oracles (zlib, anycrc, awscrt) through the built tool
# and shared library.  What single tests need beyond pytest (the oracles, a C compiler for
# the fault-injection shim, gdb and llvm-mca for the traces of scripts/static_estimate.py,
# ISA-L 2.32.1 for its rows of ISA-L's functions: .ci/install-isal.sh) they ask for
# themselves (tests/needs.py): without it those tests alone are skipped, and named (-rs).
# needs: build venv install-isal install-libdeflate
# weight: 140
# time limit: 30m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd python3 python3
need_python_module pytest pytest
require_met
bash "$(dirname "$0")/steps/build.sh" >/dev/null
CRCFORGE_BUILD=build python3 -m pytest -q -rs tests/cli tests/library
