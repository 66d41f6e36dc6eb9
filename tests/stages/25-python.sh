#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Python package, as a user gets it: a fresh venv in a temporary directory, the package
# built with `pip install .` (the README's command) and as sdist + wheel with
# `python -m build` (the wheel built from the sdist, so the sdist must carry the C
# sources); then the package tests (tests/package) and the CLI tests against
# `python -m crcforge` (tests/cli with CRCFORGE_CLI=python: the tests of the commands both
# tools have).  It builds in the source tree (build-python/, python/crcforge.egg-info/), as
# `pip install .` does, so no other stage that does runs beside it (its lock).
# needs: venv
# weight: 235
# locks: python-tree
# time limit: 20m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd python3 python3
need_cmd cc build-essential
if command -v python3 >/dev/null; then
  need_path "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" \
    python3-dev "Python's C headers (Python.h)"
fi
require_met
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp" # the CLI tests run the venv's Python as an unprivileged user too

if ! python3 -m venv "$tmp/venv" >"$tmp/venv.log" 2>&1; then
  cat "$tmp/venv.log"
  echo "25-python skipped: python3 -m venv does not work here (Debian package python3-venv)"
  exit 77
fi
py=$tmp/venv/bin/python
pip=("$py" -m pip --disable-pip-version-check -q)
if ! "${pip[@]}" install -r python/test-requirements.txt >"$tmp/pip.log" 2>&1; then
  tail -n 5 "$tmp/pip.log"
  echo "25-python skipped: pip cannot install python/test-requirements.txt (no package index reachable?)"
  exit 77
fi

"${pip[@]}" install .
"$py" -m build --outdir "$tmp/dist" . >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
"${pip[@]}" install --force-reinstall --no-deps "$tmp"/dist/crcforge-*.whl
echo "built: $(cd "$tmp/dist" && ls)"

cd "$tmp" # import the installed package, not the source tree
"$py" -m pytest -q -rs -p no:cacheprovider "$root/tests/package"
CRCFORGE_CLI=python CRCFORGE_PYTHON=$py \
  "$py" -m pytest -q -rs -p no:cacheprovider "$root/tests/cli"
