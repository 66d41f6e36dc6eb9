# SPDX-License-Identifier: MIT
"""`crcforge bench`: argument errors, CSV/JSON/SVG shape, a quick smoke run."""
import csv
import io
import json
import pathlib
import re
import shutil
import statistics
import subprocess
import xml.etree.ElementTree as ET
import zlib

import pytest

pytestmark = pytest.mark.c_only  # a command of the C tool only

QUICK_SIZES = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 1 << 20]


@pytest.mark.parametrize("args, culprit", [
    (["--sizes", "8,x"], "'x'"),
    (["--sizes", "-8"], "'-8'"),
    (["--sizes", "5G"], "'5G'"),
    (["--sizes", ""], "empty"),
    (["--offsets", "64"], "'64'"),
    (["-a", "CRC-99/NOPE"], "CRC-99/NOPE"),
    (["-i", "warp-drive"], "warp-drive"),
    (["--repeat", "0"], "'0'"),
    (["--clock", "sundial"], "'sundial'"),
    (["--min-time", "ms"], "'ms'"),
    (["--min-time", "1.2.3"], "'1.2.3'"),
    (["--min-time", "."], "'.'"),
    (["--min-time", "10001"], "'10001'"),
    (["--frobnicate"], "--frobnicate"),
    (["--sizes"], "--sizes"),
    (["--csv", "--json"], "--csv and --json"),
    (["--loop", "sideways"], "'sideways'"),
    (["--keys", "--loop", "latency"], "--keys times both loops on its own sizes: not with --loop"),
    (["--keys", "--mixed"], "not with --mixed"),
    (["--mixed", "--sizes", "8"], "--mixed makes its own sizes and offsets: not with --sizes"),
    (["--mixed", "--offsets", "0"], "not with --offsets"),
])
def test_bad_arguments(run, args, culprit):
    code, out, err = run("bench", "--quick", *args)
    assert code == 2 and culprit in err and out == b"", (args, err)


def quick(run, tmp_path, *args):
    paths = {k: tmp_path / f"bench.{k}" for k in ("json", "csv", "svg")}
    code, out, err = run("bench", "--quick", *args, f"--json={paths['json']}",
                         f"--csv={paths['csv']}", "--plot", str(paths["svg"]))
    assert code == 0, err
    return (out.decode(), json.loads(paths["json"].read_text()),
            list(csv.DictReader(io.StringIO(paths["csv"].read_text()))),
            ET.parse(paths["svg"]).getroot())


def test_quick_smoke_table_json_csv_svg(run, tmp_path):
    table, doc, rows, svg = quick(run, tmp_path, "-a", "crc32c", "-a", "crc32")
    for title in ("CRC-32/ISCSI (crc32c), buffers 64-byte aligned",
                  "CRC-32/ISO-HDLC (crc32), buffers offset by 1", "auto vs fastest peer",
                  "auto vs portable"):
        assert title in table
    assert doc["tool"] == "crcforge bench" and doc["mode"] == "throughput"
    assert doc["clock"] == "thread-cpu" and "clock: this thread's CPU time" in table
    assert doc["cpu"] and doc["cpu"] in table
    results = doc["results"]
    assert len(rows) == len(results) > 0
    built = {p["library"] for p in doc["peers"] if p["built"]}
    for p in doc["peers"]:
        if not p["built"]:
            assert p["why_not"] and f"not built: {p['library']}" in table
    for algo in ("CRC-32/ISCSI", "CRC-32/ISO-HDLC"):
        mine = [r for r in results if r["algorithm"] == algo]
        impls = {r["implementation"] for r in mine}
        assert {"auto", "portable"} <= impls
        assert {i.split()[0] for i in impls if i not in ("auto", "portable")} >= (
            built - {"zlib", "libdeflate"} if algo == "CRC-32/ISCSI" else built)
        for impl in impls:
            got = sorted((r["size"], r["offset"]) for r in mine if r["implementation"] == impl)
            assert got == sorted((s, o) for s in QUICK_SIZES for o in (0, 1)), impl
    for r, row in zip(results, rows):
        assert r["status"] == "ok", r  # every peer agreed with crcforge
        assert r["ns_best"] <= r["ns_median"] and r["iterations"] >= 1
        assert abs(r["gbps_median"] - r["size"] / r["ns_median"]) < 1e-3 * r["gbps_median"] + 1e-4
        assert (row["algorithm"], row["implementation"], int(row["size"]), int(row["offset"])) == (
            r["algorithm"], r["implementation"], r["size"], r["offset"])
        assert float(row["gbps_median"]) == pytest.approx(r["gbps_median"], rel=1e-3, abs=1e-4)
        assert (row["cycles_per_byte_best"] == "") == (r["cycles_per_byte_best"] is None)

    ns = "{http://www.w3.org/2000/svg}"
    assert svg.tag == f"{ns}svg"
    texts = ["".join(t.itertext()) for t in svg.iter(f"{ns}text")]
    assert any("CRC-32/ISCSI (crc32c) throughput on " + doc["cpu"] in t for t in texts)
    assert any("buffer size in bytes (log scale)" in t for t in texts)
    assert "1M" in texts and "8" in texts  # x tick labels
    series = [g.get("data-name") for g in svg.iter(f"{ns}g") if g.get("class") == "series"]
    want = [r["implementation"] for r in results if r["size"] == 8 and r["offset"] == 0]
    assert series == want
    for g in svg.iter(f"{ns}g"):
        if g.get("class") == "series":
            points = g.find(f"{ns}polyline").get("points").split()
            assert len(points) == len(QUICK_SIZES)


def test_csv_and_json_on_stdout(run):
    code, out, err = run("bench", "--quick", "-a", "crc16-xmodem", "--sizes", "1,3K",
                         "--offsets", "0", "--csv")
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    assert code == 0 and {int(r["size"]) for r in rows} == {1, 3072}
    code, out, err = run("bench", "--quick", "-a", "crc64-nvme", "--sizes", "100",
                         "--offsets", "3", "--json")
    doc = json.loads(out)
    assert code == 0 and {r["offset"] for r in doc["results"]} == {3}
    assert (doc["repeat"], doc["min_sample_seconds"]) == (5, 0.0001)  # --quick's defaults
    code, out, err = run("bench", "--quick", "--repeat", "3", "--min-time", "1.5", "--sizes", "8",
                         "--offsets", "0", "--clock", "wall", "--json")
    doc = json.loads(out)
    assert (doc["repeat"], doc["min_sample_seconds"]) == (3, 0.0015)  # given ones win
    assert doc["clock"] == "wall"


def test_unwritable_output_named(run, tmp_path):
    bad = tmp_path / "no-such-dir" / "plot.svg"
    code, _, err = run("bench", "--quick", "--sizes", "8", "--offsets", "0", "-i", "portable",
                       "--plot", str(bad))
    assert code == 2 and str(bad) in err


# One tiny measurement, so that a check that does not stop the run costs nothing.
ROOT = pathlib.Path(__file__).resolve().parents[2]
PROBE = ["--sizes", "8", "--offsets", "0", "--repeat", "1", "--min-time", "0"]


@pytest.mark.parametrize("args, message", [
    (["-i", "portable"] * 65, "bench: more than 64 implementations"),
    (["--csv="], "--csv=: empty file name"),
    (["--json="], "--json=: empty file name"),
    (["--plot", ""], "--plot: empty file name"),
])
def test_limits_and_empty_file_names(run, args, message):
    code, out, err = run("bench", *PROBE, "-i", "portable", *args)
    assert (code, out) == (2, b"") and message in err, err


@pytest.mark.parametrize("option", ["--csv=", "--json=", "--plot"])
def test_unwritable_output_found_before_measuring(run, tmp_path, option):
    bad = tmp_path / "no-such-dir" / "report"
    args = [option + str(bad)] if option.endswith("=") else [option, str(bad)]
    code, out, err = run("bench", *PROBE, "-i", "portable", *args)
    assert (code, out) == (2, b""), err  # no table: it stopped before measuring
    assert f"crcforge: {bad}: No such file or directory" in err
    code, out, err = run("bench", *PROBE, "-i", "portable", "--json=" + str(tmp_path))
    assert (code, out) == (2, b"") and f"crcforge: {tmp_path}: Is a directory" in err


def test_duplicates_measured_once(run):
    custom = "width=16,poly=0x1021,init=0xffff,refin=false,refout=false,xorout=0"
    code, out, err = run("bench", *PROBE, "-i", "portable", "--csv", "-a", "crc32c",
                         "-a", "CRC-32/ISCSI", "-a", "crc32c", "-a", custom, "-a", custom,
                         "--sizes", "8,8B,8", "--offsets", "0,0")
    assert code == 0, err
    rows = [(r["algorithm"], r["size"], r["offset"])
            for r in csv.DictReader(io.StringIO(out.decode()))]
    assert rows == [("CRC-32/ISCSI", "8", "0"), ("custom", "8", "0")]


def test_impl_filter(run):
    code, out, err = run("bench", "--quick", "-a", "crc32", "--sizes", "64", "--offsets", "0",
                         "-i", "portable", "-i", "auto", "--json")
    assert code == 0, err
    assert [r["implementation"] for r in json.loads(out)["results"]] == ["auto", "portable"]


def test_read_baseline(run):
    """`-i read`: a plain read of the same buffers beside the CRCs, only when named, never
    taken for a peer."""
    code, out, err = run("bench", "--quick", "-a", "crc32", "-a", "CRC-16/XMODEM",
                         "--sizes", "100,4096", "--offsets", "0,1", "--json")
    assert code == 0, err
    assert "read" not in {r["implementation"] for r in json.loads(out)["results"]}
    code, out, err = run("bench", "--quick", "-a", "crc32", "-a", "CRC-16/XMODEM",
                         "--sizes", "100,4096", "--offsets", "0,1", "-i", "auto", "-i", "read",
                         "--json")
    assert code == 0, err
    results = json.loads(out)["results"]
    reads = [r for r in results if r["implementation"] == "read"]
    assert len(reads) == 8  # two models, two sizes, two offsets
    assert all(r["kind"] == "baseline" and r["status"] == "ok" and r["gbps_median"] > 0
               for r in reads)
    assert {r["kind"] for r in results if r["implementation"] == "auto"} == {"crcforge"}
    code, out, err = run("bench", "--quick", "-a", "crc32", "--sizes", "4096", "--offsets", "0",
                         "-i", "auto", "-i", "read")
    assert code == 0, err
    row = [line for line in out.decode().splitlines() if line.startswith("4 KiB")][0]
    assert row.split()[-1] == "-" and row.split()[-2] == "-"  # no peer to compare with


def test_keys_mode_has_both_loops(run):
    code, out, err = run("bench", "--quick", "--keys", "-a", "crc16-xmodem", "--offsets", "0",
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["mode"] == "keys"
    results = doc["results"]
    assert {r["size"] for r in results} == {5, 8, 11, 16, 20, 24, 31, 32, 48, 63, 64}
    for impl in {r["implementation"] for r in results}:
        loops = sorted(r["loop"] for r in results if r["implementation"] == impl)
        assert loops == ["latency"] * 11 + ["throughput"] * 11
    code, out, _ = run("bench", "--quick", "--keys", "--sizes", "5", "--offsets", "0")
    assert code == 0 and "throughput loop / latency loop" in out.decode()


def cpuinfo_first(key):
    """The first /proc/cpuinfo value of key, or None."""
    try:
        lines = open("/proc/cpuinfo").read().splitlines()
    except OSError:
        return None
    for line in lines:
        k, sep, v = line.partition(":")
        if sep and k.strip() == key:
            return v.strip()
    return None


def test_json_says_what_was_measured(run):
    """The tuning family and table in use, the CPU's identity, and the variables set."""
    code, out, err = run("cpu", env={"CRCFORGE_TUNE": "fold_accumulators=2"})
    assert code == 0, err
    tuning = [line for line in out.decode().splitlines() if line.startswith("tuning: ")]
    code, out, err = run("bench", *PROBE, "-i", "portable", "--json",
                         env={"CRCFORGE_TUNE": "fold_accumulators=2"})
    assert code == 0, err
    doc = json.loads(out)
    assert doc["environment"]["CRCFORGE_TUNE"] == "fold_accumulators=2"
    family, table = doc["tuning"]["family"], doc["tuning"]["table"]
    if tuning:  # "tuning: zen4 (...)" or "tuning: zen4, not measured yet: the T table (...)"
        words = tuning[0].split()
        assert words[1].rstrip(",") == family
        assert table == (family if words[2].startswith("(") else words[6])
    else:
        assert family == table == "none"
    vendor, fam, model = (cpuinfo_first(k) for k in ("vendor_id", "cpu family", "model"))
    assert doc["cpu_id"]["vendor"] == (vendor or "")
    assert doc["cpu_id"]["family"] == (int(fam) if fam else -1)
    assert doc["cpu_id"]["model"] == (int(model) if model else -1)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc["date"])
    code, out, err = run("bench", *PROBE, "-i", "portable",
                         env={"CRCFORGE_TUNE": "fold_accumulators=2"})
    assert f"tuning: family {family}, table {table}, CRCFORGE_TUNE=fold_accumulators=2\n" in (
        out.decode())
    code, out, err = run("bench", *PROBE, "-i", "portable", "--json")
    assert "CRCFORGE_TUNE" not in json.loads(out)["environment"]


def test_json_records_the_tuning_parameters(run):
    """The table's parameters as its header in src/x86/tuning/ writes them, and those in
    use: the table's with CRCFORGE_TUNE's applied (the text form says the same)."""
    env = {"CRCFORGE_TUNE": "fold_accumulators=2,hybrid_qwords=3"}
    code, out, err = run("bench", *PROBE, "-i", "portable", "--json", env=env)
    assert code == 0, err
    tuning = json.loads(out)["tuning"]
    if tuning["family"] == "none":
        assert tuning["parameters"] == tuning["table_parameters"] == {}
        return
    header = next(h.read_text() for h in (ROOT / "src" / "x86" / "tuning").glob("*.h")
                  if f'.family = "{tuning["table"]}",' in h.read_text())
    own = {k: int(v) for k, v in re.findall(r"\.(\w+) = (\d+),", header)}
    assert tuning["table_parameters"] == own
    assert tuning["parameters"] == {**own, "fold_accumulators": 2, "hybrid_qwords": 3}
    code, out, err = run("bench", *PROBE, "-i", "portable", env=env)
    assert code == 0, err
    text = ",".join(f"{k}={v}" for k, v in tuning["parameters"].items())
    assert f"\ntuning parameters: {text}\n" in out.decode()


def test_bench_refuses_a_setting_the_library_cannot_take(run):
    """Figures timed under an unknown feature name would be filed as timed under the mask
    asked for: bench times nothing and exits 2, while other commands only warn."""
    env = {"CRCFORGE_CPU_MASK": "sse4.2,avx-512f"}
    code, out, err = run("bench", *PROBE, "-i", "portable", "--json", env=env)
    assert code == 2 and out == b""
    assert "unknown feature 'avx-512f'" in err
    assert "bench: nothing timed: CRCFORGE_CPU_MASK=sse4.2,avx-512f" in err
    code, out, err = run("cpu", env=env)
    assert code == 0 and "warning: CRCFORGE_CPU_MASK=sse4.2,avx-512f" in err


def test_json_lists_the_models_measured(run, catalogue):
    """Each model once, with its parameters, as `crcforge list` gives them."""
    custom = "width=16,poly=0x1021,init=0xffff,refin=false,refout=false,xorout=0"
    code, out, err = run("bench", *PROBE, "-i", "portable", "--json", "-a", "crc32",
                         "-a", "CRC-64/ECMA-182", "-a", custom)
    assert code == 0, err
    models = json.loads(out)["models"]
    assert [m["name"] for m in models] == ["CRC-32/ISO-HDLC", "CRC-64/ECMA-182", "custom"]
    for m in models[:2]:
        want = next(c for c in catalogue if c["name"] == m["name"])
        assert (m["width"], int(m["poly"], 16), int(m["init"], 16), m["refin"], m["refout"],
                int(m["xorout"], 16)) == (want["width"], want["poly"], want["init"],
                                          want["refin"], want["refout"], want["xorout"])
    # "chosen": the paths the dispatcher runs each model on, as `crcforge cpu` lists them.
    code, cpu, err = run("cpu")
    assert code == 0, err
    listed = [line.split() for line in cpu.decode().splitlines()]
    assert ["CRC-32/ISO-HDLC", models[0]["chosen"]] in listed
    code, impls, err = run("cpu", "--impls")
    assert code == 0, err
    for band in models[2].pop("chosen").split(","):
        assert band.split("<")[0] in impls.decode().split(), band
    assert models[2] == {"name": "custom", "width": 16, "poly": "0x1021", "init": "0xffff",
                         "refin": False, "refout": False, "xorout": "0x0"}
    code, out, err = run("bench", *PROBE, "-i", "portable", "--json", "-a", custom,
                         env={"CRCFORGE_IMPL": "portable"})
    assert code == 0, err
    assert json.loads(out)["models"][0]["chosen"] == "portable"


def needed(path):
    """The shared libraries an ELF file names as NEEDED (readelf -d)."""
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True,
                         check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def test_tool_links_libc_only(crcforge_bin, tmp_path):
    """The tool needs libc alone (its dynamic loader included), and libcrcforge when linked
    shared: no peer library, no libm.  Alone in a directory, without the benchmark program
    beside it, it still sums, and `bench` names the program it cannot find."""
    libs = needed(crcforge_bin)
    assert "libc.so.6" in libs, libs
    others = [lib for lib in libs if lib != "libc.so.6" and not lib.startswith("ld-linux")
              and not lib.startswith("libcrcforge.so")]
    assert others == [], f"crcforge needs {others}"
    alone = tmp_path / "crcforge"
    shutil.copy(crcforge_bin, alone)
    data = tmp_path / "data"
    data.write_bytes(b"123456789" * 1000)
    p = subprocess.run([alone, "sum", "-a", "crc32", data], capture_output=True, text=True)
    assert (p.returncode, p.stdout) == (0, f"{zlib.crc32(data.read_bytes()):08x}  {data}\n")
    p = subprocess.run([alone, "bench", "--quick"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "", p
    assert f"{tmp_path}/crcforge-bench" in p.stderr and "not installed" in p.stderr, p.stderr


def test_bench_reports_every_peer(run):
    """`crcforge bench` runs the benchmark program, which links the peers: each known peer
    library is listed as built (and timed) or not built (and why)."""
    code, out, err = run("bench", *PROBE, "-a", "crc32", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert {p["library"] for p in doc["peers"]} == {"isa-l", "libdeflate", "zlib", "crc-fast"}
    timed = {r["implementation"].split()[0] for r in doc["results"] if r["kind"] == "peer"}
    for p in doc["peers"]:
        assert (p["library"] in timed) == p["built"], p
        assert p["built"] or f"not built: {p['library']} ({p['why_not']})" in run(
            "bench", *PROBE, "-a", "crc32")[1].decode(), p


def quartiles(values):
    """(q1, median, q3), linear between neighbours."""
    if len(values) == 1:
        return values * 3
    return statistics.quantiles(values, n=4, method="inclusive")


def test_paired_rounds(run):
    """Every subject of one (algorithm, loop, size, offset) has the same number of rounds;
    its best and median are those of its rounds; its paired ratios, recomputed here from
    the rounds, are the median and quartiles over the rounds of the fastest peer's time,
    or auto's, in that round over its own."""
    code, out, err = run("bench", "-a", "crc32", "-a", "crc16-xmodem", "--sizes", "64,4K",
                         "--offsets", "0,1", "--repeat", "9", "--min-time", "0.05", "--json")
    assert code == 0, err
    doc = json.loads(out)
    groups = {}
    for r in doc["results"]:
        groups.setdefault((r["algorithm"], r["loop"], r["size"], r["offset"]), []).append(r)
    assert len(groups) == 8
    for key, rows in groups.items():
        assert all(len(r["rounds_ns"]) == 9 for r in rows), key
        peers = [r["rounds_ns"] for r in rows if r["kind"] == "peer"]
        auto = next(r["rounds_ns"] for r in rows if r["implementation"] == "auto")
        for r in rows:
            t = r["rounds_ns"]
            assert r["ns_best"] == pytest.approx(min(t), abs=2e-3), r
            assert r["ns_median"] == pytest.approx(statistics.median(t), abs=2e-3), r
            for name, ref in (("vs_fastest_peer", [min(p[k] for p in peers) for k in range(9)]
                               if peers else None), ("vs_auto", auto)):
                if ref is None:
                    assert r[name] is None, (key, r["implementation"])
                    continue
                q1, med, q3 = quartiles([ref[k] / t[k] for k in range(9)])
                got = r[name]
                # The JSON gives ratios to 4 decimals: a small one is off by up to half
                # of the last, more than 2e-3 of it.
                assert (got["q1"], got["median"], got["q3"]) == pytest.approx(
                    (q1, med, q3), rel=2e-3, abs=5.1e-5), (key, r["implementation"], name)
        assert next(r for r in rows if r["implementation"] == "auto")["vs_auto"] == {
            "median": 1.0, "q1": 1.0, "q3": 1.0}
    assert any(r["vs_fastest_peer"] for r in doc["results"]) == any(
        p["built"] for p in doc["peers"])


def test_latency_loop(run):
    """--loop latency: every measurement by the dependent-call loop, 8 B to 4 KiB unless
    --sizes says otherwise, against the same peers in paired rounds."""
    code, out, err = run("bench", "--quick", "--loop", "latency", "-a", "crc32c", "--offsets", "0",
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["mode"] == "latency"
    results = doc["results"]
    assert {r["loop"] for r in results} == {"latency"}
    assert sorted({r["size"] for r in results}) == [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
    assert all(r["status"] == "ok" and len(r["rounds_ns"]) == 5 for r in results)
    if any(p["built"] and p["library"] in ("isa-l", "crc-fast") for p in doc["peers"]):
        assert all(r["vs_fastest_peer"] for r in results)
    code, out, err = run("bench", "--quick", "--loop", "latency", "-a", "crc32", "--sizes", "100",
                         "--offsets", "0")
    assert code == 0, err
    text = out.decode()
    assert "latency loop (each call's address waits for the previous result)" in text
    assert re.search(r"^100 B +\d", text, re.M), text


def test_mixed_stream(run):
    """--mixed: one measurement per model and subject over the stream of mixed sizes at
    random offsets, every call checked, in paired rounds, by either loop."""
    for loop in ("throughput", "latency"):
        code, out, err = run("bench", "--quick", "--mixed", "--loop", loop, "-a", "crc32c",
                             "-a", "crc64-nvme", "--json")
        assert code == 0, err
        doc = json.loads(out)
        assert doc["mode"] == "mixed" and "70% 16-256 B, 25% 256 B-8 KiB, 5% 8-64 KiB" in (
            doc["mixed"])
        results = doc["results"]
        for algo in ("CRC-32/ISCSI", "CRC-64/NVME"):
            mine = [r for r in results if r["algorithm"] == algo]
            impls = [r["implementation"] for r in mine]
            assert len(impls) == len(set(impls)) and "auto" in impls, impls
        # The mean length of the stream: between the classes' means weighted as stated,
        # give or take what 1024 draws move it.
        assert {r["offset"] for r in results} == {None}
        assert len({r["size"] for r in results}) == 1
        assert 2400 <= results[0]["size"] <= 3600, results[0]["size"]
        assert all(r["status"] == "ok" and r["loop"] == loop and len(r["rounds_ns"]) == 5
                   for r in results)
    code, out, err = run("bench", "--quick", "--mixed", "-a", "crc32", "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    assert rows and all(r["offset"] == "" and r["status"] == "ok" for r in rows)
    code, out, err = run("bench", "--quick", "--mixed", "-a", "crc32")
    assert "a stream of mixed sizes (1024 calls" in out.decode() and "mean " in out.decode()
