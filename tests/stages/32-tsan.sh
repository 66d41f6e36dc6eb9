#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ThreadSanitizer.  The library built with -fsanitize=thread (CRCFORGE_SANITIZE=thread),
# then:
#  - tests/library/test_first_use: many threads make the first call of every fixed entry
#    point and its _combine, of models found by name and built from parameters, of
#    crcforge_combine and the key slots, at once, while others force and un-force paths;
#    streaming states per thread; each scenario in a fresh process; every value against
#    the bitwise reference.  test_threads and test_fixed_entries too.
#  - the Python extension built from the same sources with -fsanitize=thread, and its
#    thread tests (tests/package/test_threads.py) run by the uninstrumented CPython with
#    the TSan runtime preloaded: the GIL is a pthread mutex and condition variable, which
#    TSan intercepts, so hand-offs between Python threads are seen and the extension's
#    own accesses are checked.
# One report fails the stage (halt_on_error=1, exit code 66).  First, a planted race must
# be reported, in a C program and in a C module called from Python threads: proof that
# the sanitizer is live in both settings.
# needs: venv
# weight: 65
# time limit: 20m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd cc build-essential
need_c_compile gcc "the ThreadSanitizer runtime (libtsan)" cc -fsanitize=thread
require_met
# The Python part's own needs: without them it alone is skipped.
need_cmd python3 python3
need_python_module pytest pytest
need_python_module hypothesis hypothesis
need_python_module google_crc32c google-crc32c
need_python_module setuptools setuptools
if command -v python3 >/dev/null; then
  need_path "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" \
    python3-dev "Python's C headers (Python.h)"
fi
python_part=
if part_met "the Python extension under ThreadSanitizer"; then python_part=1; fi

root=$PWD
build=build-tsan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
libtsan=$(cc -print-file-name=libtsan.so)

# The canaries: each must be reported (exit 66).
# racy_bump writes the counter, then waits, with no synchronisation TSan would see, until
# two callers have written it: the two writes are unordered however the threads are
# scheduled.  (Without the wait, Python threads each calling it in a loop could run one
# after another, ordered by the GIL, on a busy or one-CPU machine, and nothing is reported.)
cat >"$tmp/race.c" <<'C'
#include <pthread.h>
#include <sched.h>
int racy_counter;
static int callers;
void racy_bump(void)
{
    racy_counter++;
    __atomic_fetch_add(&callers, 1, __ATOMIC_RELAXED);
    while (__atomic_load_n(&callers, __ATOMIC_RELAXED) < 2)
        sched_yield();
}
static void *bump(void *arg) { racy_bump(); return arg; }
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, bump, 0);
    racy_bump();
    pthread_join(t, 0);
    return 0;
}
C
cc -g -fsanitize=thread "$tmp/race.c" -o "$tmp/race" -lpthread
cc -g -fPIC -shared -fsanitize=thread "$tmp/race.c" -o "$tmp/race.so"
canary() { # canary WHAT COMMAND...
  local rc=0
  timeout 120 "${@:2}" >"$tmp/canary.log" 2>&1 || rc=$?
  if [ "$rc" -ne 66 ] || ! grep -q "ThreadSanitizer: data race" "$tmp/canary.log"; then
    cat "$tmp/canary.log"
    echo "32-tsan: the planted race in $1 was not reported (exit $rc): the sanitizer is not live"
    exit 1
  fi
}
canary "a C program" "$tmp/race"
# The interpreter itself, not a wrapper script (a pyenv shim is bash, which crashes with
# the TSan runtime preloaded).
[ -z "$python_part" ] || py=$(python3 -c 'import sys; print(sys.executable)')
[ -z "$python_part" ] ||
  canary "a module called from Python threads" env LD_PRELOAD="$libtsan" "$py" -c "
import ctypes, threading
bump = ctypes.CDLL('$tmp/race.so').racy_bump  # ctypes releases the GIL around the call
threads = [threading.Thread(target=bump) for _ in range(2)]
for t in threads: t.start()
for t in threads: t.join()"
echo "32-tsan: planted races reported${python_part:+ in C and through Python threads}"

# The C tests.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCRCFORGE_SANITIZE=thread \
  -DCRCFORGE_WERROR=ON -DCRCFORGE_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target test_first_use test_threads test_fixed_entries \
  >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
ctest --test-dir "$build" --output-on-failure -R '^(test_first_use|test_threads|test_fixed_entries.*)$'

if [ -n "$python_part" ]; then
  # The extension, built from the same list of sources with -fsanitize=thread, with the
  # package's Python files beside it (its egg-info too: the source tree is 25-python's).
  CFLAGS="-fsanitize=thread -g -O1" LDFLAGS="-fsanitize=thread" \
    python3 setup.py -q egg_info --egg-base "$tmp" build --build-base "$tmp/build" --build-lib "$tmp/lib" \
    >"$tmp/ext.log" 2>&1 || { cat "$tmp/ext.log"; exit 1; }
  # (grep reads all of nm's output: with grep -q, nm could die of SIGPIPE, and pipefail
  # would take that for "not instrumented".)
  nm -D "$tmp"/lib/crcforge/_crcforge*.so | grep __tsan_func_entry >/dev/null ||
    { echo "32-tsan: the extension is not instrumented"; exit 1; }
  cd "$tmp" # import the instrumented package, not the source tree
  LD_PRELOAD=$libtsan PYTHONPATH=$tmp/lib \
    "$py" -m pytest -q -p no:cacheprovider "$root/tests/package/test_threads.py"
fi
echo "32-tsan: no ThreadSanitizer report from the C tests or the Python thread tests"
