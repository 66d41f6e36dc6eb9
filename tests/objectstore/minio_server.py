# SPDX-License-Identifier: MIT
"""A MinIO server of our own on 127.0.0.1, in a temporary directory, for the object-store
tests and scripts/objectstore_bench.py.

The binary is MINIO_BIN, else `minio` on PATH, else the Go bin directory's (where
.ci/install-minio.sh builds it).  Credentials are fixed test values: the server listens
on the loopback interface only and lives as long as the tests.
"""
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

USER, PASSWORD, REGION = "crcforge", "crcforge-secret", "us-east-1"
BUCKET = "crcforge-tests"  # the tests' bucket


def find_minio():
    """The path of the minio binary, or None."""
    candidates = [os.environ.get("MINIO_BIN"), shutil.which("minio")]
    gobin = os.environ.get("GOBIN") or os.path.join(
        os.environ.get("GOPATH") or os.path.expanduser("~/go"), "bin")
    candidates.append(os.path.join(gobin, "minio"))
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MinioServer:
    """Starts minio on a free loopback port; stop() ends it and removes its data."""

    def __init__(self, binary=None, data_dir=None):
        self.binary = binary or find_minio()
        if self.binary is None:
            raise FileNotFoundError("minio not found (set MINIO_BIN or run .ci/install-minio.sh)")
        self.tmp = tempfile.mkdtemp(prefix="crcforge-minio-", dir=data_dir)
        self.process = None
        for attempt in range(3):  # a port taken between probing and binding: another one
            self.port = _free_port()
            self.endpoint = "http://127.0.0.1:%d" % self.port
            self.log = pathlib.Path(self.tmp, "minio.log")
            env = dict(os.environ, MINIO_ROOT_USER=USER, MINIO_ROOT_PASSWORD=PASSWORD,
                       MINIO_BROWSER="off", MINIO_UPDATE="off",
                       MINIO_PROMETHEUS_AUTH_TYPE="public")  # traffic counters for the tests
            with open(self.log, "wb") as log:
                self.process = subprocess.Popen(
                    [self.binary, "server", os.path.join(self.tmp, "data"), "--quiet",
                     "--address", "127.0.0.1:%d" % self.port,
                     "--console-address", "127.0.0.1:%d" % _free_port()],
                    stdout=log, stderr=subprocess.STDOUT, env=env)
            if self._wait_ready():
                return
            self.process.kill()
            self.process.wait()
        log = self.log.read_text(errors="replace")[-2000:]
        self.stop()
        raise RuntimeError("minio did not start:\n" + log)

    def _wait_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(self.endpoint + "/minio/health/live", timeout=1):
                    return True
            except OSError:
                time.sleep(0.1)
        return False

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)

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
