# SPDX-License-Identifier: MIT
"""Fixtures of the CLI tests beside those of tests/conftest.py."""
import os
import shutil
import subprocess

import pytest


@pytest.fixture(scope="session")
def shim(tmp_path_factory, repo_root):
    """tests/faults/fault_shim.c built as a library to preload (LD_PRELOAD)."""
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} not installed (Debian package build-essential), to build the "
                    "fault shim")
    out = tmp_path_factory.mktemp("shim") / "fault_shim.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-Wall", "-Wextra",
                    "-Werror", "-o", str(out), str(repo_root / "tests/faults/fault_shim.c"),
                    "-ldl", "-pthread"], check=True)
    return out
