# SPDX-License-Identifier: MIT
"""The `crcforge` command pip installs beside the interpreter (pyproject.toml's
[project.scripts]): the full command-line tool, every command of python -m crcforge, under
the C tool's name.  Values from zlib; the commands' own behaviour is tests/cli's."""
import os
import pathlib
import subprocess
import sys
import sysconfig
import zlib

import pytest

# Where pip puts an environment's commands: beside its interpreter, in Scripts\ on Windows.
SCRIPT = pathlib.Path(sysconfig.get_path("scripts")) / ("crcforge.exe" if os.name == "nt"
                                                        else "crcforge")


def run(*args, stdin=b"", cwd=None):
    if not SCRIPT.exists():
        pytest.fail(f"{SCRIPT} not installed: pip install puts the console script there")
    p = subprocess.run([str(SCRIPT), *args], input=stdin, capture_output=True, timeout=120,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr.decode()


def test_on_path_of_the_environment():
    assert SCRIPT.exists() and os.access(SCRIPT, os.X_OK)
    code, out, err = run("--version")
    assert (code, err) == (0, "") and out.startswith(b"crcforge ")


def test_usage_names_crcforge_and_every_command():
    code, out, _ = run("--help")
    text = out.decode()
    assert code == 0 and text.startswith("usage: crcforge COMMAND")
    synopses = [line.split()[1] for line in text.splitlines() if line.startswith("  crcforge ")]
    assert {"sum", "list", "cpu", "keyslot", "verify"} <= set(synopses), synopses
    code, out, err = run("nope")
    assert code == 2 and "crcforge: unknown command 'nope'" in err


def test_commands(tmp_path):
    module = subprocess.run([sys.executable, "-m", "crcforge", "list"], capture_output=True,
                            check=True).stdout
    assert run("list")[:2] == (0, module)
    code, out, _ = run("cpu", "--impls")
    assert code == 0 and b"portable" in out.split()
    assert run("keyslot", "somekey")[:2] == (0, b"11058\n")
    data = tmp_path / "data"
    data.write_bytes(b"hello")
    code, out, _ = run("sum", "-a", "crc32", "data", cwd=tmp_path)
    assert (code, out) == (0, f"{zlib.crc32(b'hello'):08x}  data\n".encode())
    (tmp_path / "list").write_bytes(out)
    assert run("sum", "-c", "-a", "crc32", "list", cwd=tmp_path)[:2] == (0, b"data: OK\n")
    assert run("sum", "-c", "list", cwd=tmp_path)[:2] == (1, b"data: FAILED\n")  # crc32c
    code, out, err = run("verify", "data", cwd=tmp_path)
    assert (code, out) == (2, b"") and "verify takes a FILE and a URL (see crcforge verify" in err
    code, out, _ = run("verify", "--help")
    assert code == 0 and out.startswith(b"usage: crcforge verify")
