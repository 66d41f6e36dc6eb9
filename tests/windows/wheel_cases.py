# SPDX-License-Identifier: MIT
"""The installed package's bad-input and file-name cases, one record a line, written so
that the same run on Linux and on Windows (under Wine) must print the same lines: stage
46-windows-wheels runs it on both and compares.  Each value is checked here against an
independent reference too (zlib's CRC-32); a wrong one is a FAIL line and exit status 1.

Cases, through the Python API: a non-contiguous buffer, a str, a closed file, a directory,
a missing file, a missing file whose name is not valid UTF-8 ("\\udcff": a lone
surrogate, what Linux's os.fsdecode gives for the byte 0xff and what Windows allows in a
name).  Through `python
-m crcforge sum` (a child process): files with UTF-8 names, read and checked by a list
with CRLF line ends, and each bad input among good ones (the good ones still done).  With
--locked (Windows only): a file another process holds open with no sharing, which Linux
has no counterpart of; its record is printed apart, after a line "locked:".

Paths in the records are relative to the run's temporary directory, with "/" between
parts; an OSError is compared by its type, errno and file name (the wording is the
system's); the CLI's output with CRLF as LF.

Usage: python wheel_cases.py [--locked]"""
import json
import os
import subprocess
import sys
import tempfile
import zlib

import crcforge

NAMES = ["plain.txt", "café-ü.txt", "日本語.bin", "emoji-\U0001F600.dat", "space name.txt"]
# What Linux's os.fsdecode gives for the byte 0xff (surrogateescape); on Windows, a name
# with a lone surrogate.  Never created: Wine cannot (it keeps names as UTF-8 on Linux).
BAD_NAME = "bad-\udcff.bin"
failures = []


def record(case, outcome):
    print(json.dumps([case, outcome], ensure_ascii=True))


def outcome_of(call, tmp):
    """What call() does: its value, or its exception's type and message -- for an OSError
    its errno and file name (relative to tmp), not the system's wording of the error."""
    try:
        return {"value": call()}
    except OSError as e:
        name = e.filename if e.filename is None else os.path.relpath(e.filename, tmp)
        return {"raised": type(e).__name__, "errno": e.errno,
                "filename": name if name is None else name.replace(os.sep, "/")}
    except Exception as e:  # the exception is what is compared
        return {"raised": type(e).__name__, "message": str(e)}


def cli(tmp, *args):
    """python -m crcforge ARGS in tmp: exit status, stdout and stderr, decoded as
    os.fsdecode would (a Windows name's lone surrogate comes as its WTF-8 bytes), CRLF
    as LF."""
    p = subprocess.run([sys.executable, "-m", "crcforge", *args], cwd=tmp,
                       capture_output=True)
    errors = "surrogatepass" if sys.platform == "win32" else "surrogateescape"

    def text(b):
        return b.decode("utf-8", errors).replace("\r\n", "\n").replace("\\", "/")
    return {"status": p.returncode, "stdout": text(p.stdout), "stderr": text(p.stderr)}


def api_cases(tmp):
    good = os.path.join(tmp, NAMES[0])
    record("non-contiguous buffer", outcome_of(
        lambda: crcforge.crc32c(memoryview(bytes(range(16)))[::2]), tmp))
    record("str", outcome_of(lambda: crcforge.crc32c("123456789"), tmp))
    closed = open(good, "rb")
    closed.close()
    record("closed file", outcome_of(lambda: crcforge.file_checksum(closed, "crc32c"), tmp))
    record("directory", outcome_of(lambda: crcforge.file_checksum(tmp, "crc32c"), tmp))
    record("missing file", outcome_of(
        lambda: crcforge.file_checksum(os.path.join(tmp, "missing"), "crc32c"), tmp))
    record("name not UTF-8", outcome_of(
        lambda: crcforge.file_checksum(os.path.join(tmp, BAD_NAME), "crc32c"), tmp))
    for name in NAMES:
        with open(os.path.join(tmp, name), "rb") as f:
            data = f.read()
        outcome = outcome_of(lambda: crcforge.file_checksum(os.path.join(tmp, name), "crc32"),
                             tmp)
        record(f"file_checksum {name}", outcome)
        if outcome.get("value") != zlib.crc32(data):
            failures.append(f"file_checksum {name}: {outcome}, not zlib's {zlib.crc32(data):#x}")


def cli_cases(tmp):
    result = cli(tmp, "sum", "-a", "crc32", *NAMES)
    record("sum UTF-8 names", result)
    for name in NAMES:
        with open(os.path.join(tmp, name), "rb") as f:
            want = f"{zlib.crc32(f.read()):08x}  {name}"
        if want not in result["stdout"].splitlines():
            failures.append(f"sum UTF-8 names: no line {want!r} in {result['stdout']!r}")
    listing = "".join(f"{zlib.crc32(open(os.path.join(tmp, n), 'rb').read()):08x}  {n}\r\n"
                      for n in NAMES)
    with open(os.path.join(tmp, "crlf.list"), "w", encoding="utf-8", newline="") as f:
        f.write(listing)
    result = cli(tmp, "sum", "-c", "-a", "crc32", "crlf.list")
    record("sum -c CRLF list", result)
    if result["status"] != 0 or result["stdout"].count(": OK\n") != len(NAMES):
        failures.append(f"sum -c CRLF list: {result}")
    record("sum name not UTF-8", cli(tmp, "sum", BAD_NAME))
    os.mkdir(os.path.join(tmp, "adir"))
    result = cli(tmp, "sum", NAMES[0], "adir", "missing", NAMES[1])
    record("sum bad inputs among good", result)
    if result["status"] == 0 or len(result["stdout"].splitlines()) != 2:
        failures.append(f"sum bad inputs among good: the good ones not both done: {result}")


def locked_case(tmp):
    """A file held open with no sharing by another process (Windows: CreateFile, share 0)."""
    path = os.path.join(tmp, "locked.bin")
    with open(path, "wb") as f:
        f.write(b"123456789")
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import _winapi, sys, time\n"
         "h = _winapi.CreateFile(sys.argv[1], 0xC0000000, 0, 0, 3, 0x80, 0)\n"
         "print('held', flush=True)\n"
         "sys.stdin.read()\n", path],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if holder.stdout.readline().strip() != "held":
            failures.append("locked: the holding process did not take the file")
            return
        print("locked:")
        outcome = outcome_of(lambda: crcforge.file_checksum(path, "crc32c"), tmp)
        record("file_checksum locked", outcome)
        if (outcome.get("raised"), outcome.get("errno"), outcome.get("filename")) != \
                ("PermissionError", 13, "locked.bin"):
            failures.append(f"file_checksum locked: {outcome}, not PermissionError 13 naming it")
        result = cli(tmp, "sum", NAMES[0], "locked.bin", NAMES[1])
        record("sum locked among good", result)
        if (result["status"] != 1 or len(result["stdout"].splitlines()) != 2
                or not result["stderr"].startswith("crcforge: locked.bin: ")):
            failures.append(f"sum locked among good: {result}")
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    record("file_checksum after release", outcome_of(
        lambda: crcforge.file_checksum(path, "crc32c"), tmp))


def main():
    locked = sys.argv[1:] == ["--locked"]
    if sys.argv[1:] not in ([], ["--locked"]):
        sys.exit("usage: python wheel_cases.py [--locked]")
    with tempfile.TemporaryDirectory() as tmp:
        for i, name in enumerate(NAMES):
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(bytes(range(i * 37 % 256)) * (i + 1) + name.encode())
        api_cases(tmp)
        cli_cases(tmp)
        if locked:
            locked_case(tmp)
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
