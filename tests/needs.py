# SPDX-License-Identifier: MIT
"""What a test needs that a machine may lack: without it the test is skipped, naming the
package that provides it (tests/conftest.py fails such skips when CI=true).  A test that
needs an instruction this CPU lacks is skipped by cpu(): CI cannot install a CPU, so
that skip stays a skip there (and is named, -rs)."""
import shutil

import pytest


def command(*commands, package):
    """A mark: the test is skipped unless one of the commands is installed."""
    return pytest.mark.skipif(
        not any(shutil.which(c) for c in commands),
        reason=f"{' or '.join(commands)} not installed (Debian package {package})")


def module(name, package=None):
    """The module, imported; else the test module calling this is skipped."""
    return pytest.importorskip(
        name, reason=f"Python module {name} not installed (pip package {package or name}, "
        "from .ci/requirements.txt)")


CPU_SKIP = "this CPU: "


def cpu(reason):
    """Skips the test: this CPU lacks what it needs (reason says what)."""
    pytest.skip(CPU_SKIP + reason)
