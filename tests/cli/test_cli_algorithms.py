# SPDX-License-Identifier: MIT
"""What -a takes beyond names and parameter lists: the catalogue line `crcforge list` prints
(every key checked against the model), crc32b, and posix-cksum (the value of a real `cksum`,
run here on the same files).  Values from independent oracles (zlib, anycrc, cksum)."""
import base64
import random
import subprocess
import zlib

import needs
import pytest

anycrc = needs.module("anycrc")


def lines(out):
    return out.decode().splitlines()


def list_lines(run):
    code, out, _ = run("list")
    assert code == 0
    return out.decode().splitlines()


def test_every_catalogue_line_is_an_algorithm(run, catalogue):
    """Each line of `crcforge list`, exactly as printed, names its model: the check value
    of 123456789 is the catalogue's, and a tagged line names the model."""
    printed = list_lines(run)
    assert len(printed) == len(catalogue)
    for line, model in zip(printed, catalogue):
        code, out, err = run("sum", "-a", line, stdin=b"123456789")
        digits = (model["width"] + 3) // 4
        assert (code, lines(out), err) == (0, [f"{model['check']:0{digits}x}  -"], ""), line
    code, out, err = run("sum", "--tag", "-a", printed[0], stdin=b"")
    assert code == 0 and lines(out)[0].startswith(f"{catalogue[0]['name']} (-) = ")


def test_reveng_line_without_name(run):
    """RevEng's own spelling (no name, keys in its order, xorout before check) is a custom
    model, its check and residue checked too."""
    line = ("width=16 poly=0x1021 init=0xffff refin=false refout=false xorout=0x0000 "
            "check=0x29b1 residue=0x0000")
    code, out, err = run("sum", "-a", line, stdin=b"123456789")
    assert (code, lines(out), err) == (0, ["29b1  -"], "")


@pytest.mark.parametrize("change, message", [
    (("check=0xe3069283", "check=0xe3069284"),
     "check=0xe3069284 does not match CRC-32/ISCSI, whose check is 0xe3069283"),
    (("residue=0xb798b438", "residue=0x0"),
     "residue=0x0 does not match CRC-32/ISCSI, whose residue is 0xb798b438"),
    (("poly=0x1edc6f41", "poly=0x04c11db7"),
     "poly=0x04c11db7 does not match CRC-32/ISCSI, whose poly is 0x1edc6f41"),
    (("refin=true", "refin=false"),
     "refin=false does not match CRC-32/ISCSI, whose refin is true"),
    (("width=32", "width=31"), "width=31 does not match CRC-32/ISCSI, whose width is 32"),
    (('aliases="crc32c,', 'aliases="crc32,'), 'aliases="crc32,'),
    (('name="CRC-32/ISCSI"', 'name="CRC-32/NOPE"'), "no catalogue model is named 'CRC-32/NOPE'"),
    (("refout=true ", "refout=true  "), "empty item (a space too many)"),
    (('name="CRC-32/ISCSI"', 'name="CRC-32/ISCSI'), "a '\"' is not closed"),
])
def test_catalogue_line_mismatch_is_named(run, change, message):
    line = next(x for x in list_lines(run) if x.startswith('name="CRC-32/ISCSI"'))
    bad = line.replace(*change)
    assert bad != line
    code, out, err = run("sum", "-a", bad, stdin=b"123456789")
    assert (code, out) == (2, b"") and message in err, err


def test_custom_parameters_with_check(run):
    params = "width=16,poly=0x1021,init=0xffff,refin=false,refout=false,xorout=0"
    code, out, _ = run("sum", "-a", params + ",check=0x29b1,residue=0", stdin=b"123456789")
    assert (code, lines(out)) == (0, ["29b1  -"])
    code, out, err = run("sum", "-a", params + ",check=0x29b2", stdin=b"")
    assert (code, out) == (2, b"")
    assert "check=0x29b2 does not match the model, whose check is 0x29b1" in err
    code, _, err = run("sum", "-a", params + ',aliases="x"', stdin=b"")
    assert code == 2 and "aliases without the name they belong to" in err


def test_crc32b_is_zlibs_crc32(run, tmp_path):
    data = random.Random(3).randbytes(10000)
    for name in ("crc32b", "CRC32B"):
        code, out, _ = run("sum", "-a", name, stdin=data)
        assert (code, lines(out)) == (0, [f"{zlib.crc32(data):08x}  -"])


@pytest.fixture(scope="module")
def cksum_files(tmp_path_factory):
    """Files whose length bytes cover every case: empty, 1 byte, the 255/256 and 65535/65536
    boundaries, 16 MiB + 1, random sizes."""
    d = tmp_path_factory.mktemp("cksum")
    rng = random.Random(21)
    sizes = [0, 1, 2, 255, 256, 257, 65535, 65536, 65537, 1 << 24, (1 << 24) + 1]
    sizes += [rng.randrange(1, 1 << 20) for _ in range(20)]
    files = []
    for i, n in enumerate(sizes):
        f = d / f"f{i:02}-{n}"
        f.write_bytes(rng.randbytes(n))
        files.append(f)
    return files


@needs.command("cksum", package="coreutils")
def test_posix_cksum_matches_cksum(run, cksum_files):
    """posix-cksum's value is the number `cksum` prints (in hex, as every value), for files
    read whole, by -j threads, and from standard input."""
    p = subprocess.run(["cksum", *map(str, cksum_files)], capture_output=True, check=True)
    want = {}
    for line in lines(p.stdout):
        crc, size, name = line.split(" ", 2)
        want[name] = (int(crc), int(size))
    for args in ([], ["-j", "4"], ["--format", "base64"]):
        code, out, err = run("sum", "-a", "posix-cksum", *args, *map(str, cksum_files))
        assert code == 0, err
        for line in lines(out):
            value, name = line.split("  ", 1)
            if args[:1] == ["--format"]:
                value = base64.b64decode(value).hex()
            assert int(value, 16) == want[name][0], (name, args)
    for f in cksum_files[:6]:
        code, out, _ = run("sum", "-a", "POSIX_CKSUM", stdin=f.read_bytes())
        assert int(lines(out)[0].split()[0], 16) == want[str(f)][0]


def test_posix_cksum_is_not_cksums_model_alone(run):
    """`-a cksum` is the catalogue's CKSUM (CRC-32/CKSUM: no length appended); posix-cksum
    appends the length, and has no composite form."""
    model = anycrc.CRC(width=32, poly=0x04C11DB7, init=0, refin=False, refout=False,
                       xorout=0xFFFFFFFF)
    data = b"123456789"
    code, out, _ = run("sum", "-a", "cksum", stdin=data)
    assert lines(out) == [f"{model.calc(data):08x}  -"]
    code, out, _ = run("sum", "-a", "posix-cksum", stdin=data)
    assert lines(out) == [f"{model.calc(data + bytes([9])):08x}  -"]
    code, out, err = run("sum", "-a", "posix-cksum", "--part-size", "4", stdin=data)
    assert (code, out) == (2, b"") and "posix-cksum has no composite form" in err
