# SPDX-License-Identifier: MIT
"""`python -m crcforge sum` and `verify` with gs:// URLs against fake-gcs-server
(STORAGE_EMULATOR_HOST, as google-cloud-storage and gcsfs read it): the values beside
google-crc32c's and the C tool's for the same bytes as a local file, on threads and on a
Dask cluster, with nothing on stderr; then each bad input, reported with its URL and the
others still done: a URL without a bucket, missing objects and buckets, credentials that
cannot be loaded, an object without a crc32c, one written anew in mid-read, a composed
object whose component was deleted, a server that stops answering."""
import base64
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import time

import awscrt.checksums
import google_crc32c
import pytest

from gcs_server import BUCKET
from http_proxy import Proxy

MIB = 1 << 20


def b64(value, nbytes=4):
    return base64.b64encode(value.to_bytes(nbytes, "big")).decode()


def url_of(name):
    return "gs://%s/%s" % (BUCKET, name)


@pytest.fixture(scope="module")
def objects(gcs_bucket, tmp_path_factory):
    """A single object, one composed of three, and each one's bytes as a local file:
    {name: (url, path, bytes)}."""
    folder = tmp_path_factory.mktemp("gcs-cli")
    rng = random.Random(41)
    made = {}
    parts = []
    for i, size in enumerate((2 * MIB + 1, 5, MIB + 3)):
        blob = gcs_bucket.blob("cli-part-%d" % i)
        blob.upload_from_string(rng.randbytes(size))
        parts.append(blob)
    gcs_bucket.blob("cli-single").upload_from_string(rng.randbytes(3 * MIB + 7))
    gcs_bucket.blob("cli-composed").compose(parts)
    for name in ("cli-single", "cli-composed"):
        data = gcs_bucket.blob(name).download_as_bytes()
        path = folder / name
        path.write_bytes(data)
        made[name] = (url_of(name), str(path), data)
    return made


def stored(gcs_bucket, url):
    return gcs_bucket.get_blob(url.split("/", 3)[3]).crc32c


def test_sum_of_urls_and_files(gcs_cli, objects, gcs_bucket, crcforge_bin):
    url, path, data = objects["cli-single"]
    url2, _, data2 = objects["cli-composed"]
    assert stored(gcs_bucket, url2) == b64(google_crc32c.value(data2))
    # On two threads, two algorithms in one read of each object: the stored crc32c.
    code, out, err = gcs_cli("sum", "-j", "2", "-a", "crc32c", "-a", "crc64-nvme", "--format",
                             "base64", url, path, url2)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        line for name, value, crc64 in ((url, stored(gcs_bucket, url), data),
                                        (path, b64(google_crc32c.value(data)), data),
                                        (url2, stored(gcs_bucket, url2), data2))
        for line in ("CRC32C/base64 (%s) = %s" % (name, value),
                     "CRC64NVME/base64 (%s) = %s"
                     % (name, b64(awscrt.checksums.crc64nvme(crc64), 8)))]
    # One thread, the defaults: what the C tool prints for the same bytes.
    c_out = subprocess.run([crcforge_bin, "sum", path], capture_output=True, text=True,
                           check=True).stdout
    code, out, err = gcs_cli("sum", url)
    assert (code, out, err) == (0, c_out.replace(path, url), "")


def test_sum_c_reads_urls_back(gcs_cli, objects, tmp_path):
    listing = tmp_path / "list"
    listing.write_text("".join("%s  %s\n" % (b64(google_crc32c.value(data)), url)
                               for url, _, data in objects.values()))
    code, out, err = gcs_cli("sum", "-c", "--format", "base64", str(listing))
    assert (code, err) == (0, "")
    assert out.splitlines() == ["%s: OK" % url for url, _, _ in objects.values()]


def test_sum_on_a_dask_scheduler(gcs_cli, objects, dask_client):
    url, path, data = objects["cli-composed"]
    code, out, err = gcs_cli("sum", "--scheduler", dask_client.scheduler.address,
                             "--format", "base64", url, path)
    want = b64(google_crc32c.value(data))
    assert (code, err) == (0, "")
    assert out.splitlines() == ["%s  %s" % (want, url), "%s  %s" % (want, path)]


def test_verify_ok_and_failed(gcs_cli, objects, gcs_bucket, tmp_path):
    """(test_gcs_checksums verifies every kind of object through the Python API.)"""
    url, path, data = objects["cli-composed"]
    value = stored(gcs_bucket, url)
    code, out, err = gcs_cli("verify", path, url)
    assert (code, out, err) == (0, "%s: OK (CRC32C FULL_OBJECT: stored %s, computed %s)\n"
                                % (path, value, value), "")
    changed = tmp_path / "changed"
    changed.write_bytes(data[:MIB] + bytes([data[MIB] ^ 0x80]) + data[MIB + 1:])
    code, out, err = gcs_cli("verify", "-j", "2", str(changed), url)
    assert (code, err) == (1, "")
    assert out == "%s: FAILED (CRC32C FULL_OBJECT: stored %s, computed %s)\n" % (
        changed, value, b64(google_crc32c.value(changed.read_bytes())))
    longer = tmp_path / "longer"
    longer.write_bytes(data + b"\0")
    code, out, err = gcs_cli("verify", str(longer), url)
    assert (code, err) == (1, "") and out.startswith("%s: FAILED (" % longer)
    assert out.endswith("; %d bytes, the object %d)\n" % (len(data) + 1, len(data)))


def test_bad_urls_each_reported_the_others_done(gcs_cli, gcs, objects):
    url, path, data = objects["cli-single"]
    value = "%08x" % google_crc32c.value(data)
    inputs = ["gs://", url, "gs:///no-bucket", "gs://no-such-bucket/key",
              url_of("no-such-object"), "gs://%s" % BUCKET, path]
    code, out, err = gcs_cli("sum", *inputs)
    assert code == 1
    assert out.splitlines() == ["%s  %s" % (value, url), "%s  %s" % (value, path)]
    assert err.splitlines() == [
        "crcforge: gs://: the URL names no bucket (gs://BUCKET/OBJECT)",
        "crcforge: gs:///no-bucket: the URL names no bucket (gs://BUCKET/OBJECT)",
        "crcforge: gs://no-such-bucket/key: No such bucket",
        "crcforge: %s: No such file or object" % url_of("no-such-object"),
        "crcforge: gs://%s: a bucket, not an object" % BUCKET]
    code, out, err = gcs_cli("verify", path, url_of("no-such-object"))
    assert (code, out) == (2, "")
    assert err == "crcforge: %s: No such file or object\n" % url_of("no-such-object")


def test_credentials_that_cannot_be_loaded(gcs_cli, objects, tmp_path):
    """GOOGLE_APPLICATION_CREDENTIALS is used when set, even with an emulator: a file
    that is missing or not a credential is an error naming the URL, not a silent fall
    back to anonymous access."""
    url, path, data = objects["cli-single"]
    malformed = tmp_path / "key.json"
    malformed.write_text(json.dumps({"type": "service_account", "project_id": "x"}))
    absent = str(tmp_path / "absent.json")
    code, out, err = gcs_cli("sum", url, path, env={"GOOGLE_APPLICATION_CREDENTIALS": absent})
    assert (code, out) == (1, "%08x  %s\n" % (google_crc32c.value(data), path))
    assert err == "crcforge: %s: credentials: File %s was not found.\n" % (url, absent)
    code, out, err = gcs_cli("verify", path, url,
                             env={"GOOGLE_APPLICATION_CREDENTIALS": str(malformed)})
    assert (code, out) == (2, "")
    assert err.startswith("crcforge: %s: credentials: Failed to load service account "
                          "credentials from %s; " % (url, malformed)), err
    assert "missing fields" in err and len(err.splitlines()) == 1


def test_object_without_a_crc32c(gcs_cli, gcs, gcs_bucket, objects):
    """An object the store keeps no crc32c for (fake-gcs-server's record of it edited, as
    an object whose metadata lost it): verify says so; sum still hashes it."""
    _, path, data = objects["cli-single"]
    gcs_bucket.blob("cli-no-crc").upload_from_string(data)
    record = gcs.object_file(BUCKET, "cli-no-crc")
    metadata = json.loads(os.getxattr(record, "user.metadata"))
    metadata["Crc32c"] = ""
    os.setxattr(record, "user.metadata", json.dumps(metadata).encode())
    assert gcs_bucket.get_blob("cli-no-crc").crc32c is None
    url = url_of("cli-no-crc")
    code, out, err = gcs_cli("verify", path, url)
    assert (code, out) == (2, "")
    assert err == ("crcforge: %s: the object has no CRC checksum stored (no crc32c in its "
                   "metadata)\n" % url)
    code, out, err = gcs_cli("sum", url)
    assert (code, out, err) == (0, "%08x  %s\n" % (google_crc32c.value(data), url), "")


def test_object_written_anew_in_mid_read(gcs_cli, gcs, gcs_bucket, objects):
    """Every ranged GET asks for the generation the metadata gave: once the object is
    written anew (same size, other bytes), the next range is not there, and the URL gets
    no value."""
    _, path, _ = objects["cli-single"]
    data = random.Random(42).randbytes(20 * MIB)
    blob = gcs_bucket.blob("cli-changes")
    blob.upload_from_string(data)
    generation = gcs_bucket.get_blob("cli-changes").generation
    with Proxy(gcs.port) as proxy:
        proxy.before_range[2] = lambda: gcs_bucket.blob("cli-changes").upload_from_string(
            data[::-1])
        code, out, err = gcs_cli("sum", "--format", "base64", url_of("cli-changes"), path,
                                 env={"STORAGE_EMULATOR_HOST": proxy.endpoint})
        ranged = [target for method, target, h in proxy.requests
                  if method == "GET" and "range" in h]
    assert code == 1 and out.endswith("  %s\n" % path) and len(out.splitlines()) == 1
    assert err == ("crcforge: %s: changed while it was hashed (generation %d is no longer "
                   "there)\n" % (url_of("cli-changes"), generation))
    assert len(ranged) == 2 and all("generation=%d" % generation in t for t in ranged)


def test_composed_object_whose_component_was_deleted(gcs_cli, gcs_bucket, objects):
    """A composed object is an object of its own: deleting a component after the compose
    leaves it whole (its value still the stored one), and the deleted component is a
    missing object."""
    data = random.Random(43).randbytes(MIB)
    for i in range(2):
        gcs_bucket.blob("cli-gone-%d" % i).upload_from_string(data[i * 1000:])
    gcs_bucket.blob("cli-outlives").compose([gcs_bucket.blob("cli-gone-0"),
                                            gcs_bucket.blob("cli-gone-1")])
    value = stored(gcs_bucket, url_of("cli-outlives"))
    gcs_bucket.blob("cli-gone-1").delete()
    code, out, err = gcs_cli("sum", "--format", "base64", url_of("cli-gone-1"),
                             url_of("cli-outlives"))
    assert code == 1 and out == "%s  %s\n" % (value, url_of("cli-outlives"))
    assert err == "crcforge: %s: No such file or object\n" % url_of("cli-gone-1")
    assert value == b64(google_crc32c.value(data + data[1000:]))


@contextlib.contextmanager
def stopped(gcs):
    """fake-gcs-server stopped (SIGSTOP) from the start: it accepts connections and
    answers nothing; running again on leaving, whatever happened."""
    os.kill(gcs.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(gcs.process.pid, signal.SIGCONT)


def timed(call, *args, **kwargs):
    start = time.monotonic()
    result = call(*args, **kwargs)
    return result, time.monotonic() - start


def test_a_stopped_server_is_reported_in_bounded_time(gcs_cli, gcs, gcs_bucket, objects):
    url, path, data = objects["cli-single"]
    with stopped(gcs):
        (code, out, err), took = timed(gcs_cli, "verify", "--timeout", "1", path, url)
        assert (code, out) == (2, "")
        assert err == ("crcforge: %s: timed out: the request of its metadata got no data "
                       "for 1 s (the read timeout) in every attempt\n" % url)
        assert 3 <= took < 3 * 1 + 3 + 10  # three attempts, 1 s and 2 s between them
        (code, out, err), took = timed(gcs_cli, "sum", "--deadline", "3", url, path)
        assert code == 1 and out == "%08x  %s\n" % (google_crc32c.value(data), path)
        assert re.fullmatch("crcforge: %s: timed out: the deadline of 3 s passed (during|"
                            "before) the request of its metadata\n" % re.escape(url), err), err
        assert 3 <= took < 3 + 10
    # Stopped in the middle of the bodies, once 12 MiB of a 24 MiB object's three ranged
    # GETs went through a proxy (more than the sockets' buffers hold).
    big = random.Random(44).randbytes(24 * MIB)
    gcs_bucket.blob("cli-stalls").upload_from_string(big)
    with Proxy(gcs.port) as proxy:
        proxy.after_bytes = (12 * MIB, lambda: os.kill(gcs.process.pid, signal.SIGSTOP))
        try:
            (code, out, err), took = timed(gcs_cli, "sum", "--timeout", "1",
                                           url_of("cli-stalls"), path,
                                           env={"STORAGE_EMULATOR_HOST": proxy.endpoint})
        finally:
            os.kill(gcs.process.pid, signal.SIGCONT)
    assert code == 1 and out == "%08x  %s\n" % (google_crc32c.value(data), path)
    assert re.fullmatch("crcforge: %s: timed out: the ranged GET of bytes [0-9]+-[0-9]+ got no "
                        "data for 1 s \\(the read timeout\\) in every attempt\n"
                        % re.escape(url_of("cli-stalls")), err), err
    assert 3 <= took < 3 * 1 + 3 + 10
    code, out, err = gcs_cli("verify", path, url)
    assert (code, err) == (0, "") and out.startswith("%s: OK (" % path)
