# SPDX-License-Identifier: MIT
"""`crcforge keyslot` against the Redis hash-tag rule and CRC-16/XMODEM written here."""
import random


def crc16_xmodem(data):
    """Bit at a time, MSB first: polynomial 0x1021, zero start, no final xor."""
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def slot(key):
    """The rule as docs/DESIGN.md words it: the bytes between the first '{' and the first '}'
    after it, when there is at least one; else the whole key."""
    start = key.find(b"{")
    if start >= 0:
        end = key.find(b"}", start + 1)
        if end > start + 1:
            key = key[start + 1:end]
    return crc16_xmodem(key) % 16384


EDGES = [b"{", b"}", b"{}", b"}{", b"{{a}}", b"a{b}c{d}", b"abc{d}", b"abc{}", b"x{}{y}",
         b"somekey", b"foo{hash_tag}", b"bar{hash_tag}", b"k" * 80 + b"{t}", b"z" * 100]


def test_arguments(run):
    code, out, err = run("keyslot", *[k.decode() for k in EDGES])
    assert (code, err) == (0, "")
    assert [int(x) for x in out.split()] == [slot(k) for k in EDGES]
    assert slot(b"somekey") == 11058  # the CLUSTER KEYSLOT documentation's example


def test_double_dash_and_empty_key(run):
    code, out, _ = run("keyslot", "--", "--file", "")
    assert code == 0 and [int(x) for x in out.split()] == [slot(b"--file"), 0]


def test_file_binary_keys(run, tmp_path):
    rng = random.Random(5)
    keys = EDGES + [b"", b"\x00{\xff}", b"\r", b"a\x00b"]
    keys += [bytes(rng.choice(b"{}ab\x00\xff\r") for _ in range(rng.randrange(70)))
             for _ in range(2000)]
    f = tmp_path / "keys"
    f.write_bytes(b"\n".join(keys))  # the last key has no newline: still a key
    code, out, err = run("keyslot", "--file", str(f))
    assert (code, err) == (0, "")
    assert [int(x) for x in out.split()] == [slot(k) for k in keys]
    code, out, _ = run("keyslot", "--file", "-", stdin=b"{a}\nb\n")
    assert code == 0 and [int(x) for x in out.split()] == [slot(b"a"), slot(b"b")]


def test_file_then_arguments(run, tmp_path):
    f = tmp_path / "keys"
    f.write_bytes(b"one\ntwo\n")
    code, out, _ = run("keyslot", "--file", str(f), "three")
    assert code == 0
    assert [int(x) for x in out.split()] == [slot(b"one"), slot(b"two"), slot(b"three")]


def test_errors(run, tmp_path):
    missing = tmp_path / "no-such-file"
    code, out, err = run("keyslot", "--file", str(missing), "still")
    assert code == 2 and str(missing) in err and "No such file" in err
    assert [int(x) for x in out.split()] == [slot(b"still")]  # the rest still processed
    code, out, err = run("keyslot", "--file", str(tmp_path))
    assert code == 2 and str(tmp_path) in err and out == b""
    code, _, err = run("keyslot", "--file")
    assert code == 2 and "option '--file' needs a value" in err


def test_file_among_keys(run, tmp_path):
    f = tmp_path / "keys"
    f.write_bytes(b"one\ntwo\n")
    code, out, err = run("keyslot", "foo", "--file", str(f), "bar")
    assert (code, err) == (0, "")
    assert [int(x) for x in out.split()] == [slot(k) for k in (b"foo", b"one", b"two", b"bar")]


def test_unknown_option_is_not_a_key(run):
    for args in (["--bogus"], ["foo", "-x"], ["foo", "--bogus=keys"], ["foo", "--bogus", "--", "k"]):
        code, out, err = run("keyslot", *args)
        bad = next(a for a in args if a.startswith("-")).partition("=")[0]
        assert (code, out) == (2, b""), args  # nothing printed: the mistake comes first
        assert f"unknown option '{bad}'" in err and "after --" in err, (args, err)
    code, out, _ = run("keyslot", "--", "--bogus", "-x")  # after --, every key is literal
    assert code == 0 and [int(x) for x in out.split()] == [slot(b"--bogus"), slot(b"-x")]
    code, out, err = run("keyslot", "--", stdin=b"from-stdin\n")  # no key: standard input's
    assert (code, err) == (0, "") and [int(x) for x in out.split()] == [slot(b"from-stdin")]


def test_keys_from_standard_input(run):
    """No key and no --file: the lines of standard input, raw bytes (a CR stays in its key,
    an empty line is the empty key), the last one without its newline a key too."""
    rng = random.Random(9)
    keys = EDGES + [b"", b"a\r", b"\rb", b"\x00{\xff}"]
    keys += [bytes(rng.choice(b"{}ab\x00\xff\r") for _ in range(rng.randrange(40)))
             for _ in range(500)]
    for text in (b"\n".join(keys), b"\n".join(keys) + b"\n"):
        code, out, err = run("keyslot", stdin=text)
        assert (code, err) == (0, "")
        assert [int(x) for x in out.split()] == [slot(k) for k in keys]
    code, out, err = run("keyslot", stdin=b"")
    assert (code, out, err) == (0, b"", "")
    code, out, err = run("keyslot", "--with-keys", stdin=b"k1\r\nk2")
    assert (code, out, err) == (0, b"%d  k1\r\n%d  k2\n" % (slot(b"k1\r"), slot(b"k2")), "")


def test_with_keys(run, tmp_path):
    f = tmp_path / "keys"
    f.write_bytes(b"one\n{t}two\n\xff\n")
    code, out, err = run("keyslot", "--with-keys", "foo{t}", "--file", str(f), "", "--", "-x")
    assert (code, err) == (0, "")
    assert out.split(b"\n")[:-1] == [b"%d  %s" % (slot(k), k) for k in
                                     (b"foo{t}", b"one", b"{t}two", b"\xff", b"", b"-x")]
