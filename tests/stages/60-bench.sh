#!/usr/bin/env bash
# The benchmark beyond the unit tests (tests/library/test_bench.c in 10-c, tests/cli/test_bench.py
# in 20-cli): the tool built with no peer library at all still builds, runs and lists every
# peer as not built; built with the peers held to their AVX2-CPU kernels, it runs them
# beside crcforge masked to AVX2; scripts/benchmarks.sh, the one command that regenerates
# docs/benchmarks.md, and scripts/tune/sweep.sh, the one that measures a CPU family's tuning
# table, run end to end in their --quick modes into a scratch directory.
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd cc build-essential
need_cmd python3 python3
require_met
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake -S . -B build-nopeers -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_WERROR=ON \
  -DCRCFORGE_BENCH_PEERS=OFF >/dev/null
cmake --build build-nopeers -j "$(nproc)" --target crcforge test_bench >/dev/null
build-nopeers/tests/library/test_bench
build-nopeers/crcforge bench --quick -a crc32 --sizes 64,4K --json="$scratch/nopeers.json" \
  >"$scratch/nopeers.txt"
python3 - "$scratch" <<'PY'
import json, sys
d = sys.argv[1]
doc = json.load(open(f"{d}/nopeers.json"))
assert [p["built"] for p in doc["peers"]] == [False] * 4, doc["peers"]
assert {r["kind"] for r in doc["results"]} == {"crcforge"}
table = open(f"{d}/nopeers.txt").read()
for lib in ("isa-l", "libdeflate", "zlib", "crc-fast"):
    assert f"not built: {lib}" in table, lib
print("no-peer build: bench runs, every peer listed as not built")
PY

# Peers held to their AVX2-CPU kernels (cmake -DCRCFORGE_BENCH_PEER_CPU=avx2), beside
# crcforge masked the same way: every peer still agrees with crcforge, isa-l runs the
# kernels its dispatcher picks without AVX-512, and crc-fast (when cargo built it) says it
# chose a kernel of no AVX-512 tier.
cmake -S . -B build-avx2peers -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_WERROR=ON \
  -DCRCFORGE_BENCH_CRC_FAST=ON -DCRCFORGE_BENCH_PEER_CPU=avx2 >/dev/null 2>&1
cmake --build build-avx2peers -j "$(nproc)" --target crcforge >/dev/null
CRCFORGE_CPU_MASK=sse4.1,sse4.2,pclmulqdq,avx2,vpclmulqdq build-avx2peers/crcforge bench --quick \
  -a crc32c -a crc32 -a crc64-xz -a crc64-nvme --sizes 64,4K --json="$scratch/avx2peers.json" \
  >/dev/null
python3 - "$scratch" <<'PY'
import json, sys
doc = json.load(open(f"{sys.argv[1]}/avx2peers.json"))
assert doc["peer_cpu"] == "avx2", doc["peer_cpu"]
assert "avx512" not in doc["features"], doc["features"]
peers = [r for r in doc["results"] if r["kind"] == "peer"]
assert peers and all(r["status"] == "ok" for r in peers), [r for r in peers if r["status"] != "ok"]
isal = {r["implementation"] for r in peers if r["implementation"].startswith("isa-l")}
held = {"isa-l crc32_iscsi_01", "isa-l crc32_gzip_refl_by8_02", "isa-l crc64_ecma_refl_by8"}
assert isal == held, isal
crc_fast = [p for p in doc["peers"] if p["library"] == "crc-fast"][0]
if crc_fast["built"]:
    assert "avx512" not in crc_fast["kernels"], crc_fast
print(f"peers held to AVX2: {len(peers)} peer results agree with crcforge; isa-l {sorted(isal)}; "
      f"crc-fast {crc_fast.get('kernels', 'not built')}")
PY

# Over a copy of the committed page: the pasted object-store section must survive.
mkdir -p "$scratch/docs" && cp docs/benchmarks.md "$scratch/docs/"
CRCFORGE_BENCH_BUILD=build bash scripts/benchmarks.sh --quick --out "$scratch/docs" 2>/dev/null
python3 - "$scratch/docs" docs/benchmarks.md <<'PY'
import pathlib, re, sys, xml.etree.ElementTree as ET
d = pathlib.Path(sys.argv[1])
page = (d / "benchmarks.md").read_text()
section = re.compile(r"^<!-- objectstore:begin.*?^<!-- objectstore:end -->$", re.M | re.S)
committed = section.search(pathlib.Path(sys.argv[2]).read_text())
assert committed and committed.group(0) in page, "object-store section not carried over"
for algo in ("crc32c", "crc32", "crc64-nvme", "crc64-xz", "crc16-xmodem"):
    assert f"(`-a {algo}`)" in page and f"benchmarks-{algo}.svg" in page, algo
    ET.parse(d / f"benchmarks-{algo}.svg")
for part in ("## Headline", "crcforge sum -j 2", "cat FILE > /dev/null", "--keys", "CPU: **"):
    assert part in page, part
print("scripts/benchmarks.sh --quick: page, five plots, keys and -j tables, object-store section kept")
PY

bash scripts/tune/sweep.sh --quick --build build --out "$scratch/sweep" 2>/dev/null
python3 - "$scratch/sweep" build/crcforge <<'PY'
import json, pathlib, re, subprocess, sys
d, crcforge = pathlib.Path(sys.argv[1]), sys.argv[2]
family = json.loads(next(d.glob("sweep-*.json")).read_text())["tuning"]["family"]
table = (d / f"{family}.h").read_text()
name = family.replace("-", "_")
assert f"#define CRC_X86_TUNING_{name} (&crc_x86_tuning_{name})" in table, table
runnable = set(subprocess.run([crcforge, "cpu", "--impls"], capture_output=True, text=True,
                              check=True).stdout.split())
paths = set(re.findall(r'\{\d+, "(\w+)"\}', table))
assert paths and paths <= runnable, (paths, runnable)
for part in ("README.md", "sweep.log", "cpu.txt"):
    assert (d / part).stat().st_size > 0, part
for kind in ("variant-fold-", "sweep-"):
    assert list(d.glob(kind + "*.json")), kind
print(f"scripts/tune/sweep.sh --quick: {len(list(d.glob('*.json')))} runs, {family}.h of "
      f"{len(paths)} paths")
PY
