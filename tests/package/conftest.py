# SPDX-License-Identifier: MIT
"""Tests of the installed Python package (tests/stages/25-python.sh installs it into a fresh
venv; 27-wheels and 46-windows-wheels the wheels).  Hypothesis runs a fixed, bounded number
of examples with a printed seed (`--hypothesis-seed=N` replays one).

Tests marked `posix` use what Windows does not have (fork, FIFOs, a signal sent to one
thread, file names that are not UTF-8): on Windows they are left out (deselected, as
tests/conftest.py leaves out the C tool's own commands), not skipped."""
import sys

from hypothesis import HealthCheck, settings

settings.register_profile("crcforge", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("crcforge")


def pytest_configure(config):
    config.addinivalue_line("markers", "posix: uses what only POSIX systems have")


def pytest_collection_modifyitems(config, items):
    if sys.platform != "win32":
        return
    posix = [item for item in items if item.get_closest_marker("posix") is not None]
    if posix:
        items[:] = [item for item in items if item not in posix]
        config.hook.pytest_deselected(items=posix)
