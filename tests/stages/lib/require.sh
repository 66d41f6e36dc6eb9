# SPDX-License-Identifier: MIT
# Sourced by the stages: what a stage needs before it can run.  Each need_* call records
# what is missing with the package that provides it; require_met then skips the stage
# (exit 77) naming them all, so one run tells everything to install.  scripts/test.sh
# --install-deps installs the Debian ones (.ci/apt-packages.txt) and, always, the Python
# ones into its test environment (.ci/requirements.txt into .venv-test/).
# A stage needs at this level only what all of it needs; what one part of it needs is
# asked for by that part (have_cmd below; in the pytest tests, tests/needs.py), which is
# then skipped alone, and reported.
missing_=() missing_debian_= missing_python_=

# need_cmd COMMAND DEBIAN_PACKAGE
need_cmd() {
  command -v "$1" >/dev/null 2>&1 || { missing_+=("$1 (Debian package $2)"); missing_debian_=1; }
}

# need_path PATH DEBIAN_PACKAGE WHAT
need_path() {
  [ -e "$1" ] || { missing_+=("$3 (Debian package $2)"); missing_debian_=1; }
}

# need_python_module MODULE PIP_PACKAGE: importable by the python3 on PATH (scripts/test.sh
# puts its environment's first).
need_python_module() {
  python3 -c "import $1" >/dev/null 2>&1 ||
    { missing_+=("Python module $1 (pip package $2, from .ci/requirements.txt)"); missing_python_=1; }
}

# need_executable PATH WHAT: PATH (maybe empty: not found) is an executable, else WHAT is
# missing (for what no Debian package provides, WHAT says how to get it).
need_executable() {
  [ -n "$1" ] && [ -x "$1" ] || missing_+=("$2")
}

# need_file PATH WHAT: PATH exists, else WHAT (which says how to get it) is missing.
need_file() {
  [ -e "$1" ] || missing_+=("$2: no $1")
}

# need_c_compile DEBIAN_PACKAGE WHAT CC [FLAGS...]: CC builds and links a trivial program
# with FLAGS (a sanitizer or libFuzzer runtime is a package of its own).
need_c_compile() {
  local package=$1 what=$2 dir
  shift 2
  command -v "$1" >/dev/null 2>&1 || return 0 # need_cmd names the compiler itself
  dir=$(mktemp -d)
  printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
    '__attribute__((weak)) int main(void) { return 0; }' >"$dir/t.c"
  "$@" "$dir/t.c" -o "$dir/t" >/dev/null 2>&1 ||
    { missing_+=("$what (Debian package $package)"); missing_debian_=1; }
  rm -rf "$dir"
}

# require_met: exit 77 naming everything missing.
require_met() {
  if [ ${#missing_[@]} -gt 0 ]; then
    local item
    echo "$(basename "$0" .sh) skipped: missing"
    for item in "${missing_[@]}"; do echo "  $item"; done
    [ -z "$missing_debian_" ] ||
      echo "(bash scripts/test.sh --install-deps installs the Debian packages)"
    [ -z "$missing_python_" ] ||
      echo "(scripts/test.sh installs .ci/requirements.txt into .venv-test/ when pip reaches a package index)"
    exit 77
  fi
}

# part_met WHAT: after the need_* calls of one part of a stage (made after require_met):
# 0 when nothing is missing; else WHAT is reported skipped, naming what is missing, here
# and in CRCFORGE_SKIP_LOG (scripts/test.sh lists those skips, and fails them when
# CI=true), and the next part starts afresh.
part_met() {
  [ ${#missing_[@]} -gt 0 ] || return 0
  local why
  why=$(printf '%s; ' "${missing_[@]}")
  why="missing ${why%; }"
  echo "$(basename "$0" .sh): skipped: $1: $why"
  [ -z "${CRCFORGE_SKIP_LOG:-}" ] || echo "$(basename "$0" .sh): $1: $why" >>"$CRCFORGE_SKIP_LOG"
  missing_=() missing_debian_= missing_python_=
  return 1
}

# have_cmd COMMAND DEBIAN_PACKAGE WHAT: part_met of a part that needs COMMAND alone.
have_cmd() {
  need_cmd "$1" "$2"
  part_met "$3"
}
