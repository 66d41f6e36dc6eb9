# SPDX-License-Identifier: MIT
"""The kinds of source besides s3:// (paths, open files, file:// and memory:// URLs), each
hashed inline, on threads and on processes, against awscrt's CRCs; and an S3 file opened
with fsspec, whose own filesystem's settings hold (a timeout= is refused)."""
import base64
import io
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import awscrt.checksums
import fsspec
import pytest

import crcforge

MIB = 1 << 20
DATA = random.Random(11).randbytes(3 * MIB + 777)
PART = MIB + 5


def composite_of(crcs):
    """The COMPOSITE form, from awscrt's CRC-32C of the parts' big-endian values."""
    joined = b"".join(c.to_bytes(4, "big") for c in crcs)
    value = base64.b64encode(awscrt.checksums.crc32c(joined).to_bytes(4, "big")).decode()
    return "%s-%d" % (value, len(crcs))


def awscrt_composite(data, part):
    return composite_of([awscrt.checksums.crc32c(data[at:at + part])
                         for at in range(0, len(data), part)])


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    p = tmp_path_factory.mktemp("sources") / "data"
    p.write_bytes(DATA)
    return p


@pytest.mark.parametrize("pool", [None, ThreadPoolExecutor, ProcessPoolExecutor])
def test_paths_and_urls(path, pool):
    fs = fsspec.filesystem("memory")
    fs.pipe("/sources/data", DATA)
    executor = pool(2) if pool else None
    try:
        for source in (str(path), path, "file://%s" % path, "memory://sources/data"):
            if source == "memory://sources/data" and pool is ProcessPoolExecutor:
                continue  # a memory filesystem is one process's: the workers have another
            assert crcforge.file_checksum(source, "crc32c", chunk_size=MIB // 3,
                                          executor=executor) == awscrt.checksums.crc32c(DATA)
            assert crcforge.object_checksum(source, "crc32c", part_size=PART,
                                            chunk_size=MIB // 3, executor=executor) == \
                awscrt_composite(DATA, PART)
    finally:
        if executor is not None:
            executor.shutdown()


@pytest.mark.parametrize("pool", [None, ThreadPoolExecutor, ProcessPoolExecutor])
def test_open_files_from_their_position(path, pool):
    executor = pool(2) if pool else None
    try:
        with open(path, "rb") as f:
            f.seek(1000)
            assert crcforge.file_checksum(f, "crc32c", chunk_size=MIB // 2,
                                          executor=executor) == \
                awscrt.checksums.crc32c(DATA[1000:])
            f.seek(0)
            assert crcforge.object_checksum(f, "crc32c", part_size=PART, executor=executor) \
                == awscrt_composite(DATA, PART)
    finally:
        if executor is not None:
            executor.shutdown()
    buffer = io.BytesIO(DATA)  # no descriptor: read here, and refused for ranges elsewhere
    assert crcforge.object_checksum(buffer, "crc32c", part_size=PART) == \
        awscrt_composite(DATA, PART)
    with ThreadPoolExecutor(2) as threads, pytest.raises(TypeError, match="regular file"):
        crcforge.file_checksum(io.BytesIO(DATA), executor=threads)


def test_uneven_part_sizes_must_add_up(path):
    parts = [MIB, 2 * MIB, 777]
    want = composite_of([awscrt.checksums.crc32c(DATA[:MIB]),
                         awscrt.checksums.crc32c(DATA[MIB:3 * MIB]),
                         awscrt.checksums.crc32c(DATA[3 * MIB:])])
    assert crcforge.object_checksum(str(path), "crc32c", part_size=parts) == want
    with pytest.raises(ValueError, match="add up to"):
        crcforge.object_checksum(str(path), "crc32c", part_size=[MIB, MIB])


def test_directories_and_missing_paths(tmp_path):
    with pytest.raises(IsADirectoryError):
        crcforge.file_checksum(str(tmp_path))
    with pytest.raises(FileNotFoundError):
        crcforge.file_checksum(str(tmp_path / "absent"))
    with pytest.raises(FileNotFoundError):
        crcforge.file_checksum("memory://no/such/object")


@pytest.mark.parametrize("pool", [None, ThreadPoolExecutor])
def test_an_open_s3_file_refuses_a_timeout_and_keeps_the_deadline(upload, storage_options,
                                                                  pool):
    """An S3 file opened with fsspec is read through its own filesystem: timeout= could not
    reach its requests and is a ValueError; deadline= is checked before every block."""
    url = upload("open-s3-file", DATA, "CRC32C")
    executor = pool(2) if pool else None
    try:
        with fsspec.open(url, "rb", **storage_options) as f:
            with pytest.raises(ValueError, match="timeout applies to URLs; an open file keeps "
                                                 "its filesystem's settings"):
                crcforge.file_checksum(f, timeout=1e-6, executor=executor)
            with pytest.raises(crcforge.SourceTimeout, match="the deadline of 1e-06 s passed"):
                crcforge.file_checksum(f, deadline=1e-6, executor=executor)
            assert f.tell() == 0
            assert crcforge.file_checksum(f, "crc32c", chunk_size=MIB // 3, executor=executor,
                                          deadline=600) == awscrt.checksums.crc32c(DATA)
    finally:
        if executor is not None:
            executor.shutdown()
