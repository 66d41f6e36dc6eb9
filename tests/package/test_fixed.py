# SPDX-License-Identifier: MIT
"""The fixed-algorithm functions against independent implementations: zlib.crc32,
google_crc32c, crcmod, binascii and anycrc; chaining and combine; every implementation
forced, for the fixed algorithms and for custom models."""
import binascii
import zlib

import anycrc
import crcmod.predefined
import google_crc32c
import pytest
from hypothesis import given
from hypothesis import strategies as st

import crcforge

NVME = anycrc.CRC(width=64, poly=0xAD93D23594C93659, init=(1 << 64) - 1, refin=True,
                  refout=True, xorout=(1 << 64) - 1).calc
XZ = anycrc.CRC(width=64, poly=0x42F0E1EBA9EA3693, init=(1 << 64) - 1, refin=True,
                refout=True, xorout=(1 << 64) - 1).calc
XMODEM = crcmod.predefined.mkPredefinedCrcFun("xmodem")

FIXED = {  # crcforge function -> (independent oracle of (data) -> value, width)
    "crc32c": (google_crc32c.value, 32),
    "crc32": (zlib.crc32, 32),
    "crc64_nvme": (NVME, 64),
    "crc64_xz": (XZ, 64),
    "crc16_xmodem": (XMODEM, 16),
}
# Custom models (not the fixed functions' own code): 32 bits, reflected and not.
CUSTOM = [crcforge.Params(32, 0x741B8CD7, 0xFFFFFFFF, True, True, 0),
          crcforge.Params(32, 0x814141AB, 0x1234567, False, False, 0xFFFFFFFF)]


@given(data=st.binary(max_size=5000), seed=st.integers(0, (1 << 32) - 1))
def test_crc32_is_zlib(data, seed):
    assert crcforge.crc32(data) == zlib.crc32(data)
    assert crcforge.crc32(data, seed) == zlib.crc32(data, seed)
    assert crcforge.crc32(data, crc=seed) == zlib.crc32(data, seed)


@given(data=st.binary(max_size=5000), seed=st.integers(0, (1 << 32) - 1))
def test_crc32c_is_google_crc32c(data, seed):
    assert crcforge.crc32c(data) == google_crc32c.value(data)
    assert crcforge.crc32c(data, seed) == google_crc32c.extend(seed, data)


@given(data=st.binary(max_size=5000), seed=st.integers(0, (1 << 16) - 1))
def test_crc16_xmodem_is_binascii_crc_hqx(data, seed):
    assert crcforge.crc16_xmodem(data) == binascii.crc_hqx(data, 0)
    assert crcforge.crc16_xmodem(data, seed) == binascii.crc_hqx(data, seed)


@pytest.mark.parametrize("name", FIXED)
@given(a=st.binary(max_size=3000), b=st.binary(max_size=3000))
def test_fixed_functions_chain_and_combine(name, a, b):
    fn = getattr(crcforge, name)
    oracle, width = FIXED[name]
    whole = oracle(a + b)
    assert fn(a + b) == whole
    assert fn(b, fn(a)) == whole
    assert crcforge.combine(name.replace("_", "-"), oracle(a), oracle(b), len(b)) == whole
    assert crcforge.new(name.replace("_", "-"), a + b).value == whole
    assert 0 <= fn(a) < 1 << width


LENGTHS = (0, 1, 15, 16, 63, 64, 65, 255, 256, 4096, 4097, 70000)


def test_every_runnable_implementation_forced():
    rng = __import__("random").Random(7)
    data = rng.randbytes(70000)
    impls = crcforge.implementations()
    assert impls["portable"] is True
    try:
        for name, runnable in impls.items():
            if not runnable:
                with pytest.raises(ValueError, match=name):
                    crcforge.force_implementation(name)
                continue
            crcforge.force_implementation(name)
            chosen_by = []
            for fn, (oracle, _) in FIXED.items():
                algo = fn.replace("_", "-")
                chosen = crcforge.implementation(algo)
                assert chosen in (name, "portable")
                if chosen == name:
                    chosen_by.append(algo)
                for n in LENGTHS:
                    for off in (0, 1, 7):
                        chunk = data[off:off + n]
                        assert getattr(crcforge, fn)(chunk) == oracle(chunk), (name, fn, n)
            assert chosen_by, f"{name} forced, but no algorithm runs on it"
            # Custom models made after the force run on it too, when it is a folding
            # engine (the one kernel for every model; the GFNI ones fold MSB-first models
            # only); others are for their own algorithm.
            for params in CUSTOM:
                oracle = anycrc.CRC(**params._asdict()).calc
                folds = name.startswith("fold_") and not ("gfni" in name and params.refin)
                want = name if folds else "portable"
                assert crcforge.implementation(params) == want, (name, params)
                for n in LENGTHS:
                    chunk = data[3:3 + n]
                    assert crcforge.new(params, chunk).value == oracle(chunk), (name, n)
    finally:
        crcforge.force_implementation(None)
    with pytest.raises(ValueError, match="warp-drive"):
        crcforge.force_implementation("warp-drive")
    # Every path of the choice (one, or length bands "A<128,B<3072,C") is runnable.
    for band in crcforge.implementation("crc32c").split(","):
        assert impls[band.split("<")[0]] is True, band
