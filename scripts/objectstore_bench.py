#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hashing rate beside the rate of a plain read of the same bytes by the same route.

Local file: `crcforge sum -j N` (the C tool: N threads, each preading 128 KiB blocks of
its share of the file) beside N `dd bs=128K` reading the same shares, from the page cache.
MinIO object: crcforge.object_checksum on a Dask LocalCluster of N worker processes (one
thread each; ranges of --chunk bytes read through s3fs in 8 MiB ranged GETs) beside the
same ranges read by the same tasks through s3fs without hashing.  Each figure is the
median (and best) of --repeat runs, in GB/s; the last column is the hash rate as a share
of the read rate.  Prints a Markdown table.

    python3 scripts/objectstore_bench.py [--size-gib 2] [--repeat 5] [--workers 1,2]
                                         [--only local|minio] [--dir DIR]

Needs build/crcforge (cmake --build build), crcforge importable by python3, and for the
MinIO part boto3, s3fs and distributed, and the minio binary (.ci/install-minio.sh).
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "objectstore"))
MIB = 1 << 20


def timed(fn, repeat):
    """Seconds of each of `repeat` runs of fn (after one untimed warm-up run)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def row(route, size, read_times, hash_times):
    rate = lambda t: size / t / 1e9  # noqa: E731
    read, hashed = statistics.median(read_times), statistics.median(hash_times)
    return "| %s | %.2f (%.2f) | %.2f (%.2f) | %.0f%% |" % (
        route, rate(read), rate(min(read_times)), rate(hashed), rate(min(hash_times)),
        100 * read / hashed)


def shares(size, n):
    """The ranges `crcforge sum -j n` gives its threads: size // n each, the rest last."""
    step = size // n
    return [(i * step, size - i * step if i == n - 1 else step) for i in range(n)]


def bench_local(args, size):
    crcforge_bin = ROOT / "build" / "crcforge"
    path = pathlib.Path(args.dir, "objectstore-bench.bin")
    with open(path, "wb") as f:
        for _ in range(size // (64 * MIB)):
            f.write(os.urandom(64 * MIB))
    try:
        subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)  # cached
        for n in args.workers:
            def read():  # n dd processes, each its share in 128 KiB reads
                procs = [subprocess.Popen(
                    ["dd", "if=%s" % path, "of=/dev/null", "bs=128K", "iflag=skip_bytes,count_bytes",
                     "skip=%d" % at, "count=%d" % length], stderr=subprocess.DEVNULL)
                    for at, length in shares(size, n)]
                if any(p.wait() for p in procs):
                    raise RuntimeError("dd failed")

            def crc():
                subprocess.run([str(crcforge_bin), "sum", "-j", str(n), str(path)],
                               stdout=subprocess.DEVNULL, check=True)

            print(row("local file, `crcforge sum -j %d` / %d x `dd bs=128K`" % (n, n), size,
                      timed(read, args.repeat), timed(crc, args.repeat)), flush=True)
    finally:
        path.unlink()


def read_range(source, offset, length, stamp):
    """The plain read: what crcforge's task does for one range, without the CRC."""
    from crcforge.objects import REMOTE_BLOCK

    source.fs.invalidate_cache(source.path)
    done = 0
    with source.fs.open(source.path, "rb", block_size=REMOTE_BLOCK, cache_type="none") as f:
        f.seek(offset)
        while done < length:
            block = f.read(min(REMOTE_BLOCK, length - done))
            if not block:
                raise EOFError(offset + done)
            done += len(block)
    return 0, done


def bench_minio(args, size):
    import boto3.s3.transfer
    import crcforge
    import distributed
    from crcforge.objects import _FsspecObject, DEFAULT_CHUNK
    from minio_server import BUCKET, MinioServer
    import fsspec

    server = MinioServer(data_dir=args.dir)
    try:
        s3 = server.client()
        s3.create_bucket(Bucket=BUCKET)
        # Uploaded from a file of random bytes in 64 MiB parts with CRC32C (boto3 makes it
        # COMPOSITE).
        path = pathlib.Path(server.tmp, "upload.bin")
        with open(path, "wb") as f:
            for _ in range(size // (64 * MIB)):
                f.write(os.urandom(64 * MIB))
        s3.upload_file(str(path), BUCKET, "bench", ExtraArgs={"ChecksumAlgorithm": "CRC32C"},
                       Config=boto3.s3.transfer.TransferConfig(multipart_chunksize=64 * MIB))
        path.unlink()
        head = s3.head_object(Bucket=BUCKET, Key="bench", ChecksumMode="ENABLED")
        url = "s3://%s/bench" % BUCKET
        options = server.storage_options()
        fs, fspath = fsspec.core.url_to_fs(url, **options)
        source = _FsspecObject(fs, fspath, url)
        for n in args.workers:
            cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1,
                                               processes=True, host="127.0.0.1",
                                               dashboard_address="127.0.0.1:0",
                                               worker_dashboard_address="127.0.0.1:0")
            client = distributed.Client(cluster)
            executor = client.get_executor()
            try:
                def read():
                    stamp = source.stamp()
                    futures = [executor.submit(read_range, source, at, min(DEFAULT_CHUNK, size - at),
                                               stamp) for at in range(0, size, DEFAULT_CHUNK)]
                    assert sum(f.result()[1] for f in futures) == size

                def crc():
                    value = crcforge.object_checksum(url, "crc32c", part_size=64 * MIB,
                                                     executor=executor, storage_options=options)
                    assert value == head["ChecksumCRC32C"], (value, head)

                print(row("MinIO object, `object_checksum` on %d Dask worker%s / the same "
                          "ranged reads" % (n, "s" if n > 1 else ""), size,
                          timed(read, args.repeat), timed(crc, args.repeat)), flush=True)
            finally:
                client.close()
                cluster.close()
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-gib", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--only", choices=("local", "minio"))
    parser.add_argument("--dir", default=tempfile.gettempdir(),
                        help="where the local file and MinIO's data go")
    args = parser.parse_args()
    args.workers = [int(w) for w in args.workers.split(",")]
    size = int(args.size_gib * 1024) // 64 * 64 * MIB
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print("%.2f GiB, %d runs each (after a warm-up run), load average before: %s"
          % (size / (1 << 30), args.repeat, " ".join(load)))
    print()
    print("| route | plain read GB/s, median (best) | with CRC-32C GB/s, median (best) "
          "| hash / read |")
    print("|---|---:|---:|---:|")
    if args.only != "minio":
        bench_local(args, size)
    if args.only != "local":
        bench_minio(args, size)
    with open("/proc/loadavg") as f:
        print()
        print("load average after: %s" % " ".join(f.read().split()[:3]))


if __name__ == "__main__":
    main()
