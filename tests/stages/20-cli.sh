#!/usr/bin/env bash
# The CLI contract and the independent oracles (zlib, anycrc) through the built tool and
# shared library.
set -euo pipefail
CRCFORGE_BUILD=build python3 -m pytest -q tests/cli tests/library
