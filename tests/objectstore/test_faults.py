# SPDX-License-Identifier: MIT
"""Bad input and faults: part sizes out of S3's limits, URLs that cannot be read, short
reads, connections dropped in mid-body, sources that change or shrink while they are
hashed, a process-pool worker killed in mid-job.  Each must give an error and no value,
or (short reads, a dropped connection) the right value."""
import io
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import zlib
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import awscrt.checksums
import pytest

import crcforge
from http_proxy import Proxy
from minio_server import BUCKET
from recording import RecordingExecutor, RecordingThreadPool

MIB = 1 << 20


@pytest.fixture(scope="module")
def big_object(upload):
    """A 24 MiB object (three 8 MiB ranged GETs) and its bytes."""
    data = random.Random(24).randbytes(24 * MIB)
    return upload("faults-24mib", data, "CRC32C"), data


def test_part_size_below_one_byte_names_the_limit(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    for bad in (0, -5):
        with pytest.raises(ValueError, match="at least 1 byte"):
            crcforge.object_checksum(str(path), "crc32c", part_size=bad)
    with pytest.raises(ValueError, match="at least 1 byte"):  # refused before any request
        crcforge.object_checksum("s3://no-such-bucket/x", "crc32c", part_size=0)


def test_more_than_10000_parts_names_the_limit(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10_001)
    assert crcforge.object_checksum(str(path), "crc32c", part_size=2).endswith("-5001")
    with pytest.raises(ValueError, match="at most 10000 parts"):
        crcforge.object_checksum(str(path), "crc32c", part_size=1)
    with open(path, "rb") as f:  # streamed: refused at the end, no value
        with pytest.raises(ValueError, match="at most 10000 parts"):
            crcforge.object_checksum(f, "crc32c", part_size=1)
    with pytest.raises(ValueError, match="at most 10000 parts"):
        crcforge.object_checksum(str(path), "crc32c", part_size=[1] * 10_001)


def test_unreadable_urls_raise_with_their_reason(minio, s3, storage_options, big_object):
    with pytest.raises(FileNotFoundError, match="bucket does not exist"):
        crcforge.file_checksum("s3://no-such-bucket/key", storage_options=storage_options)
    with pytest.raises(FileNotFoundError):
        crcforge.file_checksum("s3://%s/no-such-key" % BUCKET, storage_options=storage_options)
    wrong = dict(storage_options, secret="not-the-secret")
    with pytest.raises(PermissionError):
        crcforge.file_checksum(big_object[0], storage_options=wrong)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    refused = dict(storage_options, endpoint_url="http://127.0.0.1:%d" % closed,
                   config_kwargs={"retries": {"max_attempts": 1}})
    with pytest.raises(Exception, match="[Cc]ould not connect|[Cc]onnect"):
        crcforge.file_checksum(big_object[0], storage_options=refused)


def test_ranged_reads_carry_if_match(minio, s3, storage_options, big_object):
    url, data = big_object
    etag = s3.head_object(Bucket=BUCKET, Key=url.split("/", 3)[3])["ETag"]
    with Proxy(minio.port) as proxy, ThreadPoolExecutor(3) as pool:
        value = crcforge.file_checksum(url, executor=pool, chunk_size=5 * MIB,
                                       storage_options=dict(storage_options,
                                                            endpoint_url=proxy.endpoint))
        ranged = [h for method, _, h in proxy.requests if method == "GET" and "range" in h]
    assert value == awscrt.checksums.crc32c(data)
    assert len(ranged) >= 5  # one range per task at least
    assert all(h.get("if-match") == etag for h in ranged), ranged


def test_connection_dropped_mid_body_is_read_again(minio, storage_options, big_object):
    url, data = big_object
    with Proxy(minio.port) as proxy:
        proxy.cut_next_range = 100_000  # of an 8 MiB response
        value = crcforge.file_checksum(url, storage_options=dict(
            storage_options, endpoint_url=proxy.endpoint))
        assert proxy.cuts == 1
    assert value == awscrt.checksums.crc32c(data)


def test_short_reads_from_a_pipe_are_continued():
    data = random.Random(7).randbytes(3 * MIB + 5)
    for part_size in (None, MIB):
        r, w = os.pipe()

        def writer():  # small, uneven writes: the reader gets short reads
            rng = random.Random(8)
            at = 0
            with os.fdopen(w, "wb", buffering=0) as out:
                while at < len(data):
                    n = rng.randrange(1, 70_000)
                    out.write(data[at:at + n])
                    at += n

        t = threading.Thread(target=writer)
        t.start()
        with os.fdopen(r, "rb", buffering=0) as f:
            got = crcforge.object_checksum(f, "crc32", part_size=part_size)
        t.join()
        want = crcforge.object_checksum(io.BytesIO(data), "crc32",
                                        part_size=part_size)
        assert got == want
    assert crcforge.file_checksum(io.BytesIO(data), "crc32") == zlib.crc32(data)


def test_file_shrinking_while_hashed_is_an_error(tmp_path):
    path = tmp_path / "shrinks"
    path.write_bytes(os.urandom(16 * MIB))
    with open(path, "rb") as f, ThreadPoolExecutor(1) as pool:
        # The ranges share this file's descriptor: after the first, the file is cut short.
        hooked = RecordingThreadPool(pool, on_first_done=lambda: os.truncate(path, 3 * MIB))
        with pytest.raises(crcforge.SourceTruncated, match="ended at byte"):
            crcforge.file_checksum(f, executor=hooked, chunk_size=MIB)
        assert hooked.mid_job()


def test_file_changed_while_hashed_is_an_error(tmp_path):
    path = tmp_path / "changes"
    path.write_bytes(os.urandom(16 * MIB))

    def rewrite():  # same size, other bytes: only the modification time tells
        with open(path, "r+b") as f:
            f.write(b"changed")
        st = os.stat(path)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))

    for executor in (ThreadPoolExecutor(2), ProcessPoolExecutor(2)):
        path.write_bytes(os.urandom(16 * MIB))
        with executor:
            hooked = RecordingExecutor(executor, on_first_done=rewrite)
            with pytest.raises(crcforge.SourceChanged, match="changed while it was hashed"):
                crcforge.file_checksum(str(path), executor=hooked, chunk_size=MIB // 2)
            assert hooked.mid_job()


def test_object_changed_while_hashed_is_an_error(s3, storage_options, upload):
    data = random.Random(3).randbytes(24 * MIB)
    url = upload("faults-changes", data, "CRC32C")
    key = url.split("/", 3)[3]

    def overwrite():  # same size, other bytes: a new ETag
        s3.put_object(Bucket=BUCKET, Key=key, Body=data[::-1])

    # One worker: it runs the hook before its next range, so the upload is done while ranges
    # are left (with two, the other could read them all, and the call check the version,
    # before the upload ends).
    with ThreadPoolExecutor(1) as pool:
        hooked = RecordingExecutor(pool, on_first_done=overwrite)
        with pytest.raises(crcforge.SourceChanged, match="changed while it was hashed"):
            crcforge.object_checksum(url, "crc32c", executor=hooked, chunk_size=MIB,
                                     storage_options=storage_options)
        assert hooked.mid_job()


def _kill_one_worker(pool):
    pid = next(iter(pool._processes))  # the pool's own table of its worker processes
    os.kill(pid, signal.SIGKILL)


def test_process_pool_worker_killed_mid_job_fails_the_call(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(os.urandom(64 * MIB))
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(abs, range(4)))  # the workers are up before the job starts
        hooked = RecordingExecutor(pool, on_first_done=lambda: _kill_one_worker(pool))
        with pytest.raises(BrokenProcessPool):
            crcforge.file_checksum(str(path), executor=hooked, chunk_size=256 << 10)
        assert hooked.mid_job()


def test_core_package_imports_no_optional_dependency():
    code = ("import sys, crcforge; crcforge.file_checksum(sys.executable); "
            "print(sorted(m for m in ('fsspec', 's3fs', 'dask', 'distributed', 'boto3', "
            "'botocore', 'aiobotocore') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "[]\n"
