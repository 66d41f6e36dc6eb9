# SPDX-License-Identifier: MIT
"""Compares a running Redis server's CLUSTER KEYSLOT with crcforge, through the library
(ctypes, every key) and the CLI (`crcforge keyslot --file`, every key without a newline).

Keys: random binary keys of length 0..64, keys with hash tags and their edge cases.
Talks RESP over a plain socket, so binary keys go through byte-exact.
Usage: keyslot_vs_redis.py PORT BUILD_DIR [SEED]
"""
import ctypes
import random
import socket
import subprocess
import sys
import tempfile

EDGE_CASES = [b"", b"{", b"}", b"{}", b"}{", b"{{a}}", b"a{b}c{d}", b"abc{d}", b"abc{}",
              b"{}{x}", b"x{}{y}", b"{a}", b"{{}}", b"}{a}", b"a{b", b"a}b{", b"{\x00}",
              b"{user1000}.following", b"somekey", b"foo{hash_tag}", b"\xff{\xfe}",
              b"{" + bytes(range(200, 256)) + b"}", b"k" * 64 + b"{tag}", b"{" * 65,
              b"x" * 63 + b"{", b"x" * 62 + b"{}", b"x" * 61 + b"{y}"]


def make_keys(rng, count):
    keys = list(EDGE_CASES)
    for _ in range(count):
        keys.append(rng.randbytes(rng.randrange(65)))
    # Hash tags placed at random, with random brace noise around them, and at the very end.
    for _ in range(count // 4):
        tag = rng.randbytes(rng.randrange(20))
        head = rng.randbytes(rng.randrange(20))
        tail = rng.randbytes(rng.randrange(20)) if rng.randrange(2) else b""
        keys.append(head + b"{" + tag + b"}" + tail)
        noise = bytearray(rng.randbytes(rng.randrange(65)))
        for _ in range(rng.randrange(1, 5)):
            if noise:
                noise[rng.randrange(len(noise))] = rng.choice(b"{}")
        keys.append(bytes(noise))
    return keys


class Resp:
    """Just enough RESP: commands as arrays of bulk strings, integer or error replies."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""

    def send(self, *args):
        out = b"*%d\r\n" % len(args)
        for a in args:
            out += b"$%d\r\n%s\r\n" % (len(a), a)
        return out

    def line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\r\n")
        return line

    def keyslots(self, keys, batch=1000):
        slots = []
        for i in range(0, len(keys), batch):
            part = keys[i:i + batch]
            self.sock.sendall(b"".join(self.send(b"CLUSTER", b"KEYSLOT", k) for k in part))
            for k in part:
                reply = self.line()
                if not reply.startswith(b":"):
                    raise RuntimeError(f"CLUSTER KEYSLOT {k!r}: {reply!r}")
                slots.append(int(reply[1:]))
        return slots


def main():
    port, build = int(sys.argv[1]), sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else random.randrange(1 << 32)
    print(f"redis keyslot: seed {seed}")
    rng = random.Random(seed)
    keys = make_keys(rng, 10000)
    server = Resp(port).keyslots(keys)

    lib = ctypes.CDLL(f"{build}/libcrcforge.so")
    lib.crcforge_keyslot.restype = ctypes.c_uint
    lib.crcforge_keyslot.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    failures = 0
    for key, want in zip(keys, server):
        got = lib.crcforge_keyslot(key, len(key))
        if got != want:
            failures += 1
            if failures <= 20:
                print(f"library: key {key!r}: crcforge {got}, redis {want}")

    # The CLI reads one key a line: every key without a newline byte.
    plain = [(k, s) for k, s in zip(keys, server) if b"\n" not in k]
    with tempfile.NamedTemporaryFile() as f:
        f.write(b"".join(k + b"\n" for k, _ in plain))
        f.flush()
        out = subprocess.run([f"{build}/crcforge", "keyslot", "--file", f.name],
                             capture_output=True, check=True, timeout=120).stdout.split()
    if len(out) != len(plain):
        failures += 1
        print(f"cli: {len(out)} slots printed for {len(plain)} keys")
    for (key, want), got in zip(plain, out):
        if int(got) != want:
            failures += 1
            if failures <= 40:
                print(f"cli: key {key!r}: crcforge {int(got)}, redis {want}")

    tagged = sum(1 for k in keys if b"{" in k)
    print(f"redis keyslot: {len(keys)} keys ({tagged} with '{{'), {len(plain)} also through "
          f"the CLI: {failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
