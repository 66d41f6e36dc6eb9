# SPDX-License-Identifier: MIT
"""Fixtures of the object-store tests: real servers on 127.0.0.1 (started here, stopped at
the end): MinIO with a boto3 client, a bucket, and uploads made the way the AWS SDKs make
them (single PUT, or multipart with the checksum type asked for); fake-gcs-server with a
google-cloud-storage bucket; Azurite with a container; and a Dask cluster whose workers
reach them.  A server that is not installed skips the tests that need it, naming its
install script (a failure when CI=true)."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
# google-auth, looking for credentials where none are given, asks the metadata server of a
# cloud machine (169.254.169.254): never from the tests, whose servers are all on
# 127.0.0.1 (read when google.auth is imported; the processes the tests start inherit it).
os.environ["NO_GCE_CHECK"] = "true"
import needs  # noqa: E402
from azurite_server import CONTAINER, AzuriteServer, find_azurite  # noqa: E402
from azurite_server import INSTALL as AZURITE_INSTALL  # noqa: E402
from gcs_server import FakeGcsServer, find_fake_gcs  # noqa: E402
from gcs_server import BUCKET as GCS_BUCKET  # noqa: E402
from gcs_server import INSTALL as GCS_INSTALL  # noqa: E402
from minio_server import BUCKET, MinioServer  # noqa: E402


@pytest.fixture(scope="session")
def minio():
    with MinioServer() as server:
        yield server


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


def run_cli(server_env, *args, env=None):
    """python -m crcforge with a server's environment (and env); (exit, stdout, stderr)."""
    full = {**os.environ, **server_env, **(env or {})}
    p = subprocess.run([sys.executable, "-m", "crcforge", *args], capture_output=True,
                       text=True, env=full, timeout=300)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture(scope="session")
def cli(minio):
    """Runs python -m crcforge with MinIO's environment; (exit, stdout, stderr)."""
    return lambda *args, env=None: run_cli({**minio.env(), "AWS_MAX_ATTEMPTS": "1"}, *args,
                                           env=env)


@pytest.fixture(scope="session")
def gcs():
    """fake-gcs-server, with the tests' bucket."""
    if find_fake_gcs() is None:
        pytest.skip(GCS_INSTALL + " not installed")
    needs.module("gcsfs")
    needs.module("google.cloud.storage", "google-cloud-storage")
    with FakeGcsServer() as server:
        server.client().create_bucket(GCS_BUCKET)
        yield server


@pytest.fixture(scope="session")
def gcs_bucket(gcs):
    """The tests' bucket, through google-cloud-storage."""
    return gcs.client().bucket(GCS_BUCKET)


@pytest.fixture(scope="session")
def gcs_cli(gcs):
    """Runs python -m crcforge with fake-gcs-server's environment; (exit, stdout, stderr)."""
    return lambda *args, env=None: run_cli(gcs.env(), *args, env=env)


@pytest.fixture(scope="session")
def azurite():
    """Azurite's blob service."""
    if find_azurite() is None:
        pytest.skip(AZURITE_INSTALL + " not installed")
    needs.module("azure.storage.blob", "azure-storage-blob")
    with AzuriteServer() as server:
        yield server


@pytest.fixture(scope="session")
def azure_container(azurite):
    """The tests' container, through azure-storage-blob."""
    container = azurite.client().get_container_client(CONTAINER)
    container.create_container()
    return container


@pytest.fixture(scope="session")
def dask_client(minio, request):
    """A Dask LocalCluster of two worker processes (one thread each) on 127.0.0.1, whose
    environment has the servers' endpoints and credentials, as a cluster's machines have
    their own (what `python -m crcforge sum --scheduler` relies on): MinIO's, and
    fake-gcs-server's where it is installed (one cluster for both)."""
    distributed = needs.module("distributed")
    env = minio.env()
    if find_fake_gcs() is not None:
        env.update(request.getfixturevalue("gcs").env())
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                       worker_dashboard_address="127.0.0.1:0", env=env)
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()
