# SPDX-License-Identifier: MIT
"""scripts/compare_builds.py: bad arguments refused naming what is wrong (exit 2), and a
build compared with itself, which must come out level."""
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "compare_builds.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, timeout=600)


def test_missing_executable_named(tmp_path):
    p = run(tmp_path / "nothing", tmp_path / "neither")
    assert p.returncode == 2 and f"{tmp_path / 'nothing'}: no such executable" in p.stderr


def test_unknown_commit_named(crcforge_bin):
    p = run(crcforge_bin, "--against", "no-such-commit")
    assert p.returncode == 2 and "--against 'no-such-commit' names no commit" in p.stderr


@pytest.mark.parametrize("args", [[], ["--against", "HEAD", "x"], ["--processes", "0"]])
def test_bad_arguments_refused(crcforge_bin, args):
    p = run(crcforge_bin, *args)
    assert p.returncode == 2 and "usage:" in p.stderr, p.stderr


def test_a_build_against_itself_is_level(crcforge_bin):
    p = run(crcforge_bin, crcforge_bin, "--algos", "crc32c", "--sizes", "64K",
            "--offsets", "0", "--processes", "2", "--repeat", "5")
    if p.returncode == 2 and "no ISA-L function was timed" in p.stderr:
        pytest.skip("ISA-L not built into crcforge bench (bash .ci/install-isal.sh)")
    assert p.returncode == 0, p.stderr
    (row,) = [line for line in p.stdout.splitlines() if line.startswith("CRC-32/ISCSI")]
    new, old, ratio = map(float, re.findall(r"\d+\.\d+", row)[:3])
    assert 0.5 < ratio < 2 and abs(ratio - new / old) < 0.5, row
