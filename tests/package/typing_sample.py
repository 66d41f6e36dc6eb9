# SPDX-License-Identifier: MIT
"""Typed use of crcforge, checked by mypy --strict in test_buffers.py (via the stubs)."""
import array
import crcforge

v: int = crcforge.crc32c(b"abc", 0)
h = crcforge.new("crc32c", bytearray(b"x"))
h.update(memoryview(b"y"))
d: bytes = h.digest()
s: str = h.hexdigest()
c: crcforge.CRC = h.copy()
m = crcforge.models()[0]
p: crcforge.Params = m.params
crcforge.new(p)
crcforge.new({"width": 8})
n: int = crcforge.combine("crc32", 1, 2, 3)
crcforge.keyslot("a")
crcforge.crc32(array.array("I", [1]))
impls: dict[str, bool] = crcforge.implementations()
crcforge.force_implementation(None)
whole: int = crcforge.file_checksum(b"/dev/null", "crc32", chunk_size=1 << 20)
several: list[int] = crcforge.file_checksum("/dev/null", ["crc32c", "crc64-nvme"])
shown: str = crcforge.object_checksum("s3://bucket/key", "crc32c", part_size=[5, 3],
                                      storage_options={"anon": True})
result: crcforge.Verification = crcforge.verify_upload("file", "gs://bucket/key")
header: str = crcforge.azure_crc64(bytearray(b"block"))
declared: str = crcforge.gcs_crc32c(memoryview(b"x"))
joined: str = crcforge.azure_crc64_combine([(header, 5), (crcforge.azure_crc64_value(header), 5)])
blocks: crcforge.AzureBlocks = crcforge.azure_block_crc64s("/dev/null", "4MiB")
each: tuple[str, ...] = blocks.values
crcforge.crc32c("text")  # the one error mypy must report: a str is not a buffer
