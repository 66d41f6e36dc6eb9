# SPDX-License-Identifier: MIT
"""Fixtures of the object-store tests: a real MinIO server on 127.0.0.1 (started here,
stopped at the end), a boto3 client, a bucket, and uploads made the way the AWS SDKs make
them (single PUT, or multipart with the checksum type asked for)."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import needs  # noqa: E402
from minio_server import BUCKET, MinioServer  # noqa: E402



@pytest.fixture(scope="session")
def minio():
    server = MinioServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def s3(minio):
    client = minio.client()
    client.create_bucket(Bucket=BUCKET)
    return client


@pytest.fixture(scope="session")
def storage_options(minio):
    return minio.storage_options()


@pytest.fixture(scope="session")
def upload(s3):
    """upload(key, data, algorithm, checksum_type=None, parts=None): a single PUT when
    parts is None, else a multipart upload of parts of those sizes (adding up to
    len(data)); returns the s3:// URL."""

    def _upload(key, data, algorithm, checksum_type=None, parts=None):
        if parts is None:
            s3.put_object(Bucket=BUCKET, Key=key, Body=data, ChecksumAlgorithm=algorithm)
            return "s3://%s/%s" % (BUCKET, key)
        assert sum(parts) == len(data)
        mpu = s3.create_multipart_upload(Bucket=BUCKET, Key=key, ChecksumAlgorithm=algorithm,
                                         ChecksumType=checksum_type)
        done, offset = [], 0
        for number, size in enumerate(parts, 1):
            r = s3.upload_part(Bucket=BUCKET, Key=key, UploadId=mpu["UploadId"],
                               PartNumber=number, Body=data[offset:offset + size],
                               ChecksumAlgorithm=algorithm)
            offset += size
            done.append({"PartNumber": number, "ETag": r["ETag"],
                         "Checksum" + algorithm: r["Checksum" + algorithm]})
        s3.complete_multipart_upload(Bucket=BUCKET, Key=key, UploadId=mpu["UploadId"],
                                     MultipartUpload={"Parts": done},
                                     ChecksumType=checksum_type)
        return "s3://%s/%s" % (BUCKET, key)

    return _upload


@pytest.fixture(scope="session")
def head(s3):
    """The object's HeadObject with checksum mode enabled: (ChecksumXXX value, type), or
    (None, None) when it stores none."""

    def _head(url, algorithm):
        key = url.split("/", 3)[3]
        h = s3.head_object(Bucket=BUCKET, Key=key, ChecksumMode="ENABLED")
        return h.get("Checksum" + algorithm), h.get("ChecksumType")

    return _head


@pytest.fixture(scope="session")
def cli(minio):
    """Runs python -m crcforge with the server's environment; (exit, stdout, stderr)."""

    def _cli(*args, env=None):
        full = {**os.environ, **minio.env(), "AWS_MAX_ATTEMPTS": "1", **(env or {})}
        p = subprocess.run([sys.executable, "-m", "crcforge", *args], capture_output=True,
                           text=True, env=full, timeout=300)
        return p.returncode, p.stdout, p.stderr

    return _cli


@pytest.fixture(scope="session")
def dask_client(minio):
    """A Dask LocalCluster of two worker processes (one thread each) on 127.0.0.1, whose
    environment has the server's endpoint and credentials, as a cluster's machines have
    their own (what `python -m crcforge sum --scheduler` relies on)."""
    distributed = needs.module("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                       worker_dashboard_address="127.0.0.1:0", env=minio.env())
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()
