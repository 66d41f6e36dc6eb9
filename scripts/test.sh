#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds crcforge and runs every test: each stage in tests/stages/, in name order.
# The Python packages the stages use (.ci/requirements.txt) go into a test environment of
# its own, .venv-test/ at the repository root, made on the first run and refreshed when
# the requirements change; its python3 comes first on PATH for every stage.  Nothing is
# installed into the user's Python.
# A stage whose tools are missing names the Debian packages that provide them and is
# counted as skipped, never as passed; a test or a part of a stage that needs a tool the
# rest does not is skipped alone, and listed at the end (from CRCFORGE_SKIP_LOG, where the
# stages and tests/conftest.py record them).  With CI=true any skip is a failure.
#
# Usage: scripts/test.sh [--install-deps] [STAGE...]   (e.g. scripts/test.sh 10-c 20-cli)
#   --install-deps  first install the Debian packages of .ci/apt-packages.txt (apt-get, as
#                   root or through sudo) and run every .ci/install-*.sh (what .ci/run does)
set -uo pipefail
cd "$(dirname "$0")/.."
export CRCFORGE_ROOT=$PWD

usage() { echo "usage: scripts/test.sh [--install-deps] [STAGE...]" >&2; exit 2; }
install_deps=
stages=()
for arg in "$@"; do
  case $arg in
    --install-deps) install_deps=1 ;;
    -h | --help) usage ;;
    -*) echo "scripts/test.sh: unknown option '$arg'" >&2; usage ;;
    *) stages+=("$arg") ;;
  esac
done
for want in "${stages[@]}"; do # a misspelt stage would otherwise run nothing and pass
  if [ ! -f "tests/stages/$want.sh" ]; then
    echo "scripts/test.sh: no stage '$want' (stages: $(cd tests/stages && ls *.sh | sed 's/\.sh$//' | tr '\n' ' '))" >&2
    exit 2
  fi
done

# Debian packages, then the installers of what Debian does not package.
install_debian_deps() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      echo "scripts/test.sh --install-deps: not root and no sudo: Debian packages not installed;" \
        "stages whose tools are missing will name them" >&2
      return 0
    fi
  fi
  echo "=== installing the Debian packages of .ci/apt-packages.txt"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq &&
    grep -v -e '^#' -e '^[[:space:]]*$' .ci/apt-packages.txt |
    xargs "${sudo[@]}" apt-get install -y -qq --no-install-recommends >/dev/null ||
    { echo "scripts/test.sh: apt-get install failed" >&2; return 1; }
  local installer
  for installer in .ci/install-*.sh; do
    [ -e "$installer" ] || continue
    echo "=== $installer"
    "${sudo[@]}" bash "$installer" || { echo "scripts/test.sh: $installer failed" >&2; return 1; }
  done
}

# The test environment: a venv with .ci/requirements.txt, reused while that file is
# unchanged (a copy of it in the venv records what was installed).  When it cannot be
# made (no venv module, no package index), the stages that need it say what is missing.
venv=$PWD/.venv-test
setup_venv() {
  local stamp=$venv/requirements.installed
  if [ -x "$venv/bin/python3" ] && cmp -s .ci/requirements.txt "$stamp"; then
    return 0
  fi
  if ! command -v python3 >/dev/null; then
    echo "test environment: no python3 (Debian package python3)"
    return 1
  fi
  echo "=== test environment: .venv-test/ with .ci/requirements.txt"
  rm -f "$stamp"
  if ! python3 -m venv "$venv" >"$PWD/.venv-test.log" 2>&1; then
    tail -n 5 "$PWD/.venv-test.log"
    echo "test environment: python3 -m venv failed (Debian package python3-venv)"
    rm -rf "$venv"
    return 1
  fi
  rm -f "$PWD/.venv-test.log"
  if ! "$venv/bin/python3" -m pip install -q --disable-pip-version-check \
      -r .ci/requirements.txt >"$venv/pip.log" 2>&1; then
    tail -n 5 "$venv/pip.log"
    echo "test environment: pip could not install .ci/requirements.txt (no package index" \
      "reachable?); stages that need those packages are skipped"
    return 1
  fi
  cp .ci/requirements.txt "$stamp"
}

setup_failed=()
if [ -n "$install_deps" ]; then
  install_debian_deps || setup_failed+=("--install-deps")
fi
setup_venv
if [ -x "$venv/bin/python3" ]; then
  export PATH=$venv/bin:$PATH VIRTUAL_ENV=$venv
fi

passed=() failed=() skipped=() partial=()
skip_log=$(mktemp)
trap 'rm -f "$skip_log"' EXIT
for stage in tests/stages/*.sh; do
  name=$(basename "$stage" .sh)
  if [ ${#stages[@]} -gt 0 ] && ! printf '%s\n' "${stages[@]}" | grep -qx "$name"; then
    continue
  fi
  echo "=== stage $name"
  start=$SECONDS
  : >"$skip_log"
  CRCFORGE_SKIP_LOG=$skip_log bash "$stage"
  rc=$?
  echo "=== stage $name: exit $rc in $((SECONDS - start)) s"
  if [ -s "$skip_log" ]; then
    echo "=== stage $name skipped $(wc -l <"$skip_log") test(s) or part(s):"
    sed 's/^/  /' "$skip_log"
    partial+=("$name ($(wc -l <"$skip_log") skipped)")
    # CI installs every tool first: a skip there means a missing install step.
    [ "${CI:-}" != true ] || [ "$rc" != 0 ] || rc=1
  fi
  case $rc in
    0) passed+=("$name") ;;
    77) # The stage could not run here; it said why.  CI installs every tool first, so
        # there a skip means a missing install step, and fails.
        if [ "${CI:-}" = true ]; then failed+=("$name (skipped in CI)"); else skipped+=("$name"); fi ;;
    *) failed+=("$name") ;;
  esac
done
failed=("${setup_failed[@]}" "${failed[@]}")
echo
echo "stages passed: ${passed[*]:-none}"
echo "stages skipped: ${skipped[*]:-none}"
echo "stages with tests or parts skipped: ${partial[*]:-none}"
echo "stages failed: ${failed[*]:-none}"
echo "${#passed[@]} passed, ${#failed[@]} failed, ${#skipped[@]} skipped"
[ ${#failed[@]} -eq 0 ]
