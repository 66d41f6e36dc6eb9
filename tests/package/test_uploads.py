# SPDX-License-Identifier: MIT
"""crcforge.uploads, the checksums to declare on an upload, against the stores' own
client libraries: GCS's crc32c against google-crc32c, Azure's x-ms-content-crc64 against
azure-storage-extensions (the Azure SDK's native CRC-64: compute, and concat to join
blocks) on random inputs of 0 B to 64 MiB, the blocks of a file of random sizes too.
(tests/objectstore sends them to real servers.)"""
import base64
import os
import random

import google_crc32c
import pytest

import crcforge
import needs
from crcforge.uploads import AZURE_MAX_BLOCKS

MIB = 1 << 20
SIZES = [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
         1000, 4095, 4096, 4097, 65535, 65536, 65537, MIB - 1, MIB, MIB + 1, 64 * MIB]


@pytest.fixture(scope="module")
def azure():
    return needs.module("azure.storage.extensions.checksums", "azure-storage-extensions").crc64


def azure_text(value):
    return base64.b64encode(value.to_bytes(8, "little")).decode()


@pytest.fixture(scope="module")
def inputs():
    rng = random.Random(64)
    sizes = SIZES + [rng.randrange(0, 64 * MIB) for _ in range(3)]
    pool = os.urandom(64 * MIB + 4096)  # every input a slice of it, at a random offset
    return [memoryview(pool)[at:at + n] for n in sizes for at in [rng.randrange(0, 4096)]]


def test_vectors():
    """Azure's own vector: 123456789 gives iJh5CoYUi64= (S3's big-endian base64 of the
    same CRC-64/NVME is rosUhgp5mIg=); GCS's crc32c of it is 4waSgw==."""
    assert crcforge.azure_crc64(b"123456789") == "iJh5CoYUi64="
    assert crcforge.azure_crc64_value("iJh5CoYUi64=") == 0xAE8B14860A799888
    assert crcforge.gcs_crc32c(b"123456789") == "4waSgw=="


def test_against_the_sdks_helpers(azure, inputs):
    for data in inputs:
        raw = bytes(data)  # azure-storage-extensions takes bytes only
        assert crcforge.azure_crc64(data) == azure_text(azure.compute(raw, 0)), len(raw)
        assert crcforge.gcs_crc32c(data) == base64.b64encode(
            google_crc32c.value(raw).to_bytes(4, "big")).decode(), len(raw)


def test_combine_against_the_sdks_concat(azure, inputs):
    """Two inputs joined, cut anywhere: crcforge's combine of the halves' values is the
    SDK's concat of them, and the value of the whole."""
    rng = random.Random(65)
    for data in inputs[:-4]:
        raw = bytes(data)
        cut = rng.randrange(0, len(raw) + 1)
        a, b = raw[:cut], raw[cut:]
        ca, cb = azure.compute(a, 0), azure.compute(b, 0)
        joined = crcforge.azure_crc64_combine([(crcforge.azure_crc64(a), len(a)),
                                               (cb, len(b))])
        assert joined == azure_text(azure.concat(0, 0, ca, len(a), 0, cb, len(b)))
        assert joined == azure_text(azure.compute(raw, 0))
    assert crcforge.azure_crc64_combine([]) == crcforge.azure_crc64(b"")


def test_blocks_of_a_file(azure, tmp_path):
    rng = random.Random(66)
    data = os.urandom(5 * MIB + 777)
    path = tmp_path / "blob"
    path.write_bytes(data)
    for block_size in (MIB, 3 * MIB + 1, "2MiB", [rng.randrange(0, 2 * MIB) for _ in range(3)]):
        if isinstance(block_size, list):
            block_size.append(len(data) - sum(block_size))
        blocks = crcforge.azure_block_crc64s(str(path), block_size)
        at, want = 0, []
        for size in blocks.sizes:
            want.append(azure_text(azure.compute(data[at:at + size], 0)))
            at += size
        assert at == len(data) and list(blocks.values) == want
        assert blocks.whole == azure_text(azure.compute(data, 0))
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert crcforge.azure_block_crc64s(str(empty), MIB) == (
        (crcforge.azure_crc64(b""),), (0,), crcforge.azure_crc64(b""))


def test_azures_block_limit(tmp_path):
    """A blob has at most 50,000 blocks (Azure's limit), not S3's 10,000 parts."""
    path = tmp_path / "f"
    path.write_bytes(b"x" * (AZURE_MAX_BLOCKS + 1))
    assert len(crcforge.azure_block_crc64s(str(path), 2).sizes) == AZURE_MAX_BLOCKS // 2 + 1
    with pytest.raises(ValueError, match="at most 50000 parts"):
        crcforge.azure_block_crc64s(str(path), 1)


@pytest.mark.parametrize("text", ["iJh5CoYUi64", "iJh5CoYUi6==", "iJh5CoYU", "iJh5CoYUi64=AAAA",
                                  "iJh5CoYUi6!=", "", b"iJh5Co==", 12, None])
def test_values_that_are_not_x_ms_content_crc64(text):
    with pytest.raises(ValueError, match="is not an x-ms-content-crc64 value"):
        crcforge.azure_crc64_value(text)
    if isinstance(text, (str, bytes)):  # (an int is a CRC, as combine takes it)
        with pytest.raises(ValueError, match="is not an x-ms-content-crc64 value"):
            crcforge.azure_crc64_combine([("iJh5CoYUi64=", 9), (text, 1)])


@pytest.mark.parametrize("size", [-1, 1.5, True, "4"])
def test_block_sizes_that_are_not_sizes(size):
    with pytest.raises(ValueError, match="block size must be a whole number of bytes"):
        crcforge.azure_crc64_combine([("iJh5CoYUi64=", size)])
