# SPDX-License-Identifier: MIT
"""crcforge: every CRC of the RevEng catalogue, on the fastest path this CPU can run.

Fixed algorithms, with zlib-style chaining (pass the value returned for the bytes so far
to continue the same stream)::

    >>> import crcforge
    >>> hex(crcforge.crc32c(b"123456789"))
    '0xe3069283'
    >>> crcforge.crc32c(b"56789", crcforge.crc32c(b"1234")) == 0xe3069283
    True

crc32c, crc32 (the zlib CRC), crc64_nvme, crc64_xz and crc16_xmodem each take
``(data, crc=0)``.  ``data`` is any C-contiguous buffer (bytes, bytearray, memoryview,
array.array, numpy arrays: their raw bytes); a str or a non-contiguous buffer is a
TypeError.  Inputs from GIL_THRESHOLD bytes on are hashed with the GIL released, so
threads hash in parallel.

Any catalogue model (by name or alias, case-insensitive) or custom model, hashlib-style::

    >>> h = crcforge.new("CRC-24/OPENPGP", b"1234")
    >>> h.update(b"56789")
    >>> h.hexdigest(), h.value == 0x21cf02, h.digest_size
    ('21cf02', True, 3)
    >>> crcforge.new(crcforge.Params(16, 0x1021, 0xffff, False, False, 0), b"123456789").value
    10673

Also: combine(algo, crc1, crc2, len2) joins two CRCs; models() lists the catalogue;
keyslot(key) gives the Redis/Valkey cluster slot (keyslots(keys) for many); implementations(),
implementation(algo) and force_implementation(name) show and force the code path.
``python -m crcforge sum FILE...`` (or ``crcforge``, the command pip installs) is the
command-line tool's ``sum``.

Files and stored objects (paths, open files, fsspec URLs such as s3://), hashed by ranges
on any concurrent.futures executor: file_checksum(source, algo) gives the CRC value (with
a list of algorithms, the list of their values from one read),
object_checksum(source, algo, part_size=...) the string S3 or GCS shows (FULL_OBJECT, or
COMPOSITE BASE64-N), verify_upload(path, url) compares a file with what an S3 or GCS
object stores (a Verification, false when the file did not verify).  Requests to S3 and
GCS time out (timeout=, 20 s by default) and a whole call can be given a deadline= in
seconds: what timed out is a SourceTimeout.  They need the optional extras only for URLs
(pip install 'crcforge[s3]', 'crcforge[gcs]').

The checksums to declare on an upload (crcforge.uploads): gcs_crc32c(data), GCS's
crc32c; azure_crc64(data), Azure Blob Storage's x-ms-content-crc64 (CRC-64/NVME as the
base64 of its little-endian bytes), azure_crc64_combine(blocks) joins the values of
blocks, azure_block_crc64s(source, block_size) gives every block's and the whole's.
"""
from typing import List, NamedTuple, Tuple

from ._crcforge import (
    CRC,
    GIL_THRESHOLD,
    __version__,
    _catalogue,
    _environment_problems,
    combine,
    cpu_features,
    crc16_xmodem,
    crc32,
    crc32c,
    crc64_nvme,
    crc64_xz,
    force_implementation,
    implementation,
    implementations,
    keyslot,
    keyslots,
    new,
)
from .objects import (
    SourceChanged,
    SourceTimeout,
    SourceTruncated,
    StoredChecksum,
    StoredChecksumError,
    Verification,
    file_checksum,
    object_checksum,
    stored_checksum,
    verify_upload,
)
from .uploads import (
    AzureBlocks,
    azure_block_crc64s,
    azure_crc64,
    azure_crc64_combine,
    azure_crc64_value,
    gcs_crc32c,
)

__all__ = [
    "CRC", "EnvironmentProblem", "Model", "Params", "combine", "cpu_features", "crc16_xmodem",
    "crc32", "crc32c", "crc64_nvme", "crc64_xz", "environment_problems", "force_implementation",
    "implementation", "implementations",
    "keyslot", "keyslots", "models", "new", "GIL_THRESHOLD", "SourceChanged", "SourceTimeout",
    "SourceTruncated", "StoredChecksum", "StoredChecksumError", "Verification", "file_checksum",
    "object_checksum", "stored_checksum", "verify_upload", "AzureBlocks", "azure_block_crc64s",
    "azure_crc64", "azure_crc64_combine", "azure_crc64_value", "gcs_crc32c",
]


class Params(NamedTuple):
    """The six parameters of a CRC model, in RevEng's notation (poly without its top
    term, MSB-first).  Pass one to new() or combine() for a custom model."""

    width: int
    poly: int
    init: int
    refin: bool
    refout: bool
    xorout: int


# The fields of Model: name, aliases, the six of Params, check, residue.
_ModelFields = NamedTuple("_ModelFields", [("name", str), ("aliases", Tuple[str, ...]),
                                           *Params.__annotations__.items(),
                                           ("check", int), ("residue", int)])


class Model(_ModelFields):
    """A catalogue model: its name, aliases, the six parameters of Params, and the
    catalogue's check (the CRC of b"123456789") and residue."""

    __slots__ = ()

    @property
    def params(self) -> Params:
        return Params(*self[2:8])


_MODELS = tuple(Model(*entry) for entry in _catalogue())


def models() -> Tuple[Model, ...]:
    """Every model of the catalogue, in catalogue order."""
    return _MODELS


class EnvironmentProblem(NamedTuple):
    """A value of an environment variable crcforge reads (CRCFORGE_IMPL, CRCFORGE_CPU_MASK,
    CRCFORGE_TUNE) that it could not use, in whole or in part."""

    variable: str  # "CRCFORGE_TUNE"
    value: str  # its value, as the library read it
    problem: str  # what was wrong with it
    instead: str  # what the library did instead


def environment_problems() -> List[EnvironmentProblem]:
    """What crcforge could not use in its environment variables, in the order found (it
    never prints them): reads every variable not read yet first."""
    return [EnvironmentProblem(*entry) for entry in _environment_problems()]
