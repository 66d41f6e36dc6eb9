# SPDX-License-Identifier: MIT
"""Tagged lines and several algorithms in one read: `sum --tag`, `sum -a A -a B ...`, and
`sum -c` of lists that mix algorithms, formats and part sizes; the hints of a line whose
value is another model's or format's.  Values from independent oracles (zlib, awscrt,
anycrc), composites built here."""
import base64
import random
import re
import zlib

import needs
import pytest

anycrc = needs.module("anycrc")
needs.module("awscrt.checksums", "awscrt")
import awscrt.checksums  # noqa: E402

CRC64_XZ = anycrc.CRC(width=64, poly=0x42F0E1EBA9EA3693, init=(1 << 64) - 1, refin=True,
                      refout=True, xorout=(1 << 64) - 1)
XMODEM = anycrc.CRC(width=16, poly=0x1021, init=0, refin=False, refout=False, xorout=0)

# name in -a, name in a tagged line, oracle, width
ALGOS = {
    "crc32c": ("CRC32C", awscrt.checksums.crc32c, 32),
    "crc64-nvme": ("CRC64NVME", awscrt.checksums.crc64nvme, 64),
    "crc32": ("CRC32", zlib.crc32, 32),
    "crc64-xz": ("CRC-64/XZ", CRC64_XZ.calc, 64),
    "crc16-xmodem": ("CRC-16/XMODEM", XMODEM.calc, 16),
}


def lines(out):
    return out.decode().splitlines()


def hexed(value, width):
    return f"{value:0{(width + 3) // 4}x}"


def b64(value, width):
    return base64.b64encode(value.to_bytes((width + 7) // 8, "big")).decode()


def composite(algo, data, part, fmt="hex"):
    _, crc, width = ALGOS[algo]
    parts = [data[i:i + part] for i in range(0, len(data), part)] or [b""]
    value = crc(b"".join(crc(p).to_bytes((width + 7) // 8, "big") for p in parts))
    return f"{hexed(value, width) if fmt == 'hex' else b64(value, width)}-{len(parts)}"


@pytest.fixture
def files(tmp_path):
    rng = random.Random(8)
    out = []
    for i, n in enumerate([0, 1, 100, 70000, (9 << 20) + 7]):
        f = tmp_path / f"f{i}"
        f.write_bytes(rng.randbytes(n))
        out.append(f)
    return out


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_several_algorithms_tagged_lines(run, files, jobs):
    """One tagged line per input and algorithm, inputs in order, algorithms as given."""
    order = ["crc32c", "crc64-nvme", "crc32", "crc64-xz", "crc16-xmodem"]
    args = [x for a in order for x in ("-a", a)]
    code, out, err = run("sum", "-j", jobs, *args, *map(str, files))
    assert code == 0, err
    want = [f"{ALGOS[a][0]} ({f}) = {hexed(ALGOS[a][1](f.read_bytes()), ALGOS[a][2])}"
            for f in files for a in order]
    assert lines(out) == want


def test_several_algorithms_from_a_pipe(run):
    """Standard input as a pipe is read once: every value right means one read fed all."""
    data = random.Random(4).randbytes(3 << 20)
    code, out, err = run("sum", "-a", "crc32c", "-a", "crc32", "-a", "crc64-nvme", stdin=data)
    assert code == 0, err
    assert lines(out) == [f"{ALGOS[a][0]} (-) = {hexed(ALGOS[a][1](data), ALGOS[a][2])}"
                          for a in ("crc32c", "crc32", "crc64-nvme")]


@pytest.mark.parametrize("jobs", ["1", "4"])
def test_several_algorithms_composite_base64(run, files, jobs):
    part = 1 << 20
    code, out, err = run("sum", "-j", jobs, "-a", "crc32", "-a", "crc32c", "-a", "crc64-nvme",
                         "--format", "base64", "--part-size", "1MiB", *map(str, files))
    assert code == 0, err
    want = [f"{ALGOS[a][0]}/base64/1MiB ({f}) = {composite(a, f.read_bytes(), part, 'b64')}"
            for f in files for a in ("crc32", "crc32c", "crc64-nvme")]
    assert lines(out) == want


def test_same_algorithm_twice_is_computed_once(run):
    """An algorithm named twice, by any names, is printed once, where first named."""
    code, out, err = run("sum", "-a", "crc32c", "-a", "crc32", "-a", "CRC-32/ISCSI",
                         "-a", "CRC-32/CASTAGNOLI", "-a", "crc32b", stdin=b"123456789")
    assert (code, lines(out), err) == (0, ["CRC32C (-) = e3069283", "CRC32 (-) = cbf43926"], "")
    code, out, err = run("sum", "-a", "crc32c", "-a", "crc32c", stdin=b"123456789")
    assert (code, lines(out)) == (0, ["e3069283  -"])  # one algorithm: untagged


def test_at_most_16_algorithms(run, catalogue):
    names = [m["name"] for m in catalogue[:17]]
    code, out, err = run("sum", *[x for n in names for x in ("-a", n)], stdin=b"")
    assert (code, out) == (2, b"") and "at most 16 algorithms" in err
    code, out, err = run("sum", *[x for n in names[:16] for x in ("-a", n)], stdin=b"")
    assert code == 0 and len(lines(out)) == 16


@pytest.mark.parametrize("args, tag", [
    ([], "CRC32C"), (["-a", "crc32"], "CRC32"), (["-a", "crc64-nvme"], "CRC64NVME"),
    (["-a", "crc64-xz"], "CRC-64/XZ"), (["-a", "crc16-xmodem"], "CRC-16/XMODEM"),
    (["-a", "posix-cksum"], "POSIX-CKSUM"),
    (["-a", "width=16,poly=4129,init=0,refin=0,refout=0,xorout=0"],
     "width=16,poly=0x1021,init=0x0000,refin=false,refout=false,xorout=0x0000"),
    (["--format", "base64"], "CRC32C/base64"), (["--part-size", "8M"], "CRC32C/8MiB"),
    (["--part-size", "1536k", "--format", "base64"], "CRC32C/base64/1536KiB"),
    (["--part-size", "5000"], "CRC32C/5000"),
    (["--format", "base64-le", "-a", "crc64-nvme"], "CRC64NVME/base64-le"),
    (["--format", "base64-le", "-a", "crc-24/openpgp"], "CRC-24/OPENPGP/base64-le"),
])
def test_tag_names(run, tmp_path, args, tag):
    """--tag's ALGO, and -c reads it back with no option."""
    f = tmp_path / "data"
    f.write_bytes(b"123456789")
    code, out, err = run("sum", "--tag", *args, str(f))
    assert code == 0 and lines(out)[0].startswith(f"{tag} ({f}) = "), (out, err)
    listfile = tmp_path / "list"
    listfile.write_bytes(out)
    code, out, err = run("sum", "-c", str(listfile))
    assert (code, lines(out), err) == (0, [f"{f}: OK"], "")


def test_mixed_list_checked_with_no_option(run, files, tmp_path):
    """A list of untagged CRC-32C lines and tagged lines of other algorithms, formats and
    composites is checked with no option; corrupted lines of each kind FAIL."""
    made, firsts = [], []
    for args in ([], ["--tag", "-a", "crc64-xz"], ["-a", "crc32", "-a", "crc64-nvme"],
                 ["--tag", "--format", "base64", "--part-size", "64K", "-a", "crc32c"],
                 ["--tag", "-a", "posix-cksum", "--format", "base64"],
                 ["--tag", "-a", "crc64-nvme", "--format", "base64-le"],
                 ["--tag", "-a", "width=8,poly=7,init=0,refin=false,refout=false,xorout=0"]):
        code, out, err = run("sum", *args, *map(str, files))
        assert code == 0, err
        made += lines(out)
        firsts.append(lines(out)[0])
    listfile = tmp_path / "list"
    listfile.write_text("".join(line + "\n" for line in made))
    code, out, err = run("sum", "-c", str(listfile))
    assert (code, err) == (0, "") and lines(out) == [
        line.split("  ", 1)[1] + ": OK" if " (" not in line else
        re.match(r"\S+ \((.*)\) = ", line).group(1) + ": OK" for line in made]
    # One line of each kind corrupted: the value's first character changed (0 and 1 are hex
    # digits and base64 characters both).
    def corrupt(line):
        at = line.index(" = ") + 3 if " (" in line else 0
        return line[:at] + ("0" if line[at] != "0" else "1") + line[at + 1:]

    broken = [corrupt(line) for line in firsts]
    listfile.write_text("".join(line + "\n" for line in broken))
    code, out, err = run("sum", "-c", str(listfile))
    assert code == 1 and lines(out) == [f"{files[0]}: FAILED"] * len(broken)


def test_tagged_lines_that_do_not_read(run, tmp_path):
    f = tmp_path / "a"
    f.write_bytes(b"123456789")
    listfile = tmp_path / "list"
    listfile.write_text(f"SHA256 ({f}) = {'0' * 64}\n"
                        f"CRC32C ({f}) = 995dc9bbdf1939fa\n"
                        f"CRC32C/8MiB ({f}) = e3069283\n"
                        f"POSIX-CKSUM/4 ({f}) = e3069283-3\n"
                        f"CRC32C ({f}) = e3069283\n")
    code, out, err = run("sum", "-c", "--warn", str(listfile))
    assert (code, lines(out)) == (0, [f"{f}: OK"])
    assert err.splitlines() == [
        f"crcforge: {listfile}: 1: improperly formatted CRC32C checksum line (unknown algorithm "
        "'SHA256' (see `crcforge list`))".replace("crcforge list", f"{prog(run)} list"),
        f"crcforge: {listfile}: 2: improperly formatted CRC32C checksum line (16 hex digits: "
        "looks like a 64-bit CRC, not a value of CRC32C)",
        f"crcforge: {listfile}: 3: improperly formatted CRC32C checksum line (8 hex digits: "
        "looks like a 32-bit CRC, not a value of CRC32C/8MiB)",
        f"crcforge: {listfile}: 4: improperly formatted CRC32C checksum line (posix-cksum has "
        "no composite form)",
        "crcforge: WARNING: 4 lines are improperly formatted"]


def prog(run):
    """The program's name in messages (`crcforge`, or `python -m crcforge`)."""
    _, out, _ = run("--help")
    return re.match(r"usage: (.*) COMMAND", out.decode()).group(1)


@pytest.mark.parametrize("make, check, hint", [
    (["-a", "crc64-nvme"], [],
     "16 hex digits: looks like a 64-bit CRC: try -a crc64-nvme or -a crc64-xz"),
    (["-a", "crc16-xmodem"], [], "4 hex digits: looks like a 16-bit CRC: try -a crc16-xmodem"),
    (["-a", "CRC-24/OPENPGP"], [],
     f"6 hex digits: looks like a 24-bit CRC: try -a with a model of width 21 to 24 "),
    (["--format", "base64"], [], "8 base64 characters: looks like a 32-bit CRC in base64: "
                                 "try --format base64"),
    (["-a", "crc64-xz", "--format", "base64"], [],
     "12 base64 characters: looks like a 64-bit CRC in base64: try --format base64 with "
     "-a crc64-nvme or -a crc64-xz"),
    ([], ["--format", "base64"], "8 hex digits: looks like a 32-bit CRC: try --format hex"),
    (["--part-size", "4"], [], "a composite value (VALUE-PARTS): try --part-size with the part "
                               "size it was made with"),
    ([], ["--part-size", "4"], "not a composite value (no -PARTS): try without --part-size"),
])
def test_value_of_another_model_or_format_says_which(run, tmp_path, make, check, hint):
    """A list made with options it is not checked with: one message that no line is well
    formed, and one that says what would read its values."""
    f = tmp_path / "a"
    f.write_bytes(b"123456789")
    code, out, _ = run("sum", *make, str(f))
    listfile = tmp_path / "list"
    listfile.write_bytes(out)
    code, out, err = run("sum", "-c", *check, str(listfile))
    assert (code, out) == (1, b"")
    first, second = err.splitlines()
    assert first == f"crcforge: {listfile}: no properly formatted checksum lines found"
    assert second.startswith(f"crcforge: {listfile}: 1: {hint}"), second
    code, out, err = run("sum", "-c", "--status", *check, str(listfile))
    assert (code, out, err.splitlines()) == (1, b"", [first])  # --status: no hint


def test_part_count_that_differs_is_named(run, tmp_path):
    f = tmp_path / "a"
    f.write_bytes(bytes(96))
    code, out, _ = run("sum", "--part-size", "4", str(f))  # 24 parts
    listfile = tmp_path / "list"
    listfile.write_bytes(out)
    code, out, err = run("sum", "-c", "--part-size", "8", str(listfile))  # 12 parts
    assert (code, lines(out)) == (1, [f"{f}: FAILED"])
    assert err.splitlines() == [f"crcforge: {f}: the line says 24 parts, 12 computed with "
                                "--part-size 8",
                                "crcforge: WARNING: 1 computed checksum did NOT match"]


@pytest.mark.parametrize("args, message", [
    (["-c", "-a", "crc32", "-a", "crc32c", "LIST"], "one -a at most"),
    (["-c", "--tag", "LIST"], "--tag is for writing lists"),
    (["--quiet", "x"], "--quiet means something only with -c"),
    (["--status", "x"], "--status means something only with -c"),
    (["-w", "x"], "--warn means something only with -c"),
    (["--strict", "x"], "--strict means something only with -c"),
    (["--ignore-missing", "x"], "--ignore-missing means something only with -c"),
])
def test_check_option_mistakes(run, tmp_path, args, message):
    listfile = tmp_path / "list"
    listfile.write_text("e3069283  x\n")
    code, out, err = run("sum", *[str(listfile) if a == "LIST" else a for a in args])
    assert (code, out) == (2, b"") and message in err, err
