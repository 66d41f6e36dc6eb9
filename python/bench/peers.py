# SPDX-License-Identifier: MIT
"""Per-call time of crcforge beside the Python CRC packages, for the algorithm each computes.

    taskset -c 1 python python/bench/peers.py [--repeat 15] [--quick] [--sizes 16,64,1024,1048576]
                                              [--only crc32c,azure,...]

For each algorithm and size (16 B, 64 B, 1 KiB, 1 MiB) it prints the time per call (min
and median over the rounds, each round timing every contender once, many calls in a timeit
loop, in crcforge bench's balanced orders), and each contender's time over crcforge's in
the same round, the median (quartiles) over the rounds ("x slower" > 1 means crcforge is
faster), and the version of each peer package found.  Time is the timing thread's CPU
time (time.thread_time), so that moments when a shared machine runs other processes on
this CPU are not counted against whoever was being timed.  Peers that are not installed
are listed as such.  Install them with
`pip install google-crc32c crc32c anycrc crcmod isal==1.9.1 zlib-ng fastcrc==0.5.0
azure-storage-extensions` (isal 1.9.1 is ISA-L 2.32.1, the release crcforge bench compares
with).

The object stores' values: `azure` is CRC-64/NVME called as the Azure SDK calls its native
helper, compute(data, 0) (both contenders through the same one-line wrapper, as that
helper takes the initial CRC as a second, positional argument); `azure_header` the
x-ms-content-crc64 text of a block, crcforge.azure_crc64 beside the SDK's way (compute,
8 little-endian bytes, base64); `gcs_header` GCS's crc32c text, crcforge.gcs_crc32c
beside google-crc32c's value in base64.
"""
import argparse
import base64
import importlib
import importlib.metadata
import os
import statistics
import zlib

import crcforge
from timing import paired_ratio, time_rounds, whole_number

SIZES = [16, 64, 1024, 1 << 20]


def optional(module, attr_path):
    """module.attr.attr..., or None when the package is missing."""
    try:
        obj = importlib.import_module(module)
    except ImportError:
        return None
    for attr in attr_path.split("."):
        obj = getattr(obj, attr)
    return obj


def anycrc_fn(name):
    """anycrc's function for a catalogue model."""
    cls = optional("anycrc", "CRC")
    if cls is None:
        return None
    m = next(m for m in crcforge.models() if m.name == name)
    return cls(**m.params._asdict()).calc


def crcmod_fn(name):
    mk = optional("crcmod.predefined", "mkPredefinedCrcFun")
    return None if mk is None else mk(name)


def azure_compute():
    return optional("azure.storage.extensions.checksums", "crc64.compute")


def with_zero_crc(fn):
    """fn(data, 0), or None when fn is missing."""
    return None if fn is None else (lambda data: fn(data, 0))


def encoded(fn, nbytes, order):
    """The base64 of fn(data)'s bytes, as a store's header carries it; None when fn is."""
    if fn is None:
        return None
    return lambda data: base64.b64encode(fn(data).to_bytes(nbytes, order)).decode()


CONTENDERS = {  # algorithm -> [(label, function of (data))]
    "crc32c": [
        ("crcforge.crc32c", crcforge.crc32c),
        ("google_crc32c.value", optional("google_crc32c", "value")),
        ("crc32c.crc32c", optional("crc32c", "crc32c")),
        ("anycrc", anycrc_fn("CRC-32/ISCSI")),
        ("fastcrc.crc32.iscsi", optional("fastcrc", "crc32.iscsi")),
    ],
    "crc32": [
        ("crcforge.crc32", crcforge.crc32),
        ("zlib.crc32", zlib.crc32),
        ("isal.isal_zlib.crc32", optional("isal.isal_zlib", "crc32")),
        ("zlib_ng.zlib_ng.crc32", optional("zlib_ng.zlib_ng", "crc32")),
        ("anycrc", anycrc_fn("CRC-32/ISO-HDLC")),
        ("fastcrc.crc32.iso_hdlc", optional("fastcrc", "crc32.iso_hdlc")),
    ],
    "crc64_nvme": [
        ("crcforge.crc64_nvme", crcforge.crc64_nvme),
        ("anycrc", anycrc_fn("CRC-64/NVME")),
    ],
    "crc64_xz": [
        ("crcforge.crc64_xz", crcforge.crc64_xz),
        ("anycrc", anycrc_fn("CRC-64/XZ")),
        ("fastcrc.crc64.xz", optional("fastcrc", "crc64.xz")),
    ],
    "azure": [
        ("crcforge.crc64_nvme(d, 0)", with_zero_crc(crcforge.crc64_nvme)),
        ("azure crc64.compute(d, 0)", with_zero_crc(azure_compute())),
    ],
    "azure_header": [
        ("crcforge.azure_crc64", crcforge.azure_crc64),
        ("azure compute, base64 LE", encoded(with_zero_crc(azure_compute()), 8, "little")),
    ],
    "gcs_header": [
        ("crcforge.gcs_crc32c", crcforge.gcs_crc32c),
        ("google_crc32c, base64", encoded(optional("google_crc32c", "value"), 4, "big")),
    ],
    "crc16_xmodem": [
        ("crcforge.crc16_xmodem", crcforge.crc16_xmodem),
        ("anycrc", anycrc_fn("CRC-16/XMODEM")),
        ("crcmod", crcmod_fn("xmodem")),
        ("fastcrc.crc16.xmodem", optional("fastcrc", "crc16.xmodem")),
    ],
}


# The algorithm of each group that is not named after its algorithm.
GROUP_ALGORITHM = {"azure": "crc64_nvme", "azure_header": "crc64_nvme", "gcs_header": "crc32c"}

# The distribution behind each contender's label (the first word, before a dot).
DISTRIBUTIONS = {"google_crc32c": "google-crc32c", "crc32c": "crc32c", "anycrc": "anycrc",
                 "crcmod": "crcmod", "isal": "isal", "zlib_ng": "zlib-ng",
                 "fastcrc": "fastcrc", "azure": "azure-storage-extensions"}


def versions():
    """"name version" of every peer package installed; ISA-L's own release beside isal's."""
    found = [f"zlib {zlib.ZLIB_RUNTIME_VERSION}"]
    for module, dist in DISTRIBUTIONS.items():
        try:
            found.append(f"{dist} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            continue
        if dist == "isal":
            found[-1] += f" (ISA-L {optional('isal', 'ISAL_VERSION')})"
    return found


def sizes_list(text):
    try:
        sizes = [int(s) for s in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of byte "
                                         "counts of at least 1")
    return sizes


def groups_list(text):
    groups = text.split(",")
    unknown = [g for g in groups if g not in CONTENDERS]
    if unknown:
        raise argparse.ArgumentTypeError(f"{', '.join(unknown)}: not among "
                                         f"{','.join(CONTENDERS)}")
    return groups


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=whole_number(1), default=15, help="rounds (default 15)")
    ap.add_argument("--quick", action="store_true", help="shorter runs (noisier)")
    ap.add_argument("--sizes", type=sizes_list, default=SIZES,
                    help="comma-separated byte counts (default 16,64,1024,1048576)")
    ap.add_argument("--only", type=groups_list, default=list(CONTENDERS),
                    help="comma-separated groups: " + ",".join(CONTENDERS))
    args = ap.parse_args()
    target = 0.01 if args.quick else 0.05
    print(f"crcforge {crcforge.__version__}; implementations: "
          + ", ".join(f"{a}={crcforge.implementation(a)}" for a in CONTENDERS
                      if a not in GROUP_ALGORITHM)
          + f"; cpu: {' '.join(crcforge.cpu_features())}; pid cpu set "
          f"{sorted(os.sched_getaffinity(0))}; {args.repeat} rounds")
    print("peers: " + ", ".join(versions()))
    print(f"{'algorithm':<13} {'size':>8} {'contender':<24} {'min ns':>11} {'median ns':>11} "
          f"{'GB/s':>7} {'x slower (paired)':>22}")
    for algo in args.only:
        contenders = CONTENDERS[algo]
        for size in args.sizes:
            data = os.urandom(size)
            present = [(label, fn) for label, fn in contenders if fn is not None]
            expected = present[0][1](data)
            for label, fn in present:  # every contender must compute the same CRC
                if fn(data) != expected:
                    raise SystemExit(f"{label} disagrees with crcforge on {algo}")
            rounds = time_rounds(present, data, args.repeat, target)
            base = rounds[present[0][0]]
            for label, ns in rounds.items():
                lo, med = min(ns), statistics.median(ns)
                ratio, q1, q3 = paired_ratio(ns, base)
                print(f"{algo:<13} {size:>8} {label:<24} {lo:>11.1f} {med:>11.1f} "
                      f"{size / med:>7.2f} {ratio:>8.2f} ({q1:.2f}-{q3:.2f})")
    missing = [label for algo in args.only for label, fn in CONTENDERS[algo] if fn is None]
    if missing:
        print("not installed:", ", ".join(sorted(set(missing))))


if __name__ == "__main__":
    main()
