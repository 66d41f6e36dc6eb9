#!/usr/bin/env python3
"""Independent derivation of the folding constants of src/fold_consts.c.

Plain polynomial arithmetic over GF(2) on Python integers (bit i = coefficient of x^i),
following the definitions written in src/fold_consts.h, not the C code's loops.
tests/library/test_fold_consts.py compares these numbers with the library's.

Usage: scripts/fold_consts.py WIDTH POLY REFIN   (POLY in hex; REFIN 0 or 1)
prints one line per field: NAME VALUE (hex), in the order of FIELDS.
"""
import sys

FOLD_DISTANCES = (128, 256, 512, 1024, 2048, 4096)
FIELDS = ([f"fold_across_{d}_bits.{half}" for d in FOLD_DISTANCES for half in ("low", "high")]
          + ["reduce_128"]
          + [f"reduce_lanes[{i}].{half}" for i in range(4) for half in ("low", "high")]
          + ["barrett_quotient", "barrett_poly", "barrett_poly_x0"])


def degree(a):
    return a.bit_length() - 1


def divmod_poly(a, b):
    """Quotient and remainder of a / b."""
    q = 0
    db = degree(b)
    while a and degree(a) >= db:
        s = degree(a) - db
        q ^= 1 << s
        a ^= b << s
    return q, a


def reflect(v, bits):
    return int(format(v, f"0{bits}b")[::-1], 2)


def constants(width, poly, refin):
    """The fields of struct fold_consts, as a dict name -> int."""
    g = ((1 << width) | poly) << (64 - width)  # G' = G * x^(64 - width), degree 64

    def xmod(k):
        return divmod_poly(1 << k, g)[1]

    def xdiv(k):
        return divmod_poly(1 << k, g)[0]

    def pair(d):
        """Multipliers of a lane's low and high qword folding it across d bits."""
        if refin:
            return reflect(xmod(d + 63), 64), reflect(xmod(d - 1), 64)
        return xmod(d), xmod(d + 64)

    out = {}
    for d in FOLD_DISTANCES:
        out[f"fold_across_{d}_bits.low"], out[f"fold_across_{d}_bits.high"] = pair(d)
    for i in range(4):
        out[f"reduce_lanes[{i}].low"], out[f"reduce_lanes[{i}].high"] = pair(64 + 128 * (3 - i))
    mask64 = (1 << 64) - 1
    if refin:
        out["reduce_128"] = reflect(xmod(127), 64)
        out["barrett_quotient"] = reflect(xdiv(127), 64)
        # coefficients 64..1 of G' at bits 0..63
        out["barrett_poly"] = reflect(g >> 1, 64)
        out["barrett_poly_x0"] = mask64 if g & 1 else 0
    else:
        out["reduce_128"] = xmod(128)
        out["barrett_quotient"] = xdiv(128) ^ (1 << 64)
        out["barrett_poly"] = g ^ (1 << 64)
        out["barrett_poly_x0"] = 0
    return out


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    width, poly, refin = int(argv[1]), int(argv[2], 16), int(argv[3])
    c = constants(width, poly, refin)
    for name in FIELDS:
        print(f"{name} {c[name]:016x}")


if __name__ == "__main__":
    main(sys.argv)
