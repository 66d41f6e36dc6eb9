# SPDX-License-Identifier: MIT
"""The library's core is layered one way: kernels -> the registry (what each path serves) ->
the tuning (tables as data, paths chosen by length) -> dispatch (resolving once, publishing
the choice) -> the API; below them all the base (the models, the CPU's features, derived
data, the declarations every layer shares).  A file may use its own layer and those below,
never one above, and no files may use each other round in a circle.

The graph is of src/'s files: an arrow from a file to each file it includes ("...") and,
from a built object, to each source whose object defines a function it calls or takes the
address of (nm: an undefined symbol that another object defines in its text).  A reference
to another file's data is no arrow: the catalogue's models start at dispatch's stand-in
selection, which is data.  Headers take the layer of the code they hold.

Run alone it prints the circles and the arrows back up:
    python3 tests/library/test_layers.py [--root TREE] [--build BUILD]
(BUILD: a CMake build of TREE, default TREE/build; NM names nm, for a cross build)."""
import argparse
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAYERS = ["base", "kernels", "registry", "tuning", "dispatch", "api"]

# Every file of src/ not named here (or under a folder named here) is of the base.
LAYER_OF = {
    "kernels": ["x86/", "arm/", "table.c", "table_template.h", "crc16_short.h",
                "fold_record.h", "fold_lanes.h"],
    "registry": ["registry.c", "registry.h"],
    "tuning": ["x86/tuning.c", "x86/tuning.h", "x86/tuning/", "arm/tuning.c", "arm/tuning.h",
               "arm/tuning/", "bands.c", "bands.h"],
    "dispatch": ["dispatch.c", "dispatch.h"],
    "api": ["api.c", "keyslot.c", "model.c", "combine.c"],
}


def layer_of(name):
    """The layer of src/NAME: the longest entry of LAYER_OF naming it or its folder."""
    best, layer = "", "base"
    for candidate, entries in LAYER_OF.items():
        for entry in entries:
            hit = name == entry or (entry.endswith("/") and name.startswith(entry))
            if hit and len(entry) > len(best):
                best, layer = entry, candidate
    return layer


def source_files(src):
    return sorted(str(p.relative_to(src)) for p in src.rglob("*") if p.suffix in (".c", ".h"))


def include_arrows(src, files):
    arrows = set()
    for name in files:
        text = (src / name).read_text(encoding="utf-8")
        for target in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            path = os.path.normpath(os.path.join(os.path.dirname(name), target))
            if path in files:
                arrows.add((name, path, "includes"))
    return arrows


def object_files(build):
    """{source name under src/: object path} of the library's objects in a CMake build."""
    objects = {}
    for obj in build.glob("CMakeFiles/crcforge_objects.dir/**/*.o"):
        rel = str(obj.relative_to(build / "CMakeFiles/crcforge_objects.dir"))
        if rel.startswith("src/"):
            objects[rel[len("src/"):-len(".o")]] = obj
    return objects


def call_arrows(objects):
    nm = os.environ.get("NM", "nm")
    defined, wanted = {}, {}
    for name, obj in objects.items():
        out = subprocess.run([nm, "-P", str(obj)], capture_output=True, text=True,
                             check=True).stdout
        wanted[name] = set()
        for line in out.splitlines():
            fields = line.split()
            if len(fields) < 2:
                continue
            symbol, kind = fields[0], fields[1]
            if kind == "T":
                defined[symbol] = name
            elif kind == "U":
                wanted[name].add(symbol)
    arrows = set()
    for name, symbols in wanted.items():
        for symbol in symbols:
            target = defined.get(symbol)
            if target is not None and target != name:
                arrows.add((name, target, "calls " + symbol))
    return arrows


def circles(arrows):
    """The strongly connected sets of two or more files (Tarjan's algorithm)."""
    graph = {}
    for a, b, _ in arrows:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def analyse(root, build):
    src = root / "src"
    files = set(source_files(src))
    objects = object_files(build)
    arrows = include_arrows(src, files) | call_arrows(objects)
    up = sorted((a, b, why) for a, b, why in arrows
                if LAYERS.index(layer_of(b)) > LAYERS.index(layer_of(a)))
    return {"files": len(files), "objects": len(objects), "arrows": len(arrows),
            "circles": circles(arrows), "up": up}


def report(result):
    lines = [f"{result['files']} files, {result['objects']} objects, "
             f"{result['arrows']} arrows"]
    for group in result["circles"]:
        lines.append("circle: " + ", ".join(f"{f} ({layer_of(f)})" for f in group))
    for a, b, why in result["up"]:
        lines.append(f"arrow back up: {a} ({layer_of(a)}) -> {b} ({layer_of(b)}): {why}")
    lines.append(f"{len(result['circles'])} circles, {len(result['up'])} arrows back up")
    return "\n".join(lines)


def test_layers_one_way(build_dir):
    import pytest
    if not object_files(build_dir):
        pytest.fail(f"{build_dir}: no objects of the library (CMakeFiles/crcforge_objects.dir):"
                    " build it first")
    result = analyse(ROOT, build_dir)
    assert result["objects"] > 20 and result["arrows"] > 100, report(result)
    assert not result["circles"] and not result["up"], report(result)


def test_checker_sees_a_circle_and_an_arrow_up():
    """The checker itself: a kernel calling the tuning back is both."""
    arrows = {("x86/tuning.c", "x86/crc32c_sse42.c", "calls crc32c_serves"),
              ("x86/crc32c_sse42.c", "x86/tuning.c", "calls crc_x86_tuning_resolve"),
              ("dispatch.c", "bands.c", "calls crc_banded")}
    assert circles(arrows) == [["x86/crc32c_sse42.c", "x86/tuning.c"]]
    up = [(a, b) for a, b, _ in arrows if LAYERS.index(layer_of(b)) > LAYERS.index(layer_of(a))]
    assert up == [("x86/crc32c_sse42.c", "x86/tuning.c")]
    assert layer_of("x86/tuning/zen4.h") == "tuning" and layer_of("x86/fold.h") == "kernels"
    assert layer_of("internal.h") == "base" and layer_of("api.c") == "api"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=ROOT)
    parser.add_argument("--build", type=pathlib.Path)
    args = parser.parse_args()
    build = args.build or args.root / "build"
    if not object_files(build):
        print(f"{build}: no objects of the library: build it first", file=sys.stderr)
        return 2
    result = analyse(args.root, build)
    print(report(result))
    return 1 if result["circles"] or result["up"] else 0


if __name__ == "__main__":
    sys.exit(main())
