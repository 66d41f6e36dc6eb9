# SPDX-License-Identifier: MIT
"""scripts/static_estimate.py: its traces follow the code they name.  A path the library
treats as unrunnable (CRCFORGE_CPU_MASK) traces to the very instructions the ordinary
trace executes; a path the CPU lacks (AVX-512 on an AVX2 machine, or refused on purpose
with --refuse-avx512), traced by stepping over what the CPU refuses, runs the same
instructions as where it is executed, and the CRC-32C hybrids' shapes below their loop: as
many crc32 and vector multiplies as their chains, streams and vectors hold.  ISA-L's
functions are traced the same way: its dispatcher computes each model it is put beside (the
catalogue's check value) and runs one of the kernels traced on their own.  Needs gdb and llvm-mca, the
library built in CRCFORGE_BUILD (default build/), its objects included, and ISA-L 2.32.1
under CRCFORGE_ISAL_PREFIX (default: where .ci/install-isal.sh installs it; with CI=true it
must be there)."""
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest
import needs

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "static_estimate.py"
_spec = importlib.util.spec_from_file_location("static_estimate", SCRIPT)
se = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(se)
BUILD = pathlib.Path(os.environ.get("CRCFORGE_BUILD", "build"))
if not BUILD.is_absolute():
    BUILD = ROOT / BUILD
ISAL_PREFIX = os.environ.get("CRCFORGE_ISAL_PREFIX", se.ISAL_DEFAULT_PREFIX)

pytestmark = [
    needs.command("gdb", package="gdb"),
    needs.command("llvm-mca-19", "llvm-mca-16", "llvm-mca", package="llvm-19"),
    pytest.mark.skipif(not (BUILD / "libcrcforge.a").exists(), reason=f"{BUILD} not built"),
]
# The same tuning parameters for every trace, whatever family the mask makes this CPU; the
# hybrids' loops from their greatest limits, so that the shapes below them are traced.
TUNE = ("fold_parallel_max=0,fold_accumulators=4,hybrid_qwords=4,"
        "crc32c_hybrid256_min=3072,crc32c_hybrid512_min=4097")
CPUINFO = pathlib.Path("/proc/cpuinfo")
CPU_FLAGS = set(re.search(r"^flags\s*:(.*)$", CPUINFO.read_text(), re.M).group(1).split()
                if CPUINFO.exists() else ())
HAS_AVX512 = {"avx512f", "avx512bw", "avx512vl", "vpclmulqdq"} <= CPU_FLAGS


def drivers(tmp_path):
    return (se.build_driver(str(ROOT), str(BUILD), str(tmp_path), False),
            se.build_driver(str(ROOT), str(BUILD), str(tmp_path), True))


@pytest.fixture(scope="module")
def isal():
    """ISA-L's static library; absent, the ISA-L tests are skipped, but not in CI."""
    try:
        lib, version = se.isal_library(ISAL_PREFIX)
    except SystemExit as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{e} (CI installs it with .ci/install-isal.sh)")
        pytest.skip(str(e))
    assert version == "2.32.1", f"{lib} is ISA-L {version}"
    return lib


def cannot_run(driver, path, algo):
    check = subprocess.run([driver, "run", path, algo], capture_output=True, text=True)
    return check.returncode == 3


def strip(lines):
    """Two drivers are two programs: addresses differ, instructions do not."""
    return [re.sub(r"<[^>]*>|#.*|0x[0-9a-f]+", "", line).strip() for line in lines]


def test_masked_path_traced_as_executed(tmp_path, monkeypatch):
    normal, unrunnable = drivers(tmp_path)
    monkeypatch.setenv("CRCFORGE_TUNE", TUNE)
    if cannot_run(normal, "fold_x86_vpclmul_avx2", "crc32"):
        needs.cpu("it lacks AVX2 or VPCLMULQDQ")
    [(want, over)] = se.trace(normal, "fold_x86_vpclmul_avx2", "crc32", [1000], str(tmp_path))
    assert over == 0
    monkeypatch.setenv("CRCFORGE_CPU_MASK", "sse4.1,sse4.2,pclmulqdq")
    assert cannot_run(normal, "fold_x86_vpclmul_avx2", "crc32")
    [(got, over)] = se.trace(unrunnable, "fold_x86_vpclmul_avx2", "crc32", [1000], str(tmp_path))
    assert over == 0
    assert strip(got) == strip(want)


def split_shape(vl, n):
    """The split pass over n bytes (crc32c_vpclmul_template.h): iterations of two vectors
    and two qwords a stream, then each stream's last two; C takes the whole qwords left."""
    it = (n - 48) // (2 * vl + 48)
    qs = 2 * it + 2 + (n - 48 - it * (2 * vl + 48)) // 24
    w = n // 8 - 2 * vl * it // 8 - 3 * qs
    return it, qs, w


SHORT_MOST = {32: 64, 64: 63}  # the most lanes SHORT takes


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
    if lanes <= SHORT_MOST[vl]:
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


def test_hybrid_short_shapes(tmp_path, monkeypatch):
    normal, unrunnable = drivers(tmp_path)
    monkeypatch.setenv("CRCFORGE_TUNE", TUNE)
    sizes = [224, 256, 1000, 1024, 2047, 3071]
    cases = [(32, "crc32c_x86_avx2_hybrid", "%ymm"), (64, "crc32c_x86_avx512_hybrid", "%zmm")]
    traced = 0
    for vl, path, reg in cases:
        if not cannot_run(normal, path, "crc32c"):
            traces = se.trace(normal, path, "crc32c", sizes, str(tmp_path))
            assert all(over == 0 for _, over in traces)
        elif vl == 64 and not cannot_run(normal, "crc32c_x86_avx2_hybrid", "crc32c"):
            # The CPU lacks AVX-512 (the library says so): what it refuses is stepped over.
            traces = se.trace(unrunnable, path, "crc32c", sizes, str(tmp_path))
            assert all(over > 0 for _, over in traces)
        else:
            continue
        for n, (lines, _) in zip(sizes, traces):
            assert counts(lines, reg) == hybrid_shape(vl, n), (path, n)
            assert lines[-1].startswith("ret")
            traced += 1
    if traced == 0:
        needs.cpu("it runs neither hybrid, nor the 256-bit one to build the tables")


# Paths and ISA-L kernels of AVX-512, for the models they are put beside.
AVX512_SUBJECTS = [("crc32c_x86_avx512_hybrid", "crc32c"),
                   ("crc32c_x86_vpclmul_avx512", "crc32c"),
                   ("fold_x86_vpclmul_avx512", "crc64-xz"),
                   ("fold_x86_gfni_avx512", "crc-32/bzip2"),
                   ("isal:crc32_iscsi_by16_10", "crc32c"),
                   ("isal:crc32_gzip_refl_by16_10", "crc32"),
                   ("isal:crc64_ecma_refl_by16_10", "crc64-xz"),
                   ("isal:crc64_rocksoft_refl_by16_10", "crc64-nvme")]


@pytest.mark.parametrize("subject,algo", AVX512_SUBJECTS)
def test_refused_traced_as_executed(tmp_path, monkeypatch, request, subject, algo):
    """What the CPU refuses is stepped over, and the trace is what the CPU runs where it
    has the instructions.  With AVX-512 here, the executed trace is the reference; without
    it, both traces step over (SIGILL on the instruction, or on the ud2 put in its place)."""
    monkeypatch.setenv("CRCFORGE_TUNE", TUNE)
    lib = request.getfixturevalue("isal") if subject.startswith("isal:") else None
    isal_functions = [subject[5:]] if lib else []
    normal = se.build_driver(str(ROOT), str(BUILD), str(tmp_path), False, lib, isal_functions)
    unrunnable = se.build_driver(str(ROOT), str(BUILD), str(tmp_path), True)
    sizes = [5, 17, 64, 200, 256, 700, 1000, 4096]
    driver = unrunnable if cannot_run(normal, subject, algo) else normal
    if driver is unrunnable and HAS_AVX512:
        needs.cpu(f"{subject} needs a feature it lacks besides AVX-512")
    plain = se.trace(driver, subject, algo, sizes, str(tmp_path))
    env = dict(os.environ, CRCFORGE_CPU_MASK=se.WITHOUT_AVX512)
    refused_driver = normal if lib else unrunnable
    refused = se.trace(refused_driver, subject, algo, sizes, str(tmp_path), True, env)
    for n, (want, want_over), (got, over) in zip(sizes, plain, refused):
        assert strip(got) == strip(want), (subject, n)
        assert got[-1].startswith("ret")
        assert want_over == (0 if HAS_AVX512 else over), (subject, n)
        if n >= 256:
            assert over > 0, (subject, n)
    # The vector multiplies stepped over are among those counted.
    assert refused[-1][1] >= sum(1 for line in refused[-1][0] if "%zmm" in line)


def test_isal_functions_compute_their_models(tmp_path, isal):
    """Each ISA-L dispatcher the rows put beside a model computes that model: the
    catalogue's check value, through the wrapper that is traced."""
    functions = list(se.ISAL_FOR_MODEL.values())
    driver = se.build_driver(str(ROOT), str(BUILD), str(tmp_path), False, isal, functions)
    for model, fn in se.ISAL_FOR_MODEL.items():
        name, check, _ = se.listing(driver, model)
        assert name == model
        got = subprocess.run([driver, "crc", f"isal:{fn}", model], capture_output=True,
                             text=True, check=True).stdout
        assert int(got, 16) == check, (fn, model)


@pytest.mark.parametrize("model", ["CRC-32/ISCSI", "CRC-32/ISO-HDLC", "CRC-64/XZ", "CRC-64/NVME"])
def test_isal_dispatcher_traces_one_kernel(tmp_path, isal, model):
    """The dispatcher, resolved before the traced call, jumps to one of the kernels the
    rows list: its trace is that kernel's with the entry's indirect branch."""
    subjects = se.isal_subjects(model)
    functions = [s[5:] for s in subjects]
    driver = se.build_driver(str(ROOT), str(BUILD), str(tmp_path), False, isal, functions)
    sizes = [16, 100, 1024]
    [dispatched, *kernels] = [se.trace(driver, s, model, sizes, str(tmp_path)) for s in subjects]
    body = []
    for lines, _ in dispatched:
        at = next(i for i, line in enumerate(lines) if re.match(r"jmp\s+\*", line))
        assert lines[at - 1].startswith("endbr64")
        body.append(strip(lines[:at - 1] + lines[at + 1:]))
    runnable = [k for k in kernels if all(over == 0 for _, over in k)]
    matches = [k for k in runnable if [strip(lines) for lines, _ in k] == body]
    assert len(matches) == 1


def run_script(*args, env=None):
    return subprocess.run([sys.executable, str(SCRIPT), "--build", str(BUILD), *args],
                          capture_output=True, text=True, env=env)


def test_all_rows_beside_isal(isal):
    """`all`: a row for every x86 path serving the model, its entry, and ISA-L's functions,
    at every size and CPU, in the Markdown table."""
    env = dict(os.environ, CRCFORGE_ISAL_PREFIX=ISAL_PREFIX)
    done = run_script("--markdown", "--mcpu", "znver4,sapphirerapids", "all", "crc64-nvme",
                      "64", "300", env=env)
    assert done.returncode == 0, done.stderr
    rows = {m.group(1): m.group(2) for m in
            re.finditer(r"^\| CRC-64/NVME \| `([^`]+)`\*? \| (.*) \|$", done.stdout, re.M)}
    assert "entry:crc64_nvme" in rows and "isal:crc64_rocksoft_refl_by16_10" in rows
    assert set(se.isal_subjects("CRC-64/NVME")) <= set(rows)
    assert "portable" not in rows and any(r.startswith("fold_x86_") for r in rows)
    for cells in rows.values():
        assert re.fullmatch(r"\d+ / \d+ \| \d+ / \d+", cells), cells


def test_isal_missing_or_misnamed(tmp_path):
    """A clear error, naming the prefix or the function, and a non-zero exit."""
    done = run_script("--isal", str(tmp_path), "isal:crc32_iscsi", "crc32c", "64")
    assert done.returncode != 0
    assert f"ISA-L not found under {tmp_path}" in done.stderr
    done = run_script("--isal", str(tmp_path), "isal:crc32_castagnoli", "crc32c", "64")
    assert done.returncode != 0 and "not an ISA-L CRC function" in done.stderr


def test_mcpu_families_are_the_librarys(tmp_path):
    """Each family the CPUs named map to is one the library takes (where this CPU has its
    features), so the rows of that CPU read its table; a name it does not know, it does not."""
    driver = se.build_driver(str(ROOT), str(BUILD), str(tmp_path), False)

    def family_in_use(family):
        env = dict(os.environ, CRCFORGE_TUNE=f"family={family}")
        check = subprocess.run([driver, "run", "fold_x86_pclmul", "crc32"], capture_output=True,
                               text=True, env=env, check=True)
        return check.stdout.split()[-1]

    gfni_tier = HAS_AVX512 and "gfni" in CPU_FLAGS
    avx2_tier = {"avx2", "vpclmulqdq"} <= CPU_FLAGS
    tiers = {"zen4": gfni_tier, "intel-spr": gfni_tier, "avx2-vpclmul": avx2_tier,
             "intel-avx512-256": avx2_tier}
    assert set(se.MCPU_FAMILY.values()) <= set(tiers)
    taken = [f for f in se.MCPU_FAMILY.values() if tiers[f]]
    for family in taken:
        assert family_in_use(family) == family
    assert family_in_use("no-such-family") != "no-such-family"
    if not taken:
        needs.cpu("it has none of the families' features")


@pytest.mark.parametrize("mcpu, message", [
    ("znver4,bogus", "--mcpu bogus: llvm-mca"),
    ("", "an empty CPU name"),
    ("znver4,", "an empty CPU name"),
])
def test_unknown_mcpu_refused_before_tracing(mcpu, message):
    """llvm-mca's refusal of a CPU name, before any trace: the subject, which the driver
    would refuse once built, is never reached."""
    done = run_script("--mcpu", mcpu, "no_such_path", "crc32c", "64")
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert message in done.stderr and "no_such_path" not in done.stderr, done.stderr
    if mcpu.endswith("bogus"):
        assert "'bogus' is not a recognized processor" in done.stderr
    # The CPUs llvm-mca knows pass the check: the driver's refusal of the subject follows.
    done = run_script("--mcpu", "znver4,sapphirerapids", "no_such_path", "crc32c", "64")
    assert done.returncode != 0 and "no_such_path" in done.stderr, done.stderr


def test_every_argument_explained():
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    for arg in ("--build DIR", "--mcpu CPU,...", "--isal PREFIX", "--refuse-avx512",
                "--markdown", "subject", "ALGO[,ALGO...]", "SIZE"):
        # Each followed on its line by words of help, not left bare.
        assert re.search(rf"^  {re.escape(arg)} +\S", done.stdout, re.M), done.stdout
