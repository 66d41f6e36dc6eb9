"""The fixed-algorithm functions against independent implementations: zlib.crc32,
google_crc32c, crcmod and anycrc; chaining and combine; every implementation forced."""
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
    "crc16_xmodem": (lambda d: binascii.crc_hqx(d, 0), 16),
}


@given(data=st.binary(max_size=5000), seed=st.integers(0, (1 << 32) - 1))
def test_crc32_is_zlib(data, seed):
    assert crcforge.crc32(data) == zlib.crc32(data)
    assert crcforge.crc32(data, seed) == zlib.crc32(data, seed)
    assert crcforge.crc32(data, crc=seed) == zlib.crc32(data, seed)


@given(data=st.binary(max_size=5000), seed=st.integers(0, (1 << 32) - 1))
def test_crc32c_is_google_crc32c(data, seed):
    assert crcforge.crc32c(data) == google_crc32c.value(data)
    assert crcforge.crc32c(data, seed) == google_crc32c.extend(seed, data)


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
            for fn, (oracle, _) in FIXED.items():
                algo = fn.replace("_", "-")
                chosen = crcforge.implementation(algo)
                assert chosen in (name, "portable")
                for n in (0, 1, 15, 16, 63, 64, 65, 255, 256, 4096, 4097, 70000):
                    for off in (0, 1, 7):
                        chunk = data[off:off + n]
                        assert getattr(crcforge, fn)(chunk) == oracle(chunk), (name, fn, n)
            # Custom models made after the force use it too.
            assert crcforge.new(crcforge.models()[0].params, b"123456789").value == \
                crcforge.models()[0].check
    finally:
        crcforge.force_implementation(None)
    with pytest.raises(ValueError, match="warp-drive"):
        crcforge.force_implementation("warp-drive")
    assert impls[crcforge.implementation("crc32c")] is True
