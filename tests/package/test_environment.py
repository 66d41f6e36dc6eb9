# SPDX-License-Identifier: MIT
"""crcforge.environment_problems(): a bad value of each environment variable the library
reads, in a fresh interpreter (the library reads each once), is listed with the value
exactly as set, while hashing prints nothing to stderr; a good environment lists none."""
import json
import os
import subprocess
import sys

import pytest

import needs

import crcforge

SCRIPT = """
import crcforge, json, zlib
data = bytes(range(256)) * 40
assert crcforge.crc32(data) == zlib.crc32(data)
for name in ("crc32c", "crc64-xz", "crc16-xmodem", "CRC-24/OPENPGP"):
    crcforge.new(name, data).hexdigest()
crcforge.implementation("crc32c")
print(json.dumps([list(p) for p in crcforge.environment_problems()]))
"""


def problems(env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("CRCFORGE_")}
    full.update(env)
    p = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                       env=full, timeout=120)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    return [crcforge.EnvironmentProblem(*e) for e in json.loads(p.stdout)]


def tuned():
    return problems({"CRCFORGE_TUNE": "bogus=1"}) != []


def test_good_environment_lists_nothing():
    assert problems({}) == []
    assert problems({"CRCFORGE_IMPL": "portable", "CRCFORGE_CPU_MASK": "sse4.2"}) == []


@pytest.mark.parametrize("variable, value, problem, instead", [
    ("CRCFORGE_IMPL", "no such path", "unknown implementation", "the automatic choice"),
    ("CRCFORGE_CPU_MASK", "sse4.2,warp9", "unknown feature 'warp9'", "ignored that name"),
    ("CRCFORGE_TUNE", "fold_accumulators=3", "'fold_accumulators=3': fold_accumulators takes",
     "ignored it: the table's value"),
])
def test_bad_value_listed(variable, value, problem, instead):
    if variable == "CRCFORGE_TUNE" and not tuned():
        needs.cpu("no tuning tables for it: CRCFORGE_TUNE is not read")
    (found,) = problems({variable: value})
    assert (found.variable, found.value) == (variable, value)
    assert found.problem.startswith(problem) and found.instead.startswith(instead)
