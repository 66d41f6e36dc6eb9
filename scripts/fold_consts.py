#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent derivation of the derived constants of src/fold_consts.c.

Plain polynomial arithmetic over GF(2) on Python integers (bit i = coefficient of x^i),
following the definitions written in src/fold_consts.h, not the C code's loops:
struct fold_consts (every field), struct crc32_join (the crc32 instruction's stream
joins) and struct crc32_lanes (lane multipliers onto the last lane).
tests/library/test_fold_consts.py compares these numbers with the library's.

An MSB-first model's constants are followed in the library by those of its mirror, the
reflected model of the same polynomial: constants(width, poly, 1).

Usage: scripts/fold_consts.py WIDTH POLY REFIN   (POLY in hex; REFIN 0 or 1)
       scripts/fold_consts.py --join POLY         (a reflected 32-bit model)
       scripts/fold_consts.py --lanes POLY        (a reflected 32-bit model, POLY odd)
prints one line per field: NAME VALUE (hex), in the order of FIELDS (JOIN_FIELDS,
LANES_FIELDS).
"""
import sys

FOLD_DISTANCES = (128, 256, 512, 1024, 2048, 4096)
REDUCE_LANES = 256
FIELDS = ([f"reduce_lanes[{i}].{half}" for i in range(REDUCE_LANES) for half in ("low", "high")]
          + [f"fold_across_{d}_bits.{half}" for d in FOLD_DISTANCES for half in ("low", "high")]
          + ["reduce_128"]
          + ["barrett_quotient", "barrett_poly", "barrett_poly_x0"]
          + [f"x8_pow2k[{k}]" for k in range(64)]
          + ["msb_barrett_quotient", "msb_barrett_poly"])
JOIN_MAX = 4096
JOIN_FIELDS = [f"join[{i}].{k}" for i in range(JOIN_MAX // 8) for k in ("by_l", "by_2l", "by_3l")]
LANES_MAX = 256
LANES_FIELDS = ([f"lane[{i}].{half}" for i in range(LANES_MAX) for half in ("low", "high")]
                + [f"shift[{i}]" for i in range(LANES_MAX)])


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


def mulmod(a, b, g):
    """a * b mod g: the carry-less product, then the remainder."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        a <<= 1
        b >>= 1
    return divmod_poly(product, g)[1]


def xpow_mod(e, g):
    """x^e mod g for any e >= 0, squaring for each bit of e."""
    result, base = 1, divmod_poly(2, g)[1]
    while e:
        if e & 1:
            result = mulmod(result, base, g)
        base = mulmod(base, base, g)
        e >>= 1
    return divmod_poly(result, g)[1]


def constants(width, poly, refin):
    """The fields of struct fold_consts, as a dict name -> int."""
    g = ((1 << width) | poly) << (64 - width)  # G' = G * x^(64 - width), degree 64

    def xmod(k):
        return xpow_mod(k, g)

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
    # entry REDUCE_LANES - 1 - i: the lane with i lanes after it, straight to the end
    for i in range(REDUCE_LANES):
        entry = REDUCE_LANES - 1 - i
        out[f"reduce_lanes[{entry}].low"], out[f"reduce_lanes[{entry}].high"] = pair(128 * i + 64)
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
    # combine.c's MSB-first powers and Barrett pair, whatever the bit order
    p = (1 << width) | poly
    for k in range(64):
        out[f"x8_pow2k[{k}]"] = xpow_mod(8 << k, p)
    out["msb_barrett_quotient"] = xdiv(128) ^ (1 << 64)
    out["msb_barrett_poly"] = g ^ (1 << 64)
    return out


def join_constants(poly):
    """struct crc32_join of a reflected 32-bit model: join[L/8 - 1] shifts a stream's CRC
    past k later streams of L bytes: reflect32(x^(8kL - 33) mod P), k = 1, 2, 3."""
    p = (1 << 32) | poly
    out = {}
    for i in range(JOIN_MAX // 8):
        length = 8 * (i + 1)
        for k, name in ((1, "by_l"), (2, "by_2l"), (3, "by_3l")):
            out[f"join[{i}].{name}"] = reflect(xpow_mod(8 * k * length - 33, p), 32)
    return out


def inverse_mod(a, g):
    """a^-1 mod g by the extended Euclidean algorithm (a and g coprime)."""
    r0, r1, s0, s1 = g, a, 0, 1
    while r1:
        q, r = divmod_poly(r0, r1)
        r0, r1 = r1, r
        product = 0  # q * s1, carry-less
        for i in range(q.bit_length()):
            if q >> i & 1:
                product ^= s1 << i
        s0, s1 = s1, s0 ^ product
    assert r0 == 1, "not invertible"
    return divmod_poly(s0, g)[1]


def lanes_constants(poly):
    """struct crc32_lanes of a reflected 32-bit model: lane[255 - d] multiplies a 16-byte
    lane d lanes before the last onto it, modulo P (reflected: low = x^(128d + 63),
    high = x^(128d - 1), x^-1 being P's inverse of x); shift[N - 1] shifts a CRC past N
    lanes: reflect32(x^(128N - 33) mod P)."""
    p = (1 << 32) | poly
    x_inverse = inverse_mod(2, p)
    out = {}
    for d in range(LANES_MAX):
        high = mulmod(xpow_mod(128 * d, p), x_inverse, p)  # x^(128d - 1)
        out[f"lane[{LANES_MAX - 1 - d}].low"] = reflect(xpow_mod(128 * d + 63, p), 64)
        out[f"lane[{LANES_MAX - 1 - d}].high"] = reflect(high, 64)
        out[f"shift[{d}]"] = reflect(xpow_mod(128 * (d + 1) - 33, p), 32)
    return out


def main(argv):
    if len(argv) == 3 and argv[1] in ("--join", "--lanes"):
        join = argv[1] == "--join"
        c = (join_constants if join else lanes_constants)(int(argv[2], 16))
        for name in JOIN_FIELDS if join else LANES_FIELDS:
            print(f"{name} {c[name]:016x}")
        return
    if len(argv) != 4:
        sys.exit(__doc__)
    width, poly, refin = int(argv[1]), int(argv[2], 16), int(argv[3])
    c = constants(width, poly, refin)
    for name in FIELDS:
        print(f"{name} {c[name]:016x}")


if __name__ == "__main__":
    main(sys.argv)
