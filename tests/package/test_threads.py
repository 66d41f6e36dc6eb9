# SPDX-License-Identifier: MIT
"""The GIL-released path: several threads hashing at once, results checked against
independent oracles; one object updated from several threads; and proof that the GIL is
really released during a large call."""
import random
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

import google_crc32c

import crcforge

BIG = max(crcforge.GIL_THRESHOLD, 1 << 20)


def test_threads_hash_large_buffers_at_once():
    rng = random.Random(3)
    blocks = [rng.randbytes(BIG + rng.randrange(4096)) for _ in range(8)]
    want = [(zlib.crc32(b), google_crc32c.value(b)) for b in blocks]

    def work(i):
        b = blocks[i % len(blocks)]
        return i % len(blocks), crcforge.crc32(b), crcforge.crc32c(bytearray(b))

    with ThreadPoolExecutor(4) as pool:
        for i, crc32, crc32c in pool.map(work, range(64)):
            assert (crc32, crc32c) == want[i]


def test_gil_free_path_on_every_length_from_threads():
    """With the threshold at 0 every call takes the GIL-free path."""
    rng = random.Random(4)
    data = [rng.randbytes(n) for n in range(0, 600)]
    old = crcforge._crcforge._set_gil_threshold(0)
    try:
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda d: (crcforge.crc32(d), crcforge.crc32c(d)), data))
    finally:
        crcforge._crcforge._set_gil_threshold(old)
    assert got == [(zlib.crc32(d), google_crc32c.value(d)) for d in data]


def test_one_object_updated_from_threads():
    """Every thread feeds the same chunk, so the order does not matter but a lost or torn
    update would."""
    chunk = random.Random(5).randbytes(BIG + 3)
    h = crcforge.new("crc32")
    small = crcforge.new("crc32")

    def feed(_):
        for _ in range(4):
            h.update(chunk)
            small.update(chunk[:100])

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(feed, range(4)))
    assert h.value == zlib.crc32(chunk * 16)
    assert small.value == zlib.crc32(chunk[:100] * 16)


def observe(objects, running, seen):
    """Reads .value and .copy() of `objects` until running() is false, into seen[i]."""
    while running():
        for i, h in enumerate(objects):
            seen[i].append(h.value)
            c = h.copy()
            before = c.value
            seen[i].append(before)
            c.update(b"x")  # the copy goes on alone, from the state it was taken in
            assert c.value == zlib.crc32(b"x", before)


def run_with_observers(work, jobs, objects, seen):
    with ThreadPoolExecutor(len(jobs) + 2) as pool:
        futures = [pool.submit(work, job) for job in jobs]

        def running():
            return not all(f.done() for f in futures)

        observers = [pool.submit(observe, objects, running, seen) for _ in range(2)]
        for f in futures + observers:
            f.result()


def test_one_object_fed_big_and_small_chunks_from_threads_while_read():
    """Several threads feed one object chunks of zeros, big ones (GIL released, under the
    object's lock) and small ones (GIL held, lock taken when the object has one), while
    two more read and copy it.  With zeros the CRC depends only on the total length, so
    the order does not matter, but a lost or torn update would; and every value read
    must be that of some total length reached on the way."""
    # Big enough (~100 us) for the other threads to get in while one is in it.
    big, small = bytes(max(crcforge.GIL_THRESHOLD + 1, 4 << 20)), bytes(100)
    threads, rounds = 4, 8
    h = crcforge.new("crc32")
    seen = [[]]

    def feed(_):
        for _ in range(rounds):
            h.update(big)
            h.update(small)

    run_with_observers(feed, range(threads), [h], seen)
    n = threads * rounds
    possible = set()
    crc_big = 0
    for _ in range(n + 1):  # any number of big chunks and of small ones, in any order
        crc = crc_big
        for _ in range(n + 1):
            possible.add(crc)
            all_of_them = crc
            crc = zlib.crc32(small, crc)
        crc_big = zlib.crc32(big, crc_big)
    assert h.value == all_of_them
    assert set(seen[0]) <= possible


def test_objects_read_and_copied_while_their_threads_update_them():
    """Each thread feeds its own object its own sequence of big and small chunks while two
    others read and copy every object: each value read must be the CRC of a prefix of that
    object's sequence, and the final one that of all of it."""
    rng = random.Random(9)
    sequences = [[rng.randbytes(crcforge.GIL_THRESHOLD + rng.randrange(4096)) if k % 3 == 0
                  else rng.randbytes(rng.randrange(1, 300)) for k in range(60)]
                 for _ in range(3)]
    objects = [crcforge.new("crc32") for _ in sequences]
    seen = [[] for _ in sequences]

    def feed(i):
        for chunk in sequences[i]:
            objects[i].update(chunk)

    run_with_observers(feed, range(len(sequences)), objects, seen)
    for h, chunks, values in zip(objects, sequences, seen):
        prefixes = {0}
        crc = 0
        for chunk in chunks:
            crc = zlib.crc32(chunk, crc)
            prefixes.add(crc)
        assert h.value == crc
        assert set(values) <= prefixes


def test_the_gil_is_released_during_a_large_call():
    """While another thread is inside a call on a bytearray, that bytearray is exported
    and cannot be resized.  With the GIL held for the whole call no other thread could
    ever see that; with it released, this thread does."""
    data = bytearray(random.Random(6).randbytes(32 << 20))
    stop = threading.Event()

    def hash_repeatedly():
        while not stop.is_set():
            crcforge.crc32c(data)

    worker = threading.Thread(target=hash_repeatedly)
    worker.start()
    seen_export = False
    deadline = time.monotonic() + 20
    try:
        while not seen_export and time.monotonic() < deadline:
            try:
                data.append(0)
                data.pop()
            except BufferError:
                seen_export = True
    finally:
        stop.set()
        worker.join()
    assert seen_export
