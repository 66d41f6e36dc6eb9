# SPDX-License-Identifier: MIT
"""A TCP proxy on 127.0.0.1 in front of the MinIO server, for the fault tests: it records
the head of every HTTP request that goes through it (to see the headers s3fs sends), can
cut the response to the next ranged GET after a few bytes (a connection that drops in the
middle of a body: the client must read the rest again, not take what came as all), and
can run a hook before it passes on a given ranged GET (to change the object in mid-read)
or once a given number of response bytes went through (to stop the server in mid-body).
"""
import socket
import threading


class Proxy:
    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.endpoint = "http://127.0.0.1:%d" % self.port
        self.requests = []          # (method, target, {header: value}) in arrival order
        self.cut_next_range = None  # bytes of the response to let through, then close
        self.cuts = 0
        self.before_range = {}      # {n: hook}: hook() runs before the n-th ranged GET goes on
        self.ranges_seen = 0
        self.after_bytes = None     # (n, hook): hook() runs once n response bytes went through
        self.response_bytes = 0
        self.lock = threading.Lock()
        self.sockets = []
        threading.Thread(target=self._accept, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        _shut(self.listener)  # wakes the accepting thread: close() alone would not
        self.listener.close()
        with self.lock:
            for s in self.sockets:
                s.close()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, server]
            budget = {"left": None}  # bytes the current response may still send
            threading.Thread(target=self._requests, args=(client, server, budget),
                             daemon=True).start()
            threading.Thread(target=self._responses, args=(server, client, budget),
                             daemon=True).start()

    def _requests(self, client, server, budget):
        """Client to server: forwards everything, parsing each request's head (the reads
        send no bodies; a request with one is forwarded whole)."""
        pending = b""
        try:
            while True:
                data = client.recv(65536)
                if not data:
                    break
                pending += data
                while b"\r\n\r\n" in pending:
                    head, _, rest = pending.partition(b"\r\n\r\n")
                    lines = head.decode("latin-1").split("\r\n")
                    method, target = lines[0].split(" ")[:2]
                    headers = {k.strip().lower(): v.strip()
                               for k, _, v in (line.partition(":") for line in lines[1:])}
                    body = int(headers.get("content-length", 0))
                    if len(rest) < body:
                        break  # the body is not all here yet: forward it whole later
                    hook = None
                    with self.lock:
                        self.requests.append((method, target, headers))
                        if method == "GET" and "range" in headers:
                            self.ranges_seen += 1
                            hook = self.before_range.pop(self.ranges_seen, None)
                            if self.cut_next_range is not None:
                                budget["left"] = self.cut_next_range
                                self.cut_next_range = None
                                self.cuts += 1
                    if hook is not None:
                        hook()
                    server.sendall(pending[:len(head) + 4 + body])
                    pending = rest[body:]
        except OSError:
            pass
        finally:
            for s in (client, server):
                _shut(s)

    def _responses(self, server, client, budget):
        try:
            while True:
                data = server.recv(65536)
                if not data:
                    break
                hook = None
                with self.lock:
                    self.response_bytes += len(data)
                    if self.after_bytes is not None and \
                            self.response_bytes >= self.after_bytes[0]:
                        hook, self.after_bytes = self.after_bytes[1], None
                if hook is not None:
                    hook()
                left = budget["left"]
                if left is not None:
                    client.sendall(data[:left])
                    budget["left"] = left - len(data[:left])
                    if budget["left"] == 0:
                        break  # drop the connection in the middle of the body
                    continue
                client.sendall(data)
        except OSError:
            pass
        finally:
            for s in (client, server):
                _shut(s)


def _shut(s):
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
