# SPDX-License-Identifier: MIT
"""The crcforge CLI against the contract in docs/DESIGN.md, with independent values."""
import base64
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import zlib

import needs
import pytest

anycrc = needs.module("anycrc")
needs.module("awscrt.checksums", "awscrt")
import awscrt.checksums  # noqa: E402

CRC32C = anycrc.CRC(width=32, poly=0x1EDC6F41, init=0xFFFFFFFF, refin=True, refout=True,
                    xorout=0xFFFFFFFF)


def lines(out):
    return out.decode().splitlines()


def test_sum_stdin_check_value(run):
    code, out, err = run("sum", stdin=b"123456789")
    assert (code, lines(out), err) == (0, ["e3069283  -"], "")


def test_sum_dash_is_stdin(run):
    code, out, _ = run("sum", "-a", "crc32", "-", stdin=b"hello")
    assert code == 0 and lines(out) == [f"{zlib.crc32(b'hello'):08x}  -"]


def test_base64_format(run):
    code, out, _ = run("sum", "--format", "base64", stdin=b"123456789")
    assert code == 0 and lines(out) == ["4waSgw==  -"]
    data = os.urandom(1000)
    code, out, _ = run("sum", "-a", "crc64-nvme", "--format", "base64", stdin=data)
    nvme = anycrc.CRC(width=64, poly=0xAD93D23594C93659, init=(1 << 64) - 1, refin=True,
                      refout=True, xorout=(1 << 64) - 1)
    want = base64.b64encode(nvme.calc(data).to_bytes(8, "big")).decode()
    assert lines(out) == [f"{want}  -"]


def test_base64_le_format_is_azures(run, tmp_path):
    """--format base64-le: the value's little-endian bytes, as Azure's x-ms-content-crc64
    carries CRC-64/NVME (Azure's own vector: 123456789 gives iJh5CoYUi64=, where S3's
    big-endian base64 is rosUhgp5mIg=); for every width, the ceil(width/8) bytes of the
    catalogue's check value, low byte first.  sum -c reads both forms back."""
    code, out, _ = run("sum", "-a", "crc64-nvme", "--format", "base64-le", stdin=CHECK_DATA)
    assert (code, lines(out)) == (0, ["iJh5CoYUi64=  -"])
    code, out, _ = run("sum", "-a", "crc64-nvme", "--format", "base64", stdin=CHECK_DATA)
    assert (code, lines(out)) == (0, ["rosUhgp5mIg=  -"])
    data = os.urandom(1000)
    nvme = anycrc.CRC(width=64, poly=0xAD93D23594C93659, init=(1 << 64) - 1, refin=True,
                      refout=True, xorout=(1 << 64) - 1)
    code, out, _ = run("sum", "-a", "crc64-nvme", "--format=base64-le", stdin=data)
    assert lines(out) == [base64.b64encode(nvme.calc(data).to_bytes(8, "little")).decode()
                          + "  -"]
    for name, width, check in (("crc-5/usb", 5, 0x19), ("crc-12/dect", 12, 0xF5B),
                               ("crc-24/openpgp", 24, 0x21CF02), ("crc32c", 32, 0xE3069283),
                               ("crc-40/gsm", 40, 0xD4164FC646)):
        want = base64.b64encode(check.to_bytes((width + 7) // 8, "little")).decode()
        code, out, err = run("sum", "-a", name, "--format", "base64-le", stdin=CHECK_DATA)
        assert (code, lines(out), err) == (0, [f"{want}  -"], "")
    a = tmp_path / "a"
    a.write_bytes(CHECK_DATA)
    listfile = tmp_path / "list"
    listfile.write_text(f"iJh5CoYUi64=  {a}\n")
    code, out, err = run("sum", "-c", "-a", "crc64-nvme", "--format", "base64-le", str(listfile))
    assert (code, lines(out), err) == (0, [f"{a}: OK"], "")
    # The same text read as big-endian base64 is another value: FAILED, not OK.
    code, out, _ = run("sum", "-c", "-a", "crc64-nvme", "--format", "base64", str(listfile))
    assert (code, lines(out)) == (1, [f"{a}: FAILED"])


def test_base64_le_has_no_composite_form(run, tmp_path):
    code, out, err = run("sum", "--format", "base64-le", "--part-size", "4", stdin=CHECK_DATA)
    assert (code, out) == (2, b"")
    assert err == ("crcforge: sum: base64-le has no composite form (--part-size): S3's "
                   "composite checksums are big-endian, and Azure has none\n")
    a = tmp_path / "a"
    a.write_bytes(CHECK_DATA)
    listfile = tmp_path / "list"
    listfile.write_text(f"CRC32C/base64-le/4 ({a}) = g5IG4w==-3\n")
    code, out, err = run("sum", "-c", "--warn", str(listfile))
    assert (code, out) == (1, b"")
    assert "improperly formatted CRC32C checksum line (base64-le has no composite form" in err


def test_many_files_every_algorithm_alias(run, tmp_path):
    files = []
    for i, n in enumerate([0, 1, 100, 65536, 300001]):
        f = tmp_path / f"f{i}"
        f.write_bytes(os.urandom(n))
        files.append(f)
    oracles = {
        "crc32c": (CRC32C.calc, 8),
        "crc32": (zlib.crc32, 8),
        "crc64-xz": (anycrc.CRC(width=64, poly=0x42F0E1EBA9EA3693, init=(1 << 64) - 1,
                                refin=True, refout=True, xorout=(1 << 64) - 1).calc, 16),
        "crc16-xmodem": (anycrc.CRC(width=16, poly=0x1021, init=0, refin=False, refout=False,
                                    xorout=0).calc, 4),
        "CRC-5/USB": (anycrc.CRC(width=5, poly=0x05, init=0x1F, refin=True, refout=True,
                                 xorout=0x1F).calc, 2),
    }
    for algo, (oracle, digits) in oracles.items():
        code, out, err = run("sum", "-a", algo, *map(str, files))
        assert code == 0, err
        assert lines(out) == [f"{oracle(f.read_bytes()):0{digits}x}  {f}" for f in files]


def test_custom_parameters(run):
    code, out, _ = run("sum", "-a", "width=16,poly=0x1021,init=0xffff,refin=false,"
                       "refout=false,xorout=0", stdin=b"123456789")
    assert code == 0 and lines(out) == ["29b1  -"]  # CRC-16/IBM-3740's check value
    code, _, err = run("sum", "-a", "width=16,poly=0x11021,init=0,refin=false,refout=false,"
                       "xorout=0", stdin=b"")
    assert code == 2 and "poly has bits above the width" in err
    code, _, err = run("sum", "-a", "width=16,poly=0x1021", stdin=b"")
    assert code == 2 and "init is missing" in err


CHECK_PARAMS = "width=16,poly=0x1021,init=0xffff,refin=false,refout=false,xorout=0"


@pytest.mark.parametrize("algo, reason", [
    (CHECK_PARAMS + ",init=0", "init given twice"),
    ("refin=true," + CHECK_PARAMS, "refin given twice"),
    (CHECK_PARAMS.replace("init=0xffff", "init= -1"), "bad value ' -1' for init"),
    (CHECK_PARAMS.replace("init=0xffff", "init= 65535"), "bad value ' 65535' for init"),
    (CHECK_PARAMS.replace("init=0xffff", "init=+65535"), "bad value '+65535' for init"),
    (CHECK_PARAMS.replace(",poly", ",,poly"), "empty item"),
    (CHECK_PARAMS + ",", "empty item"),
    ("," + CHECK_PARAMS, "empty item"),
])
def test_custom_parameters_mistakes(run, algo, reason):
    code, out, err = run("sum", "-a", algo, stdin=b"123456789")
    assert (code, out) == (2, b"") and f"algorithm '{algo}': {reason}" in err, err


def test_unknown_algorithm(run):
    code, out, err = run("sum", "-a", "crc-99/nothing", stdin=b"x")
    assert code == 2 and out == b""
    assert "unknown algorithm 'crc-99/nothing'" in err


def test_bad_inputs_do_not_stop_the_others(run, tmp_path):
    good = tmp_path / "good"
    good.write_bytes(b"123456789")
    missing = tmp_path / "missing"
    directory = tmp_path / "dir"
    directory.mkdir()
    code, out, err = run("sum", str(missing), str(good), str(directory), str(good))
    assert code == 1  # sha256sum's status, as test_unreadable_file checks
    assert lines(out) == [f"e3069283  {good}", f"e3069283  {good}"]
    assert f"crcforge: {missing}: No such file or directory" in err
    assert f"crcforge: {directory}: Is a directory" in err


def test_unreadable_file(tool):
    # A directory of its own that the unprivileged user below can enter.
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        secret = pathlib.Path(d, "secret")
        secret.write_bytes(b"abc")
        secret.chmod(0)
        good = pathlib.Path(d, "good")
        good.write_bytes(b"123456789")
        user = []
        if os.geteuid() == 0:  # root reads anything: drop to nobody for this run
            if shutil.which("setpriv") is None:
                pytest.skip("running as root without setpriv")
            user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        p = subprocess.run([*user, *tool, "sum", str(secret), str(good)], capture_output=True)
        # sha256sum, in the same place, gives the status to match: 1.
        sha = subprocess.run([*user, "sha256sum", str(secret), str(good)], capture_output=True)
        assert (sha.returncode, len(sha.stdout.splitlines())) == (1, 1), sha.stderr
        assert p.returncode == sha.returncode, p.stderr
        assert lines(p.stdout) == [f"e3069283  {good}"]
        assert f"crcforge: {secret}: Permission denied" in p.stderr.decode()


def test_verify(run, tmp_path):
    a, b, c = (tmp_path / n for n in "abc")
    a.write_bytes(b"123456789")
    b.write_bytes(b"hello")
    list_ok = tmp_path / "ok.txt"
    list_ok.write_text(f"e3069283  {a}\n{CRC32C.calc(b'hello'):08X}  {b}\n")
    code, out, err = run("sum", "-c", str(list_ok))
    assert (code, lines(out), err) == (0, [f"{a}: OK", f"{b}: OK"], "")

    list_bad = tmp_path / "bad.txt"
    list_bad.write_text(f"00000000  {a}\n{CRC32C.calc(b'hello'):08x}  {b}\n")
    code, out, _ = run("sum", "-c", str(list_bad))
    assert (code, lines(out)) == (1, [f"{a}: FAILED", f"{b}: OK"])

    list_missing = tmp_path / "missing.txt"
    list_missing.write_text(f"e3069283  {c}\nnot a line\ne3069283  {a}\n")
    code, out, err = run("sum", "-c", str(list_missing))
    assert code == 1 and lines(out) == [f"{c}: FAILED open or read", f"{a}: OK"]
    assert err.splitlines() == [f"crcforge: {c}: No such file or directory",
                                "crcforge: WARNING: 1 line is improperly formatted",
                                "crcforge: WARNING: 1 listed file could not be read"]

    b64 = tmp_path / "b64.txt"
    b64.write_text(f"4waSgw==  {a}\n")
    code, out, _ = run("sum", "-c", "--format", "base64", str(b64))
    assert (code, lines(out)) == (0, [f"{a}: OK"])


def test_verify_crlf_list_and_line_numbers(run, tmp_path):
    a = tmp_path / "a"
    a.write_bytes(b"123456789")
    listfile = tmp_path / "list"
    listfile.write_bytes(f"e3069283  {a}\r\n\r\nnot a line\r\nE3069283  {a}\r\n".encode())
    code, out, err = run("sum", "-c", str(listfile))
    assert code == 0 and out == f"{a}: OK\n{a}: OK\n".encode()
    assert err == "crcforge: WARNING: 1 line is improperly formatted\n"
    code, out, err = run("sum", "-c", "--warn", str(listfile))
    assert code == 0 and out == f"{a}: OK\n{a}: OK\n".encode()
    message, summary = err.splitlines()
    assert message.startswith(f"crcforge: {listfile}: 3: improperly formatted CRC32C checksum "
                              "line")
    assert summary == "crcforge: WARNING: 1 line is improperly formatted"
    code, out, err = run("sum", "-c", "--strict", str(listfile))  # a bad line fails it
    assert code == 1 and out == f"{a}: OK\n{a}: OK\n".encode()


@pytest.mark.parametrize("fmt, line", [
    ("hex", b"e3069283x  NAME"), ("hex", b"e306928  NAME"), ("hex", b"0e3069283  NAME"),
    ("hex", b"e306928g  NAME"), ("hex", b"+e306928  NAME"), ("hex", b"e3069283  NAME\0x"),
    ("base64", b"4waSgw=  NAME"), ("base64", b"4waSgw===  NAME"), ("base64", b"4waSg===  NAME"),
    ("base64", b"4wa!gw==  NAME"), ("base64", b"4waSgw==  NAME\0x"),
])
def test_verify_value_must_have_the_models_width(run, tmp_path, fmt, line):
    # A value that is not exactly what `sum` prints for the model is a bad line, not
    # FAILED; and so is a line holding a NUL, which would end the name early.
    a = tmp_path / "a"
    a.write_bytes(b"123456789")
    good = b"e3069283" if fmt == "hex" else b"4waSgw=="
    listfile = tmp_path / "list"
    listfile.write_bytes(line.replace(b"NAME", bytes(a)) + b"\n" + good + b"  " + bytes(a) + b"\n")
    code, out, err = run("sum", "-c", "--strict", "--warn", "--format", fmt, str(listfile))
    assert (code, lines(out)) == (1, [f"{a}: OK"]), err
    assert f"crcforge: {listfile}: 1: improperly formatted CRC32C" in err


@pytest.mark.parametrize("content", [b"", b"\n", b"\n\n\n"])
def test_verify_nothing_to_check(run, tmp_path, content):
    listfile = tmp_path / "list"
    listfile.write_bytes(content)
    code, out, err = run("sum", "-c", str(listfile))
    assert (code, out) == (1, b"")
    assert err == f"crcforge: {listfile}: no properly formatted checksum lines found\n"
    code, out, err = run("sum", "-c", "-", stdin=content)
    assert (code, out) == (1, b"")
    assert err == "crcforge: standard input: no properly formatted checksum lines found\n"


def test_list(run, catalogue):
    code, out, _ = run("list")
    assert code == 0 and len(lines(out)) == len(catalogue) >= 100
    iscsi = next(m for m in catalogue if m["name"] == "CRC-32/ISCSI")
    assert iscsi["check"] == 0xE3069283 and "crc32c" in iscsi["aliases"]


def test_cpu(run):
    code, out, _ = run("cpu", "--impls")
    assert code == 0 and "portable" in lines(out)
    code, out, _ = run("cpu")
    assert code == 0 and lines(out)[0].startswith("features:")
    for impl in lines(run("cpu", "--impls")[1]):
        code, out, err = run("sum", env={"CRCFORGE_IMPL": impl}, stdin=b"123456789")
        assert (code, lines(out)) == (0, ["e3069283  -"]), (impl, err)


def test_cpu_names_the_bad_argument(run):
    for args in (["--impls", "extra"], ["extra"], ["extra", "--impls"]):
        code, out, err = run("cpu", *args)
        assert (code, out) == (2, b"") and "unknown argument 'extra'" in err, (args, err)
    for args in (["--impls", "-x"], ["extra", "-x"], ["--impls=yes"]):
        code, out, err = run("cpu", *args)
        bad = "option '--impls' takes no value" if "=" in args[0] else "unknown option '-x'"
        assert (code, out) == (2, b"") and bad in err, (args, err)


def test_bad_impl_and_usage(run):
    code, _, err = run("sum", env={"CRCFORGE_IMPL": "warp-drive"}, stdin=b"")
    assert code == 2 and "CRCFORGE_IMPL=warp-drive" in err
    assert run("frobnicate")[0] == 2
    assert run("sum", "--format", "octal")[0] == 2
    assert run("sum", "-j", "0")[0] == 2


def test_parallel_sum_matches(run, tmp_path):
    big = tmp_path / "big"
    data = os.urandom(20 << 20)
    big.write_bytes(data)
    for j in ("1", "2", "3", "7"):
        code, out, _ = run("sum", "-a", "crc32", "-j", j, str(big))
        assert (code, lines(out)) == (0, [f"{zlib.crc32(data):08x}  {big}"])


BENCH_PROBE = ["--sizes", "8", "--offsets", "0", "--repeat", "1", "--min-time", "0",
               "-i", "portable"]  # one tiny measurement: only its output matters here


def run_to_full(tool, *args):
    """Runs the tool with standard output on /dev/full, where every write fails."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    env = {k: v for k, v in os.environ.items() if k != "CRCFORGE_IMPL"}
    with open("/dev/full", "wb") as full:
        p = subprocess.run([*tool, *args], stdin=subprocess.DEVNULL, stdout=full,
                           stderr=subprocess.PIPE, env=env, timeout=600)
    return p.returncode, p.stderr.decode(errors="replace")


@pytest.mark.parametrize("args", [["sum"], ["--version"], ["--help"]])
def test_output_write_failure(tool, args):
    code, err = run_to_full(tool, *args)
    assert code == 2 and "crcforge: standard output: No space left on device" in err, err


def test_verify_output_write_failure(tool, tmp_path):
    data = tmp_path / "data"
    data.write_bytes(b"123456789")
    listfile = tmp_path / "list"
    listfile.write_text(f"00000000  {data}\n")  # a FAILED line: 1, unless it is lost
    code, err = run_to_full(tool, "sum", "-c", str(listfile))
    assert code == 2 and "crcforge: standard output: No space left on device" in err, err


@pytest.mark.parametrize("args", [["list"], ["cpu"], ["cpu", "--impls"], ["keyslot", "k"]])
def test_output_write_failure_other_commands(tool, args):
    code, err = run_to_full(tool, *args)
    assert code == 2 and "crcforge: standard output: No space left on device" in err, err


@pytest.mark.c_only
@pytest.mark.parametrize("args", [
    ["bench", "--help"], ["bench", *BENCH_PROBE], ["bench", *BENCH_PROBE, "--csv"],
    ["bench", *BENCH_PROBE, "--json"],
])
def test_output_write_failure_bench(tool, args):
    code, err = run_to_full(tool, *args)
    assert code == 2 and "crcforge: standard output: No space left on device" in err, err


def run_to(tool, stdout, *args, cwd=None):
    """Runs the tool with its standard output on `stdout` (a file object, or "closed")."""
    if stdout == "closed":  # the shell closes fd 1 before the tool starts (`>&-`)
        cmd, stdout = ["sh", "-c", 'exec "$@" >&-', "sh", *tool, *args], None
    else:
        cmd = [*tool, *args]
    return subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, cwd=cwd, timeout=600)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_standard_output_failure_is_reported(tool, tmp_path):
    good = tmp_path / "good"
    good.write_bytes(b"123456789")
    listfile = tmp_path / "list"
    listfile.write_text(f"e3069283  {good}\n")
    for args in (["sum", str(good)], ["sum", "-c", str(listfile)],
                 ["sum", str(tmp_path / "missing"), str(good)]):
        with open("/dev/full", "wb") as full:
            p = run_to(tool, full, *args)
        err = p.stderr.decode(errors="replace")
        assert p.returncode == 2, (args, err)
        assert "crcforge: standard output: No space left on device\n" in err, (args, err)
        assert "Traceback" not in err
    # The other inputs were still processed and reported, before the output's failure.
    assert err.index("missing: No such file or directory") < err.index("standard output")


def test_closed_standard_output_is_reported(tool, tmp_path):
    good = tmp_path / "good"
    good.write_bytes(b"123456789")
    p = run_to(tool, "closed", "sum", str(good))
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 2 and "Traceback" not in err, err
    assert "crcforge: standard output: Bad file descriptor\n" in err


def test_closed_standard_input_is_reported(tool):
    for args, code, name in ((["sum"], 1, "-"), (["sum", "-c", "-"], 1, "standard input"),
                             (["sum", "-c"], 1, "standard input"), (["keyslot"], 2, "-")):
        p = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *tool, *args],
                           capture_output=True, timeout=60)
        err = p.stderr.decode(errors="replace")
        assert p.returncode == code and "Traceback" not in err, (args, err)
        assert f"crcforge: {name}: Bad file descriptor\n" in err, (args, err)


def test_broken_pipe_ends_quietly(tool, tmp_path):
    """Like `crcforge sum ... | head -1`: the reader goes away, the tool dies of SIGPIPE
    as C tools do, with nothing on stderr."""
    (tmp_path / "f").write_bytes(b"123456789")
    names = ["f"] * 50000  # ~600 KB of output: far more than a pipe holds
    p = subprocess.Popen([*tool, "sum", *names], cwd=tmp_path, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert p.stdout.readline() == b"e3069283  f\n"
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == -signal.SIGPIPE, err
    assert err == b""


def test_verify_lines_with_nul_bytes(run, tmp_path):
    """A list line holding a NUL byte is improperly formatted (no name holds one), wherever
    the NUL is; the lines after it are still checked."""
    (tmp_path / "a").write_bytes(b"123456789")
    listfile = tmp_path / "list"
    listfile.write_bytes(b"e3069283  a\0junk\n"      # a NUL inside the name
                         b"e3069283  \0a\n"          # no name before the NUL
                         b"\0\n"                     # nothing before the NUL
                         b"e3069283\0  a\n"          # no separator before the NUL
                         b"e3069283  a\n")
    code, out, err = run("sum", "-c", "--warn", "list", cwd=tmp_path)
    assert (code, lines(out)) == (0, ["a: OK"]), err
    assert [line.split(" (")[0] for line in err.splitlines()] == [
        f"crcforge: list: {n}: improperly formatted CRC32C checksum line" for n in (1, 2, 3, 4)
    ] + ["crcforge: WARNING: 4 lines are improperly formatted"]


def custom_algo(**changes):
    params = dict(width="16", poly="0x1021", init="0", refin="false", refout="false",
                  xorout="0")
    params.update(changes)
    return ",".join(f"{k}={v}" for k, v in params.items())


def test_custom_numbers_read_as_strtoull(run):
    """Numbers in custom parameters read as C's strtoull(s, &end, 0): hexadecimal after
    0x, octal after a 0, decimal otherwise, and nothing after the digits."""
    data = b"123456789"
    xmodem = anycrc.CRC(width=16, poly=0o10041, init=0, refin=False, refout=False,
                        xorout=0).calc(data)
    for poly in ("010041", "0x1021", "0X1021", "4129"):  # 010041 is octal: 0x1021
        code, out, err = run("sum", "-a", custom_algo(poly=poly), stdin=data)
        assert (code, lines(out)) == (0, [f"{xmodem:04x}  -"]), (poly, err)
    xz = custom_algo(width="64", poly="0x42F0E1EBA9EA3693", init="01777777777777777777777",
                     refin="true", refout="true", xorout="18446744073709551615")
    code, out, err = run("sum", "-a", xz, stdin=data)
    assert (code, lines(out)) == (0, ["995dc9bbdf1939fa  -"]), err  # CRC-64/XZ's check
    for bad in ("0x10_21", "0x1021 ", "0b1", "0o10041", "", "0x", "08", "4129x", "-1",
                "18446744073709551616", "\uff11"):  # the last: a full-width digit one
        code, out, err = run("sum", "-a", custom_algo(poly=bad), stdin=data)
        assert (code, out) == (2, b""), bad
        assert f"bad value '{bad}' for poly" in err, (bad, err)


def test_names_are_printed_as_their_bytes(tool, tmp_path):
    """A name that is not UTF-8 goes to stdout and stderr byte for byte, as given."""
    good = os.fsencode(tmp_path) + b"/caf\xe9"  # Latin-1
    missing = os.fsencode(tmp_path) + b"/gone\xff"
    with open(good, "wb") as f:
        f.write(b"123456789")
    p = subprocess.run([*tool, "sum", good, missing], capture_output=True, timeout=60)
    assert p.returncode == 1
    assert p.stdout == b"e3069283  " + good + b"\n"
    assert p.stderr == b"crcforge: " + missing + b": No such file or directory\n"
    listfile = os.fsencode(tmp_path) + b"/list\xfe"
    with open(listfile, "wb") as f:
        f.write(b"e3069283  " + good + b"\ne3069283  " + missing + b"\n")
    p = subprocess.run([*tool, "sum", "-c", listfile], capture_output=True, timeout=60)
    assert (p.returncode, p.stdout) == (1, good + b": OK\n" + missing + b": FAILED open or read\n")
    assert p.stderr == (b"crcforge: " + missing + b": No such file or directory\n"
                        b"crcforge: WARNING: 1 listed file could not be read\n")
    p = subprocess.run([*tool, "sum", "-c", missing], capture_output=True, timeout=60)
    assert p.stderr == b"crcforge: " + missing + b": No such file or directory\n"


def test_thread_count_is_ascii_digits(run):
    for j in ("1", "7", "64", "007"):
        code, out, err = run("sum", "-j", j, stdin=b"123456789")
        assert (code, lines(out)) == (0, ["e3069283  -"]), (j, err)
    for j in ("\u0663", "\u00b2", "\uff13",  # Arabic-Indic three, superscript two, full-width three
              "3x", "3 ", "", "x", "0", "65", "-1", "99999999999999999999"):
        code, out, err = run("sum", "-j", j, stdin=b"123456789")
        assert (code, out) == (2, b""), j
        assert err == f"crcforge: -j: '{j}' is not a thread count from 1 to 64\n", (j, err)


# Options as GNU getopt_long reads them, on both tools: each spelling of the same request
# gives the value an independent CRC gives.
CHECK_DATA = b"123456789"
CRC32_CHECK_B64 = base64.b64encode(zlib.crc32(CHECK_DATA).to_bytes(4, "big")).decode()


@pytest.mark.parametrize("args", [
    ["-a", "crc32", "--format", "base64"],
    ["--algorithm=crc32", "--format=base64"],
    ["--algorithm", "crc32", "--format=base64"],
    ["-acrc32", "--form=base64"],           # a long name's unique prefix
    ["--alg=crc32", "--f", "base64"],
    ["-j2", "-acrc32", "--format=base64"],
    ["-j", "2", "--jobs=3", "-a", "crc32", "--format", "base64"],
])
def test_option_spellings(run, tmp_path, args):
    f = tmp_path / "data"
    f.write_bytes(CHECK_DATA)
    code, out, err = run("sum", *args, str(f))
    assert (code, lines(out), err) == (0, [f"{CRC32_CHECK_B64}  {f}"], "")


@pytest.mark.parametrize("args", [
    ["-c", "-a", "crc32", "LIST"],
    ["-ca", "crc32", "LIST"],       # bundled letters, the last taking the next argument
    ["-cacrc32", "LIST"],           # ... or the rest of its own
    ["-cj2", "-acrc32", "LIST"],
    ["LIST", "-c", "--algorithm=crc32"],  # options after the operand (GNU permutation)
    ["--check", "--algorithm", "crc32", "--", "LIST"],
])
def test_check_option_spellings(run, tmp_path, args):
    f = tmp_path / "data"
    f.write_bytes(CHECK_DATA)
    listfile = tmp_path / "list"
    listfile.write_text(f"{zlib.crc32(CHECK_DATA):08x}  {f}\n")
    argv = [str(listfile) if a == "LIST" else a for a in args]
    code, out, err = run("sum", *argv)
    assert (code, lines(out), err) == (0, [f"{f}: OK"], "")


def test_double_dash_and_posixly_correct(run, tmp_path):
    (tmp_path / "-a").write_bytes(CHECK_DATA)
    (tmp_path / "f").write_bytes(b"hello")
    want_check = f"{zlib.crc32(CHECK_DATA):08x}"
    want_hello = f"{zlib.crc32(b'hello'):08x}"
    # After "--" every argument is a name, "-a" too; the options before still count.
    code, out, err = run("sum", "-a", "crc32", "--", "-a", "f", cwd=tmp_path)
    assert (code, lines(out), err) == (0, [f"{want_check}  -a", f"{want_hello}  f"], "")
    # Options may follow the names ...
    code, out, err = run("sum", "f", "-a", "crc32", cwd=tmp_path)
    assert (code, lines(out), err) == (0, [f"{want_hello}  f"], "")
    # ... unless POSIXLY_CORRECT asks for the first name to end them, as getopt does.
    code, out, err = run("sum", "f", "-a", "crc32", cwd=tmp_path,
                         env={"POSIXLY_CORRECT": "1"})
    assert code == 1 and lines(out) == [f"{CRC32C.calc(b'hello'):08x}  f",
                                        f"{CRC32C.calc(CHECK_DATA):08x}  -a"]
    assert "crcforge: crc32: No such file or directory" in err


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "sum: unknown option '--bogus'"),
    (["--bogus=1"], "sum: unknown option '--bogus'"),
    (["-x"], "sum: unknown option '-x'"),
    (["-cx"], "sum: unknown option '-x'"),
    (["-xc"], "sum: unknown option '-x'"),
    (["--format=hex", "-cy"], "sum: unknown option '-y'"),
    (["-j"], "sum: option '-j' needs a value"),
    (["-cj"], "sum: option '-j' needs a value"),
    (["--jobs"], "sum: option '--jobs' needs a value"),
    (["--form"], "sum: option '--form' needs a value"),
    (["FILE", "-a"], "sum: option '-a' needs a value"),
    (["--check=yes"], "sum: option '--check' takes no value ('--check=yes')"),
    (["--format=octal"], "--format: 'octal' is not hex, base64 or base64-le"),
    (["--format=base64le"], "--format: 'base64le' is not hex, base64 or base64-le"),
    (["--jobs=0"], "-j: '0' is not a thread count from 1 to 64"),
    (["-j+2"], "-j: '+2' is not a thread count from 1 to 64"),
    (["-j", " 2"], "-j: ' 2' is not a thread count from 1 to 64"),
    (["-j2acrc32"], "-j: '2acrc32' is not a thread count"),  # a value is the rest of it
])
def test_option_mistakes_named(run, args, message):
    code, out, err = run("sum", *args, stdin=CHECK_DATA)
    assert (code, out) == (2, b"") and f"crcforge: {message}" in err, err


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["-a", "crc32", "--he"], ["-ch"]])
def test_sum_help(run, args):
    code, out, err = run("sum", *args)
    assert (code, err) == (0, "")
    text = out.decode()
    assert text.startswith("usage: ") and "sum [-a ALGO]" in text
    for spelling in ("-a, --algorithm=ALGO", "-c, --check", "-j, --jobs=N",
                     "--format=FORMAT", "-h, --help"):
        assert spelling in text


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--he"]])
def test_main_help_and_version(run, args):
    code, out, err = run(*args)
    assert (code, err) == (0, "") and "sum [-a ALGO]" in out.decode()
    for spelling in ("--version", "--vers"):
        code, out, err = run(spelling)
        assert (code, err) == (0, "") and out.decode().startswith("crcforge ")
    code, out, err = run("--bogus", "sum")
    assert (code, out) == (2, b"") and "crcforge: unknown option '--bogus'" in err


def test_other_commands_spellings(run, tool):
    code, out, _ = run("cpu", "--imp")
    assert code == 0 and "portable" in lines(out)
    code, out, err = run("list", "--help")
    program = "crcforge" if len(tool) == 1 else "python -m crcforge"
    assert (code, err) == (0, "") and out.decode().startswith(f"usage: {program} list\n")
    code, out, err = run("list", "extra")
    assert (code, out) == (2, b"") and "list takes no arguments ('extra')" in err


@pytest.mark.c_only
def test_bench_spellings(run, tmp_path):
    csv_file = tmp_path / "out.csv"
    code, out, err = run("bench", "--sizes=8", "--offsets=0", "--repeat=1", "--min-time=0",
                         "-iportable", "-acrc32", f"--csv={csv_file}")
    assert code == 0, err
    assert csv_file.read_text().splitlines()[1].startswith("CRC-32/ISO-HDLC,portable,")
    # An optional value goes after "=" only: "--csv FILE" leaves FILE an operand.
    code, out, err = run("bench", "--quick", "--csv", str(csv_file))
    assert (code, out) == (2, b"") and f"unexpected argument '{csv_file}'" in err
    code, out, err = run("bench", "--quick", "--c")
    assert (code, out) == (2, b"")
    assert "option '--c' is ambiguous (it begins: --clock --csv)" in err


# --part-size: the composite checksum of a multipart upload, checked against awscrt's CRC
# functions (the ones the AWS SDKs use) for CRC32, CRC32C and CRC64NVME, and against anycrc
# for other models; the parts are cut and composed here.
AWSCRT = {"crc32": (awscrt.checksums.crc32, 32), "crc32c": (awscrt.checksums.crc32c, 32),
          "crc64-nvme": (awscrt.checksums.crc64nvme, 64)}
ANYCRC = {
    "crc16-xmodem": (anycrc.CRC(width=16, poly=0x1021, init=0, refin=False, refout=False,
                                xorout=0).calc, 16),
    "CRC-5/USB": (anycrc.CRC(width=5, poly=0x05, init=0x1F, refin=True, refout=True,
                             xorout=0x1F).calc, 5),
    "crc64-xz": (anycrc.CRC(width=64, poly=0x42F0E1EBA9EA3693, init=(1 << 64) - 1, refin=True,
                            refout=True, xorout=(1 << 64) - 1).calc, 64),
}


def composite(algo, data, part_size, fmt="hex"):
    """What S3 reports for data uploaded in parts of part_size bytes: the CRC of the parts'
    big-endian CRCs, then -N (an empty object is one empty part)."""
    crc, width = {**AWSCRT, **ANYCRC}[algo]
    size = (width + 7) // 8
    parts = [data[i:i + part_size] for i in range(0, len(data), part_size)] or [b""]
    value = crc(b"".join(crc(p).to_bytes(size, "big") for p in parts))
    if fmt == "base64":
        text = base64.b64encode(value.to_bytes(size, "big")).decode()
    else:
        text = f"{value:0{(width + 3) // 4}x}"
    return f"{text}-{len(parts)}"


def test_part_size_check_values(run):
    # The contract's example, and awscrt's value for it.
    for fmt, want in (("base64", "uSVqcA==-3"), ("hex", "b9256a70-3")):
        assert composite("crc32c", CHECK_DATA, 4, fmt) == want
        code, out, err = run("sum", "--part-size", "4", "--format", fmt, stdin=CHECK_DATA)
        assert (code, lines(out), err) == (0, [f"{want}  -"], "")


@pytest.mark.parametrize("algo", [*AWSCRT, *ANYCRC])
def test_part_size_around_the_boundaries(run, tmp_path, algo):
    rng = random.Random(algo)
    names, want = [], []
    for part in (1, 7, 4096):
        for n in sorted({0, 1, part - 1, part, part + 1, 3 * part, 3 * part + 5}):
            f = tmp_path / f"p{part}n{n}"
            data = rng.randbytes(n)
            f.write_bytes(data)
            names.append(str(f))
            want.append(composite(algo, data, part))
        code, out, err = run("sum", "-a", algo, f"--part-size={part}", *names[-7:])
        assert code == 0, err
        assert lines(out) == [f"{w}  {n}" for w, n in zip(want[-7:], names[-7:])]
        # The same through standard input, a pipe: parts cut as the bytes come.
        code, out, err = run("sum", "-a", algo, "--part-size", str(part), "--format=base64",
                             stdin=pathlib.Path(names[-1]).read_bytes())
        data = pathlib.Path(names[-1]).read_bytes()
        assert (code, lines(out)) == (0, [f"{composite(algo, data, part, 'base64')}  -"]), err


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    """20 MiB and 3 bytes: above the size from which -j splits a file."""
    f = tmp_path_factory.mktemp("parts") / "big"
    data = random.Random(20).randbytes((20 << 20) + 3)
    f.write_bytes(data)
    return f, data


@pytest.mark.parametrize("algo", ["crc32c", "crc32", "crc64-nvme", "crc16-xmodem"])
@pytest.mark.parametrize("part", ["5M", "3MiB", "8MB", "20M", "1G", "4097"])
def test_part_size_with_threads(run, big_file, algo, part):
    f, data = big_file
    size = int(part[:-1]) << 20 if part[-1] == "M" else {"3MiB": 3 << 20, "8MB": 8 << 20,
                                                           "1G": 1 << 30}.get(part)
    size = size or int(part)
    want = composite(algo, data, size, "base64")
    for j in ("1", "2", "3", "7"):
        code, out, err = run("sum", "-a", algo, "-j", j, "--part-size", part, "--format",
                             "base64", str(f))
        assert (code, lines(out)) == (0, [f"{want}  {f}"]), (j, err)


@pytest.mark.parametrize("spelling", ["8388608", "8M", "8m", "8MB", "8mb", "8Mb", "8MiB",
                                      "8mib", "8192K", "8192kb", "8192KiB", "8388608B"])
def test_part_size_suffixes_are_powers_of_1024(run, big_file, spelling):
    # As the AWS CLI reads a size: "8MB" is 8 MiB, and the case does not matter.
    f, data = big_file
    code, out, err = run("sum", "--part-size", spelling, str(f))
    assert (code, lines(out)) == (0, [f"{composite('crc32c', data, 8 << 20)}  {f}"]), err


@pytest.mark.parametrize("size", ["0", "0K", "-1", "+1", "1.5M", "8 MB", " 8", "", "8XB",
                                  "8MBB", "K", "0x10", "18446744073709551616",
                                  "16777216T", "\uff18"])
def test_part_size_mistakes(run, size):
    code, out, err = run("sum", "--part-size", size, stdin=CHECK_DATA)
    assert (code, out) == (2, b"")
    assert f"--part-size: '{size}' is not a size of at least 1 byte" in err, err


def test_part_size_limit_of_10000_parts(run, tmp_path):
    ok, over, good = tmp_path / "ok", tmp_path / "over", tmp_path / "good"
    ok.write_bytes(bytes(10000))
    over.write_bytes(bytes(10001))
    good.write_bytes(CHECK_DATA)
    code, out, err = run("sum", "--part-size", "1", str(ok), str(over), str(good))
    assert code == 1
    assert lines(out) == [f"{composite('crc32c', bytes(10000), 1)}  {ok}",
                          f"{composite('crc32c', CHECK_DATA, 1)}  {good}"]
    assert f"crcforge: {over}: 10001 parts of 1 bytes, more than S3's limit of 10000 parts" in err
    # A stream finds out as it reads: no value either.
    code, out, err = run("sum", "--part-size", "1", stdin=bytes(10001))
    assert (code, out) == (1, b"") and "crcforge: -: more than 10000 parts" in err
    code, out, err = run("sum", "--part-size", "1", stdin=bytes(10000))
    assert (code, lines(out)) == (0, [f"{composite('crc32c', bytes(10000), 1)}  -"])


def test_part_size_verify(run, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_bytes(CHECK_DATA)
    b.write_bytes(b"hello, world")
    good_b = composite("crc32", b.read_bytes(), 4)
    listfile = tmp_path / "list"
    listfile.write_text(f"{composite('crc32', CHECK_DATA, 4).upper()}  {a}\n"
                        f"{good_b}  {b}\n"
                        f"{good_b[:-1]}4  {b}\n"          # the right CRC, the wrong count
                        f"{good_b.split('-')[0]}  {b}\n"  # no count: not this list's form
                        f"{good_b[:-1]}03  {b}\n")        # a count with a leading zero
    code, out, err = run("sum", "-c", "-w", "-a", "crc32", "--part-size=4", str(listfile))
    assert code == 1 and lines(out) == [f"{a}: OK", f"{b}: OK", f"{b}: FAILED"]
    assert [e.split(" (")[0] for e in err.splitlines()] == [
        f"crcforge: {b}: the line says 4 parts, 3 computed with --part-size 4",
        *(f"crcforge: {listfile}: {n}: improperly formatted CRC32/4 checksum line"
          for n in (4, 5)),
        "crcforge: WARNING: 2 lines are improperly formatted",
        "crcforge: WARNING: 1 computed checksum did NOT match"]
    b64 = tmp_path / "b64"
    b64.write_text(f"{composite('crc32', CHECK_DATA, 4, 'base64')}  {a}\n")
    code, out, err = run("sum", "-c", "-a", "crc32", "--part-size=4", "--format=base64", str(b64))
    assert (code, lines(out), err) == (0, [f"{a}: OK"], "")
    # Without --part-size, a composite line is not a value of the list.
    code, out, err = run("sum", "-c", "-a", "crc32", "--format=base64", str(b64))
    assert (code, out) == (1, b"") and err.splitlines() == [
        f"crcforge: {b64}: no properly formatted checksum lines found",
        f"crcforge: {b64}: 1: a composite value (VALUE-PARTS): try --part-size with the part "
        "size it was made with"]
