# SPDX-License-Identifier: MIT
"""Progress of `sum` on stderr, on both tools: shown for inputs that take more than about a
second, by default only when stderr is a terminal (a pty here), forced either way with
--progress and --no-progress, and never mixed into the values on stdout.

Inputs are slowed to a known rate by the fault shim (tests/faults/fault_shim.c, "rate=N")."""
import fcntl
import os
import pty
import re
import struct
import subprocess
import termios
import threading
import zlib

import pytest

RATE = 2 << 20  # bytes a second: 4 MiB take 2 s
DATA = bytes(range(256)) * (4 << 12)  # 4 MiB
SIZE_RE = r"[0-9.]+ (B|KiB|MiB)"


def lines(out):
    return out.decode().splitlines()


@pytest.fixture
def slow(shim, tool, tmp_path):
    """A 4 MiB file read at RATE, a small one after it, and how to run the tool on them with
    stderr where asked: (exit code, stdout, stderr as written)."""
    big, small = tmp_path / "big", tmp_path / "small"
    big.write_bytes(DATA)
    small.write_bytes(b"123456789")
    want = [f"{zlib.crc32(DATA):08x}  {big}", f"{zlib.crc32(b'123456789'):08x}  {small}"]

    def _run(*args, stderr=subprocess.PIPE, data=None):
        env = dict(os.environ, LD_PRELOAD=str(shim), CRCFORGE_FAULT=f"rate={RATE}")
        env.pop("CRCFORGE_IMPL", None)
        if data is None:
            env["CRCFORGE_FAULT_FILE"] = str(big)
            names = [str(big), str(small)]
        else:  # a pipe on standard input
            env["CRCFORGE_FAULT_FD"] = "0"
            names = []
        p = subprocess.run([*tool, "sum", "-a", "crc32", *args, *names], input=data or b"",
                           stdout=subprocess.PIPE, stderr=stderr, env=env, timeout=120)
        return p.returncode, p.stdout, p.stderr

    return _run, want


def test_forced_progress_into_a_pipe(slow):
    run, want = slow
    code, out, err = run("--progress")
    assert (code, lines(out)) == (0, want)
    text = err.decode()
    assert text.endswith("\n") and "\r" not in text and "\033" not in text
    *updates, last = text.splitlines()
    big = want[0].split("  ")[1]
    update = re.compile(rf"crcforge: {re.escape(big)}: {SIZE_RE} of 4\.0 MiB \((\d+)%\), "
                        rf"{SIZE_RE}/s, \d+:\d\d left")
    assert updates and all(update.fullmatch(u) for u in updates), updates
    percents = [int(update.fullmatch(u).group(2)) for u in updates]
    assert percents == sorted(percents) and 0 < percents[0] <= 100
    # The last line has the total; nothing for the small file, read in no time.
    assert re.fullmatch(rf"crcforge: {re.escape(big)}: 4\.0 MiB in [0-9.]+ s \({SIZE_RE}/s\)",
                        last), last


def test_forced_progress_of_a_pipe_has_no_size(slow):
    run, _ = slow
    code, out, err = run("--progress", data=DATA)
    assert (code, lines(out)) == (0, [f"{zlib.crc32(DATA):08x}  -"])
    *updates, last = err.decode().splitlines()
    assert updates and all(re.fullmatch(rf"crcforge: -: {SIZE_RE}, {SIZE_RE}/s", u)
                           for u in updates), updates
    assert re.fullmatch(rf"crcforge: -: 4\.0 MiB in [0-9.]+ s \({SIZE_RE}/s\)", last), last


@pytest.mark.parametrize("args", [[], ["--no-progress"], ["--progress", "--no-progress"]])
def test_no_progress_unless_on_a_terminal_or_forced(slow, args):
    run, want = slow
    assert run(*args) == (0, "\n".join(want).encode() + b"\n", b"")


def test_short_inputs_show_nothing(tool, tmp_path):
    f = tmp_path / "f"
    f.write_bytes(DATA)
    p = subprocess.run([*tool, "sum", "--progress", str(f)], capture_output=True, timeout=60)
    assert p.returncode == 0 and p.stderr == b""


def on_a_terminal(run, *args, columns=200):
    """Runs with stderr on a pty of that width: (exit code, stdout, what the pty showed)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    shown = bytearray()

    def read():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO once the last writer closed the slave
                return
            if not chunk:
                return
            shown.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        code, out, _ = run(*args, stderr=slave)
    finally:
        os.close(slave)
        reader.join(timeout=30)
        os.close(master)
    return code, out, bytes(shown)


@pytest.mark.parametrize("args", [[], ["-j2"]])
def test_progress_on_a_terminal(slow, args):
    run, want = slow
    code, out, shown = on_a_terminal(run, *args)
    assert (code, lines(out)) == (0, want)  # stdout holds the values alone
    text = shown.decode()
    big = want[0].split("  ")[1]
    # One line rewritten in place: carriage return, the line, erase to its end; then
    # cleared, before the value is printed.
    updates = re.findall(rf"\r(crcforge: {re.escape(big)}: [^\r\n\033]*)\033\[K", text)
    assert updates, repr(text)
    assert all(re.fullmatch(rf"crcforge: \S+: {SIZE_RE} of 4\.0 MiB \(\d+%\), {SIZE_RE}/s, "
                            r"\d+:\d\d left", u) for u in updates), updates
    assert text.endswith("\r\033[K") and "\n" not in text


def test_no_progress_on_a_terminal_when_asked(slow):
    run, want = slow
    assert on_a_terminal(run, "--no-progress") == (0, "\n".join(want).encode() + b"\n", b"")


def test_progress_line_fits_the_terminal(slow):
    run, want = slow
    code, out, shown = on_a_terminal(run, columns=80)
    assert (code, lines(out)) == (0, want)
    updates = re.findall(r"\r([^\r\033]+)\033\[K", shown.decode())
    assert updates and all(len(u) <= 79 for u in updates), (updates, shown)
    # A name too long for the line is cut at its front, where paths differ least.
    assert all(u.startswith("crcforge: ...") and "/big: " in u for u in updates), updates
