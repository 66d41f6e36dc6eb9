"""scripts/static_estimate.py: its traces follow the path they name.  A path the library
treats as unrunnable (CRCFORGE_CPU_MASK) traces to the very instructions the ordinary
trace executes; a path the CPU truly lacks (AVX-512 on an AVX2 machine), traced by
stepping over what the CPU refuses, runs the CRC-32C hybrids' shapes below their loop: as
many crc32 and vector multiplies as their chains, streams and vectors hold.  Needs gdb and llvm-mca, and the
library built in CRCFORGE_BUILD (default build/), its objects included."""
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "static_estimate.py"
_spec = importlib.util.spec_from_file_location("static_estimate", SCRIPT)
se = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(se)
BUILD = pathlib.Path(os.environ.get("CRCFORGE_BUILD", "build"))
if not BUILD.is_absolute():
    BUILD = ROOT / BUILD

pytestmark = [
    pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb not installed"),
    pytest.mark.skipif(shutil.which("llvm-mca-16") is None and shutil.which("llvm-mca") is None,
                       reason="llvm-mca not installed"),
    pytest.mark.skipif(not (BUILD / "libcrcforge.a").exists(), reason=f"{BUILD} not built"),
]
# The same tuning parameters for every trace, whatever family the mask makes this CPU.
TUNE = "fold_parallel_max=0,fold_accumulators=4,hybrid_qwords=4"


def drivers(tmp_path):
    return (se.build_driver(str(ROOT), str(BUILD), str(tmp_path), False),
            se.build_driver(str(ROOT), str(BUILD), str(tmp_path), True))


def cannot_run(driver, path, algo):
    check = subprocess.run([driver, path, algo, "0"], capture_output=True, text=True)
    return "this CPU cannot run" in check.stderr


def split_shape(vl, n):
    """The split pass over n bytes (crc32c_vpclmul_template.h): iterations of two vectors
    and two qwords a stream, then each stream's last two; C takes the whole qwords left."""
    it = (n - 48) // (2 * vl + 48)
    qs = 2 * it + 2 + (n - 48 - it * (2 * vl + 48)) // 24
    w = n // 8 - 2 * vl * it // 8 - 3 * qs
    return it, qs, w


SHORT_LANES = {32: 40, 64: 64}


def short_chain(vl, lanes):
    """SHORT's chain of crc32 qwords for a length of `lanes` lanes (SHORT_CHAIN)."""
    step = vl // 16
    if lanes < 8:
        return 2 * (lanes % step)
    return (8 if lanes < (32 if vl == 64 else 16) else 16) + 2 * (lanes % step)


def hybrid_shape(vl, n):
    """The crc32 instructions and vector multiplies of the hybrid over n bytes below its
    loop (crc32c_vpclmul_template.h): the head's two crc32 when n is no multiple of 16,
    then SHORT (whole vectors, a chain), MEDIUM (512-bit: the same, a chain of 16 qwords and
    the lanes past whole vectors) or SPLIT (256-bit)."""
    crc32 = 2 if n % 16 else 0
    n -= n % 16
    lanes, step = n // 16, vl // 16
    if lanes < SHORT_LANES[vl]:
        chain = short_chain(vl, lanes)
        return crc32 + max(chain, 2), 2 * ((lanes - chain // 2) // step)
    if vl == 64:
        extra = lanes % 4
        return crc32 + 16 + 2 * extra, 2 * ((lanes - 8 - extra) // 4)
    it, qs, w = split_shape(vl, n)
    return crc32 + 3 * qs + w, 4 * it


def counts(lines, vector_reg):
    crc32 = sum(1 for line in lines if re.match(r"crc32[bwlq]?\b", line))
    clmul = sum(1 for line in lines if line.startswith("vpclmul") and vector_reg in line)
    return crc32, clmul


def test_masked_path_traced_as_executed(tmp_path, monkeypatch):
    normal, unrunnable = drivers(tmp_path)
    monkeypatch.setenv("CRCFORGE_TUNE", TUNE)
    if cannot_run(normal, "fold_x86_vpclmul_avx2", "crc32"):
        pytest.skip("this CPU lacks AVX2 or VPCLMULQDQ")
    want, over = se.trace(normal, False, "fold_x86_vpclmul_avx2", "crc32", 1000, str(tmp_path))
    assert over == 0
    monkeypatch.setenv("CRCFORGE_CPU_MASK", "sse4.1,sse4.2,pclmulqdq")
    assert cannot_run(normal, "fold_x86_vpclmul_avx2", "crc32")
    got, over = se.trace(unrunnable, True, "fold_x86_vpclmul_avx2", "crc32", 1000,
                         str(tmp_path))
    assert over == 0
    # The two drivers are two programs: addresses differ, instructions do not.
    strip = lambda lines: [re.sub(r"<[^>]*>|#.*|0x[0-9a-f]+", "", line).strip() for line in lines]
    assert strip(got) == strip(want)


@pytest.mark.parametrize("n", [224, 256, 1000, 2047, 3071])
def test_hybrid_short_shapes(tmp_path, monkeypatch, n):
    normal, unrunnable = drivers(tmp_path)
    monkeypatch.setenv("CRCFORGE_TUNE", TUNE)
    cases = [(32, "crc32c_x86_avx2_hybrid", "%ymm"), (64, "crc32c_x86_avx512_hybrid", "%zmm")]
    traced = 0
    for vl, path, reg in cases:
        if not cannot_run(normal, path, "crc32c"):
            lines, over = se.trace(normal, False, path, "crc32c", n, str(tmp_path))
            assert over == 0
        elif vl == 64 and not cannot_run(normal, "crc32c_x86_avx2_hybrid", "crc32c"):
            # The CPU lacks AVX-512 (the library says so): what it refuses is stepped over.
            lines, over = se.trace(unrunnable, True, path, "crc32c", n, str(tmp_path))
            assert over > 0
        else:
            continue
        assert counts(lines, reg) == hybrid_shape(vl, n), path
        assert lines[-1].startswith("ret")
        traced += 1
    if traced == 0:
        pytest.skip("this CPU runs neither hybrid, nor the 256-bit one to build the tables")
