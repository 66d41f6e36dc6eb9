# SPDX-License-Identifier: MIT
"""Every kind of input `sum` reads (files, directories, FIFOs, pipes and files on standard
input, a sparse file over 4 GiB) and faults injected into every read path, on both tools.

The faults come from tests/faults/fault_shim.c, built here and preloaded (LD_PRELOAD): it
wraps read, readv, pread and pread64 for one file and makes them fail with EIO at an
offset, end early, return short counts, fail with EINTR, or change the file under the
reader.  Each faulted call is logged, so every test also shows that the shim was reached.
Values are checked against zlib and awscrt.
"""
import os
import pathlib
import random
import signal
import subprocess
import sys
import threading
import time
import zlib

import needs
import pytest

needs.module("awscrt.checksums", "awscrt")
import awscrt.checksums  # noqa: E402

SIZE = (20 << 20) + 3  # above the 8 MiB from which -j splits a file
DATA = random.Random(15).randbytes(SIZE)
PART = 3 << 20


def lines(out):
    return out.decode().splitlines()


def composite(data, part_size):
    """The composite CRC-32 of data in parts (the parts cut and composed here, awscrt's CRC)."""
    crc = awscrt.checksums.crc32
    parts = [data[i:i + part_size] for i in range(0, len(data), part_size)] or [b""]
    value = crc(b"".join(crc(p).to_bytes(4, "big") for p in parts))
    return f"{value:08x}-{len(parts)}"


@pytest.fixture
def faulted(run, shim, tmp_path):
    """Runs the tool with faults on one file (or descriptor): (code, stdout, stderr, the
    faulted calls)."""

    def _run(faults, *args, target=None, fd=None, stdin=b"", cwd=None):
        log = tmp_path / "faults.log"
        log.unlink(missing_ok=True)
        env = {"LD_PRELOAD": str(shim), "CRCFORGE_FAULT": faults,
               "CRCFORGE_FAULT_LOG": str(log)}
        if target is not None:
            env["CRCFORGE_FAULT_FILE"] = str(target)
        if fd is not None:
            env["CRCFORGE_FAULT_FD"] = str(fd)
        code, out, err = run(*args, stdin=stdin, env=env, cwd=cwd)
        return code, out, err, log.read_text().splitlines() if log.exists() else []

    return _run


# How each read path is asked for: sum, sum -j (threads reading ranges with pread),
# --part-size with and without threads, and sum -c (the files its list names).
MODES = {
    "sum": [],
    "sum -j3": ["-j", "3"],
    "parts": ["--part-size", str(PART)],
    "parts -j3": ["-j3", f"--part-size={PART}"],
    "check": ["-c"],
    "check -j2": ["-c", "-j2"],
}


def sum_args(mode, tmp_path, *files):
    """The arguments of `sum` in this mode for these files (a list naming them for -c), and
    the line each file gives when it reads well."""
    parts = "parts" in mode
    want = {f: composite(f.read_bytes(), PART) if parts else f"{zlib.crc32(f.read_bytes()):08x}"
            for f in files}
    if not mode.startswith("check"):
        return ["-a", "crc32", *MODES[mode], *map(str, files)], [f"{want[f]}  {f}" for f in files]
    listfile = tmp_path / "list"
    listfile.write_text("".join(f"{want[f]}  {f}\n" for f in files))
    return ["-a", "crc32", *MODES[mode], str(listfile)], [f"{f}: OK" for f in files]


def data_files(tmp_path):
    big, small = tmp_path / "big", tmp_path / "small"
    big.write_bytes(DATA)
    small.write_bytes(b"123456789")
    return big, small


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("faults", ["short", "eintr", "short,eintr"])
def test_short_and_interrupted_reads_are_retried(faulted, tmp_path, mode, faults):
    big, small = data_files(tmp_path)
    args, want = sum_args(mode, tmp_path, big, small)
    code, out, err, calls = faulted(faults, "sum", *args, target=big)
    assert (code, lines(out), err) == (0, want, "")
    assert len(calls) > SIZE // (256 << 10), "the shim did not see the reads"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault, reason", [
    ("eio@13631493", "Input/output error (reading byte 13631493)"),
    ("eof@17825797", f"ended early, at byte 17825797 of {SIZE}"),
    ("shrink@13631493", f"changed while it was read ({SIZE} bytes at the start, 13631493 at "
                        "the end)"),
    ("grow@1000", f"changed while it was read ({SIZE} bytes at the start, {SIZE + 4096} at "
                  "the end)"),
    ("modify@1000", "changed while it was read (modified: its mtime moved)"),
])
def test_failed_or_changed_input_gives_no_value(faulted, tmp_path, mode, fault, reason):
    # 13 MiB + 5: inside the second of two or three threads' ranges, and inside a part; the
    # early end at 17 MiB + 5 in the last range, after which no thread can read.
    big, small = data_files(tmp_path)
    args, want = sum_args(mode, tmp_path, big, small)
    code, out, err, calls = faulted(fault, "sum", *args, target=big)
    if mode.startswith("check"):  # as sha256sum -c: FAILED open or read, exit 1
        assert code == 1 and lines(out) == [f"{big}: FAILED open or read", *want[1:]], err
        assert err == (f"crcforge: {big}: {reason}\n"
                       "crcforge: WARNING: 1 listed file could not be read\n")
    else:
        assert code == 1 and lines(out) == want[1:], err  # the other input still done
        assert err == f"crcforge: {big}: {reason}\n"
    assert calls


@pytest.mark.parametrize("args", [[], ["-j2"], ["--part-size=1M"]])
def test_pipe_faults(faulted, args):
    want = composite(DATA, 1 << 20) if args[-1:] == ["--part-size=1M"] else \
        f"{zlib.crc32(DATA):08x}"
    for faults in ("short", "eintr"):
        code, out, err, calls = faulted(faults, "sum", "-a", "crc32", *args, fd=0, stdin=DATA)
        assert (code, lines(out), err) == (0, [f"{want}  -"], "") and calls
    code, out, err, calls = faulted("eio@5000000", "sum", "-a", "crc32", *args, fd=0,
                                    stdin=DATA)
    assert (code, out, err) == (1, b"", "crcforge: -: Input/output error (reading byte 5000000)\n")


def test_list_faults(faulted, tmp_path):
    """sum -c reads its list through the same calls: retried when short or interrupted; an
    error ends it, after the lines before were checked."""
    files = []
    for i in range(300):
        f = tmp_path / f"f{i:03}"
        f.write_bytes(b"%d" % i)
        files.append(f)
    listfile = tmp_path / "list"
    listfile.write_text("".join(f"{zlib.crc32(f.read_bytes()):08x}  {f}\n" for f in files))
    want = [f"{f}: OK" for f in files]
    for faults in ("short", "eintr"):
        code, out, err, calls = faulted(faults, "sum", "-c", "-acrc32", str(listfile),
                                        target=listfile)
        assert (code, lines(out), err) == (0, want, "") and calls
    line_length = len(listfile.read_text().splitlines()[0]) + 1
    code, out, err, _ = faulted(f"eio@{100 * line_length + 7}", "sum", "-c", "-acrc32",
                                str(listfile), target=listfile)
    assert code == 1 and lines(out) == want[:100]  # a list not read to its end fails
    assert err == f"crcforge: {listfile}: Input/output error\n"


def test_keyslot_file_faults(faulted, tmp_path):
    keys = [b"key:%d" % i for i in range(5000)]
    f = tmp_path / "keys"
    f.write_bytes(b"\n".join(keys) + b"\n")
    code, want, err = faulted("", "keyslot", "first", "--file", str(f), "last")[:3]
    assert code == 0 and len(lines(want)) == 5002
    for faults in ("short", "eintr", "short,eintr"):
        code, out, err, calls = faulted(faults, "keyslot", "first", "--file", str(f), "last",
                                        target=f)
        assert (code, out, err) == (0, want, "") and calls
    at = sum(len(k) + 1 for k in keys[:1000]) + 3  # inside the 1001st key
    code, out, err, _ = faulted(f"eio@{at}", "keyslot", "first", "--file", str(f), "last",
                                target=f)
    assert code == 2 and err == f"crcforge: {f}: Input/output error\n"
    slots = lines(want)
    assert lines(out) == slots[:1001] + slots[-1:]  # first, 1000 whole keys, last


def test_directory(run, tmp_path):
    good = tmp_path / "good"
    good.write_bytes(b"123456789")
    for args in ([], ["-j2"], ["--part-size=4"], ["-j2", "--part-size=4"]):
        code, out, err = run("sum", *args, str(tmp_path), str(good))
        assert code == 1 and len(lines(out)) == 1 and lines(out)[0].endswith(f"  {good}")
        assert err == f"crcforge: {tmp_path}: Is a directory\n"


def fifo_writer(path, data):
    """Writes data into the FIFO once a reader opens it, from a thread that gives up after a
    minute (a reader that never comes must not hang the tests)."""
    def write():
        for _ in range(6000):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:  # ENXIO: no reader yet
                threading.Event().wait(0.01)
        else:
            return
        os.set_blocking(fd, True)
        with open(fd, "wb") as w:
            w.write(data)

    t = threading.Thread(target=write)
    t.start()
    return t


@pytest.mark.parametrize("args", [["-j2"], ["-j", "4", "--part-size", "5M"]])
def test_fifo_and_pipe_with_threads(run, tool, tmp_path, args):
    """A FIFO and a pipe have no size: they are streamed, whatever -j says."""
    want = composite(DATA, 5 << 20) if "--part-size" in args else f"{zlib.crc32(DATA):08x}"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = fifo_writer(fifo, DATA)
    code, out, err = run("sum", "-a", "crc32", *args, str(fifo))
    writer.join()
    assert (code, lines(out), err) == (0, [f"{want}  {fifo}"], "")
    code, out, err = run("sum", "-a", "crc32", *args, stdin=DATA)
    assert (code, lines(out), err) == (0, [f"{want}  -"], "")


def test_ctrl_c_ends_the_run(tool, tmp_path):
    """SIGINT while the tool waits for a FIFO's bytes ends it as a C tool ends: killed by
    the signal, nothing written (python -m crcforge too, its engine running in C)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # holds it open, writes nothing
    try:
        # A shell's background job starts with SIGINT ignored, and a program keeps what it
        # inherits: the tool is given the default disposition, as from a terminal.
        p = subprocess.Popen([*tool, "sum", str(fifo)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(2)  # the interpreter started, the engine reading
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        os.close(writer)
    assert (p.returncode, out, err) == (-signal.SIGINT, b"", b"")


@pytest.mark.parametrize("args", [["-j2"], ["-j3", "--part-size=5M"], []])
def test_regular_file_on_stdin(tool, tmp_path, args):
    """A regular file on standard input is read from where it stands, by ranges with -j."""
    f = tmp_path / "data"
    f.write_bytes(DATA)
    for skip in (0, 1000):
        with open(f, "rb") as stdin:
            stdin.seek(skip)
            p = subprocess.run([*tool, "sum", "-a", "crc32", *args], stdin=stdin,
                               capture_output=True, timeout=120)
        rest = DATA[skip:]
        want = composite(rest, 5 << 20) if "--part-size=5M" in args else f"{zlib.crc32(rest):08x}"
        assert (p.returncode, lines(p.stdout), p.stderr) == (0, [f"{want}  -"], b"")


@pytest.fixture(scope="module")
def zeros_1g():
    """zlib's CRC-32 of 1 GiB of zeros, streamed."""
    crc, zero = 0, bytes(1 << 20)
    for _ in range(1024):
        crc = zlib.crc32(zero, crc)
    return crc


def test_sparse_file_over_4g_bounded_memory(tool, tmp_path, zeros_1g):
    """5 GiB of holes (no disk taken): one stream, two threads, and two threads in 1 GiB
    parts, each with a bounded peak RSS; against zlib's CRC of 1 GiB of zeros joined with
    awscrt's combine."""
    sparse = tmp_path / "sparse"
    with open(sparse, "wb") as f:
        f.truncate(5 << 30)
    whole = zeros_1g
    for _ in range(4):
        whole = awscrt.checksums.combine_crc32(whole, zeros_1g, 1 << 30)
    parts = f"{zlib.crc32(zeros_1g.to_bytes(4, 'big') * 5):08x}-5"
    # Measured in a fresh parent, so that only this run's peak RSS is seen: the C tool's,
    # about 3 MiB, or the Python interpreter's, about 16 MiB; the parent's Python before the
    # exec is counted too (about 13 MiB).
    limit_mib = 16 if len(tool) == 1 else 24  # the C tool, or python -m crcforge
    probe = ("import resource, subprocess, sys; "
             "p = subprocess.run(sys.argv[1:], capture_output=True); "
             "sys.stdout.buffer.write(p.stdout); "
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    try:
        for args, want in ((["-j1"], f"{whole:08x}"), (["-j2"], f"{whole:08x}"),
                           (["-j2", "--part-size=1G"], parts)):
            p = subprocess.run([sys.executable, "-c", probe, *tool, "sum", "-a", "crc32", *args,
                                str(sparse)], capture_output=True, timeout=600)
            *out, status = lines(p.stdout)
            code, peak_kib = map(int, status.split())
            assert (code, out) == (0, [f"{want}  {sparse}"]), (args, p.stderr)
            assert peak_kib < limit_mib * 1024, f"peak RSS {peak_kib} KiB with {args}"
    finally:
        sparse.unlink()  # and with it the page cache its zeros took


@pytest.fixture(scope="module")
def sized_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("sumj")
    files = {}
    for n in (0, 1, 4097, (8 << 20) + 1, (20 << 20) + 3):  # the last two: split in chunks
        f = d / f"f{n}"
        f.write_bytes(random.Random(n).randbytes(n))
        files[f] = zlib.crc32(f.read_bytes())
    return files


@pytest.mark.parametrize("j", ["1", "2", "3", "4", "64"])
def test_sum_j_matches_zlib(run, sized_files, j):
    names = [str(f) for f in sized_files]
    code, out, err = run("sum", "-a", "crc32", "-j", j, *names)
    assert code == 0, err
    assert out.decode().splitlines() == [f"{v:08x}  {f}" for f, v in sized_files.items()]


def test_sum_j_errors_named(run, sized_files, tmp_path):
    big = str(next(f for f in sized_files if f.stat().st_size > 8 << 20))
    code, out, err = run("sum", "-j", "2", str(tmp_path / "missing"), big)
    assert code == 1 and "missing" in err and out.decode().endswith(f"  {big}\n")
    code, _, err = run("sum", "-j", "65", big)
    assert code == 2 and "'65'" in err


@pytest.mark.parametrize("args", [[], ["-j3"], [f"--part-size={PART}"], ["-j3", f"--part-size={PART}"]])
def test_several_algorithms_read_the_file_once(faulted, tmp_path, args):
    """Three algorithms, one read: the shim's log of the file's reads names each offset once,
    and the values are right (awscrt's and zlib's); sum -c of the three tagged lines a
    `sum -a .. -a .. -a ..` writes reads it once too."""
    big, _ = data_files(tmp_path)
    algos = ["-a", "crc32c", "-a", "crc32", "-a", "crc64-nvme"]
    code, out, err, calls = faulted("", "sum", *algos, *args, str(big), target=big)
    if not any(a.startswith("--part-size") for a in args):
        want = [f"CRC32C ({big}) = {awscrt.checksums.crc32c(DATA):08x}",
                f"CRC32 ({big}) = {zlib.crc32(DATA):08x}",
                f"CRC64NVME ({big}) = {awscrt.checksums.crc64nvme(DATA):016x}"]
        assert (code, lines(out), err) == (0, want, "")
    else:
        assert code == 0 and lines(out)[1] == f"CRC32/3MiB ({big}) = {composite(DATA, PART)}"
    offsets = [int(call.split()[1]) for call in calls]
    assert offsets and len(offsets) == len(set(offsets)), "a range was read twice"
    assert sum(int(call.split()[2]) for call in calls) >= SIZE
    listfile = tmp_path / "list"
    listfile.write_bytes(out)
    code, out, err, calls = faulted("", "sum", "-c", *args[:1], str(listfile), target=big)
    assert (code, lines(out), err) == (0, [f"{big}: OK"] * 3, "")
    offsets = [int(call.split()[1]) for call in calls]
    assert offsets and len(offsets) == len(set(offsets)), "a range was read twice"
