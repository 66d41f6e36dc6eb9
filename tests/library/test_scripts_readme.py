# SPDX-License-Identifier: MIT
"""scripts/README.md against scripts/: every file there (and in scripts/tune/) has its row,
once, and every row names a file that exists."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"


def rows():
    """The scripts the README's tables name: the first cell of each row, in backquotes."""
    text = (SCRIPTS / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `([^`]+)` \|", text, re.M)


def scripts():
    return sorted(str(p.relative_to(SCRIPTS)) for p in SCRIPTS.rglob("*")
                  if p.is_file() and p.name != "README.md" and "__pycache__" not in p.parts)


def test_every_script_listed_once():
    listed = rows()
    assert "test.sh" in listed and "tune/sweep.sh" in listed  # the parse found the rows
    twice = sorted({name for name in listed if listed.count(name) > 1})
    assert not twice, f"listed more than once in scripts/README.md: {twice}"
    unlisted = [name for name in scripts() if name not in listed]
    assert not unlisted, f"scripts/README.md has no row for {unlisted}"


def test_every_row_names_a_script():
    missing = [name for name in rows() if not (SCRIPTS / name).is_file()]
    assert not missing, f"scripts/README.md lists what scripts/ does not hold: {missing}"

