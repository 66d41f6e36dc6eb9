#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The test environment: .venv-test/ at the repository root with the Python packages of
# .ci/requirements.txt, at the versions .ci/constraints.txt holds some of them to; reused
# while those files are unchanged (a copy of them in the venv records what was installed).
# scripts/test.sh puts its bin/ first on PATH for the stages that need it.  When it cannot
# be made (no venv module, no package index) this step is skipped (exit 77) saying why,
# and the stages that need its packages name what is missing.
set -uo pipefail
cd "$(dirname "$0")/../../.."
venv=$PWD/.venv-test
stamp=$venv/requirements.installed
if [ -x "$venv/bin/python3" ] && cat .ci/requirements.txt .ci/constraints.txt | cmp -s - "$stamp"; then
  echo "test environment: .venv-test/ holds .ci/requirements.txt already"
  exit 0
fi
if ! command -v python3 >/dev/null; then
  echo "test environment: no python3 (Debian package python3)"
  exit 77
fi
echo "test environment: .venv-test/ with .ci/requirements.txt"
rm -f "$stamp"
if ! python3 -m venv "$venv" >"$PWD/.venv-test.log" 2>&1; then
  tail -n 5 "$PWD/.venv-test.log"
  echo "test environment: python3 -m venv failed (Debian package python3-venv)"
  rm -rf "$venv"
  exit 77
fi
rm -f "$PWD/.venv-test.log"
if ! "$venv/bin/python3" -m pip install -q --disable-pip-version-check \
    -r .ci/requirements.txt -c .ci/constraints.txt >"$venv/pip.log" 2>&1; then
  tail -n 5 "$venv/pip.log"
  echo "test environment: pip could not install .ci/requirements.txt (no package index" \
    "reachable?); stages that need those packages are skipped"
  exit 77
fi
cat .ci/requirements.txt .ci/constraints.txt >"$stamp"
echo "test environment: .venv-test/ made"
