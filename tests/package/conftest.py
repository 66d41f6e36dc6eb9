# SPDX-License-Identifier: MIT
"""Tests of the installed Python package (tests/stages/25-python.sh installs it into a fresh
venv).  Hypothesis runs a fixed, bounded number of examples with a printed seed
(`--hypothesis-seed=N` replays one)."""
from hypothesis import HealthCheck, settings

settings.register_profile("crcforge", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("crcforge")
