# SPDX-License-Identifier: MIT
"""crcforge.objects on local files, without an object store: part_size as an int, a size
string spelled as `crcforge sum --part-size` spells it, or the size of every part (never a
string read as a sequence); Verification false when the check failed; a deadline on a
local read.  The values are checked against zlib's CRC-32 of the parts, joined as S3 joins
a COMPOSITE checksum (the CRC of the parts' big-endian CRCs, base64, then -N)."""
import base64
import io
import math
import re
import zlib

import pytest

import crcforge

DATA = bytes(range(256)) * 4099 + b"tail"  # 1,049,348 bytes: over 1 MiB


def composite(data, part):
    crcs = [zlib.crc32(data[at:at + part]) for at in range(0, len(data), part)]
    joined = b"".join(c.to_bytes(4, "big") for c in crcs)
    return "%s-%d" % (base64.b64encode(zlib.crc32(joined).to_bytes(4, "big")).decode(),
                      len(crcs))


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    p = tmp_path_factory.mktemp("objects") / "data"
    p.write_bytes(DATA)
    return str(p)


# The CLI's spelling of a size: digits, then a suffix in any case, all powers of 1024.
SPELLED = {"123": 123, "123b": 123, "2k": 2048, "2K": 2048, "2KB": 2048, "2kib": 2048,
           "2KiB": 2048, "1m": 1 << 20, "1MB": 1 << 20, "1MiB": 1 << 20, "1mIb": 1 << 20,
           "1G": 1 << 30, "1gb": 1 << 30, "1GiB": 1 << 30, "1T": 1 << 40, "1TB": 1 << 40,
           "1tib": 1 << 40, "0200": 200}


@pytest.mark.parametrize("text", sorted(SPELLED))
def test_part_size_string_is_one_size(path, text):
    size = SPELLED[text]
    want = composite(DATA, size)
    assert crcforge.object_checksum(path, "crc32", part_size=text) == want
    assert crcforge.object_checksum(path, "crc32", part_size=size) == want
    crcs, sizes = crcforge.objects.part_crcs(path, "crc32", text)
    assert sizes[0] == min(size, len(DATA)) and sum(sizes) == len(DATA)


def test_part_size_123_is_123_bytes_not_parts_of_1_2_and_3(path):
    value = crcforge.object_checksum(path, "crc32", part_size="123")
    assert value == composite(DATA, 123)
    assert value.endswith("-%d" % -(-len(DATA) // 123))


@pytest.mark.parametrize("bad", ["8 MB", "8MB ", "1.5M", "-1", "0x10", "8XB", "", "MB",
                                 "８", "8\x00MB", "18446744073709551616",
                                 "16777216TiB"])
def test_part_size_strings_that_are_not_sizes(path, bad):
    with pytest.raises(ValueError, match="is not a size"):
        crcforge.object_checksum(path, "crc32", part_size=bad)


def test_part_size_zero_or_more_than_10000_parts(path):
    for zero in ("0", "0K", 0):
        with pytest.raises(ValueError, match="at least 1 byte"):
            crcforge.object_checksum(path, "crc32", part_size=zero)
    with pytest.raises(ValueError, match="at most 10000 parts"):
        crcforge.object_checksum(path, "crc32", part_size="100")


def test_part_size_sequences_are_of_ints_only(path):
    parts = [1000, 1 << 19, len(DATA) - 1000 - (1 << 19)]
    crcs = [zlib.crc32(DATA[:1000]), zlib.crc32(DATA[1000:1000 + (1 << 19)]),
            zlib.crc32(DATA[1000 + (1 << 19):])]
    joined = b"".join(c.to_bytes(4, "big") for c in crcs)
    want = "%s-3" % base64.b64encode(zlib.crc32(joined).to_bytes(4, "big")).decode()
    for given in (parts, tuple(parts), iter(parts)):
        assert crcforge.object_checksum(path, "crc32", part_size=given) == want
    for bad in (b"123", bytearray(b"12"), ["1000", "2000"], [1000.0], [True], 1.5, True,
                object()):
        with pytest.raises(TypeError, match="part_size is an int, a size string or a "
                                            "sequence of ints"):
            crcforge.object_checksum(path, "crc32", part_size=bad)


def stored_of(data, algorithm="CRC32"):
    value = base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()
    return crcforge.StoredChecksum(algorithm, "FULL_OBJECT", value, (), len(data))


def test_verification_is_false_when_the_check_failed(path, tmp_path):
    ok = crcforge.verify_upload(path, "s3://unused/key", stored=stored_of(DATA))
    assert ok.ok is True and bool(ok) is True and ok
    changed = tmp_path / "changed"
    changed.write_bytes(DATA[:-1] + bytes([DATA[-1] ^ 1]))
    failed = crcforge.verify_upload(str(changed), "s3://unused/key", stored=stored_of(DATA))
    assert failed.ok is False and bool(failed) is False
    assert not failed  # what the README shows: `if not crcforge.verify_upload(...)`
    assert failed.stored == ok.computed and failed.computed != failed.stored
    assert len(failed) == 8  # still the NamedTuple of its fields
    short = tmp_path / "short"
    short.write_bytes(DATA[:-1])
    assert not crcforge.verify_upload(str(short), "s3://unused/key", stored=stored_of(DATA))
    parts = (1 << 20, len(DATA) - (1 << 20))
    stored = crcforge.StoredChecksum("CRC32", "COMPOSITE", composite(DATA, 1 << 20), parts,
                                     len(DATA))
    assert crcforge.verify_upload(path, "s3://unused/key", stored=stored)
    assert not crcforge.verify_upload(str(changed), "s3://unused/key", stored=stored)


class FsspecLikeFile(io.BytesIO):
    """What makes an open file an fsspec file to crcforge.objects: its filesystem and path."""

    fs = object()
    path = "bucket/key"


def test_a_timeout_is_refused_with_an_open_fsspec_file(path):
    """Its requests go through the filesystem it was opened with: a timeout given here could
    not reach them, and is refused rather than ignored.  A local open file makes no requests:
    the timeout is moot there, as for a path."""
    with pytest.raises(ValueError, match="timeout applies to URLs; an open file keeps its "
                                         "filesystem's settings"):
        crcforge.file_checksum(FsspecLikeFile(DATA), "crc32", timeout=5)
    with pytest.raises(ValueError, match="timeout applies to URLs"):  # before any request
        crcforge.verify_upload(FsspecLikeFile(DATA), "s3://unused/key", timeout=5)
    assert crcforge.file_checksum(FsspecLikeFile(DATA), "crc32") == zlib.crc32(DATA)
    assert crcforge.file_checksum(io.BytesIO(DATA), "crc32", timeout=5) == zlib.crc32(DATA)
    with open(path, "rb") as f:
        assert crcforge.file_checksum(f, "crc32", timeout=5) == zlib.crc32(DATA)


def test_deadline_of_a_local_read(path):
    assert crcforge.file_checksum(path, "crc32", deadline=60) == zlib.crc32(DATA)
    with pytest.raises(crcforge.SourceTimeout, match="%s: timed out: the deadline of 1e-09 s "
                                                     "passed" % re.escape(path)):
        crcforge.file_checksum(path, "crc32", deadline=1e-9)
    with open(path, "rb") as f, pytest.raises(TimeoutError, match="deadline"):
        crcforge.object_checksum(f, "crc32", part_size=1000, deadline=1e-9)
    # Infinite and overflowing values too: a socket timeout or a wait holds < 2**63 ns.
    for bad in (0, -1, "5", True, float("nan"), math.inf, -math.inf, 1e9 + 1, 1e300):
        with pytest.raises(ValueError, match="deadline must be a number of seconds > 0 and "
                                             "at most 1e\\+09, not %s" % re.escape(repr(bad))):
            crcforge.file_checksum(path, deadline=bad)
        with pytest.raises(ValueError, match="timeout must be a number of seconds > 0 and "
                                             "at most 1e\\+09, not %s" % re.escape(repr(bad))):
            crcforge.file_checksum(path, timeout=bad)
    assert crcforge.file_checksum(path, "crc32", timeout=1e9, deadline=1e9) == zlib.crc32(DATA)

