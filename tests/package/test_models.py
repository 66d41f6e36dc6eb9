# SPDX-License-Identifier: MIT
"""Every catalogue model against independent packages: anycrc (all widths) and crcmod
(widths 8, 16, 24, 32, 64 with refin == refout); streaming, copy and combine; the hashlib
interface of the CRC objects."""
import hashlib
import types

import anycrc
import crcmod
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crcforge

MODELS = crcforge.models()
NAMES = [m.name for m in MODELS]


def reflect(value, width):
    return int(f"{value:0{width}b}"[::-1], 2)


def anycrc_of(m):
    return anycrc.CRC(width=m.width, poly=m.poly, init=m.init, refin=m.refin,
                      refout=m.refout, xorout=m.xorout).calc


def crcmod_of(m):
    """crcmod's function for m, or None where crcmod has no such model."""
    if m.width not in (8, 16, 24, 32, 64) or m.refin != m.refout:
        return None
    # crcmod starts from its initCrc xored with xorOut, in the register's own bit order.
    register = reflect(m.init, m.width) if m.refin else m.init
    return crcmod.mkCrcFun((1 << m.width) | m.poly, initCrc=register ^ m.xorout, rev=m.refin,
                           xorOut=m.xorout)


def test_catalogue_is_complete():
    assert len(MODELS) >= 100
    for name in ("CRC-32/ISCSI", "CRC-32/ISO-HDLC", "CRC-64/NVME", "CRC-64/XZ",
                 "CRC-16/XMODEM", "CRC-24/OPENPGP", "CRC-3/GSM", "CRC-64/ECMA-182"):
        assert name in NAMES
    assert "crc32c" in crcforge.models()[NAMES.index("CRC-32/ISCSI")].aliases


@pytest.mark.parametrize("m", MODELS, ids=NAMES)
def test_check_and_names(m):
    assert anycrc_of(m)(b"123456789") == m.check  # the oracle agrees with the catalogue
    h = crcforge.new(m.name, b"123456789")
    digest_size = (m.width + 7) // 8
    assert (h.value, h.name, h.width, h.digest_size) == (m.check, m.name, m.width, digest_size)
    for alias in m.aliases:
        assert crcforge.new(alias.upper(), b"123456789").value == m.check
    assert crcforge.new(m.params, b"123456789").value == m.check  # as a custom model


@pytest.mark.parametrize("m", MODELS, ids=NAMES)
@settings(max_examples=25)
@given(data=st.binary(max_size=2000))
def test_every_model_against_anycrc_and_crcmod(m, data):
    value = crcforge.new(m.name, data).value
    assert value == anycrc_of(m)(data)
    other = crcmod_of(m)
    if other is not None:
        assert value == other(data)


@pytest.mark.parametrize("m", MODELS, ids=NAMES)
@settings(max_examples=15)
@given(data=st.binary(max_size=3000), cuts=st.lists(st.integers(0, 3000), max_size=4))
def test_streaming_copy_combine(m, data, cuts):
    whole = anycrc_of(m)(data)
    bounds = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    h = crcforge.new(m.name)
    joined = None
    for lo, hi in zip(bounds, bounds[1:]):
        part = data[lo:hi]
        snapshot = h.copy()
        h.update(part)
        snapshot.update(part)  # a copy continues on its own, to the same value
        assert snapshot.value == h.value
        crc = crcforge.new(m.name, part).value
        joined = crc if joined is None else crcforge.combine(m.name, joined, crc, len(part))
    assert h.value == whole
    if joined is not None:
        assert joined == whole
    assert h.digest() == whole.to_bytes(h.digest_size, "big")
    assert h.hexdigest() == h.digest().hex()


def test_hash_objects_have_what_hashlibs_have():
    """Every attribute and method of a hashlib object, block_size among them: 1, as a CRC
    has no input block (any split of the input gives the same value, as the streaming
    test shows)."""
    reference = {name for name in dir(hashlib.sha256()) if not name.startswith("_")}
    assert {"block_size", "digest_size", "name", "update", "copy"} <= reference
    for m in (MODELS[0], MODELS[NAMES.index("CRC-32/ISCSI")], MODELS[-1]):
        h = crcforge.new(m.name)
        assert reference <= {name for name in dir(h) if not name.startswith("_")}, m.name
        assert h.block_size == 1 and isinstance(h.block_size, int)
        assert h.copy().block_size == 1
    assert crcforge.new(crcforge.Params(16, 0x1021, 0, False, False, 0)).block_size == 1


def test_custom_model_from_a_dict_and_errors():
    ibm3740 = dict(width=16, poly=0x1021, init=0xFFFF, refin=False, refout=False, xorout=0)
    assert crcforge.new(ibm3740, b"123456789").value == 0x29B1
    assert crcforge.new(crcforge.Params(**ibm3740)).name == "custom"
    assert crcforge.combine(ibm3740, crcforge.new(ibm3740, b"1234").value,
                            crcforge.new(ibm3740, b"56789").value, 5) == 0x29B1
    with pytest.raises(ValueError, match="poly has bits above the width"):
        crcforge.new({**ibm3740, "poly": 0x11021})
    with pytest.raises(ValueError, match="parameter init is missing"):
        crcforge.new({k: v for k, v in ibm3740.items() if k != "init"})
    with pytest.raises(ValueError, match="width"):
        crcforge.new({**ibm3740, "width": 65})
    with pytest.raises(ValueError, match="width"):
        crcforge.new({**ibm3740, "width": 0})
    with pytest.raises(TypeError, match="refin must be a bool"):
        crcforge.new({**ibm3740, "refin": "yes"})


def test_custom_model_argument_errors_say_what_is_wrong():
    for algo in (None, 3.5, [16, 0x1021], (), object()):
        for call in (lambda: crcforge.new(algo), lambda: crcforge.combine(algo, 0, 0, 0),
                     lambda: crcforge.implementation(algo)):
            with pytest.raises(TypeError, match="^algo must be a model name .str., or an "
                               "object or mapping with width, poly, init, refin, refout and "
                               "xorout, not '"):
                call()
    ibm3740 = dict(width=16, poly=0x1021, init=0xFFFF, refin=False, refout=False, xorout=0)
    # Any mapping, not only a dict; an object with some of the six is a model missing some.
    assert crcforge.new(types.MappingProxyType(ibm3740), b"123456789").value == 0x29B1
    with pytest.raises(ValueError, match="^custom model: parameter poly is missing$"):
        crcforge.new(types.SimpleNamespace(width=16))
    for change, error, message in [
            ({"xorout": -1}, ValueError, "xorout -1 is not in 0..2**16-1"),
            ({"init": 1 << 64}, ValueError, f"init {1 << 64} is not in 0..2**16-1"),
            ({"poly": -5, "width": 3}, ValueError, "poly -5 is not in 0..2**3-1"),
            ({"width": 65}, ValueError, "width 65 is not in 1..64"),
            ({"width": 0}, ValueError, "width 0 is not in 1..64"),
            ({"width": -1}, ValueError, "width -1 is not in 1..64"),
            ({"poly": "0x1021"}, TypeError, "poly must be an int, not 'str'"),
            ({"refin": 2}, ValueError, "refin must be a bool (or 0 or 1), not 2"),
            ({"refout": -1}, ValueError, "refout must be a bool (or 0 or 1), not -1"),
            ({"refout": 1.0}, TypeError, "refout must be a bool (or 0 or 1), not 'float'")]:
        with pytest.raises(error) as e:
            crcforge.new({**ibm3740, **change})
        assert str(e.value) == f"custom model: {message}", change
    assert crcforge.new({**ibm3740, "refin": 1, "refout": 1}, b"123456789").value == \
        crcforge.new({**ibm3740, "refin": True, "refout": True}, b"123456789").value
