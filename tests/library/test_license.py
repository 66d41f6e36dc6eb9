# SPDX-License-Identifier: MIT
"""Every source file the repository tracks names its license (MIT, LICENSE) in an SPDX line
among its first three lines, so that a file taken alone still says under what terms."""
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
TAG = "SPDX-License-Identifier: MIT"
SOURCE_SUFFIXES = {".c", ".h", ".py", ".pyi", ".sh", ".cmake", ".rs", ".toml", ".ini"}
SOURCE_NAMES = {"CMakeLists.txt", "sources.txt", "run"}


def tracked_sources():
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    for name in names:
        path = pathlib.Path(name)
        if name.startswith("tests/fuzz/corpus/"):
            continue
        if path.suffix in SOURCE_SUFFIXES or path.name in SOURCE_NAMES or \
                name.endswith((".pc.in", "Config.cmake.in")):
            yield name


def test_every_source_file_has_an_spdx_line():
    if not (ROOT / ".git").exists():
        import pytest
        pytest.skip("not a git checkout: no list of tracked files")
    files = list(tracked_sources())
    assert len(files) > 100, files  # the list is the tree's, not an empty one
    missing = [f for f in files
               if TAG not in "\n".join((ROOT / f).read_text(encoding="utf-8").split("\n")[:3])]
    assert not missing, f"no '{TAG}' in the first three lines of: {missing}"


def test_license_is_mit():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") or "Permission is hereby granted, free of charge" in text
