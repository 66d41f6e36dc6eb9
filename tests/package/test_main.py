"""What `python -m crcforge` adds to the CLI tests it shares with the C tool
(tests/cli/test_cli.py): its usage, and the commands it leaves to the C tool."""
import subprocess
import sys


def run(*args, stdin=b""):
    p = subprocess.run([sys.executable, "-m", "crcforge", *args], input=stdin,
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_usage():
    code, out, err = run()
    assert code == 2 and out == "" and "  python -m crcforge sum [-a ALGO]" in err
    code, out, _ = run("--help")
    assert code == 0 and "  python -m crcforge sum [-a ALGO]" in out
    code, out, _ = run("sum", "--help")
    assert code == 0 and out.startswith("usage: python -m crcforge sum [-a ALGO]")
    assert "  -a, --algorithm=ALGO" in out


def test_other_commands_are_in_the_c_tool():
    code, out, err = run("list")
    assert code == 2 and out == ""
    assert "crcforge: unknown command 'list' (python -m crcforge has sum and verify)" in err


def test_sum_with_options_after_files_and_double_dash(tmp_path):
    f = tmp_path / "-a"
    f.write_bytes(b"123456789")
    code, out, _ = run("sum", "--", str(f))
    assert (code, out) == (0, f"e3069283  {f}\n")
    code, out, _ = run("sum", "-a", "CRC-16/XMODEM", "--format", "base64", stdin=b"123456789")
    assert (code, out) == (0, "McM=  -\n")  # 0x31c3, the catalogue's check value


def test_custom_parameters_are_strict():
    """A number begins with a digit (no space or sign), a parameter is given once, and
    the list has no empty item."""
    params = "width=16,poly=0x1021,init=0,refin=false,refout=false,xorout=0"
    for algo, reason in [(params.replace("=0x1021", "= 0x1021"), "bad value ' 0x1021' for poly"),
                         (params.replace("=0x1021", "=+4129"), "bad value '+4129' for poly"),
                         (params.replace("init=0", "init=\t0"), "bad value '\t0' for init"),
                         (params + ",poly=0x1021", "poly given twice"),
                         (params + ",refin=false", "refin given twice"),
                         (params.replace(",", ",,", 1), "empty item (a comma too many)"),
                         (params + ",", "empty item (a comma too many)"),
                         ("," + params, "empty item (a comma too many)")]:
        code, out, err = run("sum", "-a", algo, stdin=b"123456789")
        assert (code, out) == (2, ""), algo
        assert err == f"crcforge: algorithm '{algo}': {reason}\n", err
