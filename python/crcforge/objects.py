# SPDX-License-Identifier: MIT
"""Checksums of whole files and stored objects, as object stores report them, hashed by
ranges wherever an executor runs them.

A source is a path, an open binary file, or a URL that fsspec opens (s3://, gs://,
file://, memory://, ...).  With an executor (any concurrent.futures.Executor: a thread or
process pool, or a Dask ``Client.get_executor()``) the source is cut into ranges of
``chunk_size`` bytes; each task opens the source itself, reads only its range and returns
(crc, bytes read); the caller joins the values with crcforge.combine.  No range's bytes
travel back to the caller.

A source that changes while it is hashed (size, modification time or ETag differ between
the start and the end, or a task finds another version than the caller saw) raises
SourceChanged; one that ends before its size raises SourceTruncated.  A read that returns
fewer bytes than asked is continued, never taken for the end.  A failed task (a worker
that died, a read that failed) fails the call: no value is returned then.

Every call ends: each request to S3 or GCS has connect and read timeouts of `timeout`
seconds (DEFAULT_TIMEOUT) and is tried REQUEST_ATTEMPTS times; a ranged read from S3 whose
body breaks off or stalls is read again once (GCS's attempts cover the body); a whole-call
`deadline` (seconds) is checked before every block and bounds every request to an
asynchronous filesystem.  What timed out is a SourceTimeout naming the source and the
request.

fsspec and the filesystem behind a URL (s3fs, gcsfs, ...) are imported only when a URL is
given: the package itself depends on none of them.  What is S3's own (s3fs, botocore,
ETags, If-Match, stored checksums) is in crcforge._s3, what is GCS's (gcsfs, generations,
crc32c, credentials for an emulator) in crcforge._gcs; other filesystems are read through
fsspec's interface alone (cat_file, and ukey() for the version).
"""
import asyncio
import base64
import concurrent.futures
import contextlib
import errno
import operator
import os
import stat
import time
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple, Tuple

from ._crcforge import _parse_size, combine, new
from ._pread import pread_into

__all__ = ["DEFAULT_TIMEOUT", "MAX_PARTS", "REQUEST_ATTEMPTS", "SourceChanged",
           "SourceTimeout", "SourceTruncated", "StoredChecksum", "StoredChecksumError",
           "Verification", "composite", "composite_crc", "file_checksum", "is_url",
           "object_checksum", "part_crcs", "part_sizes", "stored_checksum", "verify_upload"]

MAX_PARTS = 10_000              # parts of one multipart upload at most (S3's limit)
DEFAULT_CHUNK = 64 << 20        # a range per task: large enough that scheduling costs little
LOCAL_BLOCK = 1 << 20           # bytes read per pread of a local file
REMOTE_BLOCK = 8 << 20          # bytes per ranged GET: fewer requests, bounded memory
# A stalled S3 server is reported typically after about 83 s and at most 150 s with these
# defaults.  Typically: a body that stalls (one read timeout), then every attempt of the
# one request that reads it again (REQUEST_ATTEMPTS read timeouts) and botocore's backoff
# between them (at most 1 + 2 s): 4 x 20 + 3 s.  At most: each of those attempts may also
# wait out its connect timeout first, 20 + 3 x (20 + 20) + 3 = 143 s.  A stalled GCS
# server: REQUEST_ATTEMPTS read timeouts and 1 + 2 s between them, 3 x 20 + 3 = 63 s; at
# most 3 x (20 + 20) + 3 = 123 s.
DEFAULT_TIMEOUT = 20.0          # connect and read timeout of each request, in seconds
REQUEST_ATTEMPTS = 3            # tries of each request (botocore's standard retry mode)

# S3's names of the CRC checksums it stores, and the crcforge models they are.
S3_ALGORITHMS = {"CRC32": "crc32", "CRC32C": "crc32c", "CRC64NVME": "crc64-nvme"}


class SourceChanged(OSError):
    """The file or object changed while it was hashed: no value can be trusted."""


class SourceTruncated(OSError):
    """The file or object ended before the size it had when hashing started."""


class SourceTimeout(TimeoutError):
    """A request timed out in every attempt, or the call's deadline passed: the message
    names the source and what timed out."""


class _Deadline(NamedTuple):
    """A whole call's deadline: `seconds` as given, and the wall-clock time it ends at
    (wall-clock, not monotonic, as tasks in other processes and on other machines compare
    it with their own clocks)."""

    seconds: float
    at: float

    def left(self, name, what):
        """Seconds left; a SourceTimeout if none are."""
        left = self.at - time.time()
        if left <= 0:
            raise self.passed(name, what)
        return left

    def passed(self, name, what):
        return SourceTimeout("%s: timed out: the deadline of %g s passed %s"
                             % (name, self.seconds, what))


# The longest timeout or deadline taken, in seconds (about 31 years).  The timed waits
# they end up in (socket timeouts, lock and future waits) hold at most 2**63 ns, about
# 9.2e9 s: a longer one, or an infinite one, would pass here and fail only later, inside
# botocore or a wait, with an error that names neither the option nor the value.
MAX_SECONDS = 1e9


def _check_seconds(what, seconds, shown=None):
    """seconds (an int or a float, not a bool) if it is > 0 and at most MAX_SECONDS (so
    finite), else a ValueError naming `what` and the value (`shown`, else its repr)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or \
            not 0 < seconds <= MAX_SECONDS:  # (false for nan and inf too)
        raise ValueError("%s must be a number of seconds > 0 and at most %g, not %s"
                         % (what, MAX_SECONDS, shown if shown is not None else repr(seconds)))
    return seconds


def _deadline(seconds):
    if seconds is None or isinstance(seconds, _Deadline):  # (one deadline for several calls)
        return seconds
    _check_seconds("deadline", seconds)
    return _Deadline(float(seconds), time.time() + seconds)


def _check_timeout(seconds):
    return seconds if seconds is None else _check_seconds("timeout", seconds)


def _run(loop, coro, deadline, name, what):
    """Runs a coroutine (what: the request it makes) on an fsspec filesystem's event loop
    and waits for its result, cancelling it when the deadline passes."""
    left = None
    if deadline is not None:
        try:
            left = deadline.left(name, "before " + what)
        except SourceTimeout:
            coro.close()
            raise
    future = asyncio.run_coroutine_threadsafe(_within(coro, left), loop)
    try:
        while not concurrent.futures.wait([future], timeout=1).done:
            pass  # woken each second, so that a signal (Ctrl-C) is handled here
        return future.result()
    except _Expired:
        raise deadline.passed(name, "during " + what) from None
    except BaseException:
        future.cancel()
        raise


class _Expired(Exception):
    """The deadline passed while a coroutine ran (_within)."""


async def _within(coro, seconds):
    if seconds is None:
        return await coro
    task = asyncio.ensure_future(coro)
    done, _ = await asyncio.wait([task], timeout=seconds)
    if not done:
        task.cancel()
        await asyncio.wait([task])  # the request is abandoned before we report
        raise _Expired()
    return task.result()


class _Stamp(NamedTuple):
    """What identifies one version of a source: its size and a version tag (ETag,
    modification time, inode), compared at the start, in every task and at the end."""

    size: int
    version: tuple


def _changed(name, before, after):
    if before.size != after.size:
        what = "size %d -> %d" % (before.size, after.size)
    else:
        what = "version %s -> %s" % (" ".join(map(str, before.version)),
                                     " ".join(map(str, after.version)))
    return SourceChanged("%s changed while it was hashed (%s)" % (name, what))


def _early_end(name, at, size):
    return SourceTruncated("%s ended at byte %d, before its size of %d bytes" % (name, at, size))


def _local_stamp(st):
    return _Stamp(st.st_size, (st.st_mtime_ns, st.st_ino, st.st_dev))


def _pread_range(fd, algo, offset, length, name, size, deadline):
    """CRC of `length` bytes of fd from `offset`; short reads are continued."""
    h = _new(algo)
    buf = bytearray(min(LOCAL_BLOCK, length))
    view = memoryview(buf)
    done = 0
    while done < length:
        if deadline is not None:
            deadline.left(name, "at byte %d" % (offset + done))
        got = pread_into(fd, view[:min(len(buf), length - done)], offset + done)
        if got == 0:
            raise _early_end(name, offset + done, size)
        h.update(view[:got])
        done += got
    return h.value, done


class _LocalPath:
    """A local file by path: each task opens it, checks it is still the version the caller
    saw, and preads its range."""

    def __init__(self, path, name=None, deadline=None):
        self.path = path
        self.name = name if name is not None else os.fsdecode(path)
        self.deadline = deadline

    def stamp(self):
        st = os.stat(self.path)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), self.name)
        return _local_stamp(st)

    def hash_range(self, algo, offset, length, stamp):
        with self.opened(stamp) as shared:
            return shared.hash_range(algo, offset, length, stamp)

    @contextlib.contextmanager
    def opened(self, stamp):
        """The file opened once, as a _SharedFd, checked to be the version stamped: what
        reads all the ranges in this process (an open a range costs a part of a few
        hundred bytes far more than its read, on Windows most)."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            now = _local_stamp(os.fstat(fd))
            if now != stamp:
                raise _changed(self.name, stamp, now)
            yield _SharedFd(fd, self.name, self.deadline)
        finally:
            os.close(fd)


class _SharedFd:
    """An open file's descriptor, shared by the threads of this process only."""

    def __init__(self, fd, name, deadline=None):
        self.fd = fd
        self.name = name
        self.deadline = deadline

    def stamp(self):
        return _local_stamp(os.fstat(self.fd))

    def hash_range(self, algo, offset, length, stamp):
        return _pread_range(self.fd, algo, offset, length, self.name, stamp.size,
                            self.deadline)


class _FsspecObject:
    """An object behind an fsspec filesystem (picklable: fsspec filesystems are, so tasks
    run in other processes and on other machines), read in ranges of REMOTE_BLOCK bytes
    with cat_file.  Its version is fsspec's ukey(); each task checks it before reading.
    crcforge._s3 and crcforge._gcs specialise this for S3 and GCS."""

    def __init__(self, fs, path, name, deadline=None):
        self.fs = fs
        self.path = path
        self.name = name
        self.deadline = deadline

    def _call(self, what, call, coroutine, *args, **kwargs):
        """call(*args, **kwargs), through the event loop when the filesystem is
        asynchronous (coroutine: its async form) so that the deadline can cut it short."""
        if getattr(self.fs, "async_impl", False) and self.deadline is not None:
            return _run(self.fs.loop, coroutine(*args, **kwargs), self.deadline, self.name,
                        what)
        if self.deadline is not None:
            self.deadline.left(self.name, "before " + what)
        return call(*args, **kwargs)

    def stamp(self):
        self.fs.invalidate_cache(self.path)
        info = self._call("the request of its metadata", self.fs.info,
                          getattr(self.fs, "_info", None), self.path)
        if info.get("type") == "directory":
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), self.name)
        return _Stamp(int(info["size"]), (self.fs.ukey(self.path),))

    def read_block(self, offset, length, stamp):
        """Bytes offset to offset + length of the version `stamp` (fewer at its end)."""
        return self._call("the read of bytes %d-%d" % (offset, offset + length - 1),
                          self.fs.cat_file, getattr(self.fs, "_cat_file", None), self.path,
                          start=offset, end=offset + length)

    def check_version(self, stamp):
        """Raises SourceChanged unless the object is still the version `stamp`."""
        now = self.stamp()
        if now != stamp:
            raise _changed(self.name, stamp, now)

    def hash_range(self, algo, offset, length, stamp):
        self.check_version(stamp)
        h = _new(algo)
        done = 0
        while done < length:
            block = self.read_block(offset + done, min(REMOTE_BLOCK, length - done), stamp)
            if not block:
                raise _early_end(self.name, offset + done, stamp.size)
            h.update(block)
            done += len(block)
        return h.value, done


class _Several(tuple):
    """Several algorithms fed the same bytes in one read (part_crcs or file_checksum with a
    list): _new() of it hashes with each, its values a tuple in the same order."""


def _several(algo, caller):
    """A list or tuple of algorithms as _Several (a Params, itself a tuple, is one
    algorithm); any other algo as it is."""
    if isinstance(algo, (list, tuple)) and not hasattr(algo, "width"):
        if not algo:
            raise ValueError("%s: the list of algorithms is empty" % caller)
        return _Several(algo)
    return algo


class _SeveralCRC:
    def __init__(self, algos):
        self.crcs = [new(a) for a in algos]

    def update(self, data):
        for h in self.crcs:
            h.update(data)

    @property
    def value(self):
        return tuple(h.value for h in self.crcs)


def _new(algo):
    return _SeveralCRC(algo) if isinstance(algo, _Several) else new(algo)


def _combine(algo, crc1, crc2, len2):
    if isinstance(algo, _Several):
        return tuple(combine(a, c1, c2, len2) for a, c1, c2 in zip(algo, crc1, crc2))
    return combine(algo, crc1, crc2, len2)


def _hash_task(source, algo, offset, length, stamp):
    """One task: the CRC of one range and the number of bytes read (module-level, so that
    process pools and Dask can pickle it)."""
    return source.hash_range(algo, offset, length, stamp)


def is_url(text):
    """Whether a name is a URL ("scheme://...") rather than a path."""
    if not isinstance(text, str):
        return False
    scheme, sep, _ = text.partition("://")
    return bool(sep) and scheme.replace("+", "").replace("-", "").replace(".", "").isalnum()


def _scheme(url):
    return url.partition("://")[0].lower()


def _is_s3(url):
    return _scheme(url) in ("s3", "s3a")


def _is_gcs(url):
    return _scheme(url) in ("gs", "gcs")


def _url_object(url, storage_options, timeout, deadline):
    """The object a URL names, on a filesystem made with storage_options (and for S3 and
    GCS, the timeouts and attempts every call here ends within)."""
    try:
        import fsspec.core
    except ImportError:
        raise ImportError("reading %s needs fsspec (pip install 'crcforge[s3]')" % url) from None
    if _is_s3(url):
        try:
            from . import _s3
        except ImportError:
            raise ImportError("reading %s needs s3fs (pip install 'crcforge[s3]')" % url) from None
        return _s3.open_url(url, storage_options, timeout, deadline)
    if _is_gcs(url):
        return _gcs_module(url).open_url(url, storage_options, timeout, deadline)
    fs, path = fsspec.core.url_to_fs(url, **(storage_options or {}))
    return _FsspecObject(fs, path, url, deadline)


def _gcs_module(url):
    try:
        from . import _gcs
    except ImportError:
        raise ImportError("reading %s needs gcsfs (pip install 'crcforge[gcs]')" % url) from None
    return _gcs


def _fsspec_file_object(fs, path, name, deadline):
    """An fsspec file's object, read through the file's own filesystem and its settings."""
    protocols = fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,)
    if "s3" in protocols:
        from . import _s3

        return _s3.S3Object(fs, path, name, deadline)
    if "gs" in protocols:
        from . import _gcs

        return _gcs.GCSObject(fs, path, name, deadline)
    return _FsspecObject(fs, path, name, deadline)


def _is_fsspec_file(source):
    return getattr(source, "fs", None) is not None and getattr(source, "path", None) is not None


def _refuse_timeout_of_open_file(source, timeout):
    """An open fsspec file is read through its own filesystem, made by whoever opened it,
    with that filesystem's timeouts and retries: a `timeout` could not reach its requests,
    so it is refused rather than silently ignored."""
    if timeout is not None and _is_fsspec_file(source):
        name = getattr(source, "name", None)
        raise ValueError("%s: timeout applies to URLs; an open file keeps its filesystem's "
                         "settings (pass the URL instead, or open the file with the "
                         "timeouts in its storage options)"
                         % (name if isinstance(name, str) else repr(source)))


def _resolve(source, storage_options, executor, timeout, deadline):
    """(source object with stamp()/hash_range(), start offset), or (None, file) for an open
    file to stream in this thread."""
    if isinstance(source, (str, bytes, os.PathLike)):
        path = os.fspath(source)
        if isinstance(path, str) and is_url(path):
            if path.startswith("file://") and not storage_options:
                return _LocalPath(path[len("file://"):], path, deadline), 0
            return _url_object(path, storage_options, timeout, deadline), 0
        if storage_options:
            raise TypeError("storage_options apply to URLs only, not to the path %r" % (path,))
        return _LocalPath(path, deadline=deadline), 0
    if not hasattr(source, "read"):
        raise TypeError("source must be a path, a URL or an open binary file, not %s"
                        % type(source).__name__)
    name = getattr(source, "name", None)
    name = os.fsdecode(name) if isinstance(name, (str, bytes)) else repr(source)
    _refuse_timeout_of_open_file(source, timeout)
    if executor is None:
        return None, source
    if _is_fsspec_file(source):  # tasks open its object
        return _fsspec_file_object(source.fs, source.path, name, deadline), source.tell()
    try:
        fd = source.fileno()
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except (AttributeError, OSError, ValueError):
        fd, regular = None, False
    if not regular:
        raise TypeError("%s: only a regular file, a path or a URL can be hashed by ranges"
                        % name)
    start = source.tell()
    if isinstance(executor, ThreadPoolExecutor):
        return _SharedFd(fd, name, deadline), start
    if isinstance(name, str) and os.path.exists(name) and os.path.samestat(os.stat(name),
                                                                          os.fstat(fd)):
        return _LocalPath(name, deadline=deadline), start  # other processes open it by name
    raise TypeError("%s: an open file without a path can be hashed by ranges in a "
                    "ThreadPoolExecutor only; pass its path or URL" % name)


def _stream_parts(f, algo, part_size, name, deadline, max_parts):
    """CRCs and sizes of the parts of an open file from its position to its end, read here
    (pipes too); part_size None: one part.  Short reads are continued."""
    buf = bytearray(LOCAL_BLOCK)
    view = memoryview(buf)
    crcs, sizes = [], []
    h, filled = _new(algo), 0
    while True:
        if deadline is not None:
            deadline.left(name, "after %d bytes" % (sum(sizes) + filled))
        got = f.readinto(view)
        if got is None:  # a non-blocking file with nothing to read yet
            continue
        if got == 0:
            break
        at = 0
        while at < got:  # the block may cross part boundaries
            take = got - at if part_size is None else min(got - at, part_size - filled)
            h.update(view[at:at + take])
            at += take
            filled += take
            if filled == part_size:
                crcs.append(h.value)
                sizes.append(filled)
                h, filled = _new(algo), 0
    if filled or not crcs:
        crcs.append(h.value)
        sizes.append(filled)
    if part_size is not None:
        part_sizes(sum(sizes), part_size, max_parts)  # too many parts: refused, no value
    return crcs, sizes


def _open_file_stamp(f):
    try:
        st = os.fstat(f.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return _local_stamp(st) if stat.S_ISREG(st.st_mode) else None


def _check_chunk(chunk_size):
    if chunk_size is None:
        return DEFAULT_CHUNK
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError("chunk_size must be a whole number of bytes >= 1, not %r" % (chunk_size,))
    return chunk_size


def part_sizes(size, part_size, max_parts=MAX_PARTS):
    """The sizes of the parts of an upload of `size` bytes in parts of `part_size` bytes
    (the last one shorter; an empty object is one empty part).  A part size below 1 byte,
    or one that makes more than max_parts parts, is a ValueError naming the limit."""
    if not isinstance(part_size, int) or part_size < 1:
        raise ValueError("part size must be at least 1 byte, not %r" % (part_size,))
    count = max(1, -(-size // part_size))
    if count > max_parts:
        raise ValueError("part size %d bytes makes %d parts of a %d-byte input; an upload "
                         "has at most %d parts (a part size of at least %d bytes)"
                         % (part_size, count, size, max_parts, -(-size // max_parts)))
    return [part_size] * (count - 1) + [size - part_size * (count - 1)]


def _part_size_arg(part_size):
    """part_size as given (None, an int, a size string as --part-size reads it, or the
    size of every part) as None, an int or a list of ints.  A string is always one size:
    never read as a sequence of part sizes."""
    if part_size is None or (isinstance(part_size, int) and not isinstance(part_size, bool)):
        return part_size
    if isinstance(part_size, str):
        size = _parse_size(part_size)
        if size is None:
            raise ValueError("part_size %r is not a size: bytes, or with K, M, G, T, KB.., "
                             "KiB.. in any case (all powers of 1024)" % (part_size,))
        return size
    kind = "an int, a size string or a sequence of ints"
    if isinstance(part_size, (bytes, bytearray, memoryview, bool)):
        raise TypeError("part_size is %s, not %s" % (kind, type(part_size).__name__))
    try:
        parts = list(part_size)
    except TypeError:
        raise TypeError("part_size is %s, not %r" % (kind, part_size)) from None
    for p in parts:
        if isinstance(p, (bool, str)) or not hasattr(p, "__index__"):
            raise TypeError("part_size is %s: %r in it is not an int" % (kind, p))
    return [operator.index(p) for p in parts]


def _parts_of(size, part_size, max_parts):
    """part_size is one size, or the size of every part in order (which must add up)."""
    if isinstance(part_size, int):
        return part_sizes(size, part_size, max_parts)
    parts = list(part_size)
    if not parts or any(p < 0 for p in parts):
        raise ValueError("part sizes must be one or more sizes >= 0 bytes")
    if len(parts) > max_parts:
        raise ValueError("%d parts: an upload has at most %d parts" % (len(parts), max_parts))
    if sum(parts) != size:
        raise ValueError("the part sizes add up to %d bytes, the source has %d"
                         % (sum(parts), size))
    return parts


def _results(futures, deadline, name):
    """The futures' results in order; the first failure (or the deadline) fails them all."""
    try:
        if deadline is None:
            return [f.result() for f in futures]
        results = []
        for f in futures:
            # A moment's grace: the tasks check the deadline themselves, and say where.
            left = deadline.at + 2 - time.time()
            try:
                f.exception(timeout=max(left, 0))  # (returns a task's error: no timeout)
            except concurrent.futures.TimeoutError:
                raise deadline.passed(name, "while waiting for the executor's tasks") from None
            results.append(f.result())
        return results
    except BaseException:
        for f in futures:
            f.cancel()
        raise


def part_crcs(source, algo, parts, *, chunk_size=None, executor=None, storage_options=None,
              timeout=None, deadline=None, max_parts=MAX_PARTS):
    """The CRC of every part of the source and the part sizes (parts None: the whole source
    is one part; an int or a size string: parts of that size; else the size of every
    part).  algo may be a list (or tuple) of algorithms: then each part's CRC is the tuple
    of their values, in that order, from one read.  timeout: seconds, the connect and read
    timeout of each request to S3 or GCS (DEFAULT_TIMEOUT); deadline: seconds the whole
    call may take, or None.  More than max_parts parts (S3's MAX_PARTS by default) is a
    ValueError naming the limit."""
    algo = _several(algo, "part_crcs")
    chunk = _check_chunk(chunk_size)
    parts = _part_size_arg(parts)
    _check_timeout(timeout)
    limit = _deadline(deadline)
    reader, start = _resolve(source, storage_options, executor, timeout, limit)
    if reader is None:  # an open file without an executor: streamed here
        f, name = start, getattr(start, "name", "file")
        before = _open_file_stamp(f)
        if parts is None or isinstance(parts, int):
            crcs, sizes = _stream_parts(f, algo, parts, name, limit, max_parts)
            after = _open_file_stamp(f)
            if after != before:
                raise _changed(name, before, after)
            return crcs, sizes
        if before is None:
            raise TypeError("%s: the sizes of every part need a regular file" % name)
        reader, start = _SharedFd(f.fileno(), name, limit), f.tell()
    stamp = reader.stamp()
    size = stamp.size - start
    sizes = [size] if parts is None else _parts_of(size, parts, max_parts)
    # Each part in ranges of at most `chunk` bytes (one range a part without an executor).
    ranges = []
    offset = start
    for index, length in enumerate(sizes):
        step = chunk if executor is not None else max(length, 1)
        for at in range(0, length, step):
            ranges.append((index, offset + at, min(step, length - at)))
        offset += length
    empty = _new(algo).value
    if executor is None:
        with (reader.opened(stamp) if isinstance(reader, _LocalPath)
              else contextlib.nullcontext(reader)) as here:
            results = [_hash_task(here, algo, at, n, stamp) for _, at, n in ranges]
    else:
        results = _results([executor.submit(_hash_task, reader, algo, at, n, stamp)
                            for _, at, n in ranges], limit, reader.name)
    crcs = [empty] * len(sizes)
    started = [False] * len(sizes)
    for (index, at, n), (crc, got) in zip(ranges, results):
        if got != n:  # a task must account for every byte of its range
            raise _early_end(reader.name, at + got, stamp.size)
        crcs[index] = _combine(algo, crcs[index], crc, n) if started[index] else crc
        started[index] = True
    now = reader.stamp()
    if now != stamp:
        raise _changed(reader.name, stamp, now)
    return crcs, sizes


def file_checksum(source, algo="crc32c", *, chunk_size=None, executor=None,
                  storage_options=None, timeout=None, deadline=None):
    """The CRC value of a whole file or object: a path, an open binary file (from its
    position to its end) or an fsspec URL.  With an executor, ranges of chunk_size bytes
    are hashed where it runs them and joined with combine.  algo may be a list (or tuple)
    of algorithms: then the list of their values, in that order, from one read.  timeout
    and deadline as part_crcs takes them."""
    algo = _several(algo, "file_checksum")
    crcs, _ = part_crcs(source, algo, None, chunk_size=chunk_size, executor=executor,
                        storage_options=storage_options, timeout=timeout, deadline=deadline)
    return list(crcs[0]) if isinstance(algo, _Several) else crcs[0]


def _b64(value, width):
    return base64.b64encode(value.to_bytes((width + 7) // 8, "big")).decode()


def composite_crc(algo, crcs):
    """The CRC, with the same algorithm, of the parts' CRCs as big-endian bytes (each of
    ceil(width/8) bytes): the value of a COMPOSITE checksum, before its -N."""
    h = new(algo)
    nbytes = (h.width + 7) // 8
    h.update(b"".join(crc.to_bytes(nbytes, "big") for crc in crcs))
    return h.value


def composite(algo, crcs):
    """The COMPOSITE checksum of an upload whose parts have these CRCs, as S3 shows it:
    base64 of composite_crc, then -N."""
    return "%s-%d" % (_b64(composite_crc(algo, crcs), new(algo).width), len(crcs))


def object_checksum(source, algo, *, part_size=None, chunk_size=None, executor=None,
                    storage_options=None, timeout=None, deadline=None):
    """The checksum an object store shows for this content: the base64 of the big-endian
    CRC (S3 FULL_OBJECT, GCS crc32c), or with part_size the COMPOSITE BASE64-N of a
    multipart upload in parts of part_size bytes.  part_size is an int, a size string as
    `crcforge sum --part-size` reads it ("8MB", "8MiB", "123" is 123 bytes), or the size
    of every part in order (parts may differ in size).  timeout and deadline as part_crcs
    takes them."""
    part_size = _part_size_arg(part_size)
    common = dict(chunk_size=chunk_size, executor=executor, storage_options=storage_options,
                  timeout=timeout, deadline=deadline)
    if part_size is None:
        crcs, _ = part_crcs(source, algo, None, **common)
        return _b64(crcs[0], new(algo).width)
    if isinstance(part_size, int):
        part_sizes(0, part_size)  # a part size below 1 byte is refused before any read
    crcs, _ = part_crcs(source, algo, part_size, **common)
    return composite(algo, crcs)


class Verification(NamedTuple):
    """What verify_upload found: ok, the stored and the computed checksum (as HeadObject
    shows them: BASE64, or BASE64-N for a composite one), the algorithm's S3 name, the
    checksum type (FULL_OBJECT or COMPOSITE) and the part sizes used.  It is true when the
    file verified and false when it did not, so that `if not verify_upload(...)` works."""

    ok: bool
    stored: str
    computed: str
    algorithm: str
    checksum_type: str
    part_sizes: Tuple[int, ...]
    object_size: int
    file_size: int

    def __bool__(self):
        return self.ok


class StoredChecksumError(ValueError):
    """The object stores no CRC checksum, or not what is needed to recompute it."""


class StoredChecksum(NamedTuple):
    """An S3 or GCS object's stored CRC checksum: the algorithm (S3's name: CRC32, CRC32C,
    CRC64NVME), its type (FULL_OBJECT or COMPOSITE), the value as HeadObject shows it
    (BASE64, or BASE64-N for a COMPOSITE one), the part sizes and the object's size.  A
    GCS object's is its crc32c: CRC32C, FULL_OBJECT, no part sizes."""

    algorithm: str
    checksum_type: str
    value: str
    part_sizes: Tuple[int, ...]
    size: int


def stored_checksum(url, *, storage_options=None, timeout=None, deadline=None):
    """What an S3 or GCS object stores.  S3: GetObjectAttributes with Checksum and
    ObjectParts (paged: parts may differ in size; a single PUT has one part or none
    listed).  GCS: the crc32c of the object's metadata, a FULL_OBJECT CRC32C (a composed
    object's too).  No byte of the object is read.  timeout and deadline as part_crcs
    takes them."""
    if not (isinstance(url, str) and is_url(url) and (_is_s3(url) or _is_gcs(url))):
        raise StoredChecksumError("stored checksums are read from s3:// and gs:// URLs only, "
                                  "not %r" % (url,))
    if _is_gcs(url):
        store = _gcs_module(url)
    else:
        try:
            from . import _s3 as store
        except ImportError:
            raise ImportError("verify needs fsspec and s3fs (pip install 'crcforge[s3]')") \
                from None
    return store.stored_checksum(url, storage_options, _check_timeout(timeout),
                                 _deadline(deadline))


def _fstat_size(f):
    stamp = _open_file_stamp(f)
    if stamp is None:
        raise TypeError("%s: a composite checksum is verified from a regular file"
                        % getattr(f, "name", "file"))
    return stamp.size - f.tell()


def _fit_parts(parts, size):
    """The object's part sizes laid over a file of `size` bytes: its parts as far as the
    file goes, what the file has beyond them added to the last one (the checksum of a file
    of another size then differs, as it must, but is still shown)."""
    fitted, left = [], size
    for p in parts:
        if left == 0 and fitted:
            break
        fitted.append(min(p, left))
        left -= fitted[-1]
    fitted[-1] += left
    return fitted


def verify_upload(path, url, *, chunk_size=None, executor=None, storage_options=None,
                  file_storage_options=None, stored=None, timeout=None, deadline=None):
    """Compares a file with the checksum an S3 or GCS object stores: reads the object's
    checksum, its type and its part sizes (stored_checksum, unless `stored` gives them
    already), and computes the same value from the file (a COMPOSITE one with the object's
    part sizes).
    storage_options are the object's; file_storage_options those of `path` if it is a URL
    too.  timeout and deadline (for the whole verification) as part_crcs takes them.  The
    Verification returned is false when the file did not verify."""
    limit = _deadline(deadline)
    _check_timeout(timeout)  # (before the request of the stored checksum)
    _refuse_timeout_of_open_file(path, timeout)
    if stored is None:
        stored = stored_checksum(url, storage_options=storage_options, timeout=timeout,
                                 deadline=limit)
    algo = S3_ALGORITHMS[stored.algorithm]
    common = dict(chunk_size=chunk_size, executor=executor, storage_options=file_storage_options,
                  timeout=timeout, deadline=limit)
    if stored.checksum_type != "COMPOSITE":
        crcs, sizes = part_crcs(path, algo, None, **common)
        computed, used = _b64(crcs[0], new(algo).width), ()
    else:
        reader, start = _resolve(path, file_storage_options, executor, timeout, limit)
        file_size = reader.stamp().size - start if reader is not None else _fstat_size(start)
        crcs, sizes = part_crcs(path, algo, _fit_parts(stored.part_sizes, file_size), **common)
        computed, used = composite(algo, crcs), tuple(sizes)
    file_size = sum(sizes)
    return Verification(computed == stored.value and file_size == stored.size, stored.value,
                        computed, stored.algorithm, stored.checksum_type, used, stored.size,
                        file_size)
