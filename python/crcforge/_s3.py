# SPDX-License-Identifier: MIT
"""What is S3's own in reading objects (crcforge.objects): an s3fs filesystem whose
requests end (connect and read timeouts, a bounded number of attempts, and no retry loop of
s3fs's on top of botocore's), ranged GETs that carry If-Match with the ETag the caller saw,
and the checksum an object stores (GetObjectAttributes).

Imported only for s3:// URLs and S3 files: it needs s3fs (and with it aiobotocore and
botocore).
"""
import errno
import os
import weakref

import s3fs
from botocore.exceptions import (ClientError, ConnectTimeoutError, HTTPClientError,
                                 IncompleteReadError, ReadTimeoutError)

from .objects import (DEFAULT_TIMEOUT, REQUEST_ATTEMPTS, S3_ALGORITHMS, SourceChanged,
                      SourceTimeout, StoredChecksum, StoredChecksumError, _FsspecObject,
                      _run, _Stamp)

try:  # aiobotocore's HTTP client: a body cut short can surface as its own error
    from aiohttp import ClientPayloadError
except ImportError:  # another HTTP client: botocore's errors only
    ClientPayloadError = HTTPClientError

# What reading a response's body can fail with once its headers came: a stall
# (ReadTimeoutError), a dropped connection (ResponseStreamingError, ClientPayloadError),
# fewer bytes than its length (IncompleteReadError).  Such a body is read again, once:
# botocore retries a request only until its headers arrive.
BODY_ERRORS = (HTTPClientError, IncompleteReadError, ClientPayloadError)
BODY_ATTEMPTS = 2


class BoundedS3FileSystem(s3fs.S3FileSystem):
    """s3fs whose requests are retried by botocore alone, as its config says: s3fs's own
    loop of `retries` tries around each call would multiply botocore's attempts, and a
    stalled server would hold a call for 5 x attempts x the read timeout.  A class of its
    own, so that the setting goes with it to other processes and the caller's s3fs
    filesystems keep theirs."""

    retries = 1
    _made_here = weakref.WeakValueDictionary()  # by id(): see _held_across_fork

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._made_here[id(self)] = self


# A forked child (a process pool's worker) inherits this process's filesystems, and
# fsspec drops them from its cache there.  Freed in the child, each would run s3fs's
# finalizer, which closes the parent's HTTP session from a process where its event loop
# does not run: "Task exception was never retrieved ... attached to a different loop" on
# stderr.  Held in the child (whose workers end with os._exit), they are never freed.
_held_across_fork = []


def _hold_before_fork():
    _held_across_fork[:] = list(BoundedS3FileSystem._made_here.values())


def _release_in_parent():
    _held_across_fork.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_hold_before_fork, after_in_parent=_release_in_parent)


def bounded_options(storage_options, timeout):
    """storage_options with botocore's connect and read timeouts (timeout, else those the
    options set, else DEFAULT_TIMEOUT) and REQUEST_ATTEMPTS attempts in its standard retry
    mode (unless the options set retries)."""
    options = dict(storage_options or {})
    config = dict(options.get("config_kwargs") or {})
    for key in ("connect_timeout", "read_timeout"):
        config[key] = timeout if timeout is not None else config.get(key, DEFAULT_TIMEOUT)
    config.setdefault("retries", {"total_max_attempts": REQUEST_ATTEMPTS, "mode": "standard"})
    options["config_kwargs"] = config
    return options


def open_url(url, storage_options, timeout, deadline):
    """The S3Object an s3:// URL names."""
    options = {**BoundedS3FileSystem._get_kwargs_from_urls(url),
               **bounded_options(storage_options, timeout)}
    fs = BoundedS3FileSystem(**options)
    return S3Object(fs, fs._strip_protocol(url), url, deadline)


def _precondition_failed(e):
    cause = e.__cause__ if isinstance(e, OSError) else e
    return isinstance(cause, ClientError) and \
        cause.response.get("Error", {}).get("Code") in ("PreconditionFailed", "412")


class S3Object(_FsspecObject):
    """An S3 object.  Its version is its ETag, and every ranged GET carries If-Match with
    the ETag the caller saw: a change in mid-read fails the read instead of mixing two
    versions, and no task needs a HeadObject of its own."""

    def call(self, what, coroutine):
        """Runs an S3 call on the filesystem's event loop, within the deadline; a timeout
        in every attempt is a SourceTimeout saying what timed out."""
        try:
            return _run(self.fs.loop, coroutine, self.deadline, self.name, what)
        except ReadTimeoutError:
            raise SourceTimeout("%s: timed out: %s got no data for %g s (the read timeout) "
                                "in every attempt" % (self.name, what, self._timeout("read")))
        except ConnectTimeoutError as e:
            raise SourceTimeout("%s: timed out: %s could not connect to %s within %g s (the "
                                "connect timeout) in every attempt"
                                % (self.name, what, e.kwargs.get("endpoint_url", "the endpoint"),
                                   self._timeout("connect")))

    def _timeout(self, kind):
        key = kind + "_timeout"
        return self.fs.config_kwargs.get(key, getattr(self.fs, key, DEFAULT_TIMEOUT))

    def stamp(self):
        info = self.call("HeadObject", self.fs._info(self.path, refresh=True))
        if info.get("type") == "directory":
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), self.name)
        if info.get("ETag"):
            return _Stamp(int(info["size"]), ("ETag", info["ETag"]))
        return _Stamp(int(info["size"]), ("LastModified", str(info.get("LastModified"))))

    def check_version(self, stamp):
        if stamp.version[0] != "ETag":  # no If-Match to send: asked here
            super().check_version(stamp)

    def read_block(self, offset, length, stamp):
        what = "the ranged GET of bytes %d-%d" % (offset, offset + length - 1)
        try:
            return self.call(what, self._get(offset, length, stamp))
        except OSError as e:
            if not _precondition_failed(e):
                raise
        raise SourceChanged("%s changed while it was hashed (ETag no longer %s)"
                            % (self.name, stamp.version[1]))

    async def _get(self, offset, length, stamp):
        bucket, key, version_id = self.fs.split_path(self.path)
        request = dict(Bucket=bucket, Key=key,
                       Range="bytes=%d-%d" % (offset, offset + length - 1))
        if version_id:
            request["VersionId"] = version_id
        if stamp.version[0] == "ETag":
            request["IfMatch"] = stamp.version[1]
        for attempt in range(1, BODY_ATTEMPTS + 1):
            response = await self.fs._call_s3("get_object", **request)
            try:
                return await response["Body"].read()
            except BODY_ERRORS:
                if attempt == BODY_ATTEMPTS:
                    raise
            finally:
                response["Body"].close()


def stored_checksum(url, storage_options, timeout, deadline):
    """crcforge.objects.stored_checksum: GetObjectAttributes with Checksum and ObjectParts,
    paged."""
    obj = open_url(url, storage_options, timeout, deadline)
    fs = obj.fs
    bucket, key, _ = fs.split_path(obj.path)
    request = dict(Bucket=bucket, Key=key,
                   ObjectAttributes=["Checksum", "ObjectParts", "ObjectSize"])
    attrs = obj.call("GetObjectAttributes", fs._call_s3("get_object_attributes", **request))
    stored = attrs.get("Checksum") or {}
    found = [(name, stored["Checksum" + name]) for name in S3_ALGORITHMS
             if stored.get("Checksum" + name)]
    if not found:
        raise StoredChecksumError("the object has no CRC checksum stored (%s)" % (
            "only " + ", ".join(sorted(k for k in stored if k != "ChecksumType"))
            if len(stored) > 1 else "none at all"))
    algorithm, value = found[0]
    ctype = stored.get("ChecksumType", "FULL_OBJECT")
    # (MinIO leaves ObjectSize out for an empty object.)
    size = int(attrs["ObjectSize"]) if "ObjectSize" in attrs else obj.stamp().size
    parts = []
    object_parts = attrs.get("ObjectParts") or {}
    count = object_parts.get("TotalPartsCount")
    while object_parts.get("Parts"):
        parts += [int(p["Size"]) for p in object_parts["Parts"]]
        if not object_parts.get("IsTruncated"):
            break
        marker = int(object_parts["NextPartNumberMarker"])
        object_parts = obj.call("GetObjectAttributes", fs._call_s3(
            "get_object_attributes", PartNumberMarker=marker, **request)).get("ObjectParts") or {}
    value, dash, n = value.partition("-")
    if ctype == "COMPOSITE":
        count = int(n) if dash else count
        if not parts or len(parts) != count or sum(parts) != size:
            raise StoredChecksumError("the sizes of the object's %s parts are not available"
                                      % (count if count is not None else "unknown number of"))
        value = "%s-%d" % (value, count)
    return StoredChecksum(algorithm, ctype, value, tuple(parts), size)
