# SPDX-License-Identifier: MIT
"""Ranges hashed where the executor runs them: a process pool and a Dask LocalCluster with
worker processes, reading a MinIO object through s3fs.  Each task reads only its own
range and sends back only (crc, length); MinIO's own traffic counter shows the object's
bytes were sent once, to the tasks; a Dask worker killed in mid-job never yields a wrong
value; a process pool leaves nothing on stderr."""
import os
import random
import signal
import subprocess
import sys
import urllib.request
from concurrent.futures import ProcessPoolExecutor

import awscrt.checksums
import pytest

import crcforge
from recording import RecordingExecutor

MIB = 1 << 20
SIZE = 40 * MIB + 12345
PART = 8 * MIB


@pytest.fixture(scope="module")
def obj(upload, head):
    """A 40 MiB multipart object with COMPOSITE CRC32C, its bytes, its stored value."""
    data = random.Random(40).randbytes(SIZE)
    url = upload("parallel-40mib", data, "CRC32C", "COMPOSITE",
                 [PART] * (SIZE // PART) + [SIZE % PART])
    stored, ctype = head(url, "CRC32C")
    assert ctype == "COMPOSITE" and stored.endswith("-6")
    return url, data, stored


def sent_bytes(minio):
    """MinIO's count of the bytes it has sent in S3 responses (its Prometheus metrics, v3:
    counted as they go, where v2's are cached)."""
    with urllib.request.urlopen(minio.endpoint + "/minio/metrics/v3/api/requests") as r:
        text = r.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("minio_api_requests_traffic_sent_bytes"))


def check_tasks(recorder, size, chunk):
    """Every task read one range of at most `chunk` bytes, the ranges tile the object, and
    what came back is a pair of small integers."""
    ranges = sorted((args[2], args[3]) for args in recorder.tasks)
    assert all(0 < n <= chunk for _, n in ranges)
    assert [at for at, _ in ranges] == [0] + [at + n for at, n in ranges[:-1]]
    assert sum(n for _, n in ranges) == size
    assert len(recorder.result_bytes) == len(ranges)
    assert max(recorder.result_bytes) < 64  # (crc, length): no data came back


def check_composite_by_ranges(minio, obj, executor, chunk, storage_options):
    """object_checksum of the object on the executor: the stored value; the tasks' traffic
    as check_tasks wants it; the object's bytes sent once by MinIO (its count covers the
    response bodies)."""
    url, _, stored = obj
    recorder = RecordingExecutor(executor)
    before = sent_bytes(minio)
    value = crcforge.object_checksum(url, "crc32c", part_size=PART, chunk_size=chunk,
                                     executor=recorder, storage_options=storage_options)
    sent = sent_bytes(minio) - before
    assert value == stored
    check_tasks(recorder, SIZE, chunk)
    assert SIZE <= sent < SIZE + 256 * 1024


def test_process_pool_tasks_send_back_only_crc_and_length(minio, obj, storage_options):
    with ProcessPoolExecutor(2) as pool:
        check_composite_by_ranges(minio, obj, pool, 3 * MIB, storage_options)


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_process_pool_with_storage_options_leaves_stderr_clean(obj, storage_options, tmp_path,
                                                               method):
    """As a script does it: a call without a pool first (its filesystem, with other
    options, stays in this process), then a process pool.  A forked worker inherits that
    filesystem: freed there, s3fs's finalizer would close this process's HTTP session from
    the worker and print "Task exception was never retrieved ... attached to a different
    loop" tracebacks, one a worker."""
    url, data, stored = obj
    local = tmp_path / "local"
    local.write_bytes(data)
    other = dict(storage_options, client_kwargs={"region_name": "us-east-1", "verify": False})
    script = tmp_path / "pool.py"
    script.write_text(f"""
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
import crcforge

if __name__ == "__main__":
    print(crcforge.file_checksum({url!r}, storage_options={other!r}))
    context = multiprocessing.get_context({method!r})
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        print(crcforge.object_checksum({url!r}, "crc32c", part_size={PART}, chunk_size=3 << 20,
                                       executor=pool, storage_options={storage_options!r}))
        print(bool(crcforge.verify_upload({str(local)!r}, {url!r}, executor=pool,
                                          storage_options={storage_options!r})))
""")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=300)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout.splitlines() == [str(awscrt.checksums.crc32c(data)), stored, "True"]


def test_open_local_file_in_a_process_pool(tmp_path):
    data = os.urandom(5 * MIB + 3)
    path = tmp_path / "local"
    path.write_bytes(data)
    with ProcessPoolExecutor(2) as pool, open(path, "rb") as f:
        f.seek(10)
        recorder = RecordingExecutor(pool)
        assert crcforge.file_checksum(f, "crc32c", chunk_size=MIB, executor=recorder) == \
            awscrt.checksums.crc32c(data[10:])
    assert max(recorder.result_bytes) < 64


def test_dask_cluster_hashes_an_object_by_ranges(dask_client, minio, obj, storage_options):
    url, data, _ = obj
    workers = set(dask_client.run(os.getpid).values())
    assert len(workers) == 2 and os.getpid() not in workers  # processes of their own
    check_composite_by_ranges(minio, obj, dask_client.get_executor(), 4 * MIB, storage_options)
    whole = crcforge.file_checksum(url, "crc32c", chunk_size=4 * MIB,
                                   executor=dask_client.get_executor(),
                                   storage_options=storage_options)
    assert whole == awscrt.checksums.crc32c(data)


def test_dask_worker_killed_mid_job_never_gives_a_wrong_value(dask_client, obj,
                                                              storage_options):
    url, data, stored = obj
    pid = next(iter(dask_client.run(os.getpid).values()))
    recorder = RecordingExecutor(dask_client.get_executor(),
                                 on_first_done=lambda: os.kill(pid, signal.SIGKILL))
    try:
        value = crcforge.object_checksum(url, "crc32c", part_size=PART, chunk_size=MIB,
                                         executor=recorder, storage_options=storage_options)
    except Exception as e:  # the call failed: no value (Dask gave up on the tasks)
        value = e
    assert recorder.mid_job()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # that worker is gone
    # Dask re-ran the lost tasks on the other worker (or the call failed): never a
    # value other than the stored one.
    assert value == stored or isinstance(value, Exception), value
    dask_client.wait_for_workers(2, timeout=60)  # the nanny restarts it
