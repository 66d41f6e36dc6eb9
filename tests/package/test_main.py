# SPDX-License-Identifier: MIT
"""python -m crcforge beyond the CLI tests it shares with the C tool (tests/cli): its usage,
and the C tool's engine inside the interpreter (_crcforge.cli): output through whatever
sys.stdout and sys.stderr are, no exit, getopt's state fresh for every run, Ctrl-C as
KeyboardInterrupt, the GIL released while it hashes, and the hooks of its host (the
options only python -m crcforge has, parsed by the C parser; URLs; verify), here with a
host that stands in for fsspec and S3.  Values are checked against zlib.  Files are named
relative to the directory the tests run in, so that a name is the same on every system (a
Windows path holds backslashes, which a checksum line escapes)."""
import _thread
import io
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
import zlib

import pytest

import crcforge
from crcforge import __main__, _crcforge, objects
from crcforge.__main__ import Host
from crcforge.objects import Verification


def run(*args, stdin=b"", env=None, cwd=None):
    p = subprocess.run([sys.executable, "-m", "crcforge", *args], input=stdin,
                       capture_output=True, timeout=120, env={**os.environ, **(env or {})},
                       cwd=cwd)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def crc32_line(data, name):
    return f"{zlib.crc32(data):08x}  {name}\n"


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Two names in the directory the test runs in: good, which holds "123456789", and
    missing."""
    monkeypatch.chdir(tmp_path)
    good, missing = pathlib.Path("good"), pathlib.Path("missing")
    good.write_bytes(b"123456789")
    return good, missing


def test_usage():
    code, out, err = run()
    assert code == 2 and out == "" and "  python -m crcforge sum [-a ALGO]" in err
    code, out, _ = run("--help")
    assert code == 0 and "  python -m crcforge sum [-a ALGO]" in out
    assert ("  python -m crcforge verify [-j N] [--scheduler ADDRESS] [--timeout SECONDS] "
            "[--deadline SECONDS] FILE URL") in out
    code, out, _ = run("sum", "--help")
    assert code == 0 and out.startswith("usage: python -m crcforge sum [-a ALGO]")
    assert "  -a, --algorithm=ALGO" in out and "      --scheduler=ADDRESS" in out


def test_bench_is_the_c_programs_own():
    code, out, err = run("bench")
    assert code == 2 and out == "" and "crcforge: unknown command 'bench'" in err
    code, out, _ = run("keyslot", "somekey")  # the other commands are here too
    assert (code, out) == (0, "11058\n")  # CLUSTER KEYSLOT's documented example


def test_sum_with_options_after_files_and_double_dash(tmp_path):
    (tmp_path / "-a").write_bytes(b"123456789")
    code, out, _ = run("sum", "--", "-a", cwd=tmp_path)
    assert (code, out) == (0, "e3069283  -a\n")
    code, out, _ = run("sum", "-a", "CRC-16/XMODEM", "--format", "base64", stdin=b"123456789")
    assert (code, out) == (0, "McM=  -\n")  # 0x31c3, the catalogue's check value


def test_custom_parameters_are_strict():
    """A number begins with a digit (no space or sign), a parameter is given once, and
    the list has no empty item."""
    params = "width=16,poly=0x1021,init=0,refin=false,refout=false,xorout=0"
    for algo, reason in [(params.replace("=0x1021", "= 0x1021"), "bad value ' 0x1021' for poly"),
                         (params.replace("=0x1021", "=+4129"), "bad value '+4129' for poly"),
                         (params.replace("init=0", "init=\t0"), "bad value '\t0' for init"),
                         (params + ",poly=0x1021", "poly given twice"),
                         (params.replace(",", ",,", 1), "empty item (a comma too many)")]:
        code, out, err = run("sum", "-a", algo, stdin=b"123456789")
        assert (code, out) == (2, ""), algo
        assert err == f"crcforge: algorithm '{algo}': {reason}\n", err


def test_output_goes_to_sys_stdout_and_stderr(monkeypatch, files):
    good, missing = files
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert _crcforge.cli(["sum", "-a", "crc32", str(missing), str(good)]) == 1
    assert out.getvalue() == crc32_line(b"123456789", good)
    assert err.getvalue() == f"crcforge: {missing}: No such file or directory\n"


@pytest.mark.posix
def test_a_name_that_is_not_utf8_reaches_a_text_stream_as_fsdecode_gives_it(monkeypatch, files):
    good, _ = files
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    odd = os.fsencode(good) + b"\xff"
    os.link(good, odd)
    assert _crcforge.cli(["sum", odd]) == 0
    assert out.getvalue() == f"e3069283  {os.fsdecode(odd)}\n"


def test_output_follows_what_python_wrote_before(monkeypatch, files):
    good, _ = files
    raw = io.BytesIO()
    text = io.TextIOWrapper(raw, encoding="utf-8", newline="\n", write_through=False)
    monkeypatch.setattr(sys, "stdout", text)
    text.write("before\n")  # still in the text layer when the engine writes
    assert _crcforge.cli(["sum", str(good)]) == 0
    text.write("after\n")
    text.flush()
    assert raw.getvalue() == f"before\ne3069283  {good}\nafter\n".encode()


def test_captured_by_pytest(capsys, files):
    good, missing = files
    assert _crcforge.cli(["sum", str(good), str(missing)]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"e3069283  {good}\n"
    assert captured.err == f"crcforge: {missing}: No such file or directory\n"


def test_no_exit_and_a_status_for_every_run(capsys):
    assert _crcforge.cli(["--help"]) == 0
    assert _crcforge.cli(["--version"]) == 0
    assert _crcforge.cli(["sum", "-j", "0"]) == 2
    assert _crcforge.cli([]) == 2
    out, err = capsys.readouterr()
    assert out.startswith("usage: crcforge COMMAND") and "crcforge " + _crcforge.__version__ in out
    assert "crcforge: -j: '0' is not a thread count from 1 to 64\n" in err


def test_getopt_starts_afresh_every_run(monkeypatch, capsys, tmp_path):
    (tmp_path / "f").write_bytes(b"hello")
    monkeypatch.chdir(tmp_path)
    hello = crc32_line(b"hello", "f")
    # A run that stops in the middle of its options leaves nothing to the next one.
    assert _crcforge.cli(["sum", "-a", "crc32", "-x", "f"]) == 2
    assert _crcforge.cli(["sum", "f", "-acrc32"]) == 0
    assert _crcforge.cli(["sum", "f", "-a", "crc32"]) == 0
    out, err = capsys.readouterr()
    assert out == hello + hello
    assert err == "crcforge: sum: unknown option '-x' (see crcforge sum --help)\n"


def test_posixly_correct_is_read_by_every_run(monkeypatch, capsys, files):
    """With POSIXLY_CORRECT the first operand ends the options, the C tool's and the
    host's alike; every run reads it again."""
    good, _ = files
    monkeypatch.setenv("POSIXLY_CORRECT", "1")
    assert _crcforge.cli(["sum", str(good), "-a", "crc32"]) == 1  # no files "-a", "crc32"
    assert capsys.readouterr() == (f"e3069283  {good}\n",
                                   "crcforge: -a: No such file or directory\n"
                                   "crcforge: crc32: No such file or directory\n")
    # "--scheduler" is a file's name then.
    host = FakeHost()
    assert _crcforge.cli(["sum", str(good), "--scheduler=x"], host) == 1
    assert host.calls == [("start", "sum")]
    assert capsys.readouterr() == (f"e3069283  {good}\n",
                                   "crcforge: --scheduler=x: No such file or directory\n")
    monkeypatch.delenv("POSIXLY_CORRECT")
    assert _crcforge.cli(["sum", str(good), "-a", "crc32"]) == 0
    assert capsys.readouterr() == (crc32_line(b"123456789", good), "")


@pytest.fixture(autouse=True)
def python_handles_sigint():
    """Python's own SIGINT handler, as in an interactive session: a shell's background job
    starts with SIGINT ignored, and Python then installs none."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def interrupt_main_thread_after(seconds):
    """SIGINT for the main thread (the one running the engine) after `seconds`, sent to it
    where a thread can be signalled; on Windows, where Ctrl-C reaches Python as the flag its
    handler sets, that flag (_thread.interrupt_main).  The timer, to cancel."""
    if hasattr(signal, "pthread_kill"):
        interrupt = signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT)
    else:
        interrupt = _thread.interrupt_main, (signal.SIGINT,)
    timer = threading.Timer(seconds, *interrupt)
    timer.start()
    return timer


@pytest.mark.posix
def test_ctrl_c_in_a_blocked_open_and_read(capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for writer in (False, True):  # no writer: open() waits; one that writes nothing: read()
        fd = os.open(fifo, os.O_RDWR) if writer else None
        timer = interrupt_main_thread_after(0.3)
        try:
            with pytest.raises(KeyboardInterrupt):
                _crcforge.cli(["sum", str(fifo)])
        finally:
            timer.cancel()
            if fd is not None:
                os.close(fd)
    assert capsys.readouterr() == ("", "")


@pytest.fixture(scope="module")
def sparse(tmp_path_factory):
    """16 GiB of holes: seconds of reading, no disk."""
    f = tmp_path_factory.mktemp("sparse") / "holes"
    with open(f, "wb") as w:
        w.truncate(16 << 30)
    yield f
    f.unlink()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_while_hashing(capsys, sparse, jobs):
    timer = interrupt_main_thread_after(0.2)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            _crcforge.cli(["sum", "-j", jobs, str(sparse)])
    finally:
        timer.cancel()
    assert time.monotonic() - start < 2.0
    assert capsys.readouterr() == ("", "")  # no value, and no message


def test_gil_released_while_hashing(capsys, monkeypatch, tmp_path):
    """Python threads run while the engine hashes (2 GiB of holes, in another thread)."""
    monkeypatch.chdir(tmp_path)
    holes = "holes"
    with open(holes, "wb") as w:
        w.truncate(2 << 30)  # about a second of reading, or more on a busy machine
    status = []
    worker = threading.Thread(target=lambda: status.append(_crcforge.cli(["sum", str(holes)])))
    start = time.monotonic()
    worker.start()
    wakeups = 0
    while worker.is_alive():
        time.sleep(0.001)  # wakes up only if the GIL is to be had: never, were it held
        wakeups += 1
    seconds = time.monotonic() - start
    assert status == [0] and wakeups >= 20, (wakeups, seconds)
    assert capsys.readouterr().out.endswith(f"  {holes}\n")


def test_threads_of_j_in_the_interpreter(capsys, monkeypatch, tmp_path):
    data = os.urandom((9 << 20) + 7)  # above the 8 MiB from which -j splits a file
    monkeypatch.chdir(tmp_path)
    f = pathlib.Path("big")
    f.write_bytes(data)
    for jobs in ("1", "3", "8"):
        assert _crcforge.cli(["sum", "-a", "crc32", "-j", jobs, str(f)]) == 0
    assert capsys.readouterr().out == crc32_line(data, f) * 3


class FakeHost(Host):
    """Host with "fake://NAME" URLs whose parts are `parts[NAME]`, recording its calls."""

    def __init__(self, parts=None):
        super().__init__()
        self.parts, self.calls = parts or {}, []

    def option(self, command, name, value):
        self.calls.append((command, name, value))
        return super().option(command, name, value)

    def start(self, command):
        self.calls.append(("start", command))
        return None  # no Dask: --scheduler is only recorded

    def remote(self, name, algo, part_size, threads):
        if not name.startswith("fake://"):
            return None
        self.calls.append(("remote", name, algo, part_size, threads))
        parts = self.parts.get(name[len("fake://"):])
        if parts is None:
            return "no such fake"
        if isinstance(algo, list):  # several -a: a tuple of values a part
            return [tuple(crcforge.new(a, p).value for a in algo) for p in parts], \
                [len(p) for p in parts]
        return [crcforge.new(algo, p).value for p in parts], [len(p) for p in parts]


def test_host_options_follow_the_c_parsers_rules(capsys, files):
    good, _ = files
    host = FakeHost()
    assert _crcforge.cli(["sum", "--sch=one", str(good), "-j2", "--scheduler", "two"], host) == 0
    assert host.calls == [("sum", "scheduler", "one"), ("sum", "scheduler", "two"),
                          ("start", "sum")]
    assert capsys.readouterr() == (f"e3069283  {good}\n", "")
    assert _crcforge.cli(["sum", str(good), "--sched"], FakeHost()) == 2
    assert capsys.readouterr() == ("", "crcforge: sum: option '--sched' needs a value\n")
    # Without the host (the C tool's options only) there is no such option.
    assert _crcforge.cli(["sum", "--scheduler=x", str(good)]) == 2
    assert "crcforge: sum: unknown option '--scheduler'" in capsys.readouterr().err


def test_timeout_and_deadline_reach_the_host_as_seconds(capsys, files):
    """--timeout and --deadline, parsed by the C parser (prefixes, --opt=value), checked by
    Host.option: seconds > 0 in ASCII digits with maybe a fraction; a bad one is exit 2
    before any input, naming the option and the value."""
    good, _ = files
    for command, operands in (["sum"], [str(good)]), (["verify"], [str(good), "s3://b/k"]):
        host = Host()  # (verify is given one operand too few: its options are read, no more)
        assert _crcforge.cli([*command, "--time=1.5", str(good), "--dead", "30",
                              "--timeout", "0.25"], host) == (0 if command == ["sum"] else 2)
        assert (host.timeout, host.deadline) == (0.25, 30.0)
        capsys.readouterr()
        for option in ("--timeout", "--deadline"):
            for bad in ("1s", "-1", ".5", "5.", "", "1e3", " 5", "\uff15", "inf", "nan"):
                assert _crcforge.cli([*command, option, bad, *operands], Host()) == 2
                assert capsys.readouterr() == (
                    "", f"crcforge: {option}: '{bad}' is not seconds as digits with an "
                        f"optional fraction (such as 1.5)\n")
            # Digits, but out of objects' range: 400 digits are inf as a float.
            for bad in ("0", "0.0", "1000000000.5", "9" * 400):
                assert _crcforge.cli([*command, option, bad, *operands], Host()) == 2
                assert capsys.readouterr() == (
                    "", f"crcforge: {option} must be a number of seconds > 0 and at most "
                        f"1e+09, not '{bad}'\n")
            assert _crcforge.cli([*command, option, "1000000000", *operands[:1]], Host()) \
                == (0 if command == ["sum"] else 2)
            capsys.readouterr()
    host = Host()
    assert _crcforge.cli(["sum", "--timeout=007", "--deadline=0.5", str(good)], host) == 0
    assert (host.timeout, host.deadline) == (7.0, 0.5)
    assert capsys.readouterr() == (f"e3069283  {good}\n", "")
    assert Host().timeout is None and Host().deadline is None  # objects' defaults
    # The C tool reads no URL: it has neither option.
    assert _crcforge.cli(["sum", "--timeout=5", str(good)]) == 2
    assert "crcforge: sum: unknown option '--timeout'" in capsys.readouterr().err


def test_help_gives_the_timeout_objects_uses():
    """The default and the attempts the C table's help states are crcforge.objects'."""
    for command in ("sum", "verify"):
        code, out, _ = run(command, "--help")
        assert code == 0 and "      --timeout=SECONDS   the connect and read timeout" in out
        assert (f"(default {objects.DEFAULT_TIMEOUT:g}; each request tried "
                f"{objects.REQUEST_ATTEMPTS} times)") in out
        assert "      --deadline=SECONDS  give up " in out


def test_remote_parts_composed_by_the_engine(capsys, files):
    good, _ = files
    host = FakeHost({"check": [b"1234", b"5678", b"9"]})
    args = ["sum", "-a", "crc32", "--part-size", "4", "-j", "3"]
    assert _crcforge.cli([*args, "fake://check", "fake://none", str(good)], host) == 1
    composite = zlib.crc32(b"".join(zlib.crc32(p).to_bytes(4, "big")
                                    for p in (b"1234", b"5678", b"9")))
    out, err = capsys.readouterr()
    assert out == f"{composite:08x}-3  fake://check\n{composite:08x}-3  {good}\n"
    assert err == "crcforge: fake://none: no such fake\n"
    assert host.calls[-2] == ("remote", "fake://check", "CRC-32/ISO-HDLC", 4, 3)
    # A custom model reaches the host as its six parameters.
    custom = "width=32,poly=0x04c11db7,init=0xffffffff,refin=1,refout=1,xorout=0xffffffff"
    host = FakeHost({"whole": [b"123456789"]})
    assert _crcforge.cli(["sum", "-a", custom, "fake://whole"], host) == 0
    assert capsys.readouterr().out == crc32_line(b"123456789", "fake://whole")
    assert host.calls[-1][2] == dict(width=32, poly=0x04C11DB7, init=0xFFFFFFFF, refin=True,
                                     refout=True, xorout=0xFFFFFFFF)


def test_remote_once_for_every_algorithm(capsys):
    """Several -a: the host reads a URL once, for the list of algorithms; posix-cksum's
    length comes from the sizes the host gives."""
    host = FakeHost({"nine": [b"123456789"]})
    assert _crcforge.cli(["sum", "-a", "crc32", "-a", "posix-cksum", "fake://nine"], host) == 0
    cksum = crcforge.new("CRC-32/CKSUM", b"123456789\x09").value  # the length, 9, appended
    assert capsys.readouterr() == (f"CRC32 (fake://nine) = {zlib.crc32(b'123456789'):08x}\n"
                                   f"POSIX-CKSUM (fake://nine) = {cksum:08x}\n", "")
    assert [c[2] for c in host.calls if c[0] == "remote"] == [["CRC-32/ISO-HDLC", "CRC-32/CKSUM"]]

    class OneValueHost(FakeHost):
        def remote(self, name, algo, part_size, threads):
            return [5], [9]

    with pytest.raises(TypeError, match="not a tuple of 2 ints"):
        _crcforge.cli(["sum", "-a", "crc32", "-a", "crc32c", "fake://x"], OneValueHost())

    class OneValueBadSizeHost(FakeHost):
        def remote(self, name, algo, part_size, threads):
            return [5], ["nine"]

    # The first error is the one raised: the bad size after it is not read.
    with pytest.raises(TypeError, match="not a tuple of 2 ints"):
        _crcforge.cli(["sum", "-a", "crc32", "-a", "crc32c", "fake://x"], OneValueBadSizeHost())


def test_a_url_is_read_once_for_every_algorithm(monkeypatch, capsys, tmp_path):
    data = os.urandom(300000)
    monkeypatch.chdir(tmp_path)
    f = pathlib.Path("data")
    f.write_bytes(data)
    reads = []
    part_crcs = objects.part_crcs
    monkeypatch.setattr(objects, "part_crcs",
                        lambda *a, **k: reads.append(a[1]) or part_crcs(*a, **k))
    for extra in (["-a", "posix-cksum"], ["--part-size", "64KiB"]):
        args = ["sum", "-a", "crc32", "-a", "crc64-nvme", "-a", "crc32c", *extra]
        reads.clear()
        assert __main__.main([*args, "-j", "2", f"file://{f}"]) == 0
        remote = capsys.readouterr().out
        assert reads == [["CRC-32/ISO-HDLC", "CRC-64/NVME", "CRC-32/ISCSI"]
                         + ["CRC-32/CKSUM"] * ("posix-cksum" in extra)]
        assert _crcforge.cli([*args, str(f)]) == 0  # the engine reads the path itself
        assert remote == capsys.readouterr().out.replace(str(f), f"file://{f}")
    assert remote.splitlines()[0].startswith("CRC32/64KiB (file://")
    assert __main__.main(["sum", "-a", "crc32", "-a", "crc32c", f"file://{f}"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == \
        f"CRC32 (file://{f}) = {zlib.crc32(data):08x}"


def test_remote_must_give_values_and_sizes(capsys, files):
    class OldHost(FakeHost):
        def remote(self, name, algo, part_size, threads):
            return [1] if name.startswith("fake://") else None

    with pytest.raises(TypeError, match="not None, a str or two lists"):
        _crcforge.cli(["sum", "fake://x"], OldHost())


def test_local_files_are_the_engines_whatever_the_scheduler(files):
    """Host hands back every name that is not a URL, with a Dask executor too: the engine
    reads local files itself."""
    good, _ = files
    host = Host()
    host.executor = object()  # as after --scheduler: never used for a path
    for name in (str(good), "-", "relative/name", "s3:not-a-url"):
        assert host.remote(name, "crc32c", 0, 4) is None


def test_an_exception_in_the_host_is_raised(capsys, files):
    good, _ = files

    class Reentrant(FakeHost):
        def remote(self, name, algo, part_size, threads):
            return _crcforge.cli(["sum", name], self)

    with pytest.raises(RuntimeError, match="cli\\(\\) called from within cli\\(\\)"):
        _crcforge.cli(["sum", str(good), str(good)], Reentrant())
    assert capsys.readouterr() == ("", "")
    assert _crcforge.cli(["sum", str(good)], FakeHost()) == 0  # the engine is free again


class VerifyHost(FakeHost):
    def __init__(self, result):
        super().__init__()
        self.result = result

    def verify(self, path, url, threads):
        self.calls.append(("verify", path, url, threads))
        return self.result


def test_verify_prints_what_the_host_found(capsys):
    found = Verification(True, "uSVqcA==-3", "uSVqcA==-3", "CRC32C", "COMPOSITE", (4, 4, 1),
                         9, 9)
    host = VerifyHost(found)
    assert _crcforge.cli(["verify", "-j2", "file", "s3://b/k"], host) == 0
    assert host.calls[-1] == ("verify", "file", "s3://b/k", 2)
    assert capsys.readouterr().out == (
        "file: OK (CRC32C COMPOSITE, 3 parts: stored uSVqcA==-3, computed uSVqcA==-3)\n")
    short = found._replace(ok=False, computed="AAAAAA==", part_sizes=(),
                           checksum_type="FULL_OBJECT", file_size=8)
    assert _crcforge.cli(["verify", "file", "s3://b/k"], VerifyHost(short)) == 1
    assert capsys.readouterr().out == ("file: FAILED (CRC32C FULL_OBJECT: stored uSVqcA==-3, "
                                       "computed AAAAAA==; 8 bytes, the object 9)\n")
    assert _crcforge.cli(["verify", "file", "s3://b/k"],
                         VerifyHost(("s3://b/k", "Access Denied"))) == 2
    assert capsys.readouterr() == ("", "crcforge: s3://b/k: Access Denied\n")
    assert _crcforge.cli(["verify", "file"], VerifyHost(found)) == 2
    assert "verify takes a FILE and a URL" in capsys.readouterr().err
