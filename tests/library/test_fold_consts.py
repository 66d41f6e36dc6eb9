# SPDX-License-Identifier: MIT
"""The derived constants computed by src/fold_consts.c against scripts/fold_consts.py, an
independent derivation in plain polynomial arithmetic: struct fold_consts for catalogue
models of widths 8, 16, 24, 32 and 64 in both bit orders (for an MSB-first model, its
mirror's too: the constants of the reflected model of the same polynomial), struct
crc32_join for the two models of the crc32 instructions, struct crc32_lanes for them too
(the library builds it for CRC-32C)."""
import importlib.util
import subprocess

MODELS = ["CRC-8/SMBUS", "CRC-8/MAXIM-DOW", "CRC-16/XMODEM", "CRC-16/ARC", "CRC-24/OPENPGP",
          "CRC-24/BLE", "CRC-32/BZIP2", "CRC-32/ISO-HDLC", "CRC-32/ISCSI", "CRC-64/ECMA-182",
          "CRC-64/XZ", "CRC-64/NVME", "CRC-64/GO-ISO"]


def load_script(root):
    spec = importlib.util.spec_from_file_location("fold_consts", root / "scripts/fold_consts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_constants_match_independent_derivation(catalogue, repo_root, build_dir):
    script = load_script(repo_root)
    dump = build_dir / "tests" / "library" / "fold_consts_dump"
    out = subprocess.run([str(dump), *MODELS], capture_output=True, check=True).stdout
    got = {}
    for line in out.decode().splitlines():
        model, field, value = line.split()
        got.setdefault(model, {})[field] = int(value, 16)
    by_name = {m["name"]: m for m in catalogue}
    orders = set()
    for name in MODELS:
        m = by_name[name]
        orders.add((m["width"], m["refin"]))
        want = script.constants(m["width"], m["poly"], m["refin"])
        if not m["refin"]:
            mirror = script.constants(m["width"], m["poly"], True)
            want.update({"mirror." + f: v for f, v in mirror.items()})
        assert set(got[name]) == set(want), name
        for field in want:
            assert got[name][field] == want[field], (name, field, hex(got[name][field]),
                                                     hex(want[field]))
    # Widths 8, 16, 24, 32 and 64, each in both bit orders.
    assert orders >= {(w, r) for w in (8, 16, 24, 32, 64) for r in (False, True)}


def compare_table(flag, derive, fields, catalogue, build_dir):
    """fold_consts_dump FLAG against derive(poly) for the two models of the crc32
    instructions."""
    dump = build_dir / "tests" / "library" / "fold_consts_dump"
    models = ["CRC-32/ISCSI", "CRC-32/ISO-HDLC"]
    out = subprocess.run([str(dump), flag, *models], capture_output=True, check=True).stdout
    got = {}
    for line in out.decode().splitlines():
        model, field, value = line.split()
        got.setdefault(model, {})[field] = int(value, 16)
    by_name = {m["name"]: m for m in catalogue}
    for name in models:
        want = derive(by_name[name]["poly"])
        assert set(got[name]) == set(fields), name
        for field in fields:
            assert got[name][field] == want[field], (name, field, hex(got[name][field]),
                                                     hex(want[field]))


def test_join_constants_match_independent_derivation(catalogue, repo_root, build_dir):
    script = load_script(repo_root)
    compare_table("--join", script.join_constants, script.JOIN_FIELDS, catalogue, build_dir)


def test_lanes_constants_match_independent_derivation(catalogue, repo_root, build_dir):
    script = load_script(repo_root)
    compare_table("--lanes", script.lanes_constants, script.LANES_FIELDS, catalogue, build_dir)
