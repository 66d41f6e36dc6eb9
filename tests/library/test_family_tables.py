# SPDX-License-Identifier: MIT
"""scripts/family_tables.py: the families it reads from the tree, its table of medians, a
run under another family's table refused, bad options and a missing program named, and a
whole --quick run on this CPU."""
import importlib.util
import json
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "family_tables.py"
_spec = importlib.util.spec_from_file_location("family_tables", SCRIPT)
family_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(family_tables)


def test_the_families_are_read_from_the_tree(monkeypatch):
    monkeypatch.setattr(family_tables.platform, "machine", lambda: "x86_64")
    names = family_tables.families()
    assert names[:2] == ["zen5", "zen4"] and names[-1] == "generic-pclmul", names
    assert "intel-avx512-256" in names and "avx2-vpclmul" in names
    monkeypatch.setattr(family_tables.platform, "machine", lambda: "aarch64")
    names = family_tables.families()
    assert names[0] == "neoverse-v2" and names[-1] == "generic", names
    monkeypatch.setattr(family_tables.platform, "machine", lambda: "s390x")
    assert family_tables.families() == []


def test_the_table_gives_each_cell_s_median_over_the_runs_and_marks_the_own_family():
    runs = {
        "zen5": [{("CRC-32/ISCSI", 2048, 0): 1.02, ("CRC-32/ISCSI", 2048, 1): 0.90},
                 {("CRC-32/ISCSI", 2048, 0): 1.10, ("CRC-32/ISCSI", 2048, 1): 0.95},
                 {("CRC-32/ISCSI", 2048, 0): 0.50, ("CRC-32/ISCSI", 2048, 1): 0.97}],
        "zen4": [{("CRC-32/ISCSI", 2048, 0): 0.97}],
    }
    lines = family_tables.table(runs, "zen5").splitlines()
    assert lines[0].split() == ["cell", "zen5*", "zen4"]
    assert lines[1].split() == ["CRC-32/ISCSI", "2048", "B", "1.02", "0.97"]
    assert lines[2].split() == ["CRC-32/ISCSI", "2048", "B", "+1", "0.95", "-"]


def test_a_run_under_another_family_s_table_is_refused():
    doc = {"tuning": {"family": "zen4", "table": "zen4"}, "results": []}
    with pytest.raises(SystemExit, match="asked for family zen5, the run used zen4"):
        family_tables.ratios(doc, "zen5")


def test_bad_runs_are_refused(crcforge_bin):
    p = subprocess.run([sys.executable, str(SCRIPT), "--crcforge", crcforge_bin, "--runs", "0"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "'0' is not a whole number of at least 1" in p.stderr


def test_a_missing_program_is_named(tmp_path):
    p = subprocess.run([sys.executable, str(SCRIPT), "--crcforge", str(tmp_path / "absent")],
                       capture_output=True, text=True)
    assert p.returncode != 0 and f"--crcforge {tmp_path / 'absent'}: no such program" in p.stderr


def test_a_quick_run_on_this_cpu(crcforge_bin, tmp_path):
    probe = tmp_path / "probe.json"
    subprocess.run([crcforge_bin, "bench", "-a", "crc32c", "--sizes", "64", "--offsets", "0",
                    "--repeat", "1", "--min-time", "0", f"--json={probe}"],
                   check=True, capture_output=True)
    doc = json.loads(probe.read_text())
    if not any(p["built"] for p in doc["peers"] if p["library"] == "isa-l"):
        pytest.skip("ISA-L 2.32 not built into crcforge bench (bash .ci/install-isal.sh)")
    own = doc["tuning"]["family"]
    p = subprocess.run([sys.executable, str(SCRIPT), "--crcforge", crcforge_bin, "--quick",
                        "--runs", "1", "--algorithms", "crc32c", "--sizes", "2K,4K"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    head, columns, *rows = p.stdout.splitlines()
    assert f"this CPU's own, {own}" in head
    assert f"{own}*" in columns.split()
    assert [r.split()[:3] for r in rows] == [["CRC-32/ISCSI", "2048", "B"]] * 2 + [
        ["CRC-32/ISCSI", "4096", "B"]] * 2
    for row in rows:  # a ratio under every family run
        assert all(re.fullmatch(r"\d+\.\d\d", v) for v in row.split()[-(len(columns.split()) - 1):])
    # Each family left out is named, with crcforge's reason, on stderr.
    for name in re.search(r"left out \(.*?\): (.*)$", head).group(1).split(", "):
        if name != "none":
            assert f"left out {name}: " in p.stderr
