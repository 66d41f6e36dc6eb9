# SPDX-License-Identifier: MIT
"""`sum -c` against a real `sha256sum -c`, run here on the same situations: for each, two
directories with the same files, a list written by each tool (sha256sum's own, crcforge
sum's own), the same edits to both lists (the same lines corrupted, the same malformed
lines, the same files removed after listing), then `-c` with the same options.  The exit
codes, the stdout lines and the stderr lines must be the same: sha256sum's name for the
program is replaced by crcforge's, its quotes around a name are dropped, its "SHA256
checksum line" is crcforge's "ALGO checksum line (...)", and crcforge's own hints (a line
that says what a value looks like, a composite's part counts) are set aside.
"""
import os
import re
import shutil
import subprocess

import needs
import pytest

pytestmark = needs.command("sha256sum", package="coreutils")


def write_list(cmd, names, cwd, tagged):
    """The lines (without their newline) a tool writes for the names in cwd."""
    p = subprocess.run([*cmd, *(["--tag"] if tagged else []), "--", *names], cwd=cwd,
                       capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout.split(b"\n")[:-1]


def corrupt(line):
    """The line with one hex digit of its value changed: the first (untagged) or the last
    (tagged: "ALGO (NAME) = VALUE")."""
    if line.endswith(b")") or b") = " not in line:
        at = 1 if line.startswith(b"\\") else 0
    else:
        at = len(line) - 1
    digit = b"1" if line[at:at + 1] == b"0" else b"0"
    return line[:at] + digit + line[at + 1:]


SHELL_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "a": "\a", "b": "\b", "f": "\f",
                 "v": "\v", "\\": "\\", "'": "'", '"': '"'}


def shell_unquoted(text):
    """A name as coreutils quotes it in messages ('a b', 'tab'$'\\t''here') back to its
    bytes, and the text after it."""
    name, i = "", 0
    while i < len(text):
        if text.startswith("$'", i):
            i += 2
            while text[i] != "'":
                if text[i] == "\\":
                    name += SHELL_ESCAPES[text[i + 1]]
                    i += 2
                else:
                    name += text[i]
                    i += 1
            i += 1
        elif text[i] == "'":
            end = text.index("'", i + 1)
            name += text[i + 1:end]
            i = end + 1
        else:
            break
    return name, text[i:]


def normalize_sha256sum(err):
    lines = []
    for line in err.decode(errors="replace").split("\n"):
        line = re.sub(r"^sha256sum: ", "crcforge: ", line)
        if line.startswith(("crcforge: '", "crcforge: $'")):
            name, rest = shell_unquoted(line[len("crcforge: "):])
            line = f"crcforge: {name}{rest}"
        line = re.sub(r"improperly formatted SHA256 checksum line$",
                      "improperly formatted checksum line", line)
        lines.append(line)
    return "\n".join(lines)


def normalize_crcforge(err, list_names):
    """crcforge's stderr without its hints (names are raw bytes: a newline in one splits
    its message, which the hints' patterns do not match)."""
    lines = []
    for line in err.decode(errors="replace").split("\n"):
        line = re.sub(r"improperly formatted \S+ checksum line \(.*\)$",
                      "improperly formatted checksum line", line)
        hint = any(re.match(rf"crcforge: {re.escape(n)}: \d+: (?!improperly)", line)
                   for n in list_names) or re.match(r"crcforge: .*: the line says \d+ part",
                                                     line)
        if not hint:
            lines.append(line)
    return "\n".join(lines)


def check_both(tool, tmp_path, files, args=(), edit=None, after=None, tagged=False,
               lists=("list",), stdin=False, listed=None):
    """Builds the situation for both tools and compares their -c runs; returns crcforge's
    (code, stdout, stderr).  files: {name: bytes}; listed: the names listed (default all,
    in order); edit(lines) -> lines changes each list alike; after(directory) changes the
    files after listing."""
    listed = list(files) if listed is None else listed
    results = {}
    for who, writer, checker in (("sha", ["sha256sum"], ["sha256sum"]),
                                 ("crc", [*tool, "sum"], [*tool, "sum"])):
        d = tmp_path / who
        d.mkdir()
        for name, data in files.items():
            with open(os.path.join(os.fsencode(d), name), "wb") as f:
                f.write(data)
        lines = write_list(writer, listed, d, tagged)
        if edit is not None:
            lines = edit(lines)
        text = b"".join(line + b"\n" for line in lines)
        for list_name in lists:
            (d / list_name).write_bytes(text)
        if after is not None:
            after(d)
        cmd = [*checker, "-c", *args, *([] if stdin else lists)]
        p = subprocess.run(cmd, cwd=d, input=text if stdin else b"", capture_output=True,
                           timeout=300)
        results[who] = p
    sha, crc = results["sha"], results["crc"]
    names = [("standard input" if stdin else n) for n in lists]
    assert crc.returncode == sha.returncode, (crc.stderr, sha.stderr)
    assert crc.stdout == sha.stdout
    assert normalize_crcforge(crc.stderr, names) == normalize_sha256sum(sha.stderr)
    assert b"Traceback" not in crc.stderr
    return crc.returncode, crc.stdout, crc.stderr.decode(errors="replace")


FILES = {b"a": b"123456789", b"b": b"hello", b"empty": b"", b"big": bytes(range(256)) * 400,
         b"with space": b"x", b"*star": b"y", b"tab\there": b"z", b"new\nline": b"n",
         b"new\nline and \\ back\\slash": b"b", b"cr\r\nlf": b"c"}

OPTIONS = [(), ("--quiet",), ("--status",), ("--warn",), ("--strict",), ("--ignore-missing",),
           ("--quiet", "--strict"), ("--warn", "--ignore-missing"), ("--status", "--strict")]


@pytest.mark.parametrize("args", OPTIONS)
@pytest.mark.parametrize("tagged", [False, True])
def test_all_good(tool, tmp_path, args, tagged):
    code, out, _ = check_both(tool, tmp_path, FILES, args, tagged=tagged)
    assert code == 0 and (out.count(b": OK\n") == (0 if args[:1] in [("--quiet",), ("--status",)]
                                                   else len(FILES)))


@pytest.mark.parametrize("args", OPTIONS)
@pytest.mark.parametrize("tagged", [False, True])
def test_mismatch_missing_unreadable_and_malformed(tool, tmp_path, args, tagged):
    def edit(lines):
        lines = list(lines)
        lines[1] = corrupt(lines[1])          # b: FAILED
        lines[7] = corrupt(lines[7])          # new\nline: FAILED, escaped
        lines.insert(3, b"not a checksum line")
        lines.insert(0, b"# a comment")
        lines.append(b"")
        lines.append(b"0123  short")
        return lines

    def after(d):
        os.remove(os.path.join(os.fsencode(d), b"empty"))   # missing
        os.remove(d / "big")
        (d / "big").mkdir()                                 # read fails: a directory

    code, out, err = check_both(tool, tmp_path, FILES, args, edit=edit, after=after,
                                tagged=tagged)
    assert code == 1


@pytest.mark.parametrize("args", OPTIONS)
def test_several_lists_and_ignore_missing(tool, tmp_path, args):
    def after(d):
        for name in (b"a", b"b", b"with space"):
            os.remove(os.path.join(os.fsencode(d), name))

    check_both(tool, tmp_path, FILES, args, after=after, lists=("one", "two"))


@pytest.mark.parametrize("args", [(), ("--ignore-missing",), ("--status",)])
def test_every_listed_file_missing(tool, tmp_path, args):
    """--ignore-missing and nothing verified: "no file was verified", a failure."""
    def after(d):
        for name in FILES:
            os.remove(os.path.join(os.fsencode(d), name))

    code, out, err = check_both(tool, tmp_path, FILES, args, after=after)
    assert code == 1


@pytest.mark.parametrize("args", [(), ("--status",), ("--warn",), ("--strict",)])
@pytest.mark.parametrize("content", [b"", b"\n\n", b"# only a comment\n", b"garbage\n" * 3,
                                     bytes(range(256)) * 20])
def test_no_properly_formatted_line(tool, tmp_path, args, content):
    code, out, err = check_both(tool, tmp_path, {b"a": b"x"}, args, edit=lambda _: [content])
    assert (code, out) == (1, b"")
    assert err.count("no properly formatted checksum lines found") == 1


def test_binary_file_as_list_gives_one_message(tool, tmp_path):
    """A binary file given as the list: one message, not one a line (sha256sum's)."""
    binary = shutil.which("cmake") or shutil.which("python3")
    data = open(os.path.realpath(binary), "rb").read()
    assert data.count(b"\n") > 1000
    code, out, err = check_both(tool, tmp_path, {b"a": b"x"}, edit=lambda _: [data])
    assert (code, out) == (1, b"") and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("args", [(), ("--warn",), ("--quiet",)])
def test_list_on_standard_input(tool, tmp_path, args):
    def edit(lines):
        return [*lines, corrupt(lines[0]), b"line 3", lines[1].split(b"  ")[0] + b"  -"]

    code, _, _ = check_both(tool, tmp_path, {b"a": b"x", b"b": b"yz"}, args, edit=edit,
                            stdin=True)
    assert code == 1


def test_list_that_cannot_be_read(tool, tmp_path):
    code, out, err = check_both(tool, tmp_path, {b"a": b"x"}, lists=("list",),
                                after=lambda d: os.remove(d / "list"))
    assert (code, out) == (1, b"")
    # A directory as the list: sha256sum says "read error", crcforge why.
    (tmp_path / "dir").mkdir()
    sha = subprocess.run(["sha256sum", "-c", "dir"], cwd=tmp_path, capture_output=True)
    crc = subprocess.run([*tool, "sum", "-c", "dir"], cwd=tmp_path, capture_output=True)
    assert (crc.returncode, crc.stdout) == (sha.returncode, sha.stdout) == (1, b"")
    assert sha.stderr.startswith(b"sha256sum: dir: ")
    assert crc.stderr == b"crcforge: dir: Is a directory\n"


def test_binary_mode_lines_and_leading_blanks(tool, tmp_path):
    """sha256sum -b writes "VALUE *NAME": both read it; spaces and tabs before a line are
    skipped; a CRLF line ends at its CR."""
    def edit(lines):
        return [lines[0].replace(b"  ", b" *", 1), b" \t" + lines[1], lines[2] + b"\r"]

    code, out, _ = check_both(tool, tmp_path, {b"a": b"x", b"b": b"yz", b"c": b""}, edit=edit)
    assert code == 0 and out == b"a: OK\nb: OK\nc: OK\n"


@pytest.mark.parametrize("name", [b"back\\slash", b"cr\rmid", b"\\", b"x\\n", b"g\\h.txt",
                                  b"new\nline\\", b"new\nline\rcr"])
def test_names_written_escaped_as_sha256sum_writes_them(tool, tmp_path, name):
    """sum writes a name holding a backslash, a CR or a newline as sha256sum writes it (the
    line starts with '\\'; \\\\, \\r and \\n), plain and tagged; -c reads either tool's
    list back and prints the name as sha256sum -c (Debian's coreutils 9.1) does: escaped
    only when it holds a newline, else as it is (g\\h.txt: OK)."""
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as f:
        f.write(b"data")
    for tagged in (False, True):
        sha = write_list(["sha256sum"], [name], tmp_path, tagged)[0]
        ours = write_list([*tool, "sum"], [name], tmp_path, tagged)[0]
        if tagged:
            assert ours.split(b" (", 1)[1].split(b") = ")[0] == \
                sha.split(b" (", 1)[1].split(b") = ")[0]
            assert ours.startswith(b"\\CRC32C (") and sha.startswith(b"\\SHA256 (")
        else:
            assert ours.split(b"  ", 1)[1] == sha.split(b"  ", 1)[1] and ours[:1] == b"\\"
        (tmp_path / "ours").write_bytes(ours + b"\n")
        (tmp_path / "sha").write_bytes(sha + b"\n")
        want = subprocess.run(["sha256sum", "-c", "sha"], cwd=tmp_path, capture_output=True,
                              timeout=60)
        p = subprocess.run([*tool, "sum", "-c", "ours"], cwd=tmp_path, capture_output=True,
                           timeout=60)
        assert (want.returncode, want.stderr) == (0, b"")
        assert (p.returncode, p.stdout, p.stderr) == (0, want.stdout, b"")
        written = (sha.split(b"  ", 1)[1] if not tagged else
                   sha.split(b" (", 1)[1].rsplit(b") = ", 1)[0])
        assert p.stdout == (b"\\" + written if b"\n" in name else name) + b": OK\n"


@pytest.mark.parametrize("line", [b"\\e3069283  a\\x", b"\\e3069283  a\\", b"\\CRC32C (a\\t) = e3069283"])
def test_bad_escapes_are_malformed(tool, tmp_path, line):
    (tmp_path / "a").write_bytes(b"123456789")
    (tmp_path / "list").write_bytes(line + b"\n")
    p = subprocess.run([*tool, "sum", "-c", "-w", "list"], cwd=tmp_path, capture_output=True,
                       timeout=60)
    assert (p.returncode, p.stdout) == (1, b"")
    assert b"list: 1: improperly formatted CRC32C checksum line" in p.stderr
