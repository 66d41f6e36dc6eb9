#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark beyond the unit tests (tests/library/test_bench.c in 10-c, tests/cli/test_bench.py
# in 20-cli): the tool built with no peer library at all still builds, runs and lists every
# peer as not built; the pinned peers run, each named ISA-L kernel where this CPU runs it,
# beside crcforge masked to AVX2; scripts/benchmarks.sh, the one command that regenerates
# docs/benchmarks.md, and scripts/tune/sweep.sh, the one that measures a CPU family's tuning
# table, run end to end in their --quick modes into a scratch directory.
# needs: build venv install-isal install-libdeflate
# weight: 130
# time limit: 20m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd cmake cmake
need_cmd cc build-essential
need_cmd python3 python3
need_file /opt/crcforge-peers/isa-l-2.32.1/lib/libisal.a "ISA-L 2.32.1 (bash .ci/install-isal.sh)"
need_file /opt/crcforge-peers/libdeflate-1.26/lib/libdeflate.a \
  "libdeflate 1.26 (bash .ci/install-libdeflate.sh)"
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

# The pinned peers (.ci/install-isal.sh, .ci/install-libdeflate.sh), their versions read
# from the libraries: ISA-L 2.32.1 through its dispatcher and through every named kernel
# this CPU runs, by the tiers /proc/cpuinfo's flags give (ISA-L's dispatcher's tests), all
# agreeing with crcforge; crcforge masked to AVX2 meets ISA-L's AVX2 kernels by name.
bash "$(dirname "$0")/steps/build.sh" crcforge >/dev/null
CRCFORGE_CPU_MASK=sse4.1,sse4.2,pclmulqdq,avx2,vpclmulqdq build/crcforge bench --quick \
  -a crc32c -a crc32 -a crc64-xz -a crc64-nvme -a CRC-64/ECMA-182 --sizes 64,4K -i auto \
  -i isa-l -i libdeflate --json="$scratch/peers.json" >/dev/null
python3 - "$scratch/peers.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
versions = {p["library"]: p.get("version") for p in doc["peers"] if p["built"]}
assert versions.get("isa-l") == "2.32.1", versions
assert versions.get("libdeflate") == "1.26", versions
assert "avx512" not in doc["features"], doc["features"]
flags = set()
for line in open("/proc/cpuinfo"):
    if line.startswith("flags"):
        flags = set(line.split(":", 1)[1].split())
        break
t01 = {"sse4_1", "pclmulqdq"}
t02 = t01 | {"avx"}
tavx2 = t02 | {"avx2", "gfni", "vaes", "vpclmulqdq"}
t10 = tavx2 | {"avx512f", "avx512vl", "avx512bw", "avx512cd", "avx512dq", "avx512_vbmi2",
               "avx512_vnni", "avx512_bitalg", "avx512_vpopcntdq"}
runs = {t for t, need in (("01", t01), ("02", t02), ("avx2", tavx2), ("10", t10))
        if need <= flags}
kernels = {"CRC-32/ISCSI": {"01": "crc32_iscsi_01", "02": "crc32_iscsi_by8_02",
                            "avx2": "crc32_iscsi_avx2", "10": "crc32_iscsi_by16_10"},
           "CRC-32/ISO-HDLC": {"01": "crc32_gzip_refl_by8", "avx2": "crc32_gzip_refl_avx2",
                               "10": "crc32_gzip_refl_by16_10"},
           "CRC-64/XZ": {"01": "crc64_ecma_refl_by8", "avx2": "crc64_ecma_refl_avx2",
                         "10": "crc64_ecma_refl_by16_10"},
           "CRC-64/NVME": {"01": "crc64_rocksoft_refl_by8", "avx2": "crc64_rocksoft_refl_avx2",
                           "10": "crc64_rocksoft_refl_by16_10"},
           "CRC-64/ECMA-182": {"01": "crc64_ecma_norm_by8", "avx2": "crc64_ecma_norm_avx2",
                               "10": "crc64_ecma_norm_by16_10"}}
dispatchers = {"CRC-32/ISCSI": "crc32_iscsi", "CRC-32/ISO-HDLC": "crc32_gzip_refl",
               "CRC-64/XZ": "crc64_ecma_refl", "CRC-64/NVME": "crc64_rocksoft_refl",
               "CRC-64/ECMA-182": "crc64_ecma_norm"}
results = doc["results"]
assert all(r["status"] == "ok" for r in results), [r for r in results if r["status"] != "ok"]
for model, named in kernels.items():
    got = {r["implementation"] for r in results if r["algorithm"] == model and r["kind"] == "peer"
           and r["implementation"].startswith("isa-l ")}
    want = {"isa-l " + dispatchers[model]} | {"isa-l " + k for t, k in named.items() if t in runs}
    assert got == want, (model, sorted(got), sorted(want))
print(f"pinned peers: isa-l {versions['isa-l']} (tiers {sorted(runs)} by /proc/cpuinfo), "
      f"libdeflate {versions['libdeflate']}, zlib {versions.get('zlib')}; "
      f"{len(results)} results agree with crcforge")
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
for part in ("## Headline", "crcforge sum -j 2", "cat FILE > /dev/null", "--keys", "CPU: **",
             "## Paired ratios", "median spread over the cells: paired",
             "## Realistic call patterns", "a stream of mixed sizes (1024 calls",
             "latency loop (each call's address waits"):
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
# The full sweep whole twice (three times in full), the runs pooled into the table.
full = sorted(d.glob("sweep-*.json"))
first = [f for f in full if not f.name.startswith("sweep-run")]
second = [f for f in full if f.name.startswith("sweep-run2-")]
assert first and len(first) == len(second), (first, second)
runs = [f for f in d.glob("*.json") if f.name != "sources.json"]
assert f"the {len(runs)} .json files" in " ".join(table.split()), table[:800]
print(f"scripts/tune/sweep.sh --quick: {len(runs)} runs, {family}.h of "
      f"{len(paths)} paths")
PY
