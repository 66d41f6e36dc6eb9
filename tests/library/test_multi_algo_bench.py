# SPDX-License-Identifier: MIT
"""scripts/multi_algo_bench.py: its options refused with a message and exit 2 before any
file is made, and a run of one and of several rounds over a file it makes."""
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "multi_algo_bench.py"


def bench(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("option, value, message", [
    ("--rounds", "0", "argument --rounds: '0' is not a whole number of at least 1"),
    ("--rounds", "many", "argument --rounds: 'many' is not a whole number of at least 1"),
    ("--warmup", "-1", "argument --warmup: '-1' is not a whole number of at least 0"),
    ("--size", "12X", "argument --size: '12X' is not a size"),
    ("--size", "1KK", "argument --size: '1KK' is not a size"),
])
def test_bad_options_are_refused_before_anything_is_made(tmp_path, crcforge_bin, option,
                                                         value, message):
    target = tmp_path / "data"
    p = bench("--crcforge", crcforge_bin, "--file", target, "--size", "1K", option, value)
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert not target.exists()


def test_a_missing_file_without_size_is_named(tmp_path, crcforge_bin):
    p = bench("--crcforge", crcforge_bin, "--file", tmp_path / "absent")
    assert p.returncode != 0 and f"{tmp_path / 'absent'} does not exist" in p.stderr


@pytest.mark.parametrize("rounds", [1, 3])
def test_rounds_over_a_file_it_makes(tmp_path, crcforge_bin, rounds):
    target = tmp_path / "data"
    p = bench("--crcforge", crcforge_bin, "--file", target, "--size", "64K", "--rounds", rounds,
              "--warmup", 0, "-a", "crc32c", "-a", "crc32")
    assert p.returncode == 0, p.stderr
    assert target.stat().st_size == 64 << 10
    lines = p.stdout.splitlines()
    assert lines[0].startswith(f"file {target}: 65536 bytes; {rounds} paired rounds;")
    assert [line.split("  ")[-1] for line in lines[1:4]] == [
        f"{crcforge_bin} sum -j 1 -a crc32c {target}", f"{crcforge_bin} sum -j 1 -a crc32 {target}",
        f"{crcforge_bin} sum -j 1 -a crc32c -a crc32 {target}"]
    m = re.fullmatch(r"combined / slowest single, per round: median ([\d.]+) \(quartiles "
                     r"([\d.]+)-([\d.]+), min ([\d.]+), max ([\d.]+)\)", lines[4])
    assert m, lines[4]
    low, q1, med, q3, high = (float(m[i]) for i in (4, 2, 1, 3, 5))
    assert 0 < low <= q1 <= med <= q3 <= high
