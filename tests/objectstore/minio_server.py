# SPDX-License-Identifier: MIT
"""A MinIO server of our own on 127.0.0.1, in a temporary directory, for the object-store
tests and scripts/objectstore_bench.py.

The binary is MINIO_BIN, else `minio` on PATH, else the Go bin directory's (where
.ci/install-minio.sh builds it).  Credentials are fixed test values: the server listens
on the loopback interface only and lives as long as the tests.
"""
import os

from local_server import LocalServer, find_go_binary, free_port

USER, PASSWORD, REGION = "crcforge", "crcforge-secret", "us-east-1"
BUCKET = "crcforge-tests"  # the tests' bucket


def find_minio():
    """The path of the minio binary, or None."""
    return find_go_binary("minio", "MINIO_BIN")


class MinioServer(LocalServer):
    """Starts minio on a free loopback port; stop() ends it and removes its data."""

    name = "minio"
    ready_path = "/minio/health/live"

    def __init__(self, binary=None, data_dir=None):
        super().__init__("crcforge-minio-", binary or find_minio(),
                         "minio (set MINIO_BIN or run .ci/install-minio.sh)", data_dir)

    def command(self, port):
        return [self.binary, "server", os.path.join(self.tmp, "data"), "--quiet",
                "--address", "127.0.0.1:%d" % port,
                "--console-address", "127.0.0.1:%d" % free_port()]

    def extra_env(self):
        return dict(MINIO_ROOT_USER=USER, MINIO_ROOT_PASSWORD=PASSWORD, MINIO_BROWSER="off",
                    MINIO_UPDATE="off",
                    MINIO_PROMETHEUS_AUTH_TYPE="public")  # traffic counters for the tests

    def env(self):
        """Environment variables that point the AWS SDKs (boto3, s3fs) at this server."""
        return {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": USER,
                "AWS_SECRET_ACCESS_KEY": PASSWORD, "AWS_DEFAULT_REGION": REGION,
                "AWS_REGION": REGION}

    def storage_options(self):
        """s3fs's options for this server."""
        return {"endpoint_url": self.endpoint, "key": USER, "secret": PASSWORD,
                "client_kwargs": {"region_name": REGION}}

    def client(self):
        """A boto3 S3 client that sends only the checksums a test asks for."""
        import boto3
        from botocore.config import Config

        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=USER,
                            aws_secret_access_key=PASSWORD, region_name=REGION,
                            config=Config(request_checksum_calculation="when_required",
                                          response_checksum_validation="when_required"))
