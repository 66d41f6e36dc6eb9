# SPDX-License-Identifier: MIT
"""A server that stops answering in mid-read: MinIO stopped with SIGSTOP once 12 MiB of a
64 MiB object's ranged GETs went through (a proxy in front of it counts the bytes).  Every
call ends with an error naming the URL and what timed out: with the defaults typically
after about 83 s and at most 150 s as the contract promises (4 x 20 s and the backoff;
at most each attempt also waits out its connect timeout), within a given timeout
or deadline sooner; the CLI prints no value for that input, exits 2 and still does the
others.  Once the server runs again (SIGCONT) the next call gives the right value.  A
server that is gone (its port refused) is reported within seconds."""
import contextlib
import os
import random
import re
import signal
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import awscrt.checksums
import pytest

import crcforge
from http_proxy import Proxy

MIB = 1 << 20


@pytest.fixture(scope="module")
def big(upload):
    data = random.Random(64).randbytes(64 * MIB)
    return upload("stall-64mib", data, "CRC32C"), data


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    path = tmp_path_factory.mktemp("stall") / "local"
    path.write_bytes(b"an input after the URL")
    return str(path), "%08x  %s\n" % (awscrt.checksums.crc32c(path.read_bytes()), path)


@contextlib.contextmanager
def stalled(minio, after_bytes=12 * MIB):
    """A proxy in front of the server that stops it (SIGSTOP) once `after_bytes` response
    bytes went through it (in the second 8 MiB range by default; at once with 0); the
    server runs again on leaving, whatever happened.  Yields the proxy and an Event set
    when the server was stopped."""
    stopped = threading.Event()

    def stop():
        os.kill(minio.process.pid, signal.SIGSTOP)
        stopped.set()

    with Proxy(minio.port) as proxy:
        try:
            if after_bytes:
                proxy.after_bytes = (after_bytes, stop)
            else:
                stop()
            yield proxy, stopped
        finally:
            os.kill(minio.process.pid, signal.SIGCONT)


def timed(call, *args, **kwargs):
    start = time.monotonic()
    try:
        result = call(*args, **kwargs)
    except Exception as e:
        result = e
    return result, time.monotonic() - start


def test_cli_reports_a_stalled_server_within_150_s_by_default(cli, minio, big, local):
    url, data = big
    with stalled(minio) as (proxy, stopped):
        (code, out, err), took = timed(cli, "sum", url, local[0],
                                       env={"AWS_ENDPOINT_URL": proxy.endpoint})
    print("stalled server reported after %.1f s (defaults)" % took)
    assert stopped.is_set()
    assert (code, out) == (1, local[1])  # no value for the URL; the file still done
    assert err.startswith("crcforge: %s: timed out: the ranged GET of bytes " % url), err
    assert err.endswith("got no data for 20 s (the read timeout) in every attempt\n"), err
    assert crcforge.objects.DEFAULT_TIMEOUT <= took < 150
    code, out, err = cli("sum", url)  # the server runs again: the next call succeeds
    assert (code, out, err) == (0, "%08x  %s\n" % (awscrt.checksums.crc32c(data), url), "")


def test_cli_deadline_and_timeout(cli, minio, big, local):
    url, data = big
    with stalled(minio, after_bytes=MIB) as (proxy, stopped):
        (code, out, err), took = timed(cli, "sum", "-j", "2", "--deadline", "6", url, local[0],
                                       env={"AWS_ENDPOINT_URL": proxy.endpoint})
    print("stalled server reported after %.1f s (--deadline 6)" % took)
    assert stopped.is_set(), err
    assert (code, out) == (1, local[1])
    assert err.startswith("crcforge: %s: timed out: the deadline of 6 s passed " % url), err
    assert 6 <= took < 6 + 10  # (the interpreter's start and imports are in `took`)

    with stalled(minio, after_bytes=MIB) as (proxy, stopped):
        (code, out, err), took = timed(cli, "sum", "--timeout", "1.5", url, local[0],
                                       env={"AWS_ENDPOINT_URL": proxy.endpoint})
    print("stalled server reported after %.1f s (--timeout 1.5)" % took)
    assert stopped.is_set(), err
    assert (code, out) == (1, local[1])
    assert err.startswith("crcforge: %s: timed out: " % url), err
    assert "got no data for 1.5 s (the read timeout)" in err
    assert 1.5 <= took < 4 * 1.5 + 3 + 10
    code, out, err = cli("sum", "--timeout", "1.5", "--deadline", "60", url)
    assert (code, out, err) == (0, "%08x  %s\n" % (awscrt.checksums.crc32c(data), url), "")


def test_verify_of_a_server_stopped_from_the_start(cli, minio, big, tmp_path):
    url, data = big
    path = tmp_path / "same"
    path.write_bytes(data)
    with stalled(minio, after_bytes=0) as (proxy, _):
        (code, out, err), took = timed(cli, "verify", "--timeout", "1", str(path), url,
                                       env={"AWS_ENDPOINT_URL": proxy.endpoint})
        assert (code, out) == (2, "")
        assert err == ("crcforge: %s: timed out: GetObjectAttributes got no data for 1 s (the "
                       "read timeout) in every attempt\n" % url)
        assert took < 3 * 1 + 3 + 10
        (code, out, err), took = timed(cli, "verify", "--deadline", "5", str(path), url,
                                       env={"AWS_ENDPOINT_URL": proxy.endpoint})
        assert (code, out) == (2, "")
        # (during the request, or before it when a loaded machine took the 5 s to import)
        assert re.fullmatch("crcforge: %s: timed out: the deadline of 5 s passed (during|before) "
                            "GetObjectAttributes\n" % re.escape(url), err), err
        assert 5 <= took < 5 + 10
    code, out, err = cli("verify", str(path), url)
    assert (code, err) == (0, "") and out.startswith("%s: OK (CRC32C FULL_OBJECT" % path)


@pytest.mark.parametrize("threads", [0, 3])
def test_api_timeout_and_deadline(minio, storage_options, big, threads):
    url, data = big
    pool = ThreadPoolExecutor(threads) if threads else None
    try:
        for limits, message, bound in (
                (dict(timeout=1), "got no data for 1 s (the read timeout) in every attempt",
                 4 * 1 + 3 + 5),
                (dict(deadline=3), "timed out: the deadline of 3 s passed ", 3 + 5)):
            with stalled(minio, after_bytes=MIB) as (proxy, stopped):
                options = dict(storage_options, endpoint_url=proxy.endpoint)
                got, took = timed(crcforge.object_checksum, url, "crc32c", executor=pool,
                                  chunk_size=8 * MIB, storage_options=options, **limits)
            print("%s: %.1f s, %s" % (limits, took, got))
            assert stopped.is_set(), got
            assert isinstance(got, crcforge.SourceTimeout) and isinstance(got, TimeoutError)
            assert str(got).startswith("%s: timed out: " % url) and message in str(got)
            assert limits.get("deadline", 0) <= took < bound
    finally:
        if pool is not None:
            pool.shutdown()  # the tasks all ended: this returns
    assert crcforge.file_checksum(url, storage_options=storage_options, deadline=60,
                                  timeout=5) == awscrt.checksums.crc32c(data)


def test_a_server_that_is_gone_is_reported_within_seconds(cli, big, local):
    url, _ = big
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    (code, out, err), took = timed(cli, "sum", url, local[0],
                                   env={"AWS_ENDPOINT_URL": "http://127.0.0.1:%d" % closed})
    print("refused connection reported after %.1f s" % took)
    assert (code, out) == (1, local[1])
    assert err.startswith("crcforge: %s: Could not connect" % url)
    assert took < 10
