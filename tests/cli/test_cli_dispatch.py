"""`crcforge cpu` and CRCFORGE_IMPL under CPU features masked with CRCFORGE_CPU_MASK."""
import pytest


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
        pytest.skip("this CPU has no SSE4.2")
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
