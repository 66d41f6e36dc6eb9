# SPDX-License-Identifier: MIT
"""The library against independent implementations: Python's zlib and anycrc."""
import random
import zlib

import needs

anycrc = needs.module("anycrc")


def test_crc32_equals_python_zlib(library):
    rng = random.Random(1)
    for n in list(range(0, 300)) + [rng.randrange(1 << 20) for _ in range(20)]:
        data = rng.randbytes(n)
        assert library.crc32(data) == zlib.crc32(data), n
        seed = rng.getrandbits(32)
        assert library.crc32(data, seed) == zlib.crc32(data, seed), n


def test_catalogue_is_complete(catalogue):
    assert len(catalogue) >= 100
    names = {m["name"] for m in catalogue}
    for name in ("CRC-32/ISCSI", "CRC-32/ISO-HDLC", "CRC-64/NVME", "CRC-64/XZ",
                 "CRC-16/XMODEM", "CRC-24/OPENPGP", "CRC-64/ECMA-182", "CRC-3/GSM"):
        assert name in names


def test_every_model_agrees_with_anycrc(library, catalogue):
    rng = random.Random(2)
    for m in catalogue:
        oracle = anycrc.CRC(width=m["width"], poly=m["poly"], init=m["init"], refin=m["refin"],
                            refout=m["refout"], xorout=m["xorout"])
        assert oracle.calc(b"123456789") == m["check"], m["name"]
        for n in [0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 255, 1000, 4097, rng.randrange(70000)]:
            data = rng.randbytes(n)
            assert library.checksum(m["name"], data) == oracle.calc(data), (m["name"], n)
