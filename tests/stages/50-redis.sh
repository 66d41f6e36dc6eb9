#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# crcforge_keyslot and `crcforge keyslot` against a real Redis server's CLUSTER KEYSLOT:
# starts redis-server (cluster mode, loopback only, no persistence) in a temporary
# directory, compares 10,000+ keys, stops the server.  Exit 77 when redis-server is missing.
# needs: build venv
# weight: 5
# time limit: 10m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd redis-server redis-server
need_cmd python3 python3
need_cmd cmake cmake
need_cmd cc build-essential
require_met
build=${CRCFORGE_BUILD:-build}
CRCFORGE_BUILD=$build bash "$(dirname "$0")/steps/build.sh" >/dev/null

dir=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT

# A port p with p + 10000 free too (the cluster bus), p <= 55535 as Redis requires.
free_port() {
  python3 - <<'PY'
import random, socket
for _ in range(200):
    port = random.randrange(20000, 55536)
    try:
        for p in (port, port + 10000):
            with socket.socket() as s:
                s.bind(("127.0.0.1", p))
    except OSError:
        continue
    print(port)
    break
PY
}

# A port taken between probing and binding is retried with another one.
for attempt in 1 2 3; do
  port=$(free_port)
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --cluster-enabled yes \
    --cluster-config-file "$dir/nodes.conf" --save '' --appendonly no --daemonize no \
    --logfile "$dir/redis.log" &
  pid=$!
  for _ in $(seq 100); do
    if python3 - "$port" <<'PY' 2>/dev/null; then break; fi
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1)
s.sendall(b"*1\r\n$4\r\nPING\r\n")
sys.exit(0 if s.recv(16).startswith(b"+PONG") else 1)
PY
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then break; fi
  echo "50-redis: redis-server did not start on port $port (attempt $attempt):"
  tail -n 5 "$dir/redis.log" || true
  pid=
done
if [ -z "$pid" ]; then
  echo "50-redis: could not start redis-server"
  exit 1
fi
echo "50-redis: $(redis-server --version | cut -d' ' -f1-3) on 127.0.0.1:$port, pid $pid"
timeout 300 python3 tests/redis/keyslot_vs_redis.py "$port" "$build" ${CRCFORGE_TEST_SEED:-}
