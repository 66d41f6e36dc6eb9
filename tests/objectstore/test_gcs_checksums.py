# SPDX-License-Identifier: MIT
"""crcforge against the CRC-32C a real Google Cloud Storage server (fake-gcs-server)
stores.

Objects are uploaded by google-cloud-storage (single requests, a resumable upload in
chunks) and by gcsfs, and composed from several components, from 32 (one compose
request's most) and from 40 (a compose of composed objects: two levels).  For each, the
crc32c the server reports must equal google-crc32c's CRC-32C of the bytes, and crcforge's
value through the Python API (inline, on a thread pool, on a Dask cluster), and
verify_upload must call the object's bytes OK.  The checksum crcforge gives to declare on
an upload is taken by the server, and one of other bytes refused (HTTP 400).
"""
import base64
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import google_crc32c
import pytest

import crcforge
import needs
from gcs_server import BUCKET

MIB = 1 << 20


def b64(value):
    return base64.b64encode(value.to_bytes(4, "big")).decode()


def url_of(name):
    return "gs://%s/%s" % (BUCKET, name)


def compose(bucket, name, sources):
    blob = bucket.blob(name)
    blob.compose(sources)
    return blob


@pytest.fixture(scope="module")
def uploaded(gcs, gcs_bucket):
    """{name: bytes} of every object uploaded, single or composed."""
    rng = random.Random(40)
    made = {}

    def put(name, size, **kwargs):
        data = rng.randbytes(size)
        blob = gcs_bucket.blob(name, **kwargs)
        blob.upload_from_string(data)
        made[name] = data
        return blob

    for size in (0, 1, 4097, 3 * MIB + 1):
        put("single-%d" % size, size)
    # Past 8 MiB, with a chunk size, google-cloud-storage uploads in a resumable session.
    put("resumable", 9 * MIB + 5, chunk_size=4 * MIB)
    # gcsfs's JSON API class: its default one asks each bucket's layout by gRPC, which the
    # emulator does not speak (a minute of retries a call).
    fs = needs.module("gcsfs.core").GCSFileSystem(token="anon", endpoint_url=gcs.endpoint)
    made["by-gcsfs"] = rng.randbytes(2 * MIB + 3)
    fs.pipe("%s/by-gcsfs" % BUCKET, made["by-gcsfs"])

    parts = [put("part-%02d" % i, size) for i, size in
             enumerate([MIB + 7, 0, 300_001] + [rng.randrange(1, 200_000) for _ in range(37)])]
    for name, sources in (("composed-3", parts[:3]), ("composed-32", parts[:32])):
        compose(gcs_bucket, name, sources)
        made[name] = b"".join(made[p.name] for p in sources)
    # Two levels: the 32-component object and 8 more parts, 40 components in all.
    compose(gcs_bucket, "composed-40", [gcs_bucket.blob("composed-32")] + parts[32:])
    made["composed-40"] = made["composed-32"] + b"".join(made[p.name] for p in parts[32:])
    return made


def stored(gcs_bucket, name):
    blob = gcs_bucket.get_blob(name)
    return blob.crc32c


NAMES = ["single-0", "single-1", "single-4097", "single-%d" % (3 * MIB + 1), "resumable",
         "by-gcsfs", "composed-3", "composed-32", "composed-40"]


@pytest.mark.parametrize("name", NAMES)
def test_stored_crc32c_is_crcforges(name, uploaded, gcs, gcs_bucket, tmp_path, monkeypatch):
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", gcs.endpoint)
    data = uploaded[name]
    want = stored(gcs_bucket, name)
    assert want == b64(google_crc32c.value(data))  # the server against the reference
    url = url_of(name)
    assert crcforge.object_checksum(url, "crc32c") == want
    assert crcforge.file_checksum(url) == google_crc32c.value(data)
    with ThreadPoolExecutor(3) as pool:  # ranges that do not divide the components
        assert crcforge.object_checksum(url, "crc32c", executor=pool, chunk_size=MIB - 1) \
            == want
    assert crcforge.gcs_crc32c(data) == want
    path = tmp_path / "local"
    path.write_bytes(data)
    result = crcforge.verify_upload(str(path), url)
    assert (result.ok, result.stored, result.computed, result.algorithm,
            result.checksum_type, result.object_size) == (True, want, want, "CRC32C",
                                                          "FULL_OBJECT", len(data))


def test_storage_options_instead_of_the_environment(uploaded, gcs, gcs_bucket, monkeypatch):
    monkeypatch.delenv("STORAGE_EMULATOR_HOST", raising=False)
    want = stored(gcs_bucket, "composed-3")
    assert crcforge.object_checksum(url_of("composed-3"), "crc32c", storage_options={
        "endpoint_url": gcs.endpoint}) == want
    assert crcforge.stored_checksum(url_of("composed-3"), storage_options={
        "endpoint_url": gcs.endpoint, "token": "anon"}).value == want


def test_an_open_gcs_file(uploaded, gcs):
    """A file gcsfs opened is read by ranges through its own filesystem."""
    fs = needs.module("gcsfs.core").GCSFileSystem(token="anon", endpoint_url=gcs.endpoint)
    with fs.open("%s/composed-40" % BUCKET, "rb") as f, ThreadPoolExecutor(2) as pool:
        f.seek(5)
        assert crcforge.file_checksum(f, executor=pool, chunk_size=MIB) == \
            google_crc32c.value(uploaded["composed-40"][5:])


def test_dask_cluster_hashes_a_composed_object(dask_client, uploaded, gcs, gcs_bucket,
                                               monkeypatch):
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", gcs.endpoint)
    url = url_of("composed-40")
    want = stored(gcs_bucket, "composed-40")
    assert crcforge.object_checksum(url, "crc32c", chunk_size=MIB // 2,
                                    executor=dask_client.get_executor()) == want
    whole = uploaded["resumable"]
    assert crcforge.file_checksum(url_of("resumable"), chunk_size=2 * MIB,
                                  executor=dask_client.get_executor()) == \
        google_crc32c.value(whole)


def test_process_pool_leaves_stderr_clean(uploaded, gcs, gcs_bucket, tmp_path):
    """As a script does it: a call in this process first (its filesystem stays here),
    then forked workers, which inherit it and make their own."""
    url = url_of("composed-40")
    local = tmp_path / "local"
    local.write_bytes(uploaded["composed-40"])
    script = tmp_path / "pool.py"
    script.write_text(f"""
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
import crcforge

if __name__ == "__main__":
    print(crcforge.object_checksum({url!r}, "crc32c"))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        print(crcforge.object_checksum({url!r}, "crc32c", chunk_size=1 << 20, executor=pool))
        print(bool(crcforge.verify_upload({str(local)!r}, {url!r}, executor=pool)))
""")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, **gcs.env()))
    want = stored(gcs_bucket, "composed-40")
    assert (p.returncode, p.stderr, p.stdout.splitlines()) == (0, "", [want, want, "True"])


@pytest.mark.parametrize("size", [1000, 9 * MIB + 1], ids=["multipart", "resumable"])
def test_declared_crc32c_is_checked_by_the_server(gcs_bucket, size):
    """The value gcs_crc32c gives is taken, and stored; the value of other bytes (one bit
    changed) is refused with HTTP 400, and nothing is stored.  (Past 8 MiB the SDK uploads
    in a resumable session, here in one request: fake-gcs-server 1.55.1 checks the
    declared crc32c of a resumable upload only when its bytes come in one request, and
    takes one sent in chunks unchecked.)"""
    from google.api_core.exceptions import BadRequest

    data = random.Random(size).randbytes(size)
    blob = gcs_bucket.blob("declared-%d" % size)
    blob.crc32c = crcforge.gcs_crc32c(data)
    blob.upload_from_string(data, checksum=None)  # the SDK sends ours, computes none
    assert stored(gcs_bucket, blob.name) == b64(google_crc32c.value(data))

    other = bytes([data[0] ^ 1]) + data[1:]
    blob = gcs_bucket.blob("refused-%d" % size)
    blob.crc32c = crcforge.gcs_crc32c(other)
    with pytest.raises(BadRequest, match="CRC32C"):
        blob.upload_from_string(data, checksum=None)
    assert gcs_bucket.get_blob(blob.name) is None
