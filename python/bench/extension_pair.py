# SPDX-License-Identifier: MIT
"""Times crcforge.crc32c of two builds of the extension in one process, paired: e.g. the one
an installed wheel holds against one built in the tree (setup.py build_ext --inplace).
Each _crcforge*.so is loaded under a package name of its own (the library inside each is
its own copy, its symbols hidden), and both are timed in the same rounds (timing.py): per
size the median ns per call of each and the median (quartiles) over the rounds of their
ratio.

    taskset -c 1 python python/bench/extension_pair.py WHEEL_SO TREE_SO [--sizes 16,1048576]
"""
import argparse
import importlib.machinery
import importlib.util
import statistics
import sys

from timing import paired_ratio, time_rounds, whole_number


def load(path, package):
    """The extension at path, as the module package._crcforge."""
    name = f"{package}._crcforge"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", metavar="FIRST_SO")
    parser.add_argument("second", metavar="SECOND_SO")
    parser.add_argument("--sizes", default="16,1048576")
    parser.add_argument("--repeat", type=whole_number(1), default=31)
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes: {args.sizes!r} is not a comma-separated list of byte counts")
    first, second = load(args.first, "first"), load(args.second, "second")
    for label, m, path in (("first", first, args.first), ("second", second, args.second)):
        print(f"{label}: {path}: crc32c on {m.implementation('crc32c')}")
        assert m.crc32c(b"123456789") == 0xE3069283  # the catalogue's check value
    print(f"{'size':>8} {'first ns':>10} {'second ns':>10} {'second/first':>13}  (quartiles)")
    for size in sizes:
        data = bytes(range(256)) * (size // 256) + bytes(size % 256)
        rounds = time_rounds([("first", first.crc32c), ("second", second.crc32c)], data,
                             args.repeat, 0.02 if size < 65536 else 0.05)
        ratio, q1, q3 = paired_ratio(rounds["second"], rounds["first"])
        print(f"{size:>8} {statistics.median(rounds['first']):>10.1f} "
              f"{statistics.median(rounds['second']):>10.1f} {ratio:>13.3f}  [{q1:.3f}, {q3:.3f}]")


if __name__ == "__main__":
    sys.exit(main())
