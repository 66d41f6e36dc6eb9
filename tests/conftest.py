# SPDX-License-Identifier: MIT
"""Fixtures for the tests that drive the built tool (tests/cli) and library (tests/library)
from Python.

CRCFORGE_BUILD names the CMake build directory (default: build/ at the repository root).
CRCFORGE_CLI lists the command-line tools the CLI tests run, comma-separated: "c" (the
built `crcforge`, the default) and "python" (`python -m crcforge` with the Python named by
CRCFORGE_PYTHON, which tests/stages/25-python.sh sets up).  Tests marked c_only use
commands that only the C tool has (bench).

A test that needs a tool the machine lacks is skipped, naming the package that provides it
(needs.command, needs.module), and the other tests run.  With CI=true, where every tool is
installed first, a skip is a failure; CRCFORGE_SKIP_LOG names a file where each skip is
recorded too (scripts/test.sh lists them after the stages).  tests/needs.py has the
helpers.
"""
import ctypes
import os
import pathlib
import subprocess

import pytest

import needs

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD = pathlib.Path(os.environ.get("CRCFORGE_BUILD", ROOT / "build"))


@pytest.fixture(scope="session")
def repo_root():
    return ROOT


@pytest.fixture(scope="session")
def build_dir():
    return BUILD


@pytest.fixture(scope="session")
def crcforge_bin():
    path = BUILD / "crcforge"
    if not path.exists():
        pytest.fail(f"{path} not built: run the README's build first (or set CRCFORGE_BUILD)")
    return str(path.resolve())  # absolute: some tests run the tool in another directory


CLI_VARIANTS = os.environ.get("CRCFORGE_CLI", "c").split(",")


def _skip_reason(report):
    return report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)


def _skipped_in_ci(report):
    """CI installs every tool first: a skip there is a missing install step, a failure; but
    not one for a CPU that lacks an instruction (needs.cpu)."""
    if (report.skipped and not hasattr(report, "wasxfail") and os.environ.get("CI") == "true"
            and needs.CPU_SKIP not in _skip_reason(report)):
        report.longrepr = f"skipped in CI (CI=true): {_skip_reason(report)}"
        report.outcome = "failed"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    _skipped_in_ci((yield).get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    _skipped_in_ci((yield).get_result())


def _log_skip(report):
    log = os.environ.get("CRCFORGE_SKIP_LOG")
    if log and report.skipped:
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"{report.nodeid}: {_skip_reason(report)}\n")


def pytest_runtest_logreport(report):
    _log_skip(report)


def pytest_collectreport(report):
    _log_skip(report)


def pytest_configure(config):
    config.addinivalue_line("markers", "c_only: uses commands only the C tool has")


def pytest_generate_tests(metafunc):
    if "tool" in metafunc.fixturenames:
        c_only = metafunc.definition.get_closest_marker("c_only") is not None
        variants = [v for v in CLI_VARIANTS if v == "c" or not c_only]
        metafunc.parametrize("tool", variants or ["c"], indirect=True)


def pytest_collection_modifyitems(config, items):
    """A test of a command only the C tool has is left out (deselected, not skipped) when
    the C tool is not among the tools tested."""
    left_out = [item for item in items if getattr(item, "callspec", None) is not None
                and item.callspec.params.get("tool", CLI_VARIANTS[0]) not in CLI_VARIANTS]
    if left_out:
        items[:] = [item for item in items if item not in left_out]
        config.hook.pytest_deselected(items=left_out)


@pytest.fixture
def tool(request):
    """The command line of the tool under test, before its arguments."""
    if request.param == "c":
        return [request.getfixturevalue("crcforge_bin")]
    python = os.environ.get("CRCFORGE_PYTHON")
    if not python:
        pytest.fail("CRCFORGE_CLI=python needs CRCFORGE_PYTHON (a Python with crcforge)")
    return [python, "-m", "crcforge"]


@pytest.fixture
def run(tool):
    """Runs the tool; returns (exit code, stdout bytes, stderr text)."""

    def _run(*args, stdin=b"", env=None, cwd=None):
        full_env = dict(os.environ)
        full_env.pop("CRCFORGE_IMPL", None)
        full_env.update(env or {})
        p = subprocess.run([*tool, *args], input=stdin, capture_output=True,
                           env=full_env, cwd=cwd, timeout=600)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")

    return _run


class Library:
    """The few C entry points the oracle tests need, through ctypes."""

    def __init__(self, path):
        lib = ctypes.CDLL(str(path))
        lib.crcforge_model_find.restype = ctypes.c_void_p
        lib.crcforge_model_find.argtypes = [ctypes.c_char_p]
        lib.crcforge_checksum.restype = ctypes.c_uint64
        lib.crcforge_checksum.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.crcforge_crc32.restype = ctypes.c_uint32
        lib.crcforge_crc32.argtypes = [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t]
        self.lib = lib

    def checksum(self, name, data):
        model = self.lib.crcforge_model_find(name.encode())
        assert model, f"model {name} not found"
        return self.lib.crcforge_checksum(model, data, len(data))

    def crc32(self, data, crc=0):
        return self.lib.crcforge_crc32(crc, data, len(data))


@pytest.fixture(scope="session")
def library():
    path = BUILD / "libcrcforge.so"
    if not path.exists():
        pytest.fail(f"{path} not built")
    return Library(path)


@pytest.fixture(scope="session")
def catalogue(crcforge_bin):
    """Every model as `crcforge list` prints it: a list of dicts."""
    out = subprocess.run([crcforge_bin, "list"], capture_output=True, check=True).stdout
    models = []
    for line in out.decode().splitlines():
        fields = {}
        for item in split_fields(line):
            key, _, value = item.partition("=")
            fields[key] = value.strip('"')
        models.append({
            "name": fields["name"],
            "aliases": [a for a in fields["aliases"].split(",") if a],
            "width": int(fields["width"]),
            "poly": int(fields["poly"], 16),
            "init": int(fields["init"], 16),
            "refin": fields["refin"] == "true",
            "refout": fields["refout"] == "true",
            "xorout": int(fields["xorout"], 16),
            "check": int(fields["check"], 16),
            "residue": int(fields["residue"], 16),
        })
    return models


def split_fields(line):
    """Splits on spaces outside double quotes."""
    fields, cur, quoted = [], "", False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        if ch == " " and not quoted:
            fields.append(cur)
            cur = ""
        else:
            cur += ch
    fields.append(cur)
    return fields
