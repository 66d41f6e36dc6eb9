# SPDX-License-Identifier: MIT
"""A fake-gcs-server (a Google Cloud Storage emulator, JSON API) of our own on 127.0.0.1,
in a temporary directory, for the object-store tests.

The binary is FAKE_GCS_BIN, else `fake-gcs-server` on PATH, else the Go bin directory's
(where .ci/install-fake-gcs.sh builds it).  It takes no credentials: the clients are
pointed at it by STORAGE_EMULATOR_HOST and use anonymous ones.
"""
import os

from local_server import LocalServer, find_go_binary

BUCKET = "crcforge-tests"  # the tests' bucket
INSTALL = "fake-gcs-server (bash .ci/install-fake-gcs.sh builds it into the Go bin " \
          "directory; or set FAKE_GCS_BIN)"


def find_fake_gcs():
    """The path of the fake-gcs-server binary, or None."""
    return find_go_binary("fake-gcs-server", "FAKE_GCS_BIN")


class FakeGcsServer(LocalServer):
    """Starts fake-gcs-server on a free loopback port, its objects in files of a
    temporary directory (the filesystem backend: an object's metadata, its crc32c too,
    is the file's extended attribute user.metadata)."""

    name = "fake-gcs-server"
    ready_path = "/storage/v1/b"

    def __init__(self, binary=None):
        super().__init__("crcforge-gcs-", binary or find_fake_gcs(), INSTALL)

    def command(self, port):
        endpoint = "http://127.0.0.1:%d" % port
        return [self.binary, "-scheme", "http", "-host", "127.0.0.1", "-port", str(port),
                "-backend", "filesystem", "-filesystem-root", os.path.join(self.tmp, "data"),
                "-external-url", endpoint, "-public-host", "127.0.0.1:%d" % port,
                "-log-level", "warn"]

    def env(self):
        """What points gcsfs and google-cloud-storage at this server."""
        return {"STORAGE_EMULATOR_HOST": self.endpoint}

    def client(self):
        """A google-cloud-storage client of this server, with anonymous credentials."""
        from google.auth.credentials import AnonymousCredentials
        from google.cloud import storage

        return storage.Client(project="crcforge", credentials=AnonymousCredentials(),
                              client_options={"api_endpoint": self.endpoint})

    def object_file(self, bucket, name):
        """The file that holds an object's bytes (and its metadata, as an xattr)."""
        return os.path.join(self.tmp, "data", bucket, name)

