# SPDX-License-Identifier: MIT
"""What is Google Cloud Storage's own in reading objects (crcforge.objects): a gcsfs
filesystem whose requests end (connect and read timeouts, REQUEST_ATTEMPTS attempts of
each, no retry loop of gcsfs's on top), credentials that are never guessed where an
emulator or a named credentials file says what to use, ranged reads pinned to the
generation the caller saw, and the crc32c an object stores (its metadata).

Everything goes through the JSON API (gcsfs.core.GCSFileSystem): object metadata and
ranged media GETs are all crcforge asks, and they need none of gcsfs's gRPC extension,
whose per-bucket layout lookup an emulator (which speaks JSON only) answers with a
warning per request after a minute of retries.

Imported only for gs:// URLs and GCS files: it needs gcsfs (and with it aiohttp).
"""
import asyncio
import errno
import os

import aiohttp
import gcsfs.core
import gcsfs.retry
import google.auth.exceptions

from .objects import (DEFAULT_TIMEOUT, REQUEST_ATTEMPTS, SourceChanged, SourceTimeout,
                      StoredChecksum, StoredChecksumError, _FsspecObject, _run, _Stamp)

# aiohttp's timeouts: of the connection (3.10 on), of a read; older ones raise
# ServerTimeoutError for both.
_CONNECT_TIMEOUT = getattr(aiohttp, "ConnectionTimeoutError", ())
_TIMEOUTS = (aiohttp.ServerTimeoutError, asyncio.TimeoutError)


def _emulator():
    """Whether STORAGE_EMULATOR_HOST points the clients at an emulator (gcsfs's own rule)."""
    return os.environ.get("STORAGE_EMULATOR_HOST", "") not in ("", "default")


def default_token(options):
    """gcsfs's `token` where the options give none: the credentials file that
    GOOGLE_APPLICATION_CREDENTIALS names ("google_default": a file that is missing or
    malformed is then an error, where gcsfs would fall back to anonymous access without a
    word), else "anon" for an emulator (STORAGE_EMULATOR_HOST, or an endpoint_url):
    it takes no credentials, and looking for some prints warnings and asks the metadata
    server of a cloud machine), else gcsfs's own search."""
    if "token" in options:
        return options["token"]
    if os.environ.get("GOOGLE_APPLICATION_CREDENTIALS"):
        return "google_default"
    if _emulator() or options.get("endpoint_url"):
        return "anon"
    return None


class BoundedGCSFileSystem(gcsfs.core.GCSFileSystem):
    """gcsfs whose every request (its body read too) is tried REQUEST_ATTEMPTS times, within
    connect and read timeouts, by a loop of its own: gcsfs's loop of 6 tries, up to 32 s
    apart, would hold a stalled call for minutes, and it logs each failure's traceback to
    stderr.  The token is chosen (default_token) in __init__, so that a process the
    filesystem is sent to (a Dask worker) chooses by its own environment.  A class of its
    own, so that the caller's gcsfs filesystems keep their settings."""

    def __init__(self, *args, request_timeout=None, **kwargs):
        kwargs["token"] = default_token(kwargs)
        if request_timeout is None and kwargs.get("requests_timeout") is None:
            request_timeout = DEFAULT_TIMEOUT
        if request_timeout is not None:  # crcforge's timeout=, else the options' own
            kwargs["requests_timeout"] = aiohttp.ClientTimeout(sock_connect=request_timeout,
                                                               sock_read=request_timeout)
        super().__init__(*args, **kwargs)

    async def _request(self, *args, **kwargs):
        once = gcsfs.core.GCSFileSystem._request.__wrapped__  # without gcsfs's retry loop
        for attempt in range(1, REQUEST_ATTEMPTS + 1):
            try:
                return await once(self, *args, **kwargs)
            except Exception as e:
                if attempt == REQUEST_ATTEMPTS or not (gcsfs.retry.is_retriable(e) or
                                                       isinstance(e, _TIMEOUTS)):
                    raise
            await asyncio.sleep(attempt)  # 1 s, then 2 s between the attempts


def _bucket_and_key(url):
    """(bucket, object name) of gs://BUCKET/NAME; a ValueError naming what is missing."""
    _, _, rest = url.partition("://")
    bucket, _, key = rest.partition("/")
    if not bucket:
        raise ValueError("%s: the URL names no bucket (gs://BUCKET/OBJECT)" % url)
    return bucket, key


def _filesystem(options):
    try:
        return BoundedGCSFileSystem(**options)
    except google.auth.exceptions.GoogleAuthError as e:  # its args: a message and a cause
        raise PermissionError("credentials: %s" % "; ".join(map(str, e.args))) from None


def open_url(url, storage_options, timeout, deadline):
    """The GCSObject a gs:// URL names (its filesystem made now, so that credentials that
    cannot be loaded fail here)."""
    bucket, key = _bucket_and_key(url)
    options = {**(storage_options or {}), "request_timeout": timeout}
    return GCSObject(_filesystem(options), "%s/%s" % (bucket, key), url, deadline, options)


class GCSObject(_FsspecObject):
    """A GCS object.  Its version is its generation, and every ranged read asks for that
    generation: once the object is written anew the read finds nothing (404) and fails,
    instead of mixing two versions.

    Made from a URL (`options` given), it travels to other processes without its
    filesystem, which is made anew where it is first used: a Dask scheduler unpickles
    every task it passes on, and a filesystem made there would look for credentials by
    the scheduler's environment (the metadata server of a cloud machine, for seconds)."""

    def __init__(self, fs, path, name, deadline=None, options=None):
        super().__init__(fs, path, name, deadline)
        self.options = options

    @property
    def fs(self):
        if self._fs is None:
            self._fs = _filesystem(self.options)
        return self._fs

    @fs.setter
    def fs(self, value):
        self._fs = value

    def __getstate__(self):
        state = dict(self.__dict__)
        if self.options is not None:
            state["_fs"] = None
        return state

    def call(self, what, coroutine):
        """Runs a request on the filesystem's event loop, within the deadline; a timeout
        in every attempt is a SourceTimeout saying what timed out."""
        try:
            return _run(self.fs.loop, coroutine, self.deadline, self.name, what)
        except SourceTimeout:  # the deadline's (a TimeoutError too): said already
            raise
        except _CONNECT_TIMEOUT:
            raise SourceTimeout("%s: timed out: %s could not connect to %s within %g s (the "
                                "connect timeout) in every attempt"
                                % (self.name, what, self.fs._location, self._timeout()))
        except _TIMEOUTS:
            raise SourceTimeout("%s: timed out: %s got no data for %g s (the read timeout) "
                                "in every attempt" % (self.name, what, self._timeout()))

    def _timeout(self):
        """The read and connect timeout the requests have, in seconds."""
        t = self.fs.requests_timeout
        return getattr(t, "sock_read", None) or getattr(t, "total", None) or t

    def _split(self):
        bucket, _, key = self.path.partition("/")
        return bucket, key

    def metadata(self):
        """The object's resource (the JSON API's objects.get): size, generation, crc32c."""
        bucket, key = self._split()
        if not key:
            raise IsADirectoryError(errno.EISDIR, "a bucket, not an object", self.name)
        try:
            return self.call("the request of its metadata", self.fs._call(
                "GET", "b/{}/o/{}", bucket, key, json_out=True))
        except FileNotFoundError:
            pass
        try:  # which one is missing: the bucket, or the object in it
            self.call("the request of its bucket", self.fs._call("GET", "b/{}", bucket,
                                                                  json_out=True))
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, "No such bucket", self.name) from None
        raise FileNotFoundError(errno.ENOENT, "No such file or object", self.name)

    def stamp(self):
        meta = self.metadata()
        return _Stamp(int(meta["size"]), ("generation", meta["generation"]))

    def check_version(self, stamp):
        pass  # every read asks for the generation itself

    def read_block(self, offset, length, stamp):
        bucket, key = self._split()
        last = offset + length - 1
        what = "the ranged GET of bytes %d-%d" % (offset, last)
        try:
            _, data = self.call(what, self.fs._call(
                "GET", "b/{}/o/{}", bucket, key, alt="media", generation=stamp.version[1],
                headers={"Range": "bytes=%d-%d" % (offset, last)}))
        except FileNotFoundError:
            raise SourceChanged("%s changed while it was hashed (generation %s is no longer "
                                "there)" % (self.name, stamp.version[1])) from None
        return data


def stored_checksum(url, storage_options, timeout, deadline):
    """crcforge.objects.stored_checksum: the crc32c of the object's metadata (a composed
    object's too: the CRC-32C of the whole concatenation), no byte of it read."""
    meta = open_url(url, storage_options, timeout, deadline).metadata()
    if not meta.get("crc32c"):
        raise StoredChecksumError("the object has no CRC checksum stored (no crc32c in its "
                                  "metadata)")
    size = int(meta["size"])
    return StoredChecksum("CRC32C", "FULL_OBJECT", meta["crc32c"], (), size)
