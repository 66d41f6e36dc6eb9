# SPDX-License-Identifier: MIT
"""What the limited C API (a cp311-abi3 wheel) would cost crcforge's short calls: builds
abi3_probe.c (crc32c with the package's fast path) against the full API and under
Py_LIMITED_API=3.11, both linked with the library's static archive, and times the two and
crcforge.crc32c itself in the same rounds (timing.py): per size the median ns per call and
the median (quartiles) over the rounds of limited over full.

    taskset -c 1 python python/bench/abi3_call.py [--build build] [--sizes 16,1048576]
"""
import argparse
import importlib.machinery
import importlib.util
import pathlib
import statistics
import subprocess
import sys
import sysconfig
import tempfile

import crcforge
from timing import paired_ratio, time_rounds, whole_number

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def build(out, archive, limited):
    cc = sysconfig.get_config_var("CC").split()
    flags = ["-O3", "-DNDEBUG", "-fPIC", "-shared", "-std=gnu11", "-Wall", "-Werror",
             f"-I{sysconfig.get_paths()['include']}", f"-I{ROOT / 'include'}"]
    if limited:
        flags.append("-DPy_LIMITED_API=0x030b0000")
    subprocess.run([*cc, *flags, str(HERE / "abi3_probe.c"), str(archive), "-o", str(out)],
                   check=True)


def load(path, package):
    name = f"{package}._abi3probe"
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=str(ROOT / "build"),
                        help="the CMake build directory with libcrcforge.a (default build/)")
    parser.add_argument("--sizes", default="16,1048576")
    parser.add_argument("--repeat", type=whole_number(1), default=31)
    args = parser.parse_args()
    archive = pathlib.Path(args.build) / "libcrcforge.a"
    if not archive.exists():
        parser.error(f"--build: no {archive} (build the library with CMake first)")
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes: {args.sizes!r} is not a comma-separated list of byte counts")
    with tempfile.TemporaryDirectory() as tmp:
        full_so = pathlib.Path(tmp) / "_abi3probe.full.so"
        limited_so = pathlib.Path(tmp) / "_abi3probe.abi3.so"
        build(full_so, archive, limited=False)
        build(limited_so, archive, limited=True)
        full, limited = load(full_so, "full"), load(limited_so, "limited")
    for m in (full, limited):
        assert m.crc32c(b"123456789") == 0xE3069283  # the catalogue's check value
    print(f"Python {sys.version.split()[0]}; crcforge {crcforge.__version__} crc32c on "
          f"{crcforge.implementation('crc32c')}")
    print(f"{'size':>8} {'full ns':>9} {'limited ns':>11} {'package ns':>11} "
          f"{'limited/full':>13}  (quartiles)")
    for size in sizes:
        data = bytes(range(256)) * (size // 256) + bytes(size % 256)
        rounds = time_rounds([("full", full.crc32c), ("limited", limited.crc32c),
                              ("package", crcforge.crc32c)], data, args.repeat,
                             0.02 if size < 65536 else 0.05)
        ratio, q1, q3 = paired_ratio(rounds["limited"], rounds["full"])
        med = {k: statistics.median(v) for k, v in rounds.items()}
        print(f"{size:>8} {med['full']:>9.1f} {med['limited']:>11.1f} {med['package']:>11.1f} "
              f"{ratio:>13.3f}  [{q1:.3f}, {q3:.3f}]")


if __name__ == "__main__":
    sys.exit(main())
