# SPDX-License-Identifier: MIT
"""Checks an installed crcforge (a wheel, under an emulated CPU) on the paths this CPU or
CRCFORGE_IMPL gives it, against references computed here from each model's parameters
alone (bit by bit, and through a table built bit by bit), and zlib for CRC-32:
  - every catalogue model's CRC of b"123456789" against the bitwise reference and the
    catalogue's check value, and of a short random buffer against the bitwise reference;
  - crc32c, crc32, crc64_nvme, crc64_xz and crc16_xmodem over lengths 0-300 at every
    offset 0-63, and on to 4096 in steps of 61 at offsets 0, 1, 31 and 63, against the
    table reference (crc32 against zlib too), whole and chained in two calls.
--expect ALGO=NAME[|NAME...] requires every band of crcforge.implementation(ALGO) to be
one of the NAMEs; with CRCFORGE_IMPL=NAME set, every fixed algorithm must run on NAME or
portable, and at least one on NAME.  --outside DIR requires crcforge to be imported from
outside DIR (the installed wheel, not the source tree).  Prints the paths it found; exit
status 1 on any mismatch, each one named."""
import argparse
import os
import random
import sys
import zlib

import crcforge

FIXED = {  # the package's fixed functions and their catalogue models
    "crc32c": "CRC-32/ISCSI",
    "crc32": "CRC-32/ISO-HDLC",
    "crc64_nvme": "CRC-64/NVME",
    "crc64_xz": "CRC-64/XZ",
    "crc16_xmodem": "CRC-16/XMODEM",
}
# (lengths, offsets): every offset for the short lengths, where the paths' heads and tails
# differ; a few for the long ones (the C tests sweep every length at every offset).
SWEEPS = ((list(range(301)), range(64)),
          (list(range(301, 4097, 61)) + [4096], (0, 1, 31, 63)))


def reflect(value, width):
    return int(format(value, f"0{width}b")[::-1], 2)


def bitwise(p, data):
    """The CRC of data under the parameters p, one bit at a time, MSB-first register."""
    top, mask = 1 << (p.width - 1), (1 << p.width) - 1
    reg = p.init
    for byte in data:
        if p.refin:
            byte = reflect(byte, 8)
        for bit in range(7, -1, -1):
            feedback = bool(reg & top) ^ bool((byte >> bit) & 1)
            reg = (reg << 1) & mask
            if feedback:
                reg ^= p.poly
    if p.refout:
        reg = reflect(reg, p.width)
    return reg ^ p.xorout


class Table:
    """A byte-at-a-time reference whose table comes from bitwise() on single bytes (for
    models with refin == refout and width >= 8, as the fixed ones are)."""

    def __init__(self, p):
        assert p.refin == p.refout and p.width >= 8
        self.p = p
        self.mask = (1 << p.width) - 1
        zero = p._replace(init=0, xorout=0)
        # A zero register fed one byte gives that byte's table entry.
        self.table = [bitwise(zero, bytes([b])) for b in range(256)]
        self.start = reflect(p.init, p.width) if p.refin else p.init

    def prefixes(self, data, lengths):
        """{n: CRC of data[:n]} for every n of lengths (sorted), in one pass."""
        p, t, mask, shift = self.p, self.table, self.mask, self.p.width - 8
        reg, out, pos = self.start, {}, 0
        for n in lengths:
            for byte in data[pos:n]:
                if p.refin:
                    reg = (reg >> 8) ^ t[(reg ^ byte) & 0xFF]
                else:
                    reg = ((reg << 8) & mask) ^ t[((reg >> shift) ^ byte) & 0xFF]
            pos = n
            out[n] = reg ^ p.xorout
        return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expect", action="append", default=[], metavar="ALGO=NAME[|NAME]")
    parser.add_argument("--outside", metavar="DIR")
    args = parser.parse_args()
    problems = []
    if args.outside:
        here = os.path.realpath(crcforge.__file__)
        if here.startswith(os.path.realpath(args.outside) + os.sep):
            problems.append(f"crcforge imported from {here}, inside {args.outside}")

    chosen = {fn: crcforge.implementation(model) for fn, model in FIXED.items()}
    print(f"crcforge {crcforge.__version__} from {os.path.dirname(crcforge.__file__)}")
    print("features:", " ".join(crcforge.cpu_features()) or "(none)")
    for fn, path in chosen.items():
        print(f"  {fn:13} {path}")
    for spec in args.expect:
        fn, _, names = spec.partition("=")
        bands = [band.split("<")[0] for band in chosen[fn].split(",")]
        if not all(band in names.split("|") for band in bands):
            problems.append(f"{fn} runs on {chosen[fn]}, expected {names}")
    forced = os.environ.get("CRCFORGE_IMPL", "")
    if forced not in ("", "auto"):
        on = [fn for fn, path in chosen.items() if path == forced]
        others = {fn: path for fn, path in chosen.items() if path not in (forced, "portable")}
        if not on or others:
            problems.append(f"CRCFORGE_IMPL={forced}: paths {chosen}")

    rng = random.Random(2026)
    short = rng.randbytes(200)
    by_name = {m.name: m for m in crcforge.models()}
    for m in crcforge.models():
        want = bitwise(m.params, b"123456789")
        if want != m.check:
            problems.append(f"{m.name}: the bitwise reference gives {want:#x}, the catalogue {m.check:#x}")
        for data in (b"123456789", short[3:]):
            got, want = crcforge.new(m.name, data).value, bitwise(m.params, data)
            if got != want:
                problems.append(f"{m.name}: {got:#x} for {len(data)} bytes, reference {want:#x}")

    data = rng.randbytes(4096 + 64)
    for fn, model in FIXED.items():
        compute, table = getattr(crcforge, fn), Table(by_name[model].params)
        bad = checked = 0
        for lengths, offsets in SWEEPS:
            for off in offsets:
                want = table.prefixes(data[off:], lengths)
                view = memoryview(data)[off:]
                for n in lengths:
                    got = compute(view[:n])
                    third = n // 3
                    chained = compute(view[third:n], compute(view[:third]))
                    if fn == "crc32" and want[n] != zlib.crc32(view[:n]):
                        problems.append(f"the table reference of {model} disagrees with zlib at {n}")
                    checked += 1
                    if got != want[n] or chained != want[n]:
                        bad += 1
                        if bad <= 3:
                            problems.append(f"{fn} on {chosen[fn]}: length {n} offset {off}: "
                                            f"{got:#x} (chained {chained:#x}), reference {want[n]:#x}")
        print(f"  {fn:13} {checked} lengths x offsets: {bad} wrong")

    for problem in problems:
        print("FAIL:", problem)
    print("check_paths:", "FAILED" if problems else
          f"OK: {len(by_name)} models, {len(FIXED)} fixed algorithms on {sorted(set(chosen.values()))}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
