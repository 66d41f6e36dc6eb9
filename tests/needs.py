"""What a test needs that a machine may lack: without it the test is skipped, naming the
package that provides it (tests/conftest.py fails such skips when CI=true)."""
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
