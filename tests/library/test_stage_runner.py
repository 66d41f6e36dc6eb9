# SPDX-License-Identifier: MIT
"""scripts/test.sh, the stage runner, on a tree of its own: a copy of the script beside small
stages written here.  Bad arguments and headers are refused with exit 2 naming them; a
second run in the same checkout refuses while the first holds it; stages run side by side
as their needs, locks and CPUs allow; a failing stage fails the run and its log is shown
whole; a stage that hangs is ended at its time limit, by name; the logs come in name
order whatever the order the stages end in; the table gives every stage's time."""
import os
import pathlib
import re
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# A job that records when it ran: start and end lines (nanoseconds) in runs/NAME (the
# runner runs every job from the checkout's root).
RECORD = """echo "start $(date +%s%N)" >>runs/{name}
{body}
rc=$?
echo "end $(date +%s%N)" >>runs/{name}
exit $rc
"""


def tree(tmp_path, stages, steps=None):
    """A checkout with scripts/test.sh and the given stages and steps ({name: (header
    lines, body)}); returns its root."""
    root = tmp_path / "tree"
    (root / "scripts").mkdir(parents=True)
    (root / "scripts" / "test.sh").write_text((ROOT / "scripts" / "test.sh").read_text())
    (root / "tests" / "stages" / "steps").mkdir(parents=True)
    (root / ".ci").mkdir()
    (root / "runs").mkdir()
    for folder, jobs in ((root / "tests" / "stages", stages),
                         (root / "tests" / "stages" / "steps", steps or {})):
        for name, (header, body) in jobs.items():
            (folder / f"{name}.sh").write_text(
                "#!/usr/bin/env bash\n" + "".join(f"# {line}\n" for line in header) +
                RECORD.format(name=name, body=body))
    return root


def run(root, *args, ci=False, timeout=60):
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "CRCFORGE_SKIP_LOG")}
    if ci:
        env["CI"] = "true"
    return subprocess.run(["bash", str(root / "scripts" / "test.sh"), *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def spans(root, name):
    """(start, end) of each time the stage ran, in seconds."""
    lines = (root / "runs" / name).read_text().split()
    times = [int(v) / 1e9 for v in lines[1::2]]
    return list(zip(times[0::2], times[1::2]))


def overlap(root, a, b):
    (a0, a1), = spans(root, a)
    (b0, b1), = spans(root, b)
    return a0 < b1 and b0 < a1


@pytest.mark.parametrize("args, message", [
    (["no-such-stage"], "no stage 'no-such-stage' (stages: 10-a "),
    (["--jobs", "0"], "--jobs '0': a number of jobs, 1 or more"),
    (["--jobs", "two"], "--jobs 'two': a number of jobs, 1 or more"),
    (["--jobs"], "--jobs needs a number"),
    (["--fast"], "unknown option '--fast'"),
])
def test_bad_arguments_are_refused(tmp_path, args, message):
    root = tree(tmp_path, {"10-a": (["needs:"], "true")})
    p = run(root, *args)
    assert p.returncode == 2, p.stderr
    assert message in p.stderr, p.stderr
    assert not (root / "runs" / "10-a").exists()


@pytest.mark.parametrize("line, message", [
    ("needs: no-such-step", "tests/stages/10-a.sh needs 'no-such-step': no step "
                            "tests/stages/steps/no-such-step.sh, no installer .ci/no-such-step.sh"),
    ("time limit: soon", "tests/stages/10-a.sh: '# time limit: soon' is no duration"),
    ("weight: heavy", "tests/stages/10-a.sh: '# weight: heavy' is no number of CPU seconds"),
])
def test_bad_headers_are_named(tmp_path, line, message):
    root = tree(tmp_path, {"10-a": ([line], "true"), "20-b": (["needs:"], "true")})
    p = run(root)
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert not (root / "runs" / "20-b").exists()  # nothing ran


def test_a_second_run_in_the_checkout_refuses(tmp_path):
    root = tree(tmp_path, {"10-a": (["needs:"], "while [ ! -e release ]; do sleep 0.05; done")})
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    first = subprocess.Popen(["bash", str(root / "scripts" / "test.sh")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 30
        while not (root / "runs" / "10-a").exists():
            assert time.monotonic() < deadline and first.poll() is None, "the first run never started"
            time.sleep(0.05)
        second = run(root)
        assert second.returncode == 75, second.stderr
        assert f"another run is using this checkout (pid {first.pid}, started " in second.stderr
        assert "wait for it, or run from another clone" in second.stderr
        # The second ran nothing: 10-a started once and has not ended.
        assert (root / "runs" / "10-a").read_text().split()[0::2] == ["start"]
    finally:
        (root / "release").touch()
        out, err = first.communicate(timeout=30)
    assert first.returncode == 0, out + err
    # The lock went with the first run: the next one runs.
    again = run(root, "10-a")
    assert again.returncode == 0, again.stdout + again.stderr


def test_stages_run_side_by_side_and_logs_come_in_name_order(tmp_path):
    # 10-a ends last, 20-b first: their logs come in name order all the same.
    root = tree(tmp_path, {"10-a": (["needs:"], "sleep 1.5; echo a-output"),
                           "20-b": (["needs:"], "echo b-output")})
    p = run(root, "--jobs", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    assert overlap(root, "10-a", "20-b")
    out = p.stdout
    assert out.index("=== stage 10-a: passed") < out.index("a-output") < \
        out.index("=== stage 20-b: passed") < out.index("b-output")
    # 10-a sleeps 1.5 s: 1 or 2 whole seconds of wall, more on a loaded machine.
    assert re.search(r"^  10-a +passed +\d+ +[1-9] +\d+$", out, re.M), out
    assert re.search(r"^  total +\d+ +\d+ +\(0 min 0\d s on 2 job slots\)$", out, re.M), out


def test_one_job_slot_runs_one_stage_at_a_time_the_heaviest_first(tmp_path):
    root = tree(tmp_path, {"10-a": (["needs:", "weight: 5"], "echo a-output"),
                           "20-b": (["needs:", "weight: 60"], "sleep 0.5; echo b-output"),
                           "30-c": (["needs:"], "echo c-output")})  # 300 when not given
    p = run(root, "--jobs", "1")
    assert p.returncode == 0, p.stdout
    assert not overlap(root, "10-a", "20-b")
    starts = {name: spans(root, name)[0][0] for name in ("10-a", "20-b", "30-c")}
    assert starts["30-c"] < starts["20-b"] < starts["10-a"]
    assert p.stdout.index("a-output") < p.stdout.index("b-output") < p.stdout.index("c-output")


def test_a_failing_stage_fails_the_run_and_its_log_is_shown_whole(tmp_path):
    lines = "".join(f"echo line-{i}\n" for i in range(300))
    root = tree(tmp_path, {"10-a": (["needs:"], lines + "exit 3"), "20-b": (["needs:"], "echo fine")})
    p = run(root, "--jobs", "2")
    assert p.returncode == 1
    assert "=== stage 10-a: FAILED (exit 3)" in p.stdout
    assert all(f"line-{i}\n" in p.stdout for i in range(300))
    assert "stages failed: 10-a\n" in p.stdout and "stages passed: 20-b\n" in p.stdout
    assert spans(root, "20-b")  # one failure does not stop the others


def test_a_hanging_stage_is_ended_at_its_time_limit_by_name(tmp_path):
    root = tree(tmp_path, {"10-a": (["needs:", "time limit: 1s"], "sleep 120"),
                           "20-b": (["needs:"], "true")})
    started = time.monotonic()
    p = run(root, "--jobs", "2")
    assert time.monotonic() - started < 30
    assert p.returncode == 1
    assert "stage 10-a: ended at its time limit of 1s" in p.stdout, p.stdout
    assert "=== stage 10-a: FAILED: time limit" in p.stdout
    assert "stages failed: 10-a\n" in p.stdout


def test_a_stage_waits_for_its_needs_and_not_for_others(tmp_path):
    steps = {"prep": (["needs:"], "sleep 1; echo ready >prep.out"),
             "other": (["needs:"], "sleep 1")}
    root = tree(tmp_path, {"10-a": (["needs: prep"], "cat prep.out"),
                           "20-b": (["needs:"], "true")}, steps)
    p = run(root, "--jobs", "3")
    assert p.returncode == 0, p.stdout
    (prep_start, prep_end), = spans(root, "prep")
    (a_start, _), = spans(root, "10-a")
    assert a_start >= prep_end
    assert not (root / "runs" / "other").exists()  # no chosen stage needs it
    assert spans(root, "20-b")[0][0] < prep_end


def test_a_stage_without_a_needs_line_waits_for_every_step(tmp_path):
    # A step without the line needs nothing.
    steps = {"prep": (["needs:"], "sleep 1"), "more": ([], "sleep 0.5")}
    root = tree(tmp_path, {"10-a": ([], "true")}, steps)
    p = run(root, "--jobs", "3")
    assert p.returncode == 0, p.stdout
    (a_start, _), = spans(root, "10-a")
    assert a_start >= max(spans(root, "prep")[0][1], spans(root, "more")[0][1])


def test_a_stage_whose_step_failed_is_not_run(tmp_path):
    steps = {"prep": (["needs:"], "exit 1")}
    root = tree(tmp_path, {"10-a": (["needs: prep"], "true"), "20-b": (["needs:"], "true")}, steps)
    p = run(root)
    assert p.returncode == 1
    assert not (root / "runs" / "10-a").exists()
    assert "not run: it needs prep, which failed" in p.stdout
    assert "stages failed: prep 10-a (not run)\n" in p.stdout, p.stdout


def test_stages_sharing_a_lock_never_overlap(tmp_path):
    root = tree(tmp_path, {"10-a": (["needs:", "locks: tree"], "sleep 0.7"),
                           "20-b": (["needs:", "locks: other tree"], "sleep 0.7"),
                           "30-c": (["needs:"], "sleep 0.7")})
    p = run(root, "--jobs", "2")
    assert p.returncode == 0, p.stdout
    assert not overlap(root, "10-a", "20-b")
    assert overlap(root, "10-a", "30-c")  # the slot 20-b could not take


def test_a_skip_passes_outside_ci_and_fails_in_ci(tmp_path):
    root = tree(tmp_path, {"10-a": (["needs:"], "echo 'missing: a tool'; exit 77")})
    p = run(root)
    assert p.returncode == 0 and "stages skipped: 10-a\n" in p.stdout, p.stdout
    p = run(root, ci=True)
    assert p.returncode == 1 and "stages failed: 10-a (skipped in CI)\n" in p.stdout, p.stdout
