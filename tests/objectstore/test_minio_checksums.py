# SPDX-License-Identifier: MIT
"""crcforge's object-store checksums against what a real MinIO server stores.

Every object is uploaded with boto3, as a single PUT or as a multipart upload asking for a
FULL_OBJECT or a COMPOSITE checksum; its sizes sit around the part boundaries (0, 1,
part-1, part, part+1, many parts) for two part sizes, and one upload has parts of different
sizes.  For each object, what HeadObject reports with checksum mode enabled must equal:
awscrt's CRCs of the bytes (per part, then joined by the composite rule), the per-part
values GetObjectAttributes lists, crcforge.object_checksum of the object through s3fs and
of the local file, the C tool's `crcforge sum --format base64 [--part-size]`, and
verify_upload must call it OK.
"""
import base64
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor

import awscrt.checksums
import pytest

import crcforge
from crcforge.objects import part_sizes

from minio_server import BUCKET

MIB = 1 << 20
MIN_PART = 5 * MIB  # S3's (and MinIO's) smallest part but the last
ODD_PART = MIN_PART + 12345

AWSCRT = {"CRC32": (awscrt.checksums.crc32, 4), "CRC32C": (awscrt.checksums.crc32c, 4),
          "CRC64NVME": (awscrt.checksums.crc64nvme, 8)}
ALGO = {"CRC32": "crc32", "CRC32C": "crc32c", "CRC64NVME": "crc64-nvme"}


def layouts():
    """(id, object size, part sizes or None for a single PUT, the part size if uniform)."""
    for size in (0, 1, 4097, MIN_PART + 1):
        yield "put-%d" % size, size, None, None
    for part in (MIN_PART, ODD_PART):
        for size in (0, 1, part - 1, part, part + 1, 3 * part + 7):
            yield "mpu-%d-%d" % (part, size), size, part_sizes(size, part), part
    uneven = [MIN_PART + 3, 7 * MIB, MIN_PART, 17]
    yield "mpu-uneven", sum(uneven), uneven, None


# The checksum types S3 and MinIO compute per algorithm (a COMPOSITE CRC64NVME request
# is stored as FULL_OBJECT, which the test checks too).
KINDS = [("CRC32", "FULL_OBJECT"), ("CRC32", "COMPOSITE"), ("CRC32C", "FULL_OBJECT"),
         ("CRC32C", "COMPOSITE"), ("CRC64NVME", "FULL_OBJECT"), ("CRC64NVME", "COMPOSITE")]

CASES = [pytest.param(layout, algorithm, ctype, id="%s-%s-%s" % (layout[0], algorithm, ctype))
         for layout in layouts() for algorithm, ctype in KINDS
         if layout[2] is not None or ctype == "FULL_OBJECT"]


def b64(value, nbytes):
    return base64.b64encode(value.to_bytes(nbytes, "big")).decode()


def awscrt_checksum(data, algorithm, parts):
    """What S3 should store, from awscrt alone: per-part CRCs, and the object's value."""
    crc, nbytes = AWSCRT[algorithm]
    if parts is None:
        return [], b64(crc(data), nbytes)
    per_part, offset = [], 0
    for size in parts:
        per_part.append(crc(data[offset:offset + size]))
        offset += size
    return per_part, b64(crc(data), nbytes)


def awscrt_composite(per_part, algorithm):
    crc, nbytes = AWSCRT[algorithm]
    joined = b"".join(v.to_bytes(nbytes, "big") for v in per_part)
    return "%s-%d" % (b64(crc(joined), nbytes), len(per_part))


@pytest.fixture(scope="module")
def data_files(tmp_path_factory):
    """One local file of seeded random bytes per object size."""
    folder = tmp_path_factory.mktemp("objects")
    made = {}

    def _file(size):
        if size not in made:
            path = folder / ("%d.bin" % size)
            path.write_bytes(random.Random(size).randbytes(size))
            made[size] = path
        return made[size]

    return _file


@pytest.mark.parametrize("layout,algorithm,ctype", CASES)
def test_checksum_matches_minio(layout, algorithm, ctype, upload, head, s3, storage_options,
                                data_files, crcforge_bin):
    name, size, parts, part = layout
    path = data_files(size)
    data = path.read_bytes()
    url = upload("%s-%s-%s" % (name, algorithm, ctype), data, algorithm,
                 None if parts is None else ctype, parts)
    stored, stored_type = head(url, algorithm)

    # MinIO against awscrt: the expected type and value.
    expect_type = "FULL_OBJECT" if parts is None or algorithm == "CRC64NVME" else ctype
    per_part, full = awscrt_checksum(data, algorithm, parts)
    if size == 0 and parts is not None and expect_type == "FULL_OBJECT":
        # MinIO stores no checksum for an empty FULL_OBJECT multipart upload: crcforge
        # still gives awscrt's value, and verify_upload says there is nothing to verify.
        assert (stored, stored_type) == (None, None)
        assert crcforge.object_checksum(url, ALGO[algorithm],
                                        storage_options=storage_options) == full
        with pytest.raises(ValueError, match="no CRC checksum stored"):
            crcforge.verify_upload(str(path), url, storage_options=storage_options)
        return
    assert stored_type == expect_type
    assert stored == (full if expect_type == "FULL_OBJECT"
                      else awscrt_composite(per_part, algorithm))
    if parts is not None:  # the per-part values MinIO lists, against awscrt's
        attrs = s3.get_object_attributes(Bucket=BUCKET, Key=url.split("/", 3)[3],
                                         ObjectAttributes=["ObjectParts"])["ObjectParts"]
        listed = [(p["Size"], p["Checksum" + algorithm]) for p in attrs["Parts"]]
        assert listed == [(s, b64(v, AWSCRT[algorithm][1])) for s, v in zip(parts, per_part)]

    # crcforge from the object (ranges in a thread pool, ranges that do not divide the
    # parts) and from the local file.
    algo = ALGO[algorithm]
    want_parts = None if expect_type == "FULL_OBJECT" else (part or parts)
    with ThreadPoolExecutor(3) as pool:
        from_object = crcforge.object_checksum(url, algo, part_size=want_parts,
                                               chunk_size=MIB + 1, executor=pool,
                                               storage_options=storage_options)
    assert from_object == stored
    assert crcforge.object_checksum(str(path), algo, part_size=want_parts) == stored
    assert crcforge.file_checksum(url, algo, storage_options=storage_options) == \
        AWSCRT[algorithm][0](data)

    # The C tool, where a single part size describes the upload.
    if expect_type == "FULL_OBJECT" or part is not None:
        args = [crcforge_bin, "sum", "-a", algo, "--format", "base64"]
        if expect_type == "COMPOSITE":
            args += ["--part-size", str(part)]
        out = subprocess.run(args + [str(path)], capture_output=True, check=True).stdout
        assert out.decode() == "%s  %s\n" % (stored, path)

    # verify_upload finds the type and the part sizes by itself.
    result = crcforge.verify_upload(str(path), url, storage_options=storage_options)
    assert (result.ok, result.stored, result.computed, result.checksum_type) == \
        (True, stored, stored, expect_type)
    if expect_type == "COMPOSITE":
        assert list(result.part_sizes) == parts
