# SPDX-License-Identifier: MIT
"""scripts/placement_spread.sh: bad options, sizes out of range, an unknown commit and a missing
placement_bench are refused with a message and exit 2 before anything is built."""
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "placement_spread.sh"


def run(*args):
    return subprocess.run(["bash", str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("args", [["--processes", "0"], ["--processes", "many"], ["--processes"],
                                  ["--build"], ["--fast"], ["--sizes"], ["--sizes", "64,x"],
                                  ["--sizes", "-8"], ["--against"]])
def test_bad_options_are_refused(args):
    p = run(*args)
    assert p.returncode == 2 and "usage: scripts/placement_spread.sh" in p.stderr, p.stderr


def test_a_build_without_placement_bench_is_named(tmp_path):
    p = run("--build", tmp_path)
    assert p.returncode == 2
    assert f"no {tmp_path}/placement_bench" in p.stderr, p.stderr


def test_an_unknown_commit_is_named(tmp_path):
    # Refused before the build is looked at: tmp_path holds no placement_bench.
    p = run("--against", "no-such-commit", "--build", tmp_path)
    assert p.returncode == 2
    assert "--against 'no-such-commit' names no commit" in p.stderr, p.stderr


@pytest.mark.parametrize("sizes", ["0", "4097", "64,0"])
def test_sizes_out_of_range_are_named(sizes, tmp_path):
    p = run("--sizes", sizes, "--build", tmp_path)
    assert p.returncode == 2
    assert f"--sizes '{sizes}': each size is 1 to 4096 bytes" in p.stderr, p.stderr
