# SPDX-License-Identifier: MIT
"""crcforge.file_checksum with a list of algorithms: the values of one read, in the list's
order, for paths, file:// URLs, open files and pipes, inline and on thread and process
pools; the single-algorithm form unchanged.  Values from awscrt and zlib."""
import os
import random
import zlib
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from unittest import mock

import awscrt.checksums
import pytest

import crcforge
from crcforge import objects

MIB = 1 << 20
DATA = random.Random(12).randbytes(3 * MIB + 333)
WANT = [awscrt.checksums.crc32c(DATA), awscrt.checksums.crc64nvme(DATA), zlib.crc32(DATA)]
ALGOS = ["crc32c", "crc64-nvme", "crc32"]


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    p = tmp_path_factory.mktemp("several") / "data"
    p.write_bytes(DATA)
    return p


@pytest.mark.parametrize("pool", [None, ThreadPoolExecutor, ProcessPoolExecutor])
def test_paths_urls_and_open_files(path, pool):
    executor = pool(2) if pool else None
    try:
        for source in (str(path), path, os.fsencode(path), f"file://{path}"):
            assert crcforge.file_checksum(source, ALGOS, chunk_size=MIB // 3,
                                          executor=executor) == WANT
            assert crcforge.file_checksum(source, tuple(ALGOS[::-1]), chunk_size=MIB // 3,
                                          executor=executor) == WANT[::-1]
        with open(path, "rb") as f:
            f.seek(1000)
            assert crcforge.file_checksum(f, ALGOS, executor=executor) == [
                awscrt.checksums.crc32c(DATA[1000:]), awscrt.checksums.crc64nvme(DATA[1000:]),
                zlib.crc32(DATA[1000:])]
    finally:
        if executor is not None:
            executor.shutdown()


def test_one_read(path):
    """Each range is read once, whatever the number of algorithms: the positional read is
    called as often for three as for one."""
    counts = []
    for algos in ("crc32c", ALGOS):
        with mock.patch.object(objects, "pread_into", wraps=objects.pread_into) as pread:
            crcforge.file_checksum(path, algos, chunk_size=MIB)
        counts.append(pread.call_count)
    assert counts[0] == counts[1] > 0


@pytest.mark.posix
def test_pipe_is_streamed_once():
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        with os.fdopen(w, "wb") as out:
            out.write(DATA)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        assert crcforge.file_checksum(f, ALGOS) == WANT
    os.waitpid(pid, 0)


def test_single_algorithm_and_params_unchanged(path):
    assert crcforge.file_checksum(path) == WANT[0]
    assert crcforge.file_checksum(path, "crc32") == WANT[2]
    params = crcforge.Params(32, 0x04C11DB7, 0xFFFFFFFF, True, True, 0xFFFFFFFF)  # a tuple
    assert crcforge.file_checksum(path, params) == WANT[2]
    assert crcforge.file_checksum(path, [params, "crc32c"]) == [WANT[2], WANT[0]]


def test_bad_lists():
    with pytest.raises(ValueError, match="list of algorithms is empty"):
        crcforge.file_checksum(os.devnull, [])
    with pytest.raises(ValueError):
        crcforge.file_checksum(os.devnull, ["crc32c", "no-such-crc"])
