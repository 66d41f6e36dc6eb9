#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns `crcforge bench --json` sweeps of one CPU into its family's tuning table.

    make_table.py SWEEP.json... --family NAME [--out FILE] [--band-penalty X]
                  [--sources FILE] [--stale REASON [--table FILE]]
    make_table.py --choose SWEEP.json...

The first form writes the table (src/x86/tuning.h: bands of registry paths per class of
model, the kernel parameters and the CRC-32C kernels' limits) as a C header,
tuning/FAMILY.h, to FILE or standard output.  The second prints, as CRCFORGE_TUNE text, the
parameters the variant runs among the files choose (scripts/tune/sweep.sh runs the variants
first, then the full sweep with the parameters chosen, so that the bands are measured as
the table will run them).

A table is a claim about one CPU running one version of the kernels, so it is made only
from a sweep of the kernels it will run with: the sweep's record of the sources it measured
(sources.json beside its files, or --sources FILE; scripts/tune/kernel_sources.py) must be
for the family asked and match the tree's sources, else nothing is written and the files
changed since are named.  --stale REASON is for a family whose kernels changed after its
sweep and that has no new one: it keeps the choices of its table in the tree, which must
have been made from that sweep, and writes it again with the reason in its header and
.source (which `crcforge cpu` prints); it chooses nothing again, so that a change of the
rule since cannot move a CPU that nobody measured anew.  Every table names its sweep's
commit and digest.

Two kinds of file, told apart by what they time:
- a full sweep times "auto" beside every path (and the peers): it gives the bands;
- a parameter variant run times only the paths a parameter concerns (and the baseline
  "read"), under CRCFORGE_TUNE=PARAM=VALUE,...: it gives that parameter.

Times, paired where the sweep recorded its rounds: a file whose results carry "rounds_ns"
(the ns per call of each subject in each round, the subjects of an (algorithm, loop, size,
offset) timed round by round in the same passes) gives each path's time as the median over
the rounds of its time over a reference subject's in the same round, so that a change in
the machine's speed between rounds falls on both sides of each ratio.  The reference of a
full sweep's cell is "auto" (or "read").  A cell whose subjects carry no rounds (older
sweeps), or lack the reference, takes the median of each path's samples (ns_median)
instead, in every run that timed it; so do the variant runs, each value in processes of its
own, where no subject beside the paths moved with them (the baseline "read" moved alone).

Bands, for each class of model (tuning.h; the models of a class are those of the full
sweeps that fall in it, CRC-16/XMODEM counted as MSB-first as well): the candidates are
the registry paths measured for every one of those models (a path absent for a model does
not serve it).  At each size, a candidate's loss is the sum over the class's models and
the offsets of its time over the fastest candidate's, minus one (a path that gave a wrong
CRC anywhere for a model is no candidate for its classes).  Dynamic programming over the
sorted sizes finds the split into at most BANDS_MAX runs of sizes, each on one path, of
least total loss plus a penalty per band beyond the first: an extra band must lower the
class's mean loss (over its sizes, models and offsets) by --band-penalty (default 0.5%).
Noise alone moves the loss of a split by about its standard deviation times the square
root of the cells, far less than the penalty, which grows with the cells, so noise does not
make bands.  A band's limit lies halfway between the last size of its run and the first of
the next.

Parameters, in order (fold_parallel_max and fold_accumulators together, then
crc32c_threeway_min, crc32c_hybrid256_min, crc32c_hybrid512_min and hybrid_qwords): among
the variant runs that set them (and agree with the parameters chosen before), over the
(model, path, size, offset) cells measured under every candidate value at the sizes where
the parameter acts and where the table runs that path for that model (the bands chosen
above; with --choose, the bands the variant runs recorded of the table they ran under,
their models' "chosen", or every path in runs of an older bench, which record none: a value
must not win or lose on a path no band runs); a limit's values on the same side of a cell's
size run the same code there: their runs are pooled, one time for all, so that what their
processes' states make of identical code is no loss. A cell's loss is the median over the
models that ran it (each model's runs are other processes: one the host slowed does not
decide). First the values that no range of sizes pays for: a value whose loss over an
octave of sizes of one path and offset (the median of at least RANGE_CELLS cells, each
measured by RANGE_PROCESSES processes or more, models and runs) exceeds RANGE_BOUND (3%)
while another value's stays within it, is out, if any value avoids every such loss (else
the values whose worst one lies within 3% of the least; a single cell is no measure, since
among thousands each value has some that noise made slow). Among those, the values of least
mean relative loss, each octave of sizes weighing the same (a loop's parameter acts on long
inputs, which the sweep has few of). A limit acts between the least and the greatest value
tried (the kernel runs the same way below and above them all); hybrid_qwords on each hybrid
path from the limit of its vector length that its run ran with (crc32c_hybrid512_min for a
path named avx512, else crc32c_hybrid256_min), where that hybrid's loop takes over. The
values of the table the sweeps ran under (their JSON's tuning.table) stay, if no range pays
for them, unless others lower the mean loss by 0.5% or more. A parameter no variant run
measured is the one the full sweeps ran with (their CRCFORGE_TUNE), else the swept table's.
The swept table's values are those its runs recorded (tuning.table_parameters); sweeps of
an older bench, which record none, take them from src/x86/tuning/ as it is now.
"""
import argparse
import glob
import json
import math
import os
import re
import sys
import textwrap
from statistics import median

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_sources  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TUNING_DIR = os.path.join(ROOT, "src", "x86", "tuning")
TUNING_C = os.path.join(ROOT, "src", "x86", "tuning.c")

# The classes of tuning.h, in its order, with the C names of their slots.
CLASSES = [
    ("crc32c", "CRC_CLASS_CRC32C", "CRC-32C"),
    ("crc16_xmodem", "CRC_CLASS_CRC16_XMODEM", "CRC-16/XMODEM"),
    ("reflected", "CRC_CLASS_REFLECTED", "reflected"),
    ("msb_first", "CRC_CLASS_MSB_FIRST", "MSB-first"),
]
# At most this many bands a class: what struct crc_x86_tuning holds (CRC_BANDS_MAX in
# src/internal.h; test_tuning checks every table against it).
BANDS_MAX = 6
# The parameters, chosen group by group in this order (the table's fields, in its order:
# PARAMS).
PARAM_GROUPS = [("fold_parallel_max", "fold_accumulators"), ("crc32c_threeway_min",),
                ("crc32c_hybrid256_min",), ("crc32c_hybrid512_min",), ("hybrid_qwords",)]
PARAMS = ["fold_parallel_max", "fold_accumulators", "hybrid_qwords", "crc32c_threeway_min",
          "crc32c_hybrid256_min", "crc32c_hybrid512_min"]
# Limits: where a kernel changes its way (below the limit, one way; from it on, another).
LIMITS = {"crc32c_threeway_min", "crc32c_hybrid256_min", "crc32c_hybrid512_min"}
# The reference subjects a cell's rounds are paired against, first found first, for the
# bands: any subject timed in every round.  A parameter's values run in processes of their
# own, and none is paired: the baseline "read" they time beside their paths ran 1.15-3x
# slower in a quarter of the processes of two Zen 4 sweeps (whole processes, the paths
# beside it not), so that the ratios against it chose fold_accumulators=2, 5-13% slower
# from 6 KiB than 4 in those same processes' own times.
BAND_REFERENCES = ("auto", "read")
DEFAULT_BAND_PENALTY = 0.005
PARAM_MARGIN = 0.005
# The most a parameter's value may lose over an octave of sizes (of one path and offset)
# against each cell's best value, when another value loses no more than this there.
RANGE_BOUND = 0.03
RANGE_CELLS = 4
# A range's loss is judged only where at least this many processes (models' runs and runs
# of one model) measured each of its cells under every value: a process the host slowed
# (up to 2x) must not make one.
RANGE_PROCESSES = 3
WIDTH = 100  # the source's line length
SOURCES_NAME = "sources.json"  # a sweep's record of the kernel sources it measured


class SweepError(Exception):
    pass


def sweep_sources(paths, given):
    """The record of the kernel sources the sweep measured, and its file: `given`, else
    sources.json in the one directory of the sweep's files."""
    if given:
        path = given
    else:
        dirs = {os.path.dirname(os.path.abspath(p)) for p in paths}
        if len(dirs) != 1:
            raise SweepError("the sweep's files lie in several directories: give --sources FILE, "
                             "the record of the kernel sources they measured")
        path = os.path.join(dirs.pop(), SOURCES_NAME)
    try:
        with open(path) as f:
            rec = json.load(f)
    except FileNotFoundError:
        raise SweepError(f"{path}: not found: the sweep does not say which kernel sources it "
                         "measured (scripts/tune/sweep.sh writes it); give --sources FILE") from None
    except (OSError, ValueError) as e:
        raise SweepError(f"{path}: {e}") from None
    files = rec.get("files") if isinstance(rec, dict) else None
    if (not isinstance(files, dict) or not files
            or not all(isinstance(h, str) and re.fullmatch(r"[0-9a-f]{64}", h)
                       for h in files.values())
            or not isinstance(rec.get("commit"), str)
            or not re.fullmatch(r"[0-9a-f]{40}", rec["commit"])
            or not isinstance(rec.get("family"), str)):
        raise SweepError(f"{path}: not a record of kernel sources (kernel_sources.py --json "
                         "--family NAME: a commit, a family and the files' SHA-256)")
    if rec.get("digest") != kernel_sources.digest(files):
        raise SweepError(f"{path}: its digest is not that of the files it lists")
    return rec, path


def check_sources(rec, path, family, stale):
    """Refuses a sweep of another family or of other kernels than the tree's (unless
    `stale` gives the reason to keep its choices); the changed files, for the header."""
    if rec["family"] != family:
        raise SweepError(f"{path}: a sweep of family {rec['family']}, not {family}")
    try:
        changed = kernel_sources.changes(rec["files"], kernel_sources.sources(kernel_sources.Tree()))
    except kernel_sources.SourcesError as e:
        raise SweepError(f"the tree's kernel sources: {e}") from None
    if changed and not stale:
        raise SweepError(
            f"{path}: the sweep measured other kernels than this tree's (commit "
            f"{rec['commit'][:12]}); changed since: {', '.join(changed)}.  Sweep again on a "
            f"CPU of family {family} (scripts/tune/sweep.sh), or keep the sweep's choices "
            "with --stale REASON")
    if stale and not changed:
        raise SweepError("--stale: the sweep measured this tree's kernels; there is nothing "
                         "stale to explain")


def table_parameters(table):
    """The parameters of the table named `table` (its .family, as a sweep's JSON names the
    table it ran under) in src/x86/tuning/ as the tree has it now."""
    for name in sorted(os.listdir(TUNING_DIR)):
        with open(os.path.join(TUNING_DIR, name)) as f:
            text = f.read()
        start = text.find(f'.family = "{table}",')
        if start < 0:
            continue
        block = text[start:text.index("};", start)]
        out = {}
        for p in PARAMS:
            found = re.search(rf"\.{p} = (\d+),", block)
            if not found:
                raise SweepError(f"{name}: table {table} has no {p}")
            out[p] = int(found.group(1))
        return out
    raise SweepError(f"no table {table!r} in {TUNING_DIR}")


def known_families():
    """The family names of src/x86/tuning.c's crc_x86_families, in its order: the only
    names CRCFORGE_TUNE=family= and the library's selection take, so a table written for
    any other would never be used."""
    try:
        with open(TUNING_C) as f:
            text = f.read()
    except OSError as e:
        raise SweepError(f"cannot read the families: {e}") from None
    block = re.search(r"crc_x86_families\[[^]]*\] = \{(.*?)\n\};", text, re.S)
    names = re.findall(r'^\s*\{"([^"]+)",', block.group(1), re.M) if block else []
    if not names:
        raise SweepError(f"{TUNING_C}: no crc_x86_families found")
    return names


def swept_table(sweeps):
    """The one table the sweeps ran under."""
    tables = {s.table for s in sweeps}
    if len(tables) != 1 or None in tables:
        raise SweepError("the sweeps ran under different tables or name none: "
                         + ", ".join(sorted(map(str, tables))))
    return tables.pop()


def swept_parameters(sweeps):
    """The parameters of the table the sweeps ran under: the baseline a variant must beat,
    and the values of a parameter unmeasured.  As the runs recorded them
    (`crcforge bench --json` keeps the table's own, tuning.table_parameters), so that an
    archive gives the same table whatever the headers say later; where no run recorded
    one (sweeps of an older bench), the table's in src/x86/tuning/ now."""
    table, out, now = swept_table(sweeps), {}, None
    for p in PARAMS:
        values = {s.table_parameters[p] for s in sweeps if p in s.table_parameters}
        if len(values) > 1:
            raise SweepError(f"the runs under table {table} recorded different {p}: "
                             + ", ".join(map(str, sorted(values))))
        if values:
            out[p] = values.pop()
        else:
            now = now or table_parameters(table)
            out[p] = now[p]
    return out


# ---------------------------------------------------------------------------------------
# Reading sweeps.
# ---------------------------------------------------------------------------------------
def model_class(m):
    """The class of a model (tuning.c's crc_model_class_of), or None below 8 bits."""
    width, poly, refin = m["width"], int(m["poly"], 16), m["refin"]
    if width < 8:
        return None
    if (width, poly, refin) == (32, 0x1EDC6F41, True):
        return "crc32c"
    if (width, poly, refin) == (16, 0x1021, False):
        return "crc16_xmodem"
    return "reflected" if refin else "msb_first"


def fitted_classes(m):
    """The classes whose bands a model's timings are fitted to: CRC-16/XMODEM's are its
    own and the MSB-first class's (the folding paths serve it as any MSB-first model)."""
    c = model_class(m)
    if c is None:
        return []
    return [c, "msb_first"] if c == "crc16_xmodem" else [c]


def parse_chosen(text, where):
    """A model's "chosen" (crcforge_impl_chosen's "A<128,B<3072,C") as [(below, path)]."""
    bands = []
    parts = text.split(",") if isinstance(text, str) else [""]
    for k, band in enumerate(parts):
        path, sep, below = band.partition("<")
        if not path or bool(sep) == (k + 1 == len(parts)) or (sep and not below.isdigit()):
            raise SweepError(f"{where}: a model's \"chosen\" {text!r} is not PATH<N,...,PATH")
        bands.append((int(below) if sep else 0, path))
    return bands


def band_path(bands, size):
    """The path [(below, path)] runs at size."""
    return next(path for below, path in bands if size < below or below == 0)


def parse_tune(text):
    """CRCFORGE_TUNE's parameters ({} when unset); family= is not a parameter."""
    out = {}
    for item in filter(None, (text or "").split(",")):
        key, sep, value = item.partition("=")
        if key in PARAMS:
            if not sep or not value.isdigit():
                raise SweepError(f"CRCFORGE_TUNE item '{item}' is not {key}=N")
            out[key] = int(value)
    return out


class Sweep:
    """One `crcforge bench --json` file."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise SweepError(f"{path}: {e}") from None
        if doc.get("tool") != "crcforge bench" or doc.get("mode") != "throughput":
            raise SweepError(f"{path}: not a `crcforge bench --json` throughput run")
        if "models" not in doc:
            raise SweepError(f"{path}: no \"models\" (written by an older crcforge bench)")
        self.doc = doc
        self.models = {m["name"]: m for m in doc["models"]}
        self.tune = parse_tune(doc.get("environment", {}).get("CRCFORGE_TUNE"))
        tuning = doc.get("tuning", {})
        if not isinstance(tuning, dict):
            raise SweepError(f"{path}: \"tuning\" is not an object")
        self.table = tuning.get("table")
        recorded = tuning.get("table_parameters", {})
        if not isinstance(recorded, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0
                for v in recorded.values()):
            raise SweepError(f"{path}: tuning.table_parameters is not an object of numbers")
        self.table_parameters = recorded  # {} from an older bench
        # The paths the table the run ran under runs each model on, by length ({} from an
        # older bench): [(below, path)], below 0 for the last band.
        self.chosen = {m["name"]: parse_chosen(m["chosen"], path)
                       for m in doc["models"] if "chosen" in m}
        timed = [r for r in doc["results"] if r["loop"] == "throughput"]
        self.results = [r for r in timed if r["kind"] == "crcforge"]
        self.full = any(r["implementation"] == "auto" for r in self.results)
        self.mismatches = [r for r in self.results if r["status"] != "ok"]
        # The rounds of every subject (paths, peers, the baseline) by cell:
        # (model, size, offset) -> {subject: [ns per call in round r]}.
        self.rounds = {}
        for r in timed:
            if r.get("rounds_ns") and r.get("status", "ok") == "ok":
                self.rounds.setdefault((r["algorithm"], r["size"], r["offset"]),
                                       {})[r["implementation"]] = r["rounds_ns"]

    def ratios(self, model, path, size, offset, references):
        """The ratios of the path's time over the first of `references` timed in the same
        rounds of the cell, round by round, and that reference; (None, None) without."""
        cell = self.rounds.get((model, size, offset), {})
        mine = cell.get(path)
        for ref in references if mine else ():
            theirs = cell.get(ref)
            if ref != path and theirs and len(theirs) == len(mine) and min(theirs) > 0:
                return [a / b for a, b in zip(mine, theirs)], ref
        return None, None

    def cells(self, references):
        """(model, path, size, offset, time) of every path timed (not auto), time a Time
        paired against the first of `references` that the cell's rounds have."""
        for r in self.results:
            if r["status"] == "ok" and r["implementation"] != "auto":
                key = (r["algorithm"], r["implementation"], r["size"], r["offset"])
                yield (*key, Time(r["ns_median"], *self.ratios(*key, references)))


class Time:
    """A path's time in one run's cell: the median of its samples (ns), and where the run
    kept its rounds, its per-round ratios against a reference subject."""

    def __init__(self, ns, ratios=None, reference=None):
        self.ns, self.ratios, self.reference = ns, ratios, reference


def compare(times):
    """Comparable values of several paths' (or settings') times in one cell: {key: [Time]
    of the runs that timed it} -> ({key: value}, paired).  Paired when every run of every
    key kept rounds against one reference: the median over all those rounds of the ratio;
    else the median of the runs' sample medians."""
    refs = {t.reference for ts in times.values() for t in ts}
    paired = len(refs) == 1 and None not in refs
    if paired:
        return {k: median([x for t in ts for x in t.ratios]) for k, ts in times.items()}, True
    return {k: median([t.ns for t in ts]) for k, ts in times.items()}, False


# ---------------------------------------------------------------------------------------
# Bands.
# ---------------------------------------------------------------------------------------
def best_partition(costs, n, penalty, max_bands):
    """The runs of sizes 0..n-1, each on one path, of least total cost plus `penalty` per
    run beyond the first: [(path, first, last)].  costs: {path: [cost at size i]} (paths
    in order of preference on ties; math.inf where a path cannot serve a size)."""
    paths = list(costs)
    # Prefix sums of the finite costs, and counts of the infinite ones.
    prefix, infinite = {}, {}
    for p in paths:
        s, k = [0.0], [0]
        for c in costs[p]:
            s.append(s[-1] + (0.0 if math.isinf(c) else c))
            k.append(k[-1] + math.isinf(c))
        prefix[p], infinite[p] = s, k

    def run_cost(p, i, j):  # sizes i..j-1 on path p
        return math.inf if infinite[p][j] > infinite[p][i] else prefix[p][j] - prefix[p][i]

    # least[b][j]: least cost of sizes 0..j-1 in b runs; came[b][j]: (start, path) of the last.
    least = [[math.inf] * (n + 1) for _ in range(max_bands + 1)]
    came = [[None] * (n + 1) for _ in range(max_bands + 1)]
    least[0][0] = 0.0
    for b in range(1, max_bands + 1):
        for j in range(1, n + 1):
            for i in range(b - 1, j):
                if math.isinf(least[b - 1][i]):
                    continue
                for p in paths:
                    c = least[b - 1][i] + run_cost(p, i, j)
                    if c < least[b][j]:
                        least[b][j], came[b][j] = c, (i, p)
    best_b, best_total = None, math.inf
    for b in range(1, max_bands + 1):
        total = least[b][n] + penalty * (b - 1)
        # More bands only for a real gain (not a rounding difference).
        if math.isfinite(total) and (best_b is None or total < best_total - 1e-9 * best_total):
            best_b, best_total = b, total
    if best_b is None:
        raise SweepError("no path serves every size")
    runs, j = [], n
    for b in range(best_b, 0, -1):
        i, p = came[b][j]
        runs.append((p, i, j - 1))
        j = i
    runs.reverse()
    merged = []  # with no penalty, a tie may split one path's run in two
    for p, first, last in runs:
        if merged and merged[-1][0] == p:
            merged[-1] = (p, merged[-1][1], last)
        else:
            merged.append((p, first, last))
    return merged


def class_costs(sweeps, cls):
    """The candidates of a class and their loss at each size: (models, sizes, offsets,
    costs, paired) with costs {path: [loss at size]} and paired the number of (size,
    model, offset) cells compared in paired rounds, of the cells compared."""
    models = {}
    for s in sweeps:
        for name, m in s.models.items():
            if cls in fitted_classes(m):
                models[name] = m
    if not models:
        return None
    times = {}  # (model, path, size, offset) -> [Time]
    order = []  # paths in the order first seen (the registry's, best first)
    for s in sweeps:
        for model, path, size, offset, t in s.cells(BAND_REFERENCES):
            if model in models:
                times.setdefault((model, path, size, offset), []).append(t)
                if path not in order:
                    order.append(path)
    measured = {}
    for model, path, _, _ in times:
        measured.setdefault(path, set()).add(model)
    wrong = {r["implementation"] for s in sweeps for r in s.mismatches
             if r["algorithm"] in models}
    candidates = [p for p in order if measured[p] == set(models) and p not in wrong]
    if not candidates:
        raise SweepError(f"no path measured for every {cls} model ({', '.join(sorted(models))})")
    sizes = sorted({size for (model, path, size, _) in times if path in candidates})
    offsets = sorted({offset for (_, _, _, offset) in times})
    costs = {p: [0.0] * len(sizes) for p in candidates}
    paired = [0, 0]
    for i, size in enumerate(sizes):
        for model in models:
            for offset in offsets:
                t, both = compare({p: times[(model, p, size, offset)] for p in candidates
                                   if (model, p, size, offset) in times})
                if not t:
                    continue  # this size or offset was not swept for this model
                paired[0] += both
                paired[1] += 1
                best = min(t.values())
                for p in candidates:
                    costs[p][i] += t[p] / best - 1 if p in t else math.inf
    return sorted(models), sizes, offsets, costs, paired


def choose_bands(sweeps, cls, band_penalty, max_bands):
    """The bands of one class: ([(below, path)], models, mean loss, sizes, paired), or None
    when no model of the class was swept."""
    found = class_costs(sweeps, cls)
    if found is None:
        return None
    models, sizes, offsets, costs, paired = found
    per_size = len(models) * len(offsets)
    runs = best_partition(costs, len(sizes), band_penalty * len(sizes) * per_size, max_bands)
    bands = []
    for k, (path, first, last) in enumerate(runs):
        below = 0 if k + 1 == len(runs) else (sizes[last] + sizes[last + 1] + 1) // 2
        bands.append((below, path))
    loss = sum(costs[p][i] for p, first, last in runs for i in range(first, last + 1))
    return bands, models, loss / (len(sizes) * per_size), len(sizes), paired


# ---------------------------------------------------------------------------------------
# Parameters.
# ---------------------------------------------------------------------------------------
def hybrid_limit(path):
    """The limit where a hybrid path's loop of passes starts: its vector length's, which its
    name gives (crc32c_x86_avx512_hybrid 512-bit, crc32c_x86_avx2_hybrid 256-bit)."""
    return "crc32c_hybrid512_min" if "avx512" in path else "crc32c_hybrid256_min"


def acting_sizes(group, run, settings, swept, path):
    """The sizes [least, beyond) at which a group's values change what a path does in a
    run: a limit's between the least and the greatest value tried, hybrid_qwords' from the
    limit of the path's vector length that the run ran with (where its loop takes over)."""
    if group[0] in LIMITS:
        return min(v[0] for v in settings), max(v[0] for v in settings)
    if group == ("hybrid_qwords",):
        limit = hybrid_limit(path)
        return run.tune.get(limit, swept[limit]), math.inf
    return 0, math.inf


def pooled(group, settings, cell, times):
    """{setting: [Time]} of a cell, the runs of settings that run the same code there taken
    together: a limit's values on the same side of the cell's size run the same kernel way
    (below every value the kernel's short way, from a value on its loop), so their runs are
    one measure of it, and a difference between them is the noise of their processes, not
    a loss; other groups' values each run their own."""
    if group[0] not in LIMITS:
        return {s: times[s][cell] for s in settings}
    size = cell[2]
    sides = {}
    for s in settings:
        sides.setdefault(s[0] <= size, []).extend(times[s][cell])
    return {s: sides[s[0] <= size] for s in settings}


def choose_group(variants, group, chosen, swept, serves):
    """The values of one parameter group that no range of sizes pays for, then of least mean
    relative loss, among the variant runs that set it, on the cells where serves(run, model,
    path, size) says the table runs that path: (values, {setting: mean loss}, {setting:
    (worst loss of a range another value avoids, its (path, octave, offset))}, cells), or
    None when none does."""
    # A run of a later group (sweep.sh varies the groups in this order, each with the values
    # chosen before it) is that group's: it ran one value of this group, and its times under
    # another parameter must not weigh here.
    later = {p for g in PARAM_GROUPS[PARAM_GROUPS.index(group) + 1:] for p in g}
    runs = [s for s in variants if all(p in s.tune for p in group) and not any(
        p in s.tune and s.tune[p] != v for p, v in chosen.items() if p not in group)
        and not later & set(s.tune)]
    if not runs:
        return None
    settings = sorted({tuple(s.tune[p] for p in group) for s in runs})
    times = {}  # setting -> (model, path, size, offset) -> [Time]
    for s in runs:
        setting = tuple(s.tune[p] for p in group)
        for model, path, size, offset, t in s.cells(()):
            least, beyond = acting_sizes(group, s, settings, swept, path)
            if least <= size < beyond and serves(s, model, path, size):
                times.setdefault(setting, {}).setdefault((model, path, size, offset),
                                                         []).append(t)
    if len(times) < len(settings):
        return None  # no size where the values tried differ
    common = set.intersection(*(set(times[s]) for s in settings))
    if not common:
        raise SweepError(f"{'/'.join(group)}: no cell measured under every value "
                         f"({', '.join(map(str, settings))})")
    # Each cell's loss per (path, size, offset) is the median over the models that ran it:
    # each model's runs are other processes, and one that the host slowed must not decide.
    # Then no range of sizes may pay: a value that loses more than RANGE_BOUND over an
    # octave of sizes of one path and offset, where another value stays within it,
    # is out as long as some value avoids all such losses; where none does, the values whose
    # worst such loss lies within RANGE_BOUND of the least stay.  (A single cell is no
    # measure: among thousands, each value has some cell that noise or where the code landed
    # made slow; the median of an octave's cells is, where RANGE_PROCESSES processes stand
    # behind each.)  Only then the mean decides, each octave of sizes weighing the same: the
    # many short sizes swept finely, where a loop's parameter may not act at all, must not
    # outvote with their noise the few long ones where it does.
    losses = {}  # (path, size, offset) -> {setting: [loss of each model]}
    processes = {}  # (path, size, offset) -> the fewest processes behind a value
    for cell in common:
        by_setting = pooled(group, settings, cell, times)
        t = compare(by_setting)[0]
        best = min(t.values())
        model, path, size, offset = cell
        per = losses.setdefault((path, size, offset), {s: [] for s in settings})
        for s in settings:
            per[s].append(t[s] / best - 1)
        processes[path, size, offset] = processes.get((path, size, offset), 0) + min(
            len(v) for v in by_setting.values())
    octaves = {}  # size octave -> {setting: [loss]}
    ranges = {}  # (path, octave, offset) -> {setting: [loss]}
    for (path, size, offset), per in losses.items():
        cell = {s: median(per[s]) for s in settings}
        for s in settings:
            octaves.setdefault(size.bit_length(), {v: [] for v in settings})[s].append(cell[s])
        if processes[path, size, offset] >= RANGE_PROCESSES:
            for s in settings:
                ranges.setdefault((path, size.bit_length(), offset),
                                  {v: [] for v in settings})[s].append(cell[s])
    worst = {s: (0.0, None) for s in settings}  # setting -> (loss, range) another avoids
    for key in sorted(ranges):
        if len(ranges[key][settings[0]]) < RANGE_CELLS:
            continue
        loss = {s: median(v) for s, v in ranges[key].items()}
        for s in settings:
            if loss[s] > RANGE_BOUND and loss[s] > worst[s][0] and any(
                    loss[o] <= RANGE_BOUND for o in settings if o != s):
                worst[s] = (loss[s], key)
    mean = {s: sum(sum(o[s]) / len(o[s]) for o in octaves.values()) / len(octaves)
            for s in settings}
    least = min(w for w, _ in worst.values())
    admitted = [s for s in settings if worst[s][0] <= (least + RANGE_BOUND if least else 0)]
    winner = min(admitted, key=lambda s: (mean[s], settings.index(s)))
    baseline = tuple(swept[p] for p in group)
    if baseline in admitted and mean[winner] > mean[baseline] - PARAM_MARGIN:
        winner = baseline  # not worth a departure from the swept table
    return dict(zip(group, winner)), mean, worst, len(losses)


def recorded_serving(run, model, path, size):
    """Whether the table a variant run ran under runs the path for the model at size (as
    the run recorded it; a run of an older bench, which records nothing, counts every path)."""
    return model not in run.chosen or band_path(run.chosen[model], size) == path


def table_serving(sweeps, bands):
    """serves(run, model, path, size) of choose_group for the table's bands {class: ([(below,
    path)], ...)}: the bands of every class a model's timings are fitted to."""
    classes = {name: fitted_classes(m) for s in sweeps for name, m in s.models.items()}
    return lambda run, model, path, size: any(
        band_path(bands[c][0], size) == path for c in classes.get(model, ()) if c in bands)


def choose_parameters(variants, swept, serves=recorded_serving):
    """Every parameter group some variant run measured, against the swept table's
    parameters `swept`, on the cells where serves(run, model, path, size): (values, notes)."""
    chosen, notes = {}, []
    for group in PARAM_GROUPS:
        found = choose_group(variants, group, chosen, swept, serves)
        if found is None:
            continue
        values, losses, worst, cells = found
        chosen.update(values)
        ranked = sorted(losses.items(), key=lambda kv: kv[1])
        name = lambda s: "/".join(map(str, s))  # noqa: E731
        paid = [f"{name(s)} {100 * w:.1f}% at {1 << (c[1] - 1)}-{(1 << c[1]) - 1} B"
                f"{' +' + str(c[2]) if c[2] else ''} ({c[0]})"
                for s, (w, c) in sorted(worst.items(), key=lambda kv: kv[1][0]) if c]
        notes.append(f"{'/'.join(group)} over {cells} cells, mean loss: " + ", ".join(
            f"{name(s)} {100 * l:.1f}%" for s, l in ranked)
            + ("; worst octave another value avoids: " + ", ".join(paid) if paid else ""))
    return chosen, notes


def tune_text(values):
    return ",".join(f"{p}={values[p]}" for p in PARAMS if p in values)


# ---------------------------------------------------------------------------------------
# The table.
# ---------------------------------------------------------------------------------------
def c_name(family):
    name = family.replace("-", "_")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise SweepError(f"family '{family}' does not make a C name")
    return name


def describe_files(paths):
    """The sweep files, briefly: "the N .json files of DIR" when they are all of a
    directory's, else their names.  (No glob: its slash-star would open a C comment.)"""
    dirs = {os.path.dirname(os.path.abspath(p)) for p in paths}
    if len(dirs) == 1:
        d = dirs.pop()
        runs = {f for f in glob.glob(os.path.join(d, "*.json"))
                if os.path.basename(f) != SOURCES_NAME}
        if set(map(os.path.abspath, paths)) == runs:
            return f"the {len(paths)} .json files of {os.path.basename(d)}"
    return ", ".join(os.path.basename(p) for p in paths)


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def source_lines(text):
    """The .source field, its string split into literals that keep the lines to WIDTH."""
    first = "    .source = "
    if len(first + c_string(text) + ",") <= WIDTH:
        return [first + c_string(text) + ","]
    words, parts, part = text.split(" "), [], ""
    for w in words:
        if part and len("        " + c_string(part + " " + w)) > WIDTH:
            parts.append(part + " ")
            part = w
        else:
            part = f"{part} {w}" if part else w
    parts.append(part)
    return ([first.rstrip()] + ["        " + c_string(p) for p in parts[:-1]]
            + ["        " + c_string(parts[-1]) + ","])


def provenance(sources, stale=None):
    """The header's lines on the sweep's kernels: two fixed lines (kernel_sources.py --tables
    and the tests read them back), and where the kernels changed since, why the table keeps
    the sweep's choices."""
    dirty = " with uncommitted changes to its kernel sources" if sources.get("dirty") else ""
    lines = [f" * Swept: crcforge at commit {sources['commit']},",
             f" *     kernel sources SHA-256 {sources['digest']}"]
    lines += textwrap.wrap(f"(scripts/tune/kernel_sources.py){dirty}.", WIDTH,
                           initial_indent=" * ", subsequent_indent=" * ")
    if stale:
        lines += textwrap.wrap(
            "The kernels changed after this sweep; the table keeps the choices made from it "
            f"(make_table.py --stale): {stale}", WIDTH, initial_indent=" * ",
            subsequent_indent=" * ")
    return lines


def table_source(sources, full, stale=None):
    """The table's .source: its sweep's commit, date and CPU, and the reason its choices are
    kept where the kernels changed since."""
    first = full[0].doc
    dirty = "+" if sources.get("dirty") else ""
    text = f"sweep of {sources['commit'][:12]}{dirty} ({first.get('date', '')[:10]}) on {first['cpu']}"
    return text + (f"; kernels changed since, choices kept: {stale}" if stale else "")


# The .source field of a table, its literals on one line or several.
SOURCE_FIELD = re.compile(r'^    \.source =.*?",\n', re.M | re.S)
# What provenance() writes: from the Swept line to the next paragraph (" * Bands: ").
PROVENANCE = re.compile(r"^ \* Swept: crcforge at commit .*?(?=^ \* Bands: )", re.M | re.S)


def kept_table(family, full, sources, stale, path=None):
    """The family's table as the tree has it, made from this sweep when its kernels were the
    tree's, with its record brought up to date: the sweep it was made from, and why its
    choices stay though the kernels changed since (--stale).  The choices are not made again:
    a family keeps what was measured until a new sweep on its CPU, whatever the rule reads
    from an old sweep today."""
    path = path or os.path.join(TUNING_DIR, f"{family}.h")
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise SweepError(f"--stale keeps the choices of {path}: {e.strerror or e}") from None
    recorded = kernel_sources.SWEPT.search(text)
    if recorded is None or recorded.groups() != (sources["commit"], sources["digest"]):
        raise SweepError(f"--stale keeps the choices of {path}, but it was not made from this "
                         "sweep (its header names "
                         + (f"commit {recorded.group(1)[:12]})" if recorded else "no sweep)"))
    if not SOURCE_FIELD.search(text) or not PROVENANCE.search(text):
        raise SweepError(f"{path}: not a table make_table.py wrote (no .source or no record "
                         "of its sweep)")
    text = PROVENANCE.sub(lambda _: "\n".join(provenance(sources, stale)) + "\n", text, 1)
    return SOURCE_FIELD.sub(
        lambda _: "\n".join(source_lines(table_source(sources, full, stale))) + "\n", text, 1)


def write_table(family, sweeps, bands, params, band_penalty, sources):
    full = [s for s in sweeps if s.full]
    first = full[0].doc
    ident = first.get("cpu_id", {})
    cpu = first["cpu"]
    if ident.get("vendor"):
        cpu += f" ({ident['vendor']} family {ident['family']} model {ident['model']}"
        cpu += f" stepping {ident['stepping']})" if ident.get("stepping", -1) >= 0 else ")"
    date = first.get("date", "")[:10]
    name = c_name(family)
    command = f"python3 scripts/tune/make_table.py --family {family}"
    if band_penalty != DEFAULT_BAND_PENALTY:
        command += f" --band-penalty {band_penalty:g}"
    command += " SWEEP.json..."

    def paragraph(text):
        return textwrap.wrap(text, WIDTH, initial_indent=" * ", subsequent_indent=" * ")

    source = table_source(sources, full)
    lines = ["/* SPDX-License-Identifier: MIT */", "/*"]
    lines += paragraph(f"Family {family} (tuning.h): measured on {cpu}, {date}.")
    lines += [" * Written by scripts/tune/make_table.py (do not edit; sweep again):",
              f" *     {command}"]
    lines += paragraph(
        f"from `crcforge bench --json` sweeps (crcforge {first['version']}, "
        f"{first['repeat']} samples of {first['min_sample_seconds'] * 1000:g} ms): "
        f"{describe_files([s.path for s in sweeps])}.")
    lines += provenance(sources)
    paired, cells = (sum(bands[cls][4][k] for cls, _, _ in CLASSES) for k in (0, 1))
    if paired == 0:
        lines += [
            " * Bands: per class, the paths serving every model swept of it, the length bands of",
            " * least total relative loss against the fastest of them at each size (medians,",
            " * offsets 0 and 1); each band beyond the first had to lower the mean loss by "
            f"{100 * band_penalty:g}%.",
        ]
    else:
        lines += paragraph(
            "Bands: per class, the paths serving every model swept of it, the length bands of "
            "least total relative loss against the fastest of them at each size (offsets 0 "
            "and 1; each path's time the median over the rounds of its ratio to auto's in "
            f"the same round, in {paired} of {cells} cells, else the median of its samples); "
            "each band beyond the first had to lower the mean loss by "
            f"{100 * band_penalty:g}%.")
    lines.append(" * Mean loss of the bands chosen, per model, offset and size:")
    for cls, _, title in CLASSES:
        _, models, loss, nsizes, _ = bands[cls]
        lines += textwrap.wrap(f"{title}: {100 * loss:.2f}% over {nsizes} sizes "
                               f"({', '.join(models)})", WIDTH, initial_indent=" *     ",
                               subsequent_indent=" *         ")
    chosen = tune_text(params["values"]) + ";" if params["values"] else "none measured;"
    if len(" * Parameters: " + chosen) > WIDTH:  # wrapped at its commas
        chosen = chosen.replace(",", ", ")
    lines += textwrap.wrap("Parameters: " + chosen, WIDTH, initial_indent=" * ",
                           subsequent_indent=" *     ")
    for n in params["notes"]:
        lines += textwrap.wrap(n, WIDTH, initial_indent=" *     ",
                               subsequent_indent=" *         ")
    lines += [" */", f"static const struct crc_x86_tuning crc_x86_tuning_{name} = {{",
              f"    .family = \"{family}\",",
              *source_lines(source),
              "    .bands =", "        {"]
    for cls, slot, _ in CLASSES:
        cells = [f"{{{below}, \"{path}\"}}" for below, path in bands[cls][0]]
        head = f"            [{slot}] = {{"
        line = head + ", ".join(cells) + "},"
        if len(line) > WIDTH:  # one band a line
            line = (",\n" + " " * len(head)).join(cells) + "},"
            line = head + line
        lines.append(line)
    lines.append("        },")
    for p in PARAMS:
        lines.append(f"    .{p} = {params['table'][p]},")
    lines += ["};", f"#define CRC_X86_TUNING_{name} (&crc_x86_tuning_{name})", ""]
    return "\n".join(lines)


def parameters_for_table(sweeps, variants, bands):
    """The table's parameters: chosen from the variants on the paths the table's bands run,
    else as the full sweeps ran."""
    swept = swept_parameters(sweeps + variants)
    values, notes = choose_parameters(variants, swept, table_serving(sweeps + variants, bands))
    table = {}
    for p in PARAMS:
        ran = {s.tune.get(p) for s in sweeps if s.full}
        if p in values:
            table[p] = values[p]
            if ran - {None, values[p]}:
                print(f"make_table.py: warning: the full sweeps ran with {p}="
                      f"{'/'.join(str(v) for v in ran - {None})}, the variants choose "
                      f"{values[p]}: its bands were measured otherwise", file=sys.stderr)
        elif len(ran) == 1 and None not in ran:
            table[p] = ran.pop()
            notes.append(f"{p} {table[p]}: as the full sweeps ran (no variant measured it)")
        else:
            table[p] = swept[p]
            notes.append(f"{p} {table[p]}: the swept table's (not measured)")
    return {"values": values, "notes": notes, "table": table}


def band_penalty(text):
    """--band-penalty's value: a finite fraction >= 0 (a negative one would reward extra
    bands; with nan or inf no split has a finite cost, which reads as no path serving)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number >= 0")
    return value


def stale_reason(text):
    """--stale's reason: one line of printable text, for the table's header and .source."""
    text = text.strip()
    if not text or not text.isprintable():
        raise argparse.ArgumentTypeError("give the reason as one line of text")
    return text


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sweeps", nargs="+", metavar="SWEEP.json")
    ap.add_argument("--family", help="the CPU family (src/x86/tuning.c's names)")
    ap.add_argument("--out", help="the header to write (default: standard output)")
    ap.add_argument("--band-penalty", type=band_penalty, default=DEFAULT_BAND_PENALTY,
                    help="how much an extra band must lower a class's mean relative loss "
                         f"(default {DEFAULT_BAND_PENALTY})")
    ap.add_argument("--sources", metavar="FILE",
                    help="the record of the kernel sources the sweep measured (default: "
                         "sources.json beside the sweep's files)")
    ap.add_argument("--stale", metavar="REASON", type=stale_reason,
                    help="the kernels changed since the sweep: keep the choices the family's "
                         "table made from it, for REASON (written into the table)")
    ap.add_argument("--table", metavar="FILE",
                    help="with --stale: the table whose choices to keep (default: the "
                         "family's in src/x86/tuning/)")
    ap.add_argument("--choose", action="store_true",
                    help="print the parameters the variant runs choose, as CRCFORGE_TUNE text")
    args = ap.parse_args(argv)
    if args.table and not args.stale:
        ap.error("--table goes with --stale")
    # DIR/*.json takes the sweep's record of its sources too: it is no run.
    args.sweeps = [p for p in args.sweeps if os.path.basename(p) != SOURCES_NAME]
    if not args.sweeps:
        ap.error("no sweep file (only the record of sources)")
    try:
        sweeps = [Sweep(p) for p in args.sweeps]
        for s in sweeps:
            for r in s.mismatches:
                print(f"make_table.py: {s.path}: {r['implementation']} gave a wrong "
                      f"{r['algorithm']} at {r['size']} bytes: left out of its classes",
                      file=sys.stderr)
        variants = [s for s in sweeps if not s.full]
        if args.choose:
            # Without variant runs an empty line would pass for "keep every parameter"
            # (files of full sweeps, or the wrong directory's).  Variant runs that choose
            # nothing still print one: sweep.sh's next runs then take the table's values.
            if not variants:
                raise SweepError("--choose: no parameter variant run among the files (one "
                                 "that times only some paths, not \"auto\")")
            print(tune_text(choose_parameters(variants, swept_parameters(sweeps))[0]))
            return 0
        if not args.family:
            ap.error("--family is required to write a table")
        # Checked against the library's names, not the sweeps' tuning.family: a sweep may
        # have run under another family's table (intel-spr's under generic-avx512-gfni).
        families = known_families()
        if args.family not in families:
            raise SweepError(f"--family {args.family}: no such family in src/x86/tuning.c "
                             f"(families: {', '.join(families)})")
        full = [s for s in sweeps if s.full]
        if not full:
            raise SweepError("no full sweep among the files (one that times \"auto\")")
        cpus = {json.dumps(s.doc.get("cpu_id"), sort_keys=True): s.path for s in sweeps}
        if len(cpus) > 1:
            raise SweepError("the files are sweeps of different CPUs: "
                             + ", ".join(sorted(cpus.values())))
        sources, sources_path = sweep_sources(args.sweeps, args.sources)
        check_sources(sources, sources_path, args.family, args.stale)
        if args.stale:
            text = kept_table(args.family, full, sources, args.stale, args.table)
        else:
            text = None
        bands = {}
        for cls, _, title in CLASSES if text is None else ():
            found = choose_bands(full, cls, args.band_penalty, BANDS_MAX)
            if found is None:
                raise SweepError(f"no {title} model in the full sweeps")
            bands[cls] = found
        if text is None:
            params = parameters_for_table(full, variants, bands)
            text = write_table(args.family, sweeps, bands, params, args.band_penalty, sources)
    except SweepError as e:
        print(f"make_table.py: {e}", file=sys.stderr)
        return 2
    if args.out:
        try:
            with open(args.out, "w") as f:
                f.write(text)
        except OSError as e:
            print(f"make_table.py: --out {args.out}: cannot write: {e.strerror or e}",
                  file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
