#!/usr/bin/env bash
# Builds crcforge and runs every test: each stage in tests/stages/, in name order.
# A stage whose tools are missing says so and is counted as skipped, never as passed.
# Usage: scripts/test.sh [STAGE...]   (e.g. scripts/test.sh 10-c 20-python)
set -uo pipefail
cd "$(dirname "$0")/.."
export CRCFORGE_ROOT=$PWD

for want in "$@"; do # a misspelt stage would otherwise run nothing and pass
  if [ ! -f "tests/stages/$want.sh" ]; then
    echo "scripts/test.sh: no stage '$want' (stages: $(cd tests/stages && ls *.sh | sed 's/\.sh$//' | tr '\n' ' '))" >&2
    exit 2
  fi
done
passed=() failed=() skipped=()
for stage in tests/stages/*.sh; do
  name=$(basename "$stage" .sh)
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
    continue
  fi
  echo "=== stage $name"
  start=$SECONDS
  bash "$stage"
  rc=$?
  echo "=== stage $name: exit $rc in $((SECONDS - start)) s"
  case $rc in
    0) passed+=("$name") ;;
    77) # The stage could not run here; it said why.  CI installs every tool first, so
        # there a skip means a missing install step, and fails.
        if [ "${CI:-}" = true ]; then failed+=("$name (skipped in CI)"); else skipped+=("$name"); fi ;;
    *) failed+=("$name") ;;
  esac
done
echo
echo "stages passed: ${passed[*]:-none}"
echo "stages skipped: ${skipped[*]:-none}"
echo "stages failed: ${failed[*]:-none}"
echo "${#passed[@]} passed, ${#failed[@]} failed, ${#skipped[@]} skipped"
[ ${#failed[@]} -eq 0 ]
