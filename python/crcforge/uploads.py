# SPDX-License-Identifier: MIT
"""The checksums to declare on an upload, so that the object store checks what it received
against them and refuses a body that differs (HTTP 400):

- Google Cloud Storage: `crc32c`, the base64 of the CRC-32C's big-endian bytes, in the
  JSON API's object resource or as `x-goog-hash: crc32c=...`.  GCS stores that value, and
  for a composed object the CRC-32C of the whole concatenation.
- Azure Blob Storage: `x-ms-content-crc64` on every Put Block, Put Blob, Append Block and
  Put Page: CRC-64/NVME (the polynomial, init and final xor of S3's CRC64NVME), sent as
  the base64 of its *little-endian* bytes.  Azure stores no CRC-64 of a whole blob: its
  SDKs join the values of the blocks on the client, as azure_crc64_combine does.

For a file or URL, crcforge.object_checksum(source, "crc32c") is GCS's value, and
azure_block_crc64s the value of every block of an upload in blocks of a given size, each
range hashed where an executor runs it (crcforge.objects.part_crcs).
"""
import base64
import binascii
from typing import NamedTuple, Tuple

from ._crcforge import combine, crc32c, crc64_nvme
from .objects import part_crcs

__all__ = ["AzureBlocks", "azure_block_crc64s", "azure_crc64", "azure_crc64_combine",
           "azure_crc64_value", "gcs_crc32c"]

AZURE_ALGO = "crc64-nvme"
AZURE_MAX_BLOCKS = 50_000  # committed blocks of one blob at most (Azure's limit)


def gcs_crc32c(data):
    """The crc32c to declare on a GCS upload of `data` (any C-contiguous buffer)."""
    return base64.b64encode(crc32c(data).to_bytes(4, "big")).decode()


def _azure_text(value):
    return base64.b64encode(value.to_bytes(8, "little")).decode()


def azure_crc64(data):
    """The x-ms-content-crc64 of a request whose body is `data` (any C-contiguous buffer):
    base64 of the CRC-64/NVME's little-endian bytes ("iJh5CoYUi64=" for b"123456789")."""
    return _azure_text(crc64_nvme(data))


def azure_crc64_value(text):
    """The CRC-64/NVME an x-ms-content-crc64 value holds (the inverse of azure_crc64's
    encoding); a ValueError naming the text unless it is the base64 of 8 bytes."""
    try:
        raw = base64.b64decode(text, validate=True) if isinstance(text, (str, bytes)) else None
    except binascii.Error:
        raw = None
    if raw is None or len(raw) != 8:
        raise ValueError("%r is not an x-ms-content-crc64 value (the base64 of 8 bytes)"
                         % (text,))
    return int.from_bytes(raw, "little")


def azure_crc64_combine(blocks):
    """The x-ms-content-crc64 of the concatenation of blocks, each given as (value, size):
    its x-ms-content-crc64 text (as declared, or as Put Block's response echoes it) or the
    CRC-64/NVME as an int, and its length in bytes.  No block: the value of no bytes."""
    whole = crc64_nvme(b"")
    for value, size in blocks:
        crc = azure_crc64_value(value) if isinstance(value, (str, bytes)) else value
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise ValueError("block size must be a whole number of bytes >= 0, not %r"
                             % (size,))
        whole = combine(AZURE_ALGO, whole, crc, size)
    return _azure_text(whole)


class AzureBlocks(NamedTuple):
    """azure_block_crc64s: the x-ms-content-crc64 of every block, their sizes, and the
    value of the whole blob (the blocks' values joined, as the Azure SDKs join them)."""

    values: Tuple[str, ...]
    sizes: Tuple[int, ...]
    whole: str


def azure_block_crc64s(source, block_size, *, chunk_size=None, executor=None,
                       storage_options=None, timeout=None, deadline=None):
    """The x-ms-content-crc64 of every block of an upload of source (a path, an open
    binary file or a URL, as crcforge.file_checksum takes it) in blocks of block_size
    bytes (an int or a size string, or the size of every block), the last one shorter;
    executor, chunk_size, timeout and deadline as crcforge.objects.part_crcs takes them.
    An empty source is one empty block; more than AZURE_MAX_BLOCKS blocks is a
    ValueError naming the limit."""
    crcs, sizes = part_crcs(source, AZURE_ALGO, block_size, chunk_size=chunk_size,
                            executor=executor, storage_options=storage_options,
                            timeout=timeout, deadline=deadline, max_parts=AZURE_MAX_BLOCKS)
    return AzureBlocks(tuple(map(_azure_text, crcs)), tuple(sizes),
                       azure_crc64_combine(zip(crcs, sizes)))
