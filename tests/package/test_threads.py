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
