# SPDX-License-Identifier: MIT
"""crcforge's x-ms-content-crc64 against a real Azure Blob Storage server (Azurite, which
checks the header since 3.37.0): every block of a blob uploaded with the value crcforge
gives is taken, and the value Put Block's response echoes (the server's own CRC-64 of the
block) is crcforge's; a block, or a whole blob, declared with another value is refused
(HTTP 400, Crc64Mismatch) and never committed.  The blob's value, crcforge's blocks
joined, is what azure-storage-extensions' own concat joins from the same blocks."""
import base64
import random

import pytest

import crcforge
import needs

MIB = 1 << 20


@pytest.fixture(scope="module")
def checksums():
    return needs.module("azure.storage.extensions.checksums", "azure-storage-extensions").crc64


def block_id(i):
    return base64.b64encode(b"block-%05d" % i).decode()


def test_blocks_declared_by_crcforge_are_taken(azure_container, tmp_path, checksums):
    from azure.storage.blob import BlobBlock

    data = random.Random(64).randbytes(9 * MIB + 12345)
    path = tmp_path / "blob"
    path.write_bytes(data)
    blocks = crcforge.azure_block_crc64s(str(path), "4MiB")
    assert blocks.sizes == (4 * MIB, 4 * MIB, MIB + 12345)
    blob = azure_container.get_blob_client("blocks")
    at = 0
    for i, (value, size) in enumerate(zip(blocks.values, blocks.sizes)):
        body = data[at:at + size]
        at += size
        assert value == crcforge.azure_crc64(body)
        reply = blob.stage_block(block_id(i), body, headers={"x-ms-content-crc64": value})
        assert base64.b64encode(reply["content_crc64"]).decode() == value  # the server's own
    blob.commit_block_list([BlobBlock(block_id(i)) for i in range(len(blocks.sizes))])
    assert blob.download_blob().readall() == data
    # The whole blob's value: the blocks joined, by crcforge and by the SDK's helper.
    joined, at = 0, 0
    for value, size in zip(blocks.values, blocks.sizes):
        crc = crcforge.azure_crc64_value(value)
        joined = checksums.concat(0, 0, joined, at, 0, crc, size) if at else crc
        at += size
    assert crcforge.azure_crc64_value(blocks.whole) == joined == checksums.compute(data, 0)
    assert crcforge.azure_crc64_combine(zip(blocks.values, blocks.sizes)) == blocks.whole


def test_a_block_declared_with_another_value_is_refused(azure_container):
    from azure.core.exceptions import HttpResponseError

    data = random.Random(65).randbytes(100_000)
    other = data[:-1] + bytes([data[-1] ^ 1])
    blob = azure_container.get_blob_client("refused")
    with pytest.raises(HttpResponseError) as refused:
        blob.stage_block(block_id(0), data,
                         headers={"x-ms-content-crc64": crcforge.azure_crc64(other)})
    assert refused.value.status_code == 400 and refused.value.error_code == "Crc64Mismatch"
    with pytest.raises(HttpResponseError) as refused:
        blob.upload_blob(data, headers={"x-ms-content-crc64": crcforge.azure_crc64(other)})
    assert refused.value.status_code == 400 and refused.value.error_code == "Crc64Mismatch"
    assert not blob.exists()
    # The same request with crcforge's value of its own body: taken (Put Blob).
    blob.upload_blob(data, headers={"x-ms-content-crc64": crcforge.azure_crc64(data)})
    assert blob.download_blob().readall() == data
