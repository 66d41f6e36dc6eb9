# SPDX-License-Identifier: MIT
"""An Azurite blob service (the Azure Storage emulator) of our own on 127.0.0.1, in a
temporary directory, for the object-store tests.

The program is AZURITE_BIN, else `azurite-blob` on PATH (.ci/install-azurite.sh installs
it with npm).  Its account is Azurite's own development account, whose name and key are
published in Azure's documentation for every emulator.
"""
import os
import shutil
import urllib.error
import urllib.request

from local_server import LocalServer

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
CONTAINER = "crcforge-tests"  # the tests' container
INSTALL = "azurite-blob (bash .ci/install-azurite.sh installs Azurite with npm; or set " \
          "AZURITE_BIN)"


def find_azurite():
    """The path of azurite-blob, or None."""
    return next((c for c in (os.environ.get("AZURITE_BIN"), shutil.which("azurite-blob"))
                 if c and os.access(c, os.X_OK)), None)


class AzuriteServer(LocalServer):
    """Starts azurite-blob on a free loopback port.  --skipApiVersionCheck: the SDK asks
    for a service version newer than this Azurite knows; the operations the tests use
    (Put Block, Put Block List, Put Blob, Get Blob) are far older than both."""

    name = "azurite"

    def __init__(self, binary=None):
        super().__init__("crcforge-azurite-", binary or find_azurite(), INSTALL)

    def command(self, port):
        return [self.binary, "--blobHost", "127.0.0.1", "--blobPort", str(port),
                "--location", os.path.join(self.tmp, "data"), "--silent",
                "--skipApiVersionCheck"]

    def ready(self):
        try:
            urllib.request.urlopen(self.endpoint, timeout=1).close()
        except urllib.error.HTTPError:  # an error status: the service answers
            return True
        except OSError:
            return False
        return True

    def stop(self):
        # Its graceful close waits for the clients' keep-alive connections (10 s and
        # more); its data is temporary, so it is ended at once.
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        super().stop()

    def connection_string(self):
        return ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;"
                "BlobEndpoint=%s/%s;" % (ACCOUNT, KEY, self.endpoint, ACCOUNT))

    def client(self):
        """An azure-storage-blob BlobServiceClient of this server."""
        from azure.storage.blob import BlobServiceClient

        return BlobServiceClient.from_connection_string(self.connection_string())
