# SPDX-License-Identifier: MIT
"""What the functions accept (every C-contiguous buffer, as its raw bytes) and refuse
(str, non-contiguous buffers, bad arguments), with clear errors; keyslot; the module's
surface and help."""
import array
import binascii
import pydoc
import random
import sys
import zlib

import numpy as np
import pytest

import crcforge

FUNCTIONS = [crcforge.crc32c, crcforge.crc32, crcforge.crc64_nvme, crcforge.crc64_xz,
             crcforge.crc16_xmodem]
RAW = bytes(range(256)) * 5


def buffers_of(raw):
    """The same bytes, through every kind of C-contiguous buffer."""
    yield raw
    yield bytearray(raw)
    yield memoryview(raw)
    yield memoryview(bytearray(raw))[3:-3]
    yield array.array("B", raw)
    yield array.array("I", raw[:len(raw) // 4 * 4])
    yield np.frombuffer(raw, dtype=np.uint8)
    yield np.frombuffer(raw[:len(raw) // 8 * 8], dtype=np.float64)
    yield np.frombuffer(raw[:len(raw) // 4 * 4], dtype=np.int32).reshape(-1, 4)
    yield memoryview(raw).cast("B", (len(raw) // 4, 4))


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_every_buffer_type_hashes_its_raw_bytes(fn):
    for buf in buffers_of(RAW):
        raw = memoryview(buf).tobytes()
        assert fn(buf) == fn(raw), type(buf)
        assert crcforge.new(fn.__name__.replace("_", "-"), buf).value == fn(raw)
        h = crcforge.new(fn.__name__.replace("_", "-"))
        h.update(buf)
        assert h.value == fn(raw)
    assert crcforge.crc32(np.arange(1000, dtype=np.uint16)) == \
        zlib.crc32(np.arange(1000, dtype=np.uint16).tobytes())


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_refused_inputs(fn):
    with pytest.raises(TypeError, match="str cannot be hashed"):
        fn("123456789")
    with pytest.raises(TypeError, match="not C-contiguous"):
        fn(memoryview(RAW)[::2])
    with pytest.raises(TypeError, match="not C-contiguous"):
        fn(np.arange(100, dtype=np.uint8).reshape(10, 10).T)
    with pytest.raises(TypeError, match="bytes-like object is required, not 'int'"):
        fn(5)
    with pytest.raises(TypeError):
        fn()
    with pytest.raises(TypeError):
        fn(b"", 0, 0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        fn(b"", seed=0)
    with pytest.raises(ValueError, match="crc -1 is not in"):
        fn(b"", -1)
    width = crcforge.new(fn.__name__.replace("_", "-")).width
    with pytest.raises(ValueError, match=f"0..2\\*\\*{width}-1"):
        fn(b"", 1 << width)
    with pytest.raises(TypeError, match="crc must be an int"):
        fn(b"", "0")
    with pytest.raises(TypeError, match=r"update\(\): str cannot be hashed"):
        crcforge.new(fn.__name__.replace("_", "-")).update("text")
    with pytest.raises(TypeError, match=r"new\(\): str cannot be hashed"):
        crcforge.new(fn.__name__.replace("_", "-"), "text")
    assert fn(data=b"123", crc=fn(b"abc")) == fn(b"abc123")


def test_a_buffer_that_cannot_be_had_keeps_its_own_error():
    released = memoryview(b"abc")
    released.release()
    for call in (lambda b: crcforge.crc32c(b), lambda b: crcforge.new("crc32", b),
                 lambda b: crcforge.new("crc32").update(b), lambda b: crcforge.keyslot(b),
                 lambda b: crcforge.keyslots([b])):
        with pytest.raises(ValueError, match="released memoryview"):
            call(released)
        # A non-contiguous buffer is refused for that, with the exporter's error as cause.
        with pytest.raises(TypeError, match="not C-contiguous") as e:
            call(memoryview(RAW)[::2])
        assert isinstance(e.value.__cause__, BufferError)


def test_unknown_algorithm_is_named():
    for call in (lambda: crcforge.new("crc-99/nothing"),
                 lambda: crcforge.combine("crc-99/nothing", 0, 0, 0),
                 lambda: crcforge.implementation("crc-99/nothing")):
        with pytest.raises(ValueError, match="unknown algorithm 'crc-99/nothing'"):
            call()
    with pytest.raises(ValueError, match="unknown algorithm"):
        crcforge.new("crc32c\0")
    with pytest.raises(TypeError, match="algo must be"):
        crcforge.new(b"crc32c")
    with pytest.raises(ValueError, match="crc1"):
        crcforge.combine("crc16-xmodem", 1 << 16, 0, 0)
    with pytest.raises(ValueError, match="len2"):
        crcforge.combine("crc32", 0, 0, -1)


def test_hash_object():
    h = crcforge.new("crc32c", data=b"1234")
    c = h.copy()
    h.update(b"56789")
    assert (h.value, h.digest(), h.hexdigest()) == (0xE3069283, bytes.fromhex("e3069283"),
                                                    "e3069283")
    assert c.value == crcforge.crc32c(b"1234")
    assert "CRC-32/ISCSI" in repr(h) and "0xe3069283" in repr(h)
    assert crcforge.new("CRC-5/USB", b"123456789").digest() == b"\x19"
    assert crcforge.new("CRC-12/UMTS", b"123456789").hexdigest() == "0daf"
    with pytest.raises(TypeError):
        crcforge.CRC()
    with pytest.raises(TypeError):
        crcforge.new()


def test_keyslot_matches_the_redis_rule():
    def reference(key):  # the rule from the Redis cluster specification, with binascii
        start = key.find(b"{")
        if start >= 0:
            end = key.find(b"}", start + 1)
            if end > start + 1:
                key = key[start + 1:end]
        return binascii.crc_hqx(key, 0) % 16384

    keys = [b"", b"foo", b"{user1000}.following", b"{}x", b"{{a}}", b"a{b}c{d}", b"{",
            b"}{x}", bytes(range(256))]
    for key in keys:
        assert crcforge.keyslot(key) == reference(key), key
        assert crcforge.keyslot(bytearray(key)) == reference(key)
    assert crcforge.keyslot("foo") == 12182  # str keys hash their UTF-8 bytes
    assert crcforge.keyslot("é") == reference("é".encode())

    rng = random.Random(8)
    many = keys + [bytes(rng.choice(b"{}ab\x00") for _ in range(rng.randrange(100)))
                   for _ in range(3000)]
    assert crcforge.keyslots(many) == [reference(k) for k in many]
    mixed = ["foo", bytearray(b"{a}b"), memoryview(b"x{y}"), np.frombuffer(b"abc", np.uint8)]
    assert crcforge.keyslots(tuple(mixed)) == [12182, reference(b"a"), reference(b"y"),
                                               reference(b"abc")]
    assert crcforge.keyslots([]) == []
    with pytest.raises(TypeError, match="keyslots\\(\\): a bytes-like object is required"):
        crcforge.keyslots([b"a", 5])
    with pytest.raises(TypeError, match="must be a sequence"):
        crcforge.keyslots(5)


def test_keyslots_takes_a_sequence_of_keys_not_one_key():
    for key in ("abc", b"abc", bytearray(b"abc"), memoryview(b"abc"), array.array("B", b"abc"),
                np.frombuffer(b"abc", np.uint8)):
        with pytest.raises(TypeError,
                           match=r"^keyslots\(\) takes a sequence of keys, not a single key"):
            crcforge.keyslots(key)
    assert crcforge.keyslots(["abc", b"abc"]) == [crcforge.keyslot(b"abc")] * 2


def test_models_and_introspection():
    models = crcforge.models()
    iscsi = next(m for m in models if m.name == "CRC-32/ISCSI")
    assert (iscsi.width, iscsi.poly, iscsi.init, iscsi.refin, iscsi.refout, iscsi.xorout,
            iscsi.check, iscsi.residue) == (32, 0x1EDC6F41, 0xFFFFFFFF, True, True,
                                            0xFFFFFFFF, 0xE3069283, 0xB798B438)
    assert isinstance(iscsi.params, crcforge.Params)
    assert set(crcforge.implementations()) >= {"portable"}
    # One path, or length bands of paths: "A<128,B<3072,C".
    bands = crcforge.implementation("crc32c").split(",")
    assert all(b.split("<")[0] in crcforge.implementations() for b in bands), bands
    assert all(int(b.split("<")[1]) > 0 for b in bands[:-1]) and "<" not in bands[-1], bands
    assert isinstance(crcforge.cpu_features(), list)
    assert crcforge.__version__.count(".") == 2


def test_help_reads_well():
    text = pydoc.render_doc(crcforge, renderer=pydoc.plaintext)
    for words in ("crc32c(data, crc=0)", "new(algo, data=b'')", "combine(algo, crc1, crc2, len2",
                  "zlib-style chaining", "hexdigest", "force_implementation(name"):
        assert words in text, words


def test_stubs_cover_the_extension():
    import ast
    import pathlib

    stub = pathlib.Path(crcforge._crcforge.__file__).with_name("_crcforge.pyi")
    tree = ast.parse(stub.read_text())
    declared = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    declared |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
    public = {n for n in dir(crcforge._crcforge) if not n.startswith("__") or n == "__version__"}
    assert public <= declared | {"Algo"}, public - declared
    assert (stub.parent / "py.typed").exists()


def test_stubs_type_check_real_use():
    import pathlib
    import subprocess
    import sys

    sample = pathlib.Path(__file__).with_name("typing_sample.py")
    p = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                        str(sample)], capture_output=True, text=True, timeout=300)
    errors = [line for line in p.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and 'to "crc32c" has incompatible type "str"' in errors[0], p.stdout


def test_argument_errors_name_the_argument():
    for call, message in [
            (lambda: crcforge.crc32c(), "crc32c() missing required argument 'data'"),
            (lambda: crcforge.crc32c(crc=0), "crc32c() missing required argument 'data'"),
            (lambda: crcforge.crc32c(b"", data=b""),
             "crc32c() got multiple values for argument 'data'"),
            (lambda: crcforge.crc32(b"", 0, 0),
             "crc32() takes at most 2 positional arguments (3 given)"),
            (lambda: crcforge.new(), "new() missing required argument 'algo'"),
            (lambda: crcforge.new(data=b""), "new() missing required argument 'algo'"),
            (lambda: crcforge.new("crc32", algo="crc32"),
             "new() got multiple values for argument 'algo'"),
            (lambda: crcforge.new("crc32", b"", b""),
             "new() takes at most 2 positional arguments (3 given)"),
            (lambda: crcforge.new("crc32", seed=0),
             "new() got an unexpected keyword argument 'seed'")]:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value) == message
    assert crcforge.new(data=b"123456789", algo="crc32c").value == 0xE3069283
    assert crcforge.crc32c(crc=crcforge.crc32c(b"1234"), data=b"56789") == 0xE3069283


def test_spellings_of_names_are_not_all_kept():
    """Names are case-insensitive, so the spellings of one name are endless: a program
    given many must not keep them all."""
    rng = random.Random(11)
    names = [name for m in crcforge.models() for name in (m.name, *m.aliases)]
    spellings = set()
    while len(spellings) < 3000:
        name = rng.choice(names)
        spellings.add("".join(c.upper() if rng.random() < 0.5 else c.lower() for c in name))
    spellings = list(spellings)
    before = [sys.getrefcount(s) for s in spellings]
    for s in spellings:
        assert crcforge.new(s).width > 0
    after = [sys.getrefcount(s) for s in spellings]
    kept = sum(a > b for a, b in zip(after, before))
    assert kept < 1000, f"{kept} spellings kept"
