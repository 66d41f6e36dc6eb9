#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds crcforge and runs every test: each stage in tests/stages/, side by side on the
# machine's cores.  A stage starts when what it needs is ready, each into a log of its own
# (test-logs/STAGE.log), and the logs are shown whole, in name order, as they complete; at
# the end a table gives each stage's wall and CPU time and the run's total.
#
# What a stage needs is in a comment line at its head, `# needs: WORD...`, each word one
# of
#   a step of tests/stages/steps/: `build` (the Release build the stages share; its
#            configuration is built once per run), `venv` (.venv-test/, the Python packages
#            of .ci/requirements.txt, whose bin/ then comes first on PATH);
#   an installer .ci/install-NAME.sh as `install-NAME` (waited for under --install-deps).
# A stage with no such line waits for every step and installer.  `# locks: NAME...` names
# what a stage may not share with another stage that locks it at the same time (e.g. the
# package files a Python build writes into the source tree); `# time limit: 20m`
# (timeout's DURATION; default 30m) ends a stage that hangs, naming it; `# weight: N`, the
# CPU seconds it took when last measured (the table's CPU column): of the stages ready at
# once, the heaviest starts first (default 300), so that no long one is left to the end.
# Steps and installers have the same lines but weight, and start before any stage.
#
# A stage whose tools are missing names the Debian packages that provide them and is
# counted as skipped (exit 77), never as passed; a test or a part of a stage that needs a
# tool the rest does not is skipped alone, and listed after its log (from CRCFORGE_SKIP_LOG,
# where the stages and tests/conftest.py record them).  With CI=true any skip is a failure.
# A stage that needs a step or installer that failed is not run, and fails.
#
# Usage: scripts/test.sh [--install-deps] [--jobs N] [STAGE...]   (e.g. scripts/test.sh 10-c 20-cli)
#   --install-deps  first install the Debian packages of .ci/apt-packages.txt
#                   (.ci/apt-install.sh, as root or through sudo), then every
#                   .ci/install-*.sh, each beside the stages that do not need it (what .ci/run does)
#   --jobs N        at most N stages and steps at once (default: one more than the CPUs,
#                   so that a stage waiting on a server, a download or an emulator's start
#                   leaves no CPU idle)
# Exit status: 0 when every stage passed (or was skipped, outside CI), 1 when one failed,
# 2 for a bad argument or a bad stage header, 75 when another run holds this checkout.
set -uo pipefail
cd "$(dirname "$0")/.."
export CRCFORGE_ROOT=$PWD

usage() { echo "usage: scripts/test.sh [--install-deps] [--jobs N] [STAGE...]" >&2; exit 2; }
install_deps=
max_jobs=$(($(nproc) + 1))
stages=()
while [ $# -gt 0 ]; do
  case $1 in
    --install-deps) install_deps=1 ;;
    --jobs) [ $# -ge 2 ] || { echo "scripts/test.sh: --jobs needs a number" >&2; usage; }
            max_jobs=$2; shift ;;
    --jobs=*) max_jobs=${1#*=} ;;
    -h | --help) usage ;;
    -*) echo "scripts/test.sh: unknown option '$1'" >&2; usage ;;
    *) stages+=("$1") ;;
  esac
  shift
done
[[ $max_jobs =~ ^[1-9][0-9]*$ ]] ||
  { echo "scripts/test.sh: --jobs '$max_jobs': a number of jobs, 1 or more" >&2; usage; }
for want in "${stages[@]}"; do # a misspelt stage would otherwise run nothing and pass
  if [ ! -f "tests/stages/$want.sh" ]; then
    echo "scripts/test.sh: no stage '$want' (stages: $(cd tests/stages && ls *.sh | sed 's/\.sh$//' | tr '\n' ' '))" >&2
    exit 2
  fi
done
[ ${#stages[@]} -gt 0 ] || stages=($(cd tests/stages && ls *.sh | sed 's/\.sh$//'))

# header FILE KEY: the value of the `# KEY: ...` line in the file's leading comments
# (the first such line; nothing when there is none).
header() {
  sed -n '/^[^#]/q; s/^# '"$2"': *//p' "$1" | head -n 1
}
has_header() { sed -n '/^[^#]/q; /^# '"$2"':/p' "$1" | grep -q .; }

# The jobs, in the order their logs are shown and, among those ready, started: the
# installers, the steps, the stages.
declare -A file kind needs locks weight limit state rc pid started ended cpu
order=()
add_job() { # NAME KIND FILE
  order+=("$1")
  kind[$1]=$2 file[$1]=$3 state[$1]=pending
  locks[$1]=$(header "$3" locks)
  weight[$1]=$(header "$3" weight)
  [[ ${weight[$1]:-0} =~ ^[0-9]+$ ]] ||
    { echo "scripts/test.sh: $3: '# weight: ${weight[$1]}' is no number of CPU seconds" >&2; exit 2; }
  weight[$1]=${weight[$1]:-300}
  limit[$1]=$(header "$3" "time limit")
  limit[$1]=${limit[$1]:-30m}
  [[ ${limit[$1]} =~ ^[0-9]+[smh]?$ ]] ||
    { echo "scripts/test.sh: $3: '# time limit: ${limit[$1]}' is no duration (e.g. 20m)" >&2; exit 2; }
}

sudo=()
if [ -n "$install_deps" ] && [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    echo "scripts/test.sh --install-deps: not root and no sudo: nothing installed;" \
      "stages whose tools are missing will name them" >&2
    install_deps=
  fi
fi
installers=()
for f in .ci/install-*.sh; do
  [ -e "$f" ] && installers+=("$(basename "$f" .sh)")
done
if [ -n "$install_deps" ]; then
  add_job apt-install install .ci/apt-install.sh
  for name in "${installers[@]}"; do add_job "$name" install ".ci/$name.sh"; done
fi
steps=($(cd tests/stages/steps && ls *.sh | sed 's/\.sh$//'))

# resolve FILE WORD...: the jobs the words name (installers only under --install-deps).
resolve() {
  local from=$1 word
  shift
  for word in "$@"; do
    if [[ " ${steps[*]} " == *" $word "* ]]; then
      echo "$word"
    elif [[ " ${installers[*]} " == *" $word "* ]]; then
      [ -z "$install_deps" ] || echo "$word"
    else
      echo "scripts/test.sh: $from needs '$word': no step tests/stages/steps/$word.sh," \
        "no installer .ci/$word.sh" >&2
      return 1
    fi
  done
}
# needs_of FILE: the jobs the file's `# needs:` line names (a stage without one: every
# step and installer); apt-install comes before every other job.
needs_of() {
  local words=
  if has_header "$1" needs; then
    words=$(header "$1" needs)
  elif [ "$(dirname "$1")" = tests/stages ]; then
    words="${steps[*]} ${installers[*]}"
  fi
  { [ -z "$install_deps" ] || [ "$1" = .ci/apt-install.sh ] || echo apt-install
    resolve "$1" $words; } | sort -u | tr '\n' ' '
}
# The steps the chosen stages need, and the steps those need.
wanted_steps=() closure=()
for name in "${stages[@]}"; do closure+=($(needs_of "tests/stages/$name.sh")) || exit 2; done
while [ ${#closure[@]} -gt 0 ]; do
  name=${closure[0]} closure=("${closure[@]:1}")
  [[ " ${steps[*]} " == *" $name "* && " ${wanted_steps[*]} " != *" $name "* ]] || continue
  wanted_steps+=("$name")
  closure+=($(needs_of "tests/stages/steps/$name.sh")) || exit 2
done
for name in "${steps[@]}"; do
  [[ " ${wanted_steps[*]} " != *" $name "* ]] || add_job "$name" step "tests/stages/steps/$name.sh"
done
for name in "${stages[@]}"; do add_job "$name" stage "tests/stages/$name.sh"; done
for name in "${order[@]}"; do needs[$name]=$(needs_of "${file[$name]}") || exit 2; done
# The order jobs start in when ready: installers and steps, then the stages, heaviest first.
start_order=()
for name in "${order[@]}"; do [ "${kind[$name]}" = stage ] || start_order+=("$name"); done
start_order+=($(for name in "${stages[@]}"; do echo "${weight[$name]} $name"; done |
                sort -k1,1nr -k2,2 | cut -d' ' -f2))

# One run at a time in a checkout: a second would build into the same trees.  The lock is
# the kernel's (flock), so it goes with the process that held it, however that ended.
logs=$PWD/test-logs
mkdir -p "$logs"
exec 9>>"$logs/.lock"
if ! flock -n 9; then
  echo "scripts/test.sh: another run is using this checkout ($(cat "$logs/.lock" 2>/dev/null));" \
    "its stages build into the same build trees: wait for it, or run from another clone" >&2
  exit 75
fi
echo "pid $$, started $(date '+%F %T')" >"$logs/.lock"
rm -f "$logs"/*.log "$logs"/*.skips "$logs"/*.times

venv=$PWD/.venv-test
run_started=$SECONDS

# launch NAME: the job in the background under its time limit (timeout leads a process
# group of its own, which it ends whole), its output into its log, its CPU time (that of
# every process it waited for) into NAME.times.
launch() {
  local name=$1 env=(CRCFORGE_SKIP_LOG="$logs/$1.skips" CRCFORGE_JOB_TIMES="$logs/$1.times")
  [ ! -x "$venv/bin/python3" ] || env+=(PATH="$venv/bin:$PATH" VIRTUAL_ENV="$venv")
  local run=(bash "${file[$name]}")
  [ "${kind[$name]}" != install ] || run=("${sudo[@]}" "${run[@]}")
  env "${env[@]}" timeout --kill-after=30 "${limit[$name]}" \
    bash -c '"$@"; rc=$?; times >"$CRCFORGE_JOB_TIMES"; exit $rc' "$name" "${run[@]}" \
    </dev/null >"$logs/$name.log" 2>&1 9>&- &
  pid[$name]=$! started[$name]=$SECONDS state[$name]=running
  echo "--- $(clock) ${kind[$name]} $name started"
}
clock() { local s=$((SECONDS - run_started)); printf '%2d:%02d' $((s / 60)) $((s % 60)); }

# cpu_seconds NAME: user + system seconds of the job's processes (bash's `times`, second
# line: its children).
cpu_seconds() {
  sed -n 2p "$logs/$1.times" 2>/dev/null | tr 'ms' '  ' |
    awk 'NF == 4 {printf "%d", $1 * 60 + $2 + $3 * 60 + $4 + 0.5}'
}

# ready NAME: 0 to start it now, 1 not yet, 2 never (a need of it failed: said in its log).
ready() {
  local need lock other
  for need in ${needs[$1]}; do
    case ${state[$need]:-done} in
      pending | running) return 1 ;;
    esac
    case ${rc[$need]:-0} in
      0 | 77) ;;
      *) echo "not run: it needs $need, which failed" >"$logs/$1.log"; return 2 ;;
    esac
  done
  for lock in ${locks[$1]}; do
    for other in "${order[@]}"; do
      [ "${state[$other]}" = running ] && [[ " ${locks[$other]} " == *" $lock "* ]] && return 1
    done
  done
  return 0
}

finish() { # NAME EXIT_STATUS
  local name=$1
  rc[$name]=$2 ended[$name]=$SECONDS state[$name]=done
  cpu[$name]=$(cpu_seconds "$name")
  local wall=$((ended[$name] - started[$name])) limit_s
  limit_s=$(timeout_seconds "${limit[$name]}")
  if [[ $2 == 124 || $2 == 137 ]] && [ "$wall" -ge "$limit_s" ]; then
    echo "${kind[$name]} $name: ended at its time limit of ${limit[$name]} (# time limit: in ${file[$name]})" \
      >>"$logs/$name.log"
    rc[$name]=124
  fi
  echo "--- $(clock) ${kind[$name]} $name $(result "$name") in $wall s"
}
timeout_seconds() {
  case $1 in
    *h) echo $((${1%h} * 3600)) ;; *m) echo $((${1%m} * 60)) ;; *) echo "${1%s}" ;;
  esac
}
result() {
  case ${rc[$1]} in
    0) echo passed ;;
    77) echo skipped ;;
    notrun) echo "not run" ;;
    124) echo "FAILED: time limit" ;;
    *) echo "FAILED (exit ${rc[$1]})" ;;
  esac
}

# Logs are shown in the jobs' order, each when it and all before it are done.
passed=() failed=() skipped=() partial=()
shown=0
show_logs() {
  while [ $shown -lt ${#order[@]} ] && [ "${state[${order[$shown]}]}" = done ]; do
    local name=${order[$shown]} status
    shown=$((shown + 1))
    echo "=== ${kind[$name]} $name: $(result "$name")${started[$name]:+ in $((ended[$name] - started[$name])) s}; its log ($logs/$name.log):"
    cat "$logs/$name.log"
    status=${rc[$name]}
    if [ -s "$logs/$name.skips" ]; then
      echo "=== ${kind[$name]} $name skipped $(wc -l <"$logs/$name.skips") test(s) or part(s):"
      sed 's/^/  /' "$logs/$name.skips"
      partial+=("$name ($(wc -l <"$logs/$name.skips") skipped)")
      # CI installs every tool first: a skip there means a missing install step.
      [ "${CI:-}" != true ] || [ "$status" != 0 ] || status=1
    fi
    if [ "${kind[$name]}" != stage ]; then # a step or installer: listed when it failed
      case $status in 0) ;; 77) [ "${CI:-}" != true ] || failed+=("$name (skipped in CI)") ;;
        *) failed+=("$name") ;; esac
      continue
    fi
    case $status in
      0) passed+=("$name") ;;
      77) # The job could not run here; it said why.  CI installs every tool first, so
          # there a skip means a missing install step, and fails.
          if [ "${CI:-}" = true ]; then failed+=("$name (skipped in CI)"); else skipped+=("$name"); fi ;;
      notrun) failed+=("$name (not run)") ;;
      *) failed+=("$name") ;;
    esac
  done
}

stop_all() {
  local name
  for name in "${order[@]}"; do
    [ "${state[$name]}" != running ] || kill -TERM "${pid[$name]}" 2>/dev/null
  done
  wait
  echo "scripts/test.sh: interrupted" >&2
  exit 130
}
trap stop_all INT TERM

while :; do
  running=0
  for name in "${order[@]}"; do [ "${state[$name]}" != running ] || running=$((running + 1)); done
  for name in "${start_order[@]}"; do
    [ "${state[$name]}" = pending ] && [ "$running" -lt "$max_jobs" ] || continue
    ready "$name"
    case $? in
      0) launch "$name"; running=$((running + 1)) ;;
      2) rc[$name]=notrun state[$name]=done
         echo "--- $(clock) ${kind[$name]} $name not run: a need of it failed" ;;
    esac
  done
  if [ "$running" -eq 0 ]; then # what is still pending waits on itself through its needs
    for name in "${order[@]}"; do
      [ "${state[$name]}" = pending ] || continue
      rc[$name]=notrun state[$name]=done
      echo "not run: its needs (${needs[$name]}) wait on each other" >"$logs/$name.log"
    done
    show_logs
    break
  fi
  show_logs
  wait -n
  for name in "${order[@]}"; do
    if [ "${state[$name]}" = running ] && ! kill -0 "${pid[$name]}" 2>/dev/null; then
      wait "${pid[$name]}"
      finish "$name" $?
    fi
  done
done

echo
echo "=== wall and CPU time (user + system, seconds) of each job"
printf '  %-20s %-22s %6s %6s %6s\n' job result start wall CPU
total_cpu=0
for name in "${order[@]}"; do
  if [ -n "${started[$name]:-}" ]; then
    printf '  %-20s %-22s %6d %6d %6s\n' "$name" "$(result "$name")" \
      $((started[$name] - run_started)) $((ended[$name] - started[$name])) "${cpu[$name]:--}"
    total_cpu=$((total_cpu + ${cpu[$name]:-0}))
  else
    printf '  %-20s %-22s\n' "$name" "$(result "$name")"
  fi
done
total=$((SECONDS - run_started))
printf '  %-20s %-22s %6s %6d %6d  (%d min %02d s on %d job slots)\n' total "" "" "$total" "$total_cpu" \
  $((total / 60)) $((total % 60)) "$max_jobs"
echo
echo "stages passed: ${passed[*]:-none}"
echo "stages skipped: ${skipped[*]:-none}"
echo "stages with tests or parts skipped: ${partial[*]:-none}"
echo "stages failed: ${failed[*]:-none}"
echo "${#passed[@]} passed, ${#failed[@]} failed, ${#skipped[@]} skipped"
[ ${#failed[@]} -eq 0 ]
