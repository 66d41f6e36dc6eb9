# SPDX-License-Identifier: MIT
"""`crcforge cpu` and CRCFORGE_IMPL under CPU features masked with CRCFORGE_CPU_MASK, and the
tuning table it names."""
import pathlib
import re

import pytest

import needs


def lines(out):
    return out.decode().splitlines()


def chosen(run, env):
    code, out, _ = run("cpu", env=env)
    assert code == 0
    return dict(line.split() for line in lines(out) if line.startswith("CRC-"))


def test_mask_none_leaves_only_portable(run):
    env = {"CRCFORGE_CPU_MASK": "none"}
    code, out, _ = run("cpu", "--impls", env=env)
    assert (code, lines(out)) == (0, ["portable"])
    paths = chosen(run, env)
    assert paths["CRC-32/ISCSI"] == "portable" and set(paths.values()) == {"portable"}
    code, out, err = run("sum", env=env, stdin=b"123456789")
    assert (code, lines(out)) == (0, ["e3069283  -"])


def test_forcing_a_masked_path_is_an_error(run):
    every = [line for line in lines(run("cpu")[1]) if line.startswith("compiled in:")][0]
    for name in every.split()[2:]:
        name = name.replace("(not runnable)", "")
        if name == "portable":
            continue
        code, out, err = run("sum", env={"CRCFORGE_CPU_MASK": "none", "CRCFORGE_IMPL": name},
                             stdin=b"123456789")
        assert code == 2 and out == b"" and f"CRCFORGE_IMPL={name}" in err, (name, err)


def test_mask_sse42_only(run):
    if "sse4.2" not in lines(run("cpu")[1])[0].split():
        needs.cpu("it has no SSE4.2")
    env = {"CRCFORGE_CPU_MASK": "sse4.2"}
    assert chosen(run, env)["CRC-32/ISCSI"] == "crc32c_x86_sse42"
    impls = lines(run("cpu", "--impls", env=env)[1])
    assert "crc32c_x86_sse42" in impls and "crc32c_x86_sse42_3way" not in impls
    code, out, err = run("sum", env={**env, "CRCFORGE_IMPL": "crc32c_x86_sse42_3way"},
                         stdin=b"123456789")
    assert code == 2 and "CRCFORGE_IMPL=crc32c_x86_sse42_3way" in err
    code, out, _ = run("sum", env={**env, "CRCFORGE_IMPL": "crc32c_x86_sse42"},
                       stdin=b"123456789")
    assert (code, lines(out)) == (0, ["e3069283  -"])


def test_unknown_mask_feature_is_reported(run):
    code, out, err = run("sum", env={"CRCFORGE_CPU_MASK": "sse4.2,warp9"}, stdin=b"123456789")
    assert code == 0 and lines(out) == ["e3069283  -"] and "warp9" in err


# A bad value of each variable the library reads, as `crcforge cpu` reports it: the
# library's list of problems (crcforge_env_problem_at), each with the value exactly as set;
# a bad CRCFORGE_IMPL is a usage error of every command, the others warnings.
BAD_VALUES = [
    ("CRCFORGE_CPU_MASK", "sse4.2, warp9", "unknown feature 'warp9'", "ignored that name"),
    ("CRCFORGE_TUNE", "hybrid_qwords=99,fold_accumulators=2",
     "'hybrid_qwords=99': hybrid_qwords takes a number from 1 to 16", "the table's value"),
    ("CRCFORGE_TUNE", "family=no-such", "'family=no-such': no such family",
     "the CPU's own family"),
]


@pytest.mark.parametrize("variable, value, problem, instead", BAD_VALUES)
def test_cpu_reports_a_bad_environment_value(run, variable, value, problem, instead):
    code, out, err = run("cpu")
    if variable == "CRCFORGE_TUNE" and "tuning:" not in out.decode():
        needs.cpu("no tuning tables for it: CRCFORGE_TUNE is not read")
    code, out, err = run("cpu", env={variable: value})
    said = [line for line in lines(out) if line.startswith("environment: ")]
    assert code == 0 and len(said) == 1, (out, err)
    assert said[0].startswith(f"environment: {variable}={value}: {problem}")
    assert said[0].endswith(instead) or f"; {instead}" in said[0]
    # The tool says it on stderr too (the library itself writes nothing there).
    assert err.count(f"crcforge: warning: {variable}={value}: {problem}") == 1, err
    code, out, err = run("sum", env={variable: value}, stdin=b"123456789")
    assert (code, lines(out)) == (0, ["e3069283  -"])
    assert err.count(f"crcforge: warning: {variable}={value}: {problem}") == 1, err


def test_cpu_reports_a_bad_impl(run):
    # Unknown, and a path of this build that CRCFORGE_CPU_MASK=none leaves unrunnable.
    every = [line for line in lines(run("cpu")[1]) if line.startswith("compiled in:")][0]
    masked = every.replace("(not runnable)", "").split()[2:]  # the mark holds a space
    cases = [("warp drive", "unknown implementation")]
    cases += [(n, "this CPU cannot run that implementation") for n in masked[:1]
              if n != "portable"]
    for value, problem in cases:
        code, out, err = run("cpu", env={"CRCFORGE_IMPL": value, "CRCFORGE_CPU_MASK": "none"})
        assert code == 2 and out == b"", err
        assert err.count(f"crcforge: CRCFORGE_IMPL={value}: {problem}") == 1, err


def test_cpu_reports_every_bad_value_at_once(run):
    env = {"CRCFORGE_CPU_MASK": "warp9", "CRCFORGE_TUNE": "bogus=1"}
    code, out, err = run("cpu", env=env)
    said = sorted(line for line in lines(out) if line.startswith("environment: "))
    want = ["environment: CRCFORGE_CPU_MASK=warp9: unknown feature 'warp9'",
            "environment: CRCFORGE_CPU_MASK=warp9: no known feature name in it"]
    if "tuning:" in out.decode():
        want.append("environment: CRCFORGE_TUNE=bogus=1: 'bogus=1': unknown key")
    assert code == 0 and [s[:len(w)] for s, w in zip(said, sorted(want))] == sorted(want), out
    assert len(said) == len(want)
    code, out, err = run("cpu")
    assert code == 0 and not [l for l in lines(out) if l.startswith("environment:")]


def table_sources():
    """{table name: its .source} of every x86 table, read from the headers themselves."""
    root = pathlib.Path(__file__).resolve().parents[2] / "src" / "x86" / "tuning"
    out = {}
    for header in root.glob("*.h"):
        text = header.read_text()
        for family, literals in re.findall(
                r'\.family = "([^"]+)",\s*\.source =\s*((?:"(?:[^"\\]|\\.)*"\s*)+),', text):
            source = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', literals))
            out[family] = source.replace('\\"', '"').replace("\\\\", "\\")
    return out


@pytest.mark.parametrize("family", ["zen5", "zen4", "intel-spr", "avx2-vpclmul",
                                    "generic-avx2", "generic-pclmul"])
def test_cpu_prints_where_the_table_comes_from(run, family):
    # Each family's table, as CRCFORGE_TUNE=family= puts it in use where this CPU can run
    # its paths: `crcforge cpu` names the table and where its choices come from, as the
    # header says (for a swept table its sweep's commit).
    code, out, _ = run("cpu", env={"CRCFORGE_TUNE": f"family={family}"})
    assert code == 0
    text = out.decode()
    if "tuning:" not in text:
        pytest.skip("paths are not tuned per family on this CPU")
    if "this CPU lacks features its paths execute" in text:
        pytest.skip(f"this CPU cannot run the paths of family {family}")
    table = re.search(r"^tuning: \S+?(?:,| \().*?(?:the (\S+) table|$)", text, re.M)
    name = table.group(1) or family if table else family
    sources = table_sources()
    assert f"tuning table from: {sources[name]}\n" in text, text
    if name in ("zen5", "zen4", "intel-spr", "avx2-vpclmul"):
        assert re.match(r"sweep of [0-9a-f]{12}\+? \(\d{4}-\d\d-\d\d\) on ", sources[name])
