# SPDX-License-Identifier: MIT
"""What the object-store servers the tests start (MinIO, fake-gcs-server, Azurite) have in
common: a temporary directory for their data and log, a free port on 127.0.0.1, a wait
until the server answers, and a stop that ends it and removes its data."""
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request


def find_go_binary(name, variable):
    """The path of a server binary: the environment variable `variable`, else `name` on
    PATH, else the Go bin directory's (where .ci/install-*.sh builds them); or None."""
    candidates = [os.environ.get(variable), shutil.which(name)]
    gobin = os.environ.get("GOBIN") or os.path.join(
        os.environ.get("GOPATH") or os.path.expanduser("~/go"), "bin")
    candidates.append(os.path.join(gobin, name))
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalServer:
    """A server process on a free loopback port, its data and log in a temporary directory;
    a context manager that stops it.  A subclass gives its `name`, `command(port)` and
    `ready_path` (answered with a success once it serves; or its own ready()); extra_env(),
    if any, is added to its environment."""

    name = "server"
    ready_path = "/"

    def __init__(self, prefix, binary, install, data_dir=None):
        """binary: the server's executable, None when not found (install says how to get
        it, the message of the FileNotFoundError then raised)."""
        if binary is None:
            raise FileNotFoundError(install + " not found")
        self.binary = binary
        self.tmp = tempfile.mkdtemp(prefix=prefix, dir=data_dir)
        self.process = None
        self.log = pathlib.Path(self.tmp, "server.log")
        for attempt in range(3):  # a port taken between probing and binding: another one
            self.port = free_port()
            self.endpoint = "http://127.0.0.1:%d" % self.port
            with open(self.log, "wb") as log:
                self.process = subprocess.Popen(
                    self.command(self.port), stdout=log, stderr=subprocess.STDOUT,
                    env=dict(os.environ, **self.extra_env()))
            if self._wait_ready():
                return
            self.process.kill()
            self.process.wait()
        log = self.log.read_text(errors="replace")[-2000:]
        self.stop()
        raise RuntimeError("%s did not start:\n%s" % (self.name, log))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def extra_env(self):
        return {}

    def ready(self):
        try:
            with urllib.request.urlopen(self.endpoint + self.ready_path, timeout=1):
                return True
        except OSError:
            return False

    def _wait_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.ready():
                return True
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
