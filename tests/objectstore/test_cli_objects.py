# SPDX-License-Identifier: MIT
"""`python -m crcforge sum` with URLs and --scheduler, and `python -m crcforge verify`,
against the MinIO server (endpoint and credentials from the environment, as the AWS
SDKs read them) and the C tool's output for the same bytes as a local file."""
import base64
import random
import socket
import subprocess

import awscrt.checksums
import pytest

from http_proxy import Proxy
from minio_server import BUCKET

MIB = 1 << 20


def b64(value, nbytes=4):
    return base64.b64encode(value.to_bytes(nbytes, "big")).decode()


@pytest.fixture(scope="module")
def objects(upload, tmp_path_factory):
    """A single-PUT object, a COMPOSITE multipart one with parts of different sizes, and
    each one's bytes as a local file."""
    folder = tmp_path_factory.mktemp("cli")
    made = {}
    for key, size, parts, ctype in (("cli-put", 3 * MIB + 1, None, None),
                                    ("cli-mpu", 17 * MIB + 5, [6 * MIB, 5 * MIB, 6 * MIB + 5],
                                     "COMPOSITE")):
        data = random.Random(size).randbytes(size)
        path = folder / key
        path.write_bytes(data)
        made[key] = (upload(key, data, "CRC32C", ctype, parts), str(path), data)
    return made


def test_sum_of_urls_and_files(cli, objects, crcforge_bin):
    url, path, data = objects["cli-put"]
    url2, path2, data2 = objects["cli-mpu"]
    for jobs in ("1", "2"):
        code, out, err = cli("sum", "-j", jobs, "--format", "base64", url, path, url2)
        assert (code, err) == (0, "")
        assert out.splitlines() == ["%s  %s" % (b64(awscrt.checksums.crc32c(data)), url),
                                    "%s  %s" % (b64(awscrt.checksums.crc32c(data)), path),
                                    "%s  %s" % (b64(awscrt.checksums.crc32c(data2)), url2)]
    # Several -a: one read of the object, a tagged line each, S3's own algorithms' values.
    code, out, err = cli("sum", "-a", "crc32c", "-a", "crc64-nvme", "--format", "base64", url)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "CRC32C/base64 (%s) = %s" % (url, b64(awscrt.checksums.crc32c(data))),
        "CRC64NVME/base64 (%s) = %s" % (url, b64(awscrt.checksums.crc64nvme(data), 8))]
    c_out = subprocess.run([crcforge_bin, "sum", "-a", "crc64-nvme", path], capture_output=True,
                           text=True, check=True).stdout
    code, out, _ = cli("sum", "-a", "crc64-nvme", url)
    assert code == 0 and out == c_out.replace(path, url)


def test_sum_reports_each_unreadable_url_and_does_the_others(cli, objects, minio):
    url, path, data = objects["cli-put"]
    missing_bucket = "s3://no-such-bucket/key"
    missing_key = "s3://%s/no-such-key" % BUCKET
    code, out, err = cli("sum", missing_bucket, url, missing_key, path)
    assert code == 1
    value = "%08x" % awscrt.checksums.crc32c(data)
    assert out.splitlines() == ["%s  %s" % (value, url), "%s  %s" % (value, path)]
    assert err.splitlines() == [
        "crcforge: %s: The specified bucket does not exist" % missing_bucket,
        "crcforge: %s: No such file or object" % missing_key]

    code, out, err = cli("sum", url, path, env={"AWS_SECRET_ACCESS_KEY": "not-the-secret"})
    assert code == 1 and out.splitlines() == ["%s  %s" % (value, path)]
    assert err.startswith("crcforge: %s: " % url) and "Forbidden" in err

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    code, out, err = cli("sum", url, path,
                         env={"AWS_ENDPOINT_URL": "http://127.0.0.1:%d" % closed})
    assert code == 1 and out.splitlines() == ["%s  %s" % (value, path)]
    assert err.startswith("crcforge: %s: Could not connect" % url)


def test_sum_on_a_dask_scheduler(cli, objects, dask_client):
    url, path, data = objects["cli-mpu"]
    address = dask_client.scheduler.address
    code, out, err = cli("sum", "--scheduler", address, "--format", "base64", url, path)
    want = b64(awscrt.checksums.crc32c(data))
    assert (code, err) == (0, "")
    assert out.splitlines() == ["%s  %s" % (want, url), "%s  %s" % (want, path)]

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    code, out, err = cli("sum", "--scheduler", "tcp://127.0.0.1:%d" % closed, url,
                         env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert code == 2 and out == ""
    assert err.startswith("crcforge: --scheduler tcp://127.0.0.1:%d: " % closed)


def test_verify_ok_and_failed(cli, objects, head, tmp_path):
    for key in ("cli-put", "cli-mpu"):
        url, path, data = objects[key]
        stored, ctype = head(url, "CRC32C")
        code, out, err = cli("verify", path, url)
        parts = ", 3 parts" if ctype == "COMPOSITE" else ""
        assert (code, err) == (0, "")
        assert out == "%s: OK (CRC32C %s%s: stored %s, computed %s)\n" % (
            path, ctype, parts, stored, stored)
    # One byte changed: FAILED, with both values.
    url, path, data = objects["cli-mpu"]
    stored, _ = head(url, "CRC32C")
    changed = tmp_path / "changed"
    changed.write_bytes(data[:7 * MIB] + bytes([data[7 * MIB] ^ 1]) + data[7 * MIB + 1:])
    code, out, err = cli("verify", "-j", "2", str(changed), url)
    parts = [6 * MIB, 5 * MIB, 6 * MIB + 5]
    crcs, at = [], 0
    for size in parts:
        crcs.append(awscrt.checksums.crc32c(changed.read_bytes()[at:at + size]))
        at += size
    computed = "%s-3" % b64(awscrt.checksums.crc32c(b"".join(c.to_bytes(4, "big") for c in crcs)))
    assert (code, err) == (1, "")
    assert out == "%s: FAILED (CRC32C COMPOSITE, 3 parts: stored %s, computed %s)\n" % (
        changed, stored, computed)
    # Another size: FAILED, saying so.
    short = tmp_path / "short"
    short.write_bytes(data[:-1])
    code, out, _ = cli("verify", str(short), url)
    assert code == 1 and out.startswith("%s: FAILED (" % short)
    assert out.endswith("; %d bytes, the object %d)\n" % (len(data) - 1, len(data)))


def test_verify_cannot_read_either_side(cli, objects, s3, tmp_path):
    url, path, _ = objects["cli-put"]
    code, out, err = cli("verify", str(tmp_path / "absent"), url)
    assert (code, out) == (2, "")
    assert err == "crcforge: %s: No such file or directory\n" % (tmp_path / "absent")
    missing = "s3://%s/no-such-key" % BUCKET
    code, out, err = cli("verify", path, missing)
    assert (code, out) == (2, "") and err.startswith("crcforge: %s: " % missing)
    s3.put_object(Bucket=BUCKET, Key="cli-no-crc", Body=b"no checksum asked for")
    code, out, err = cli("verify", path, "s3://%s/cli-no-crc" % BUCKET)
    assert (code, out) == (2, "")
    assert err.startswith("crcforge: s3://%s/cli-no-crc: the object has no CRC checksum "
                          "stored" % BUCKET)
    code, out, err = cli("verify", path)
    assert code == 2 and "verify takes a FILE and a URL" in err


def test_sum_part_size_of_a_url(cli, upload, head, tmp_path):
    data = random.Random(5).randbytes(11 * MIB + 3)
    url = upload("cli-parts", data, "CRC32", "COMPOSITE", [5 * MIB, 5 * MIB, MIB + 3])
    stored, _ = head(url, "CRC32")
    path = tmp_path / "parts"
    path.write_bytes(data)
    code, out, err = cli("sum", "-a", "crc32", "--part-size", "5MiB", "--format", "base64",
                         "-j", "2", url, str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == ["%s  %s" % (stored, url), "%s  %s" % (stored, path)]
    listing = tmp_path / "list"
    listing.write_text("%s  %s\n" % (stored, url))
    code, out, err = cli("sum", "-c", "-a", "crc32", "--part-size", "5M", "--format", "base64",
                         str(listing))
    assert (code, out, err) == (0, "%s: OK\n" % url, "")
    # One byte parts would be more than S3's 10000: an error naming the limit, the
    # other inputs still done.
    code, out, err = cli("sum", "--part-size", "1K", url, str(path))
    assert code == 1 and len(out.splitlines()) == 0
    assert err.count("10000 parts") == 2 and err.startswith("crcforge: %s: " % url)


def test_object_changed_in_mid_read_is_reported_without_a_value(cli, minio, s3, upload):
    data = random.Random(6).randbytes(20 * MIB)
    url = upload("cli-changes", data, "CRC32C")
    with Proxy(minio.port) as proxy:
        # Before the second 8 MiB GET goes on, the object is written anew (same size).
        proxy.before_range[2] = lambda: s3.put_object(Bucket=BUCKET, Key="cli-changes",
                                                      Body=data[::-1])
        code, out, err = cli("sum", "--format", "base64", url,
                             env={"AWS_ENDPOINT_URL": proxy.endpoint})
        ranged = [h for method, _, h in proxy.requests if method == "GET" and "range" in h]
    assert (code, out) == (1, "")
    assert err.startswith("crcforge: %s: " % url) and "changed while it was hashed" in err
    assert len(ranged) >= 2 and ranged[1]["if-match"] == ranged[0]["if-match"]


def test_timeout_and_deadline_options(cli, objects):
    url, _, data = objects["cli-put"]
    want = "%08x  %s\n" % (awscrt.checksums.crc32c(data), url)
    assert cli("sum", "--timeout", "0.5", "--deadline=120", url) == (0, want, "")
    for command in (["sum"], ["verify", "file"]):
        for option, bad in (("--timeout", "1s"), ("--deadline", "-1"), ("--deadline", ".5"),
                            ("--deadline", ""), ("--timeout", "1e3")):
            code, out, err = cli(*command, option, bad, url)
            assert (code, out) == (2, "")
            assert err == ("crcforge: %s: '%s' is not seconds as digits with an optional "
                           "fraction (such as 1.5)\n" % (option, bad))
        for option, bad in (("--timeout", "0"), ("--deadline", "9" * 400)):
            code, out, err = cli(*command, option, bad, url)
            assert (code, out) == (2, "")
            assert err == ("crcforge: %s must be a number of seconds > 0 and at most 1e+09, "
                           "not '%s'\n" % (option, bad))
