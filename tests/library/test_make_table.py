# SPDX-License-Identifier: MIT
"""scripts/tune/make_table.py: the bands and parameters it chooses from synthetic sweeps whose
best answer is known, its dynamic programme against exhaustive search, and a table it
writes built into the library and used (`crcforge cpu`, test_tuning)."""
import atexit
import importlib.util
import itertools
import json
import math
import pathlib
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

import pytest

import needs

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "tune" / "make_table.py"
_spec = importlib.util.spec_from_file_location("make_table", SCRIPT)
mt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mt)
ks = mt.kernel_sources
RECORDS = pathlib.Path(tempfile.mkdtemp(prefix="make-table-sources-"))
atexit.register(shutil.rmtree, RECORDS, True)

# The full sweep's sizes (scripts/tune/sweep.sh).
SIZES = ([*range(16, 1025, 16), *range(1152, 4097, 128), *range(4608, 16385, 512)]
         + [65536, 1 << 20, 16 << 20, 64 << 20])

MODELS = {
    "CRC-32/ISCSI": (32, 0x1EDC6F41, True),
    "CRC-32/ISO-HDLC": (32, 0x04C11DB7, True),
    "CRC-64/NVME": (64, 0xAD93D23594C93659, True),
    "CRC-64/XZ": (64, 0x42F0E1EBA9EA3693, True),
    "CRC-16/XMODEM": (16, 0x1021, False),
    "CRC-64/ECMA-182": (64, 0x42F0E1EBA9EA3693, False),
}


def model_entry(name):
    width, poly, refin = MODELS[name]
    return {"name": name, "width": width, "poly": hex(poly), "init": "0x0", "refin": refin,
            "refout": refin, "xorout": "0x0"}


def sweep_doc(times, tune=None, full=True, noise=0.0, seed=1, rounds=None, read=False):
    """A `crcforge bench --json` document: times is {model: {path: f(size) -> ns}}; a full
    sweep also times auto (as the fastest path, which the generator must ignore).  With
    `rounds`, a function (model, path, size, ns) -> [ns per round], each subject carries
    its rounds ("rounds_ns"; ns_median their median, as a sample's); with `read`, the
    baseline "read" is timed too (1 ns, through `rounds` as well)."""
    rnd = random.Random(seed)
    results = []

    def result(model, path, kind, size, offset, ns):
        r = {"algorithm": model, "implementation": path, "kind": kind, "loop": "throughput",
             "size": size, "offset": offset, "status": "ok", "ns_median": ns, "ns_best": ns}
        if rounds is not None:
            r["rounds_ns"] = rounds(model, path, size, ns)
            r["ns_median"] = statistics.median(r["rounds_ns"])
        results.append(r)

    for model, paths in times.items():
        for offset in (0, 1):
            for size in SIZES:
                cells = dict(paths)
                if full:
                    cells = {"auto": lambda z, c=cells: 0.5 * min(f(z) for f in c.values()),
                             **cells}
                for path, f in cells.items():
                    result(model, path, "crcforge", size, offset,
                           f(size) * (1 + noise * (2 * rnd.random() - 1)))
                if full:
                    result(model, "peer lib", "peer", size, offset, 1e-3)
                if read:
                    result(model, "read", "baseline", size, offset, 1.0)
    env = {"CRCFORGE_TUNE": tune} if tune is not None else {}
    return {"tool": "crcforge bench", "version": "0.1.0", "date": "2026-11-23T12:00:00Z",
            "cpu": "Test CPU", "cpu_id": {"vendor": "GenuineTest", "family": 6, "model": 1,
                                          "stepping": 0},
            "tuning": {"family": "zen4", "table": "generic-avx512"}, "environment": env,
            "mode": "throughput", "repeat": 5, "min_sample_seconds": 0.01,
            "models": [model_entry(m) for m in times], "results": results}


def linear(a, b):
    return lambda z: a + b * z


def midpoint(lo, hi):
    return (lo + hi + 1) // 2


def expected_limit(f, g):
    """The band limit between paths f (shorter) and g: halfway between the last size where
    f is faster and the next size."""
    last = max(i for i, z in enumerate(SIZES) if f(z) < g(z))
    return midpoint(SIZES[last], SIZES[last + 1])


# Paths: CRC-32C has three crossing lines (and slower folding paths); the reflected models
# share two folding paths, and a third fastest on every model but absent for CRC-64/NVME (so
# it serves not the class); XMODEM's own path beats the folding ones only above a size, and
# is absent for ECMA-182.
C_SHORT, C_MID, C_LONG = linear(2, 0.05), linear(10, 0.02), linear(40, 0.01)
FOLD_A, FOLD_B = linear(8, 0.02), linear(20, 0.012)
X16 = linear(30, 0.004)


def synthetic_times():
    reflected = {"fold_a": FOLD_A, "fold_b": FOLD_B, "portable": linear(5, 1.0)}
    return {
        "CRC-32/ISCSI": {"c_short": C_SHORT, "c_mid": C_MID, "c_long": C_LONG,
                         **{p: (lambda z, f=f: 2 * f(z)) for p, f in reflected.items()}},
        "CRC-32/ISO-HDLC": {**reflected, "only32": linear(1, 0.001)},
        "CRC-64/NVME": dict(reflected),
        "CRC-64/XZ": {**reflected, "only32": linear(1, 0.001)},
        "CRC-16/XMODEM": {"x16": X16, **reflected},
        "CRC-64/ECMA-182": dict(reflected),
    }


def running(paths, **kw):
    """A full sweep whose bands run `paths` ({model: path}, "*" for every other model) at
    every size: each the fastest of its model's by far (the parameters are judged where the
    table runs a path)."""
    times = synthetic_times()
    for model in times:
        path = paths.get(model, paths.get("*"))
        if path:
            times[model][path] = linear(0.1, 1e-4)
    return sweep_doc(times, **kw)


def write_sweeps(tmp_path, docs):
    paths = []
    for i, doc in enumerate(docs):
        p = tmp_path / f"sweep-{i}.json"
        p.write_text(json.dumps(doc))
        paths.append(str(p))
    return paths


def sources_record(family, files=None, commit="0" * 40):
    """A record of kernel sources (what sweep.sh writes) for `family`: the tree's sources
    unless `files` ({path: sha256}) says otherwise."""
    files = ks.sources(ks.Tree()) if files is None else files
    rec = {"commit": commit, "dirty": False, "digest": ks.digest(files), "files": files,
           "family": family}
    path = RECORDS / f"sources-{family}-{ks.digest(files)[:12]}.json"
    path.write_text(json.dumps(rec))
    return path


def run_generator(*args, sources=True):
    """make_table.py's exit code, output and errors.  A table asked for (--family F) of
    synthetic sweeps comes with a record of the tree's sources for F, unless `sources` is
    false or --sources is given."""
    args = list(args)
    if sources and "--family" in args and "--sources" not in args:
        args[:0] = ["--sources", str(sources_record(args[args.index("--family") + 1]))]
    p = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def table_bands(text):
    """{slot: [(below, path)]} of a written table."""
    out = {}
    for slot, body in re.findall(r"\[(CRC_CLASS_\w+)\] = \{(.*?\})\},\n", text, re.S):
        out[slot] = [(int(b), p) for b, p in re.findall(r"\{(\d+), \"([\w-]+)\"\}", body)]
    return out


# ---------------------------------------------------------------------------------------
def brute_force(costs, n, penalty, max_bands):
    """The least total cost over every split of sizes 0..n-1 into runs and every path of
    each run: the definition the dynamic programme must meet."""
    best = math.inf
    paths = list(costs)
    for b in range(1, min(max_bands, n) + 1):
        for cuts in itertools.combinations(range(1, n), b - 1):
            edges = [0, *cuts, n]
            for choice in itertools.product(paths, repeat=b):
                total = penalty * (b - 1)
                for k, p in enumerate(choice):
                    total += sum(costs[p][edges[k]:edges[k + 1]])
                best = min(best, total)
    return best


def partition_cost(costs, runs, penalty):
    return penalty * (len(runs) - 1) + sum(costs[p][i] for p, first, last in runs
                                           for i in range(first, last + 1))


def test_dynamic_programme_meets_exhaustive_search():
    rnd = random.Random(12)
    for trial in range(400):
        n = rnd.randint(1, 7)
        npaths = rnd.randint(1, 3)
        costs = {f"p{k}": [rnd.choice([rnd.random() * 3, rnd.random(), 0.0,
                                       math.inf if rnd.random() < 0.15 else 1.0])
                           for _ in range(n)] for k in range(npaths)}
        # at least one path can serve every size, as a registry's portable path does
        costs["portable"] = [rnd.random() * 4 for _ in range(n)]
        penalty = rnd.choice([0.0, 0.2, 1.0, 3.0])
        max_bands = rnd.randint(1, 4)
        runs = mt.best_partition(costs, n, penalty, max_bands)
        want = brute_force(costs, n, penalty, max_bands)
        got = partition_cost(costs, runs, penalty)
        assert got == pytest.approx(want, abs=1e-9), (trial, costs, penalty, max_bands, runs)
        assert len(runs) <= max_bands
        assert [r[1] for r in runs] == [0] + [r[2] + 1 for r in runs[:-1]] and runs[-1][2] == n - 1
        assert all(a[0] != b[0] for a, b in zip(runs, runs[1:])), runs  # no run split in two


def test_band_limit_is_the_tables():
    # make_table.py writes at most BANDS_MAX bands a class: what struct crc_x86_tuning and
    # a selection hold (CRC_BANDS_MAX, src/internal.h).
    text = (ROOT / "src" / "internal.h").read_text()
    assert re.search(rf"^#define CRC_BANDS_MAX {mt.BANDS_MAX}$", text, re.M)


def test_dynamic_programme_keeps_the_band_limit():
    # Eight regimes of two sizes, each free on its own path and 1 a size on the others:
    # CRC_BANDS_MAX bands, covering all regimes but the max_bands - 8 they cannot.
    n, regimes = 16, 8
    costs = {f"p{k}": [0.0 if i // 2 == k else 1.0 for i in range(n)] for k in range(regimes)}
    max_bands = mt.BANDS_MAX
    assert max_bands < regimes
    runs = mt.best_partition(costs, n, 0.01, max_bands)
    assert len(runs) == max_bands
    assert partition_cost(costs, runs, 0.01) == pytest.approx(
        2 * (regimes - max_bands) + 0.01 * (max_bands - 1))


def test_known_bands(tmp_path):
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times(), noise=0.002)])
    code, out, err = run_generator("--family", "zen4", *files)
    assert code == 0, err
    bands = table_bands(out)
    assert bands["CRC_CLASS_CRC32C"] == [(expected_limit(C_SHORT, C_MID), "c_short"),
                                         (expected_limit(C_MID, C_LONG), "c_mid"),
                                         (0, "c_long")]
    assert bands["CRC_CLASS_CRC32C"][0][0] == 264 and bands["CRC_CLASS_CRC32C"][1][0] == 3008
    fold = [(expected_limit(FOLD_A, FOLD_B), "fold_a"), (0, "fold_b")]
    assert bands["CRC_CLASS_REFLECTED"] == fold  # only32 is fastest but serves not NVME
    assert bands["CRC_CLASS_CRC16_XMODEM"] == [(expected_limit(FOLD_A, X16), "fold_a"),
                                               (0, "x16")]
    assert bands["CRC_CLASS_MSB_FIRST"] == fold  # x16 serves not ECMA-182
    assert "static const struct crc_x86_tuning crc_x86_tuning_zen4 = {" in out
    assert "#define CRC_X86_TUNING_zen4 (&crc_x86_tuning_zen4)" in out
    assert ".family = \"zen4\"" in out and "Test CPU (GenuineTest family 6 model 1" in out


def test_noise_makes_no_band(tmp_path):
    # Two paths alike but for 3% noise: one band each class; a penalty of 0 splits them.
    same = linear(10, 0.02)
    times = {m: {"fold_a": same, "fold_b": same, "c_one": same} if m == "CRC-32/ISCSI"
             else {"fold_a": same, "fold_b": same} for m in MODELS}
    files = write_sweeps(tmp_path, [sweep_doc(times, noise=0.03, seed=5)])
    code, out, err = run_generator("--family", "intel-spr", *files)
    assert code == 0, err
    assert all(len(b) == 1 for b in table_bands(out).values()), table_bands(out)
    assert "crc_x86_tuning_intel_spr" in out and "CRC_X86_TUNING_intel_spr" in out
    code, out, err = run_generator("--family", "intel-spr", "--band-penalty", "0", *files)
    assert code == 0 and max(len(b) for b in table_bands(out).values()) > 1


def long_sizes_share():
    """The long sizes' (above 4 KiB, where the fold parameters act) share of the mean loss:
    each octave of sizes weighs the same."""
    octaves = {}
    for z in SIZES:
        octaves.setdefault(z.bit_length(), []).append(z > 4096)
    return sum(sum(o) / len(o) for o in octaves.values()) / len(octaves)


def variant_times(factor):
    """Variant runs' times: the folding paths of every model, scaled by factor(size)."""
    return {m: {"fold_a": lambda z, f=factor: FOLD_A(z) * f(z)} for m in MODELS}


def test_parameters_chosen_from_variants(tmp_path):
    # The fold grid: (0, 2) is best at long sizes and no worse elsewhere.
    docs = []
    for p in (0, 4096):
        for a in (1, 2, 4, 8):
            gain = 1.0 if (p, a) == (0, 2) else 1.0 + 0.01 * (a + p / 1024)
            docs.append(sweep_doc(variant_times(lambda z, g=gain: g if z > 4096 else 1.0),
                                  tune=f"fold_parallel_max={p},fold_accumulators={a}",
                                  full=False, seed=p + a))
    # Hybrid runs with the chosen fold parameters, 6 best; a decoy with others, better yet.
    for q in (2, 4, 6, 8):
        docs.append(sweep_doc(
            {"CRC-32/ISCSI": {"hyb": lambda z, q=q: 10 + z * (0.01 if q == 6 else 0.012)}},
            tune=f"fold_parallel_max=0,fold_accumulators=2,hybrid_qwords={q}", full=False))
    docs.append(sweep_doc({"CRC-32/ISCSI": {"hyb": linear(1, 0.001)}},
                          tune="fold_parallel_max=0,fold_accumulators=8,hybrid_qwords=12",
                          full=False))
    files = write_sweeps(tmp_path, docs)
    code, out, err = run_generator("--choose", *files)
    assert (code, out) == (0, "fold_parallel_max=0,fold_accumulators=2,hybrid_qwords=6\n"), err
    # The table: the chosen parameters, with a full sweep run as sweep.sh runs it.
    tune = "fold_parallel_max=0,fold_accumulators=2,hybrid_qwords=6"
    full = tmp_path / "full.json"
    full.write_text(json.dumps(running({"*": "fold_a", "CRC-32/ISCSI": "hyb"}, tune=tune)))
    code, out, err = run_generator("--family", "zen4", *files, str(full))
    assert code == 0 and err == "", err
    assert re.search(r"\.fold_parallel_max = 0,\n\s*\.fold_accumulators = 2,\n"
                     r"\s*\.hybrid_qwords = 6,", out), out


def test_full_sweep_under_other_parameters_warned(tmp_path):
    # The variants choose fold_accumulators 2, the full sweep ran with 8: the table takes 2,
    # and says that its bands were measured under 8.
    docs = [sweep_doc(variant_times(lambda z, a=a: 1.0 if a == 2 or z <= 4096 else 1.2),
                      tune=f"fold_parallel_max=0,fold_accumulators={a}", full=False, seed=a)
            for a in (1, 2, 4, 8)]
    docs.append(running({"*": "fold_a"}, tune="fold_parallel_max=0,fold_accumulators=8"))
    code, out, err = run_generator("--family", "zen4", *write_sweeps(tmp_path, docs))
    assert code == 0, err
    assert ".fold_accumulators = 2," in out
    assert ("warning: the full sweeps ran with fold_accumulators=8, the variants choose 2: "
            "its bands were measured otherwise") in err, err
    assert "fold_parallel_max" not in err  # the full sweep ran with the value chosen


@pytest.mark.parametrize("path, limit", [("crc32c_x86_avx512_hybrid", "crc32c_hybrid512_min"),
                                         ("crc32c_x86_avx2_hybrid", "crc32c_hybrid256_min")])
@pytest.mark.parametrize("ran_with", [None, 2048])
def test_hybrid_qwords_chosen_where_the_loop_runs(tmp_path, path, limit, ran_with):
    # Below its vector length's limit (the swept table's, or the one the runs ran with) a
    # hybrid takes no hybrid_qwords: what its cells there say (q = 4 far ahead) must not
    # outvote the loop's sizes (q = 6 ahead).  The other vector length's limit lies below
    # (the runs' 1024) or elsewhere (the generic tables' 3072 and 4097).
    other = ({"crc32c_hybrid512_min", "crc32c_hybrid256_min"} - {limit}).pop()
    least = ran_with or mt.table_parameters("generic-avx512")[limit]
    docs = []
    for q in (4, 6):
        def times(z, q=q):
            if z < least:
                return 10 + z * (0.005 if q == 4 else 0.02)
            return 10 + z * (0.01 if q == 6 else 0.011)
        tune = f"fold_parallel_max=0,fold_accumulators=2,hybrid_qwords={q}"
        if ran_with:
            tune += f",{limit}={ran_with},{other}=1024"
        docs.append(sweep_doc({"CRC-32/ISCSI": {path: times}}, tune=tune, full=False))
    files = write_sweeps(tmp_path, docs)
    code, out, err = run_generator("--choose", *files)
    assert code == 0, err
    assert out.strip().endswith("hybrid_qwords=6"), out


def test_later_groups_runs_do_not_choose_an_earlier_group(tmp_path):
    # sweep.sh's hybrid_qwords runs carry crc32c_hybrid256_min=2048, the value chosen before
    # them; timed slow (a busy machine), they must not turn that choice, and so hybrid_qwords
    # is chosen from them.
    docs = []
    for v in (1024, 2048, 3072):
        docs.append(sweep_doc({"CRC-32/ISCSI": {"hyb": lambda z, v=v: 10 + z * (
            0.01 if v == 2048 else 0.012)}},
            tune=f"fold_parallel_max=0,fold_accumulators=8,crc32c_hybrid256_min={v}",
            full=False, seed=v))
    for q in (4, 6):
        docs.append(sweep_doc({"CRC-32/ISCSI": {"hyb": lambda z, q=q: 3 * (10 + z * (
            0.01 if q == 6 else 0.011))}},
            tune="fold_parallel_max=0,fold_accumulators=8,crc32c_hybrid256_min=2048,"
                 f"hybrid_qwords={q}", full=False, seed=q))
    files = write_sweeps(tmp_path, docs)
    code, out, err = run_generator("--choose", *files)
    assert code == 0, err
    chosen = out.strip().split(",")
    assert "crc32c_hybrid256_min=2048" in chosen and "hybrid_qwords=6" in chosen, out


@pytest.mark.parametrize("limit, path, crossover", [("crc32c_threeway_min", "three", 250),
                                                    ("crc32c_hybrid256_min", "hyb", 2500),
                                                    ("crc32c_hybrid512_min", "hyb", 3300)])
def test_limits_chosen_from_variants(tmp_path, limit, path, crossover):
    # A limit's runs: below the limit the kernel's first way (2 + z/100 ns), from it on the
    # second, which gains z/1000 ns a byte and crosses the first at `crossover`.  The value
    # tried nearest above the crossover loses nothing (sizes outside the values tried, alike
    # under all, do not count).
    tried = {"crc32c_threeway_min": (64, 128, 192, 256, 320, 384),
             "crc32c_hybrid256_min": (1024, 1536, 2048, 2560, 3072),
             "crc32c_hybrid512_min": (1024, 1536, 2048, 2560, 3072, 3584, 4097)}[limit]
    first = lambda z: 2 + z / 100  # noqa: E731
    second = lambda z: first(crossover) + (z - crossover) / 1000  # noqa: E731
    docs = []
    for v in tried:
        f = (lambda z, v=v: first(z) if z < v else second(z))
        docs.append(sweep_doc({"CRC-32/ISCSI": {path: f}},
                              tune=f"fold_parallel_max=0,fold_accumulators=8,{limit}={v}",
                              full=False, seed=v))
    files = write_sweeps(tmp_path, docs)
    code, out, err = run_generator("--choose", *files)
    assert code == 0, err
    want = min(v for v in tried if v >= crossover)
    assert f"{limit}={want}" in out.strip().split(","), out
    # And into the table, beside the bands of a full sweep run with it.
    full = tmp_path / "full.json"
    full.write_text(json.dumps(running({"CRC-32/ISCSI": path}, tune=out.strip())))
    code, text, err = run_generator("--family", "zen4", *files, str(full))
    assert code == 0, err
    assert f"    .{limit} = {want},\n" in text
    assert re.search(rf" \*     {limit} over \d+ cells, mean loss: {want} ", text), text


def test_parameters_without_variants(tmp_path):
    # As the full sweep ran them, else the swept table's values.
    full = tmp_path / "full.json"
    full.write_text(json.dumps(sweep_doc(synthetic_times(), tune="fold_accumulators=4")))
    code, out, err = run_generator("--family", "zen4", str(full))
    assert code == 0, err
    generic = mt.table_parameters("generic-avx512")
    assert ".fold_accumulators = 4," in out
    for p in ("hybrid_qwords", "fold_parallel_max", "crc32c_threeway_min",
              "crc32c_hybrid256_min", "crc32c_hybrid512_min"):
        assert f".{p} = {generic[p]}," in out
        assert f"{p} {generic[p]}: the swept table's (not measured)" in out
    assert "fold_accumulators 4: as the full sweeps ran" in out


# Parameters of a table the sweeps ran under, as its runs recorded them: not what the
# generic-avx512 table in the tree holds (fold_accumulators 8 and hybrid_qwords 2 are no
# generic table's pair).
RECORDED = {"fold_parallel_max": 1024, "fold_accumulators": 8, "hybrid_qwords": 2,
            "crc32c_threeway_min": 200, "crc32c_hybrid256_min": 1536,
            "crc32c_hybrid512_min": 2560}


def recording(doc, parameters):
    """doc as a bench that records its table's parameters writes it."""
    doc["tuning"]["table_parameters"] = dict(parameters)
    return doc


def test_parameters_as_the_runs_recorded_them(tmp_path):
    # An archive gives the same table whatever the headers say later: the swept table's
    # values are those its runs recorded, not the tree's.
    generic = mt.table_parameters("generic-avx512")
    assert any(generic[p] != v for p, v in RECORDED.items())
    full = tmp_path / "full.json"
    full.write_text(json.dumps(recording(sweep_doc(synthetic_times()), RECORDED)))
    code, out, err = run_generator("--family", "zen4", str(full))
    assert code == 0, err
    for p, v in RECORDED.items():
        assert f".{p} = {v}," in out
        assert f"{p} {v}: the swept table's (not measured)" in out


def test_recorded_parameters_are_the_baseline_a_variant_must_beat(tmp_path):
    # Accumulators 2 are 0.3% better than the recorded 8: within the margin, 8 stays, where
    # the tree's generic value (a third value here, 1.2 times slower) would have lost to 2.
    long_share = long_sizes_share()
    docs = []
    for a in (1, 2, 4, 8):
        gain = 1.0 if a == 2 else 1 + 0.003 / long_share if a == 8 else 1.2
        docs.append(recording(
            sweep_doc(variant_times(lambda z, g=gain: g if z > 4096 else 1.0),
                      tune=f"fold_parallel_max=1024,fold_accumulators={a}", full=False),
            RECORDED))
    code, out, err = run_generator("--choose", *write_sweeps(tmp_path, docs))
    assert code == 0, err
    assert out == "fold_parallel_max=1024,fold_accumulators=8\n"


def test_runs_recording_different_parameters_refused(tmp_path):
    docs = [recording(sweep_doc(synthetic_times()), RECORDED),
            recording(sweep_doc(synthetic_times(), seed=2), {**RECORDED, "hybrid_qwords": 3})]
    code, out, err = run_generator("--family", "zen4", *write_sweeps(tmp_path, docs))
    assert code == 2 and out == ""
    assert "recorded different hybrid_qwords: 2, 3" in err, err


def test_recorded_parameters_must_be_numbers(tmp_path):
    p = tmp_path / "sweep-0.json"
    p.write_text(json.dumps(recording(sweep_doc(synthetic_times()),
                                      {**RECORDED, "hybrid_qwords": "2"})))
    code, out, err = run_generator("--family", "zen4", str(p))
    assert code == 2 and "tuning.table_parameters is not an object of numbers" in err, err


# ---------------------------------------------------------------------------------------
# Paired rounds.  The machine runs in a fast state (x1) and a slow one (x2) for a while at a
# time; a subject timed while the state changed within a round saw the other state than the
# rest of its round.  Path A is truly 5% faster than B.  Rounds (7): the reference and A
# are slow in the first five, fast in the last two; B was caught fast in three of the
# reference's slow rounds, so its sample median is fast while A's is slow.
ROUND_STATES = {"ref": [2, 2, 2, 2, 2, 1, 1], "a": [2, 2, 2, 2, 2, 1, 1],
                "b": [1, 1, 1, 2, 2, 1, 1]}


def state_rounds(subject_of):
    """rounds for sweep_doc: each subject's time scaled by its state in each round
    (subject_of maps a path to a row of ROUND_STATES; others the reference's)."""
    return lambda model, path, size, ns: [ns * k for k in ROUND_STATES[subject_of(path)]]


def paired_band_times():
    """The synthetic sweep with CRC-32C on two paths only: a, 5% ahead of b everywhere."""
    times = synthetic_times()
    times["CRC-32/ISCSI"] = {"c_a": linear(10, 0.02), "c_b": lambda z: 1.05 * (10 + 0.02 * z)}
    return times


@pytest.mark.parametrize("with_rounds", [True, False])
def test_bands_from_paired_rounds(tmp_path, with_rounds):
    # Paired against auto in each round, A's ratio is 1.0 x and B's 1.05 x in four rounds of
    # seven: A.  The medians of the samples (an archive without rounds) pick B, whose
    # median caught the fast state.
    rounds = state_rounds(lambda p: {"c_a": "a", "c_b": "b"}.get(p, "ref"))
    doc = sweep_doc(paired_band_times(), rounds=rounds)
    if not with_rounds:
        for r in doc["results"]:
            del r["rounds_ns"]  # ns_median stays: the medians of the same samples
    code, out, err = run_generator("--family", "zen4", *write_sweeps(tmp_path, [doc]))
    assert code == 0, err
    assert table_bands(out)["CRC_CLASS_CRC32C"] == [(0, "c_a" if with_rounds else "c_b")]
    # The other classes, whose rounds all share one state, choose as from medians.
    assert table_bands(out)["CRC_CLASS_REFLECTED"] == [(expected_limit(FOLD_A, FOLD_B),
                                                        "fold_a"), (0, "fold_b")]
    cells = len(SIZES) * 2 * len(MODELS) + len(SIZES) * 2  # CRC-16/XMODEM twice
    if with_rounds:
        assert f"in {cells} of {cells} cells" in out.replace("\n * ", " ")
    else:
        assert "least total relative loss against the fastest of them at each size (medians," in out


def test_paired_rounds_need_the_reference_in_every_round(tmp_path):
    # Rounds of unequal counts, or no reference subject timed in them: no pairing, the
    # medians of the samples (B, as above).
    def uneven(model, path, size, ns):
        states = ROUND_STATES[{"c_a": "a", "c_b": "b"}.get(path, "ref")]
        return [ns * k for k in (states if path != "auto" else states[:-1])]
    doc = sweep_doc(paired_band_times(), rounds=uneven)
    code, out, err = run_generator("--family", "zen4", *write_sweeps(tmp_path, [doc]))
    assert code == 0, err
    assert table_bands(out)["CRC_CLASS_CRC32C"] == [(0, "c_b")]


@pytest.mark.parametrize("runs", [1, 3])
def test_bands_not_decided_by_one_slow_full_sweep(tmp_path, runs):
    # As sweep.sh runs the full sweep, `runs` times in turn: path A is truly 5% ahead of B,
    # but the first process ran in a state of the host that slowed A alone by 20% against
    # auto and B in the same rounds (a shared Zen 4 did so to its 512-bit hybrid over
    # 4.5-12 KiB).  Alone, that process gives B the band; pooled with the other runs' rounds,
    # it is outvoted.
    docs = [sweep_doc(paired_band_times(), seed=run + 1,
                      rounds=lambda model, path, size, ns, slow=run == 0:
                          [ns * (1.2 if slow and path == "c_a" else 1.0)] * 5)
            for run in range(runs)]
    code, out, err = run_generator("--family", "zen4", *write_sweeps(tmp_path, docs))
    assert code == 0, err
    assert table_bands(out)["CRC_CLASS_CRC32C"] == [(0, "c_b" if runs == 1 else "c_a")]


@pytest.mark.parametrize("runs", [1, 3])
def test_parameters_not_paired_against_read(tmp_path, runs):
    # q = 4 is truly 5% ahead, each value timed in `runs` processes.  In one process of q = 6
    # the baseline "read" alone ran 2x slow (as a quarter of a Zen 4 sweep's processes did):
    # paired against it, q = 6 would look 2x faster; the paths' own times choose q = 4.  In
    # one process of q = 4 the whole process ran 2x slow: alone, it loses q = 4; with three
    # processes a value, the median of their times does not.
    def run_doc(q, run):
        f = (lambda z: 10 + z * 0.01) if q == 4 else (lambda z: 1.05 * (10 + z * 0.01))
        slow = 2 if q == 4 and run == 0 and runs > 1 else 1
        read_slow = 2 if q == 6 and run == 0 else 1
        return sweep_doc({"CRC-32/ISCSI": {"hyb": lambda z: slow * f(z)}},
                         tune=f"fold_parallel_max=0,fold_accumulators=8,hybrid_qwords={q}",
                         full=False, read=True, seed=10 * q + run,
                         rounds=lambda model, path, size, ns: [
                             ns * (slow * read_slow if path == "read" else 1)] * 5)
    files = write_sweeps(tmp_path, [run_doc(q, r) for q in (4, 6) for r in range(runs)])
    code, out, err = run_generator("--choose", *files)
    assert (code, out.strip().split(",")[-1]) == (0, "hybrid_qwords=4"), err


def one_octave_paying_runs(q_pays, runs=3):
    """hybrid_qwords runs of the 512-bit hybrid (its loop from the generic tables' 4097),
    `runs` processes a value: the value q_pays runs 15% slow at 8-16 KiB, the other 2.5%
    slow everywhere (within the bound), so that at 8-16 KiB the first loses 12.2% against
    the second."""
    docs = []
    for q, run in itertools.product((4, 6), range(runs)):
        def f(z, q=q):
            base = 10 + z * 0.01
            if q == q_pays:
                return base * (1.15 if 8192 <= z < 16384 else 1.0)
            return base * 1.025
        docs.append(sweep_doc({"CRC-32/ISCSI": {"crc32c_x86_avx512_hybrid": f}},
                              tune=f"fold_parallel_max=0,fold_accumulators=8,hybrid_qwords={q}",
                              full=False, read=True, seed=10 * q + run, noise=0.002,
                              rounds=lambda model, path, size, ns: [ns] * 5))
    return docs


def test_no_range_of_sizes_pays_for_a_parameter(tmp_path):
    # q = 6 has the lower mean loss (q = 4's 2.5% in every octave, against 12.2% in one),
    # but 8-16 KiB pays 12.2% for it where q = 4 loses within the bound: q = 4, and the
    # table's note names the range q = 6 loses.
    files = write_sweeps(tmp_path, one_octave_paying_runs(q_pays=6))
    code, out, err = run_generator("--choose", *files)
    assert (code, out.strip().split(",")[-1]) == (0, "hybrid_qwords=4"), err
    full = tmp_path / "full.json"
    full.write_text(json.dumps(running({"CRC-32/ISCSI": "crc32c_x86_avx512_hybrid"},
                                       tune=out.strip())))
    code, text, err = run_generator("--family", "zen4", *files, str(full))
    assert code == 0, err
    note = " ".join(line.strip(" *") for line in text.splitlines())
    assert re.search(r"mean loss: 6 \d\.\d%, 4 \d\.\d%; worst octave another value avoids: "
                     r"6 12\.\d% at 8192-16383 B( \+1)? \(crc32c_x86_avx512_hybrid\)", note), note
    # By mean loss alone (one process a value, too few to judge a range's loss): 6.
    d = tmp_path / "one"
    d.mkdir()
    files = write_sweeps(d, one_octave_paying_runs(q_pays=6, runs=1))
    code, out, err = run_generator("--choose", *files)
    assert (code, out.strip().split(",")[-1]) == (0, "hybrid_qwords=6"), err


def two_hybrids_runs(recorded=None):
    """hybrid_qwords runs of both hybrids, three processes a value: on the 512-bit one q = 6
    is 2.5% slow everywhere (within the bound), on the 256-bit one q = 4 is 15% slow at
    8-16 KiB; with `recorded`, the runs record that the table they ran under runs CRC-32C on
    that path at every size (crcforge bench's "chosen")."""
    docs = []
    for q, run in itertools.product((4, 6), range(3)):
        wide = lambda z, q=q: (10 + z * 0.01) * (1.025 if q == 6 else 1.0)  # noqa: E731
        narrow = lambda z, q=q: (10 + z * 0.01) * (  # noqa: E731
            1.15 if q == 4 and 8192 <= z < 16384 else 1.0)
        doc = sweep_doc({"CRC-32/ISCSI": {"crc32c_x86_avx512_hybrid": wide,
                                          "crc32c_x86_avx2_hybrid": narrow}},
                        tune=f"fold_parallel_max=0,fold_accumulators=8,crc32c_hybrid256_min=3072,"
                             f"crc32c_hybrid512_min=4097,hybrid_qwords={q}",
                        full=False, read=True, seed=10 * q + run,
                        rounds=lambda m, p, z, ns: [ns] * 5)
        if recorded:
            doc["models"][0]["chosen"] = recorded
        docs.append(doc)
    return docs


@pytest.mark.parametrize("recorded, runs, want", [
    (None, None, 6),  # every path counts: q = 4's range on the 256-bit hybrid pays
    ("crc32c_x86_avx512_hybrid", None, 4),
    ("crc32c_x86_avx2_hybrid<64,crc32c_x86_avx512_hybrid", None, 4),
    ("crc32c_x86_avx2_hybrid", None, 6),
    (None, "crc32c_x86_avx512_hybrid", 4),  # the table's bands, not the runs' record
    ("crc32c_x86_avx512_hybrid", "crc32c_x86_avx2_hybrid", 6),
])
def test_parameters_judged_where_the_table_runs_the_path(tmp_path, recorded, runs, want):
    # A parameter is judged on the paths the table runs: a range of sizes that pays for a
    # value on a path no band runs (the 256-bit hybrid on a CPU whose table runs the 512-bit
    # one) must not choose.  --choose (sweep.sh, before the full sweep) knows the bands the
    # variant runs recorded; the table, its own.
    files = write_sweeps(tmp_path, two_hybrids_runs(recorded))
    code, out, err = run_generator("--choose", *files)
    assert code == 0, err
    if runs is None:
        assert out.strip().endswith(f"hybrid_qwords={want}"), out
        return
    full = tmp_path / "full.json"
    full.write_text(json.dumps(running({"CRC-32/ISCSI": runs}, tune=out.strip())))
    code, text, err = run_generator("--family", "zen4", *files, str(full))
    assert code == 0, err
    assert f"    .hybrid_qwords = {want},\n" in text, text
    note = " ".join(line.strip(" *") for line in text.splitlines())
    other = ({"crc32c_x86_avx512_hybrid", "crc32c_x86_avx2_hybrid"} - {runs}).pop()
    assert f"({other})" not in note, note  # its ranges were not judged
    if want == 6:
        assert f"4 15.0% at 8192-16383 B ({runs})" in note, note


@pytest.mark.parametrize("slow", [False, True])
def test_a_range_is_not_lost_by_one_process(tmp_path, slow):
    # fold_accumulators 8 is 5% ahead of 4 on every model, each model's runs its own
    # processes (as sweep.sh runs them).  The host slowed CRC-64/XZ's process under 8 by
    # 20% (paired against "read" in its rounds, which the state did not slow as much): one
    # model's loss is not a range's, so 8 stays (the mean still favours it).
    docs = []
    for a in (4, 8):
        for model in MODELS:
            k = (0.95 if a == 8 else 1.0) * (1.2 if slow and a == 8 and model == "CRC-64/XZ"
                                             else 1.0)
            docs.append(sweep_doc({model: {"fold_a": lambda z, k=k: k * FOLD_A(z)}},
                                  tune=f"fold_parallel_max=0,fold_accumulators={a}",
                                  full=False, read=True, seed=a,
                                  rounds=lambda m, p, z, ns: [ns] * 5))
    code, out, err = run_generator("--choose", *write_sweeps(tmp_path, docs))
    assert (code, out) == (0, "fold_parallel_max=0,fold_accumulators=8\n"), err


@pytest.mark.parametrize("chosen", ["", "a<", "a<x,b", "a<64", "a,b", 7])
def test_bad_chosen_named(tmp_path, chosen):
    doc = two_hybrids_runs()[0]
    doc["models"][0]["chosen"] = chosen
    p = tmp_path / "variant.json"
    p.write_text(json.dumps(doc))
    code, out, err = run_generator("--choose", str(p))
    assert code == 2 and out == "", err
    assert f"{p}: a model's \"chosen\" {chosen!r} is not PATH<N,...,PATH" in err, err


@pytest.mark.parametrize("make, message", [
    (lambda d: "not json", "sweep-0.json: "),
    (lambda d: json.dumps({**d, "tool": "other"}), "not a `crcforge bench --json`"),
    (lambda d: json.dumps({k: v for k, v in d.items() if k != "models"}), "no \"models\""),
    (lambda d: json.dumps({**d, "tuning": ["zen4"]}), "\"tuning\" is not an object"),
    (lambda d: json.dumps({**d, "results": [r for r in d["results"]
                                            if r["implementation"] != "auto"]}),
     "no full sweep among the files"),
    (lambda d: json.dumps({**d, "models": [m for m in d["models"]
                                           if m["name"] != "CRC-64/ECMA-182"
                                           and m["name"] != "CRC-16/XMODEM"]}),
     "no CRC-16/XMODEM model in the full sweeps"),
])
def test_errors_named(tmp_path, make, message):
    p = tmp_path / "sweep-0.json"
    p.write_text(make(sweep_doc(synthetic_times())))
    code, out, err = run_generator("--family", "zen4", str(p))
    assert code == 2 and out == "" and message in err, err


def test_unknown_family_refused(tmp_path):
    # The families the library selects (src/x86/tuning.c); each of those with a table of its
    # own in src/x86/tuning/ names it there, and intel-avx512-256 has none yet.
    tables = {m for h in (ROOT / "src" / "x86" / "tuning").glob("*.h")
              for m in re.findall(r'\.family = "([^"]+)"', h.read_text())}
    assert {"zen4", "intel-spr", "avx2-vpclmul", "generic-pclmul"} <= tables
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    code, out, err = run_generator("--family", "bogus-family", *files)
    assert code == 2 and out == "", err
    assert "--family bogus-family: no such family" in err and "Traceback" not in err
    for family in tables | {"intel-avx512-256"}:
        assert family in err
    # The sweep's own tuning.family (zen4) need not be the one written: intel-spr's sweep ran
    # under the generic-avx512-gfni table.
    for family in ("intel-avx512-256", "generic-avx512-gfni"):
        code, out, err = run_generator("--family", family, *files)
        assert code == 0 and f'.family = "{family}"' in out, err


def test_unwritable_out_named(tmp_path):
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    target = tmp_path / "no-such-dir" / "zen4.h"
    code, out, err = run_generator("--family", "zen4", "--out", str(target), *files)
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert f"--out {target}: cannot write: No such file or directory" in err


@pytest.mark.parametrize("value", ["-1", "-0.001", "nan", "inf", "-inf", "half"])
def test_band_penalty_must_be_finite_and_not_negative(tmp_path, value):
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    code, out, err = run_generator("--family", "zen4", f"--band-penalty={value}", *files)
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert f"--band-penalty: '{value}' is not a finite number >= 0" in err


def test_choose_without_variant_runs_refused(tmp_path):
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])  # a full sweep only
    code, out, err = run_generator("--choose", *files)
    assert code == 2 and out == "", err
    assert "--choose: no parameter variant run among the files" in err


def test_mismatching_path_left_out(tmp_path):
    doc = sweep_doc(synthetic_times())
    for r in doc["results"]:
        if r["implementation"] == "c_mid" and r["size"] == 1024:
            r["status"] = "mismatch"
    p = tmp_path / "sweep-0.json"
    p.write_text(json.dumps(doc))
    code, out, err = run_generator("--family", "zen4", str(p))
    assert code == 0 and "c_mid gave a wrong CRC-32/ISCSI at 1024 bytes" in err
    assert "c_mid" not in [path for _, path in table_bands(out)["CRC_CLASS_CRC32C"]]


# ---------------------------------------------------------------------------------------
# A table written for a family this CPU runs, built into the library and used.
AVX2_PATHS = {
    "CRC-32/ISCSI": {"crc32c_x86_sse42": linear(2, 0.05),
                     "crc32c_x86_avx2_hybrid": linear(10, 0.02),
                     "fold_x86_vpclmul_avx2": linear(12, 0.03)},
    "CRC-16/XMODEM": {"crc16_xmodem_x86_pclmul": linear(3, 0.06),
                      "crc16_xmodem_x86_vpclmul_avx2": linear(9, 0.03),
                      "fold_x86_pclmul": linear(20, 0.03), "fold_x86_vpclmul_avx2": FOLD_B},
    "CRC-32/ISO-HDLC": {"fold_x86_pclmul": FOLD_A, "fold_x86_vpclmul_avx2": FOLD_B},
    "CRC-64/XZ": {"fold_x86_pclmul": FOLD_A, "fold_x86_vpclmul_avx2": FOLD_B},
    "CRC-64/ECMA-182": {"fold_x86_pclmul": FOLD_A, "fold_x86_vpclmul_avx2": FOLD_B},
}


def test_table_builds_and_is_used(tmp_path, crcforge_bin):
    features = subprocess.run([crcforge_bin, "cpu"], capture_output=True, text=True).stdout
    if not {"avx2", "pclmulqdq", "vpclmulqdq", "sse4.2"} <= set(features.split()):
        needs.cpu("it cannot run the avx2-vpclmul family's paths")
    for command, package in (("cmake", "cmake"), ("cc", "build-essential")):
        if shutil.which(command) is None:
            pytest.skip(f"{command} not installed (Debian package {package}), to build the "
                        "library with the table")
    files = write_sweeps(tmp_path, [sweep_doc(AVX2_PATHS, noise=0.002)])
    tree = tmp_path / "tree"
    (tree / "tests").mkdir(parents=True)
    for part in ("CMakeLists.txt", "cmake", "src", "include", "tools", "bench", "tests/library"):
        (shutil.copytree if (ROOT / part).is_dir() else shutil.copy)(ROOT / part, tree / part)
    table = tree / "src" / "x86" / "tuning" / "avx2-vpclmul.h"
    code, out, err = run_generator("--family", "avx2-vpclmul", "--out", str(table), *files)
    assert code == 0, err
    bands = table_bands(table.read_text())
    c = expected_limit(AVX2_PATHS["CRC-32/ISCSI"]["crc32c_x86_sse42"],
                       AVX2_PATHS["CRC-32/ISCSI"]["crc32c_x86_avx2_hybrid"])
    assert bands["CRC_CLASS_CRC32C"] == [(c, "crc32c_x86_sse42"), (0, "crc32c_x86_avx2_hybrid")]
    build = tmp_path / "build"
    for cmd in (["cmake", "-S", str(tree), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 "-DCRCFORGE_WERROR=ON", "-DCRCFORGE_BENCH_PEERS=OFF"],
                ["cmake", "--build", str(build), "-j2", "--target", "crcforge", "test_tuning"]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    env = {"CRCFORGE_TUNE": "family=avx2-vpclmul", "PATH": "/usr/bin:/bin"}
    p = subprocess.run([str(build / "crcforge"), "cpu"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    shown = dict(line.split(None, 1) for line in p.stdout.splitlines()
                 if line.startswith("CRC-"))
    assert "tuning: avx2-vpclmul (paths" in p.stdout  # its own table now, not the generic one
    want = {slot: ",".join(f"{path}<{below}" if below else path for below, path in b)
            for slot, b in bands.items()}
    assert shown["CRC-32/ISCSI"].strip() == want["CRC_CLASS_CRC32C"]
    assert shown["CRC-16/XMODEM"].strip() == want["CRC_CLASS_CRC16_XMODEM"]
    assert shown["CRC-32/ISO-HDLC"].strip() == want["CRC_CLASS_REFLECTED"]
    assert shown["CRC-64/ECMA-182"].strip() == want["CRC_CLASS_MSB_FIRST"]
    # The library's own checks of every table: paths that serve their class on the family's
    # features, and values right at the band edges.
    p = subprocess.run([str(build / "tests" / "library" / "test_tuning")], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]


@pytest.mark.parametrize("worse, kept", [(0.003, True), (0.008, False)])
def test_parameters_keep_the_generic_values_within_the_margin(tmp_path, worse, kept):
    # The generic tables' accumulators lose `worse` of the mean to 2: kept below 0.5%.
    generic = mt.table_parameters("generic-avx512")
    long_share = long_sizes_share()
    docs = []
    for a in (1, 2, 4, 8):
        gain = (1.0 if a == 2 else 1 + worse / long_share
                if a == generic["fold_accumulators"] else 1.2)
        docs.append(sweep_doc(variant_times(lambda z, g=gain: g if z > 4096 else 1.0),
                              tune=f"fold_parallel_max={generic['fold_parallel_max']},"
                                   f"fold_accumulators={a}", full=False))
    code, out, err = run_generator("--choose", *write_sweeps(tmp_path, docs))
    assert code == 0, err
    a = generic["fold_accumulators"] if kept else 2
    assert out == f"fold_parallel_max={generic['fold_parallel_max']},fold_accumulators={a}\n"


TABLES = ROOT / "src" / "x86" / "tuning"
ARCHIVES = sorted((ROOT / "docs" / "sweeps").glob("*.tar.xz"))
# The families with a table of their own, made from a sweep (the others point at a generic
# table, written by hand).
SWEPT_FAMILIES = ("zen5", "zen4", "intel-spr", "avx2-vpclmul")


def table_source(text):
    """A table's .source string (its literals joined)."""
    found = re.search(r'\.source =\s*((?:"(?:[^"\\]|\\.)*"\s*)+),', text)
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', found.group(1))
    return "".join(parts).replace('\\"', '"').replace("\\\\", "\\")


def stale_reason(text):
    """The reason a table keeps the choices of a sweep of older kernels, or None."""
    found = re.search(r"; kernels changed since, choices kept: (.*)$", table_source(text))
    return found.group(1) if found else None


def unpacked(archive, into):
    """The sweep's directory, and its record of sources (inside it, or beside the archive
    for sweeps that predate the record)."""
    shutil.unpack_archive(archive, into)
    (sweep_dir,) = [d for d in into.iterdir() if d.is_dir()]
    record = sweep_dir / "sources.json"
    if not record.exists():
        record = archive.with_name(archive.name.replace(".tar.xz", ".sources.json"))
    return sweep_dir, record


@pytest.mark.parametrize("archive", ARCHIVES, ids=lambda p: p.name)
def test_committed_tables_are_made_from_their_sweeps(tmp_path, archive):
    # docs/sweeps/FAMILY-DATE.tar.xz holds a sweep's directory as sweep.sh wrote it; the
    # family's table in src/x86/tuning/ must be what make_table.py writes from it, with the
    # reason its header gives where the kernels changed since.
    family = archive.name.split("-20")[0]
    sweep_dir, record = unpacked(archive, tmp_path)
    committed = (TABLES / f"{family}.h").read_text()
    reason = stale_reason(committed)
    out = tmp_path / f"{family}.h"
    code, _, err = run_generator("--family", family, "--out", str(out), "--sources", str(record),
                                 *(["--stale", reason] if reason else []),
                                 *map(str, sorted(sweep_dir.glob("*.json"))))
    assert code == 0, err
    assert out.read_text() == committed


@pytest.mark.parametrize("family", SWEPT_FAMILIES)
def test_swept_tables_name_their_sweep_and_whether_it_is_current(tmp_path, family):
    # Each table made from a sweep names the sweep's commit and the digest of the kernel
    # sources it ran; one archive in docs/sweeps holds that sweep, with that record; and the
    # table says that the kernels changed since exactly when the tree's differ.
    text = (TABLES / f"{family}.h").read_text()
    swept = ks.SWEPT.search(text)
    assert swept, f"{family}.h names no sweep"
    commit, digest = swept.groups()
    archives = [a for a in ARCHIVES if a.name.split("-20")[0] == family]
    assert len(archives) == 1, f"{family}: sweeps in docs/sweeps: {archives}"
    _, record = unpacked(archives[0], tmp_path)
    rec = json.loads(record.read_text())
    assert (rec["commit"], rec["digest"], rec["family"]) == (commit, digest, family)
    assert rec["digest"] == ks.digest(rec["files"])
    assert table_source(text).startswith(f"sweep of {commit[:12]}")
    current = digest == ks.digest(ks.sources(ks.Tree()))
    assert (stale_reason(text) is None) == current, (
        f"{family}.h: " + ("says the kernels changed since its sweep, but they are the same"
                           if current else
                           "its sweep ran other kernels than the tree's: sweep again, or "
                           "make it again with make_table.py --stale REASON"))


def test_sweep_of_other_kernels_refused(tmp_path):
    # A sweep whose record of sources differs from the tree's: refused, naming the record
    # and the files changed since, nothing written.
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    old = dict(ks.sources(ks.Tree()))
    old["src/x86/crc32c_avx512.c"] = "0" * 64
    del old["src/x86/fold_pclmul.c"]
    record = sources_record("zen4", files=old, commit="1" * 40)
    out = tmp_path / "zen4.h"
    code, stdout, err = run_generator("--family", "zen4", "--sources", str(record),
                                      "--out", str(out), *files)
    assert code == 2 and stdout == "" and not out.exists(), err
    assert f"{record}: the sweep measured other kernels than this tree's (commit 111111111111)" in err
    assert "changed since: src/x86/crc32c_avx512.c, src/x86/fold_pclmul.c (new)" in err
    # --stale where nothing is stale is refused: the table would say what is not so.
    code, stdout, err = run_generator("--family", "zen4", "--stale", "why", *files)
    assert code == 2 and stdout == "" and "nothing stale to explain" in err, err
    code, stdout, err = run_generator("--family", "zen4", "--stale", " ", *files)
    assert code == 2 and stdout == "" and "--stale: give the reason as one line" in err, err


def test_stale_keeps_the_choices_of_the_table_made_from_the_sweep(tmp_path):
    # The table made from a sweep while its kernels were the tree's, then the kernels
    # changed: --stale REASON writes that table again, its choices untouched even where
    # the rule would now read the sweep otherwise, with the reason in its header and
    # .source; a table made from another sweep, or by hand, is refused.
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    code, made, err = run_generator("--family", "zen4", *files)
    assert code == 0, err
    old = dict(ks.sources(ks.Tree()))
    old["src/x86/crc32c_avx512.c"] = "0" * 64
    record = sources_record("zen4", files=old, commit="1" * 40)
    then = made.replace(ks.SWEPT.search(made).group(0),
                        f" * Swept: crcforge at commit {'1' * 40},\n"
                        f" *     kernel sources SHA-256 {ks.digest(old)}")
    then = then.replace(".fold_accumulators = ", ".fold_accumulators = 1")  # 1x: kept as is
    table = tmp_path / "then.h"
    table.write_text(then)
    code, stdout, err = run_generator("--family", "zen4", "--sources", str(record), "--stale",
                                      'no Zen 4 to sweep on "here"', "--table", str(table),
                                      *files)
    assert code == 0, err
    assert stale_reason(stdout) == 'no Zen 4 to sweep on "here"'
    assert table_bands(stdout) == table_bands(then)
    assert re.findall(r"^    \.\w+ = \d+,$", stdout, re.M) == re.findall(
        r"^    \.\w+ = \d+,$", then, re.M)
    assert "the table keeps the choices made from it (make_table.py\n * --stale)" in stdout
    # Again from its own output: the same table.
    table.write_text(stdout)
    code, again, err = run_generator("--family", "zen4", "--sources", str(record), "--stale",
                                     'no Zen 4 to sweep on "here"', "--table", str(table),
                                     *files)
    assert (code, again) == (0, stdout), err
    # Not the table of this sweep: the one made while the kernels were the tree's.
    table.write_text(made)
    code, stdout, err = run_generator("--family", "zen4", "--sources", str(record), "--stale",
                                      "why", "--table", str(table), *files)
    assert code == 2 and stdout == "" and "it was not made from this sweep (its header names "
    assert "commit 000000000000)" in err, err
    code, stdout, err = run_generator("--family", "zen4", "--table", str(table), *files)
    assert code == 2 and "--table goes with --stale" in err, err


def test_a_limits_values_running_the_same_code_are_pooled(tmp_path):
    # crc32c_hybrid512_min runs: below the limit the first way, from it the second, which
    # is 10% slower everywhere (4097, no loop within 4 KiB, is truly best).  The runs of
    # 3584 and 4097 happened in processes the host made slow by 8% (their "read" unpaired
    # by it: a process's state falls on the path only): at 1-2 KiB, where every value runs
    # the first way, that is noise of identical code.  Pooled, the values running the same
    # code there share one time, and 4097 is chosen.
    tried = (1024, 1536, 2048, 2560, 3072, 3584, 4097)
    docs = []
    for v in tried:
        slow = 1.08 if v >= 3584 else 1.0
        f = (lambda z, v=v, slow=slow: slow * (10 + z / 100) * (1.0 if z < v else 1.1))
        docs.append(sweep_doc({"CRC-32/ISCSI": {"crc32c_x86_avx512_hybrid": f}},
                              tune=f"fold_parallel_max=0,fold_accumulators=8,"
                                   f"crc32c_hybrid512_min={v}",
                              full=False, read=True, seed=v,
                              rounds=lambda model, path, size, ns: [ns] * 5))
    files = write_sweeps(tmp_path, docs)
    code, out, err = run_generator("--choose", *files)
    assert code == 0, err
    assert "crc32c_hybrid512_min=4097" in out.strip().split(","), out


@pytest.mark.parametrize("runs", [1, 3])
def test_a_limits_value_is_not_decided_by_one_slow_process(tmp_path, runs):
    # As sweep.sh runs crc32c_hybrid512_min's values, each `runs` times in turn: from the
    # limit the path is 10% slower, so 4097 (no loop within 4 KiB) is truly best; the
    # host ran the first process of 4097 slow throughout, the path at 2x and the baseline
    # read at 1.6x (a virtual machine did so to a whole run at offset 1: 1.5-2.3x), so
    # that even paired with the read it loses 25%.  Alone, that process decides against
    # 4097; pooled with the value's other runs, it is outvoted.
    tried = (1024, 1536, 2048, 2560, 3072, 3584, 4097)
    docs = []
    for run in range(runs):
        for v in tried:
            slow = v == 4097 and run == 0
            f = (lambda z, v=v: (10 + z / 100) * (1.0 if z < v else 1.1))
            docs.append(sweep_doc(
                {"CRC-32/ISCSI": {"crc32c_x86_avx512_hybrid": f}},
                tune=f"fold_parallel_max=0,fold_accumulators=8,crc32c_hybrid512_min={v}",
                full=False, read=True, seed=v + 7 * run,
                rounds=lambda model, path, size, ns, slow=slow:
                    [ns * ((1.6 if path == "read" else 2.0) if slow else 1.0)] * 5))
    code, out, err = run_generator("--choose", *write_sweeps(tmp_path, docs))
    assert code == 0, err
    chosen = "crc32c_hybrid512_min=4097" in out.strip().split(",")
    assert chosen == (runs == 3), out


def test_sweep_without_record_or_of_another_family_refused(tmp_path):
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    out = tmp_path / "zen5.h"
    code, stdout, err = run_generator("--family", "zen5", "--out", str(out), *files,
                                      sources=False)
    assert code == 2 and stdout == "" and not out.exists(), err
    assert f"{tmp_path / 'sources.json'}: not found" in err
    record = sources_record("zen4")
    code, stdout, err = run_generator("--family", "zen5", "--sources", str(record),
                                      "--out", str(out), *files)
    assert code == 2 and stdout == "" and not out.exists(), err
    assert f"{record}: a sweep of family zen4, not zen5" in err
    # sources.json beside the files is the record, and DIR/*.json may name it.
    (tmp_path / "sources.json").write_text(record.read_text())
    code, stdout, err = run_generator("--family", "zen4", str(tmp_path / "sources.json"),
                                      *files, sources=False)
    assert code == 0 and "the 1 .json files of" in stdout, err


@pytest.mark.parametrize("make, message", [
    (lambda r: r[: len(r) // 2], "sources.json: "),
    (lambda r: json.dumps({**json.loads(r), "digest": "0" * 64}),
     "its digest is not that of the files it lists"),
    (lambda r: json.dumps({k: v for k, v in json.loads(r).items() if k != "family"}),
     "not a record of kernel sources"),
])
def test_bad_record_named(tmp_path, make, message):
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    (tmp_path / "sources.json").write_text(make(sources_record("zen4").read_text()))
    code, stdout, err = run_generator("--family", "zen4", *files, sources=False)
    assert code == 2 and stdout == "" and message in err and "Traceback" not in err, err


def test_truncated_sweep_named(tmp_path):
    files = write_sweeps(tmp_path, [sweep_doc(synthetic_times())])
    text = pathlib.Path(files[0]).read_text()
    pathlib.Path(files[0]).write_text(text[: len(text) // 2])
    out = tmp_path / "zen4.h"
    code, stdout, err = run_generator("--family", "zen4", "--out", str(out), *files)
    assert code == 2 and stdout == "" and not out.exists(), err
    assert f"{files[0]}: " in err and "Traceback" not in err


def test_sweeps_of_different_cpus_refused(tmp_path):
    docs = [sweep_doc(synthetic_times()), sweep_doc(synthetic_times())]
    docs[1]["cpu_id"] = {**docs[1].get("cpu_id", {}), "model": 99}
    files = write_sweeps(tmp_path, docs)
    code, stdout, err = run_generator("--family", "zen4", *files)
    assert code == 2 and stdout == "" and "the files are sweeps of different CPUs" in err, err
