#!/usr/bin/env bash
# The CLI contract and the independent oracles (zlib, anycrc, awscrt) through the built tool
# and shared library; the fault-injection shim the CLI tests build needs a C compiler, the
# traces of scripts/static_estimate.py gdb and llvm-mca, and its ISA-L rows ISA-L 2.32.1
# (.ci/install-isal.sh; under CRCFORGE_ISAL_PREFIX, else /opt/crcforge-peers/isa-l-2.32.1:
# those tests are skipped without it, but fail with CI=true).
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd python3 python3
need_python_module pytest pytest
need_python_module anycrc anycrc
need_python_module awscrt.checksums awscrt
need_cmd cc build-essential
need_cmd gdb gdb
need_cmd llvm-mca-19 llvm-19
require_met
CRCFORGE_BUILD=build python3 -m pytest -q tests/cli tests/library
