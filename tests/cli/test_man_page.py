# SPDX-License-Identifier: MIT
"""docs/crcforge.1 against the tool: the commands `crcforge --help` lists, the options each
command's --help lists, and the environment variables the library and the tool read
(their getenv calls in src/ and tools/), each both ways, so the two cannot drift apart."""
import re

import pytest

pytestmark = pytest.mark.c_only  # the manual page is the C tool's (bench is its own)

OPTION = re.compile(r"(?<![\w-])(--?[a-zA-Z][\w-]*)")


def man_text(repo_root):
    return (repo_root / "docs/crcforge.1").read_text(encoding="utf-8")


def man_sections(text):
    """{(level, name): body}: .SH and .SS sections, the roff escapes of '-' undone."""
    sections, key = {}, ("", "")
    for line in text.replace("\\-", "-").splitlines():
        heading = re.match(r"\.(SH|SS) (.+)", line)
        if heading:
            key = (heading.group(1), heading.group(2).strip('"'))
            sections[key] = []
        elif not line.startswith('.\\"'):
            sections.setdefault(key, []).append(line)
    return sections


def man_options(body):
    """The options a section's .TP tags name (the line after each .TP)."""
    found = set()
    for i, line in enumerate(body):
        if line.strip() == ".TP" and i + 1 < len(body):
            tag = re.sub(r"\\f[BIRP]|=.*", "", body[i + 1])
            found |= set(OPTION.findall(tag))
    return found


def help_options(text):
    """The options a --help lists: its lines "  -x, --name ..." or "      --name ..."."""
    found = set()
    for line in text.splitlines():
        m = re.match(r"  (?:(-\w), )?\s*(--[\w-]+)", line)
        if m:
            found |= {o for o in m.groups() if o}
    return found


def help_commands(text):
    """The commands `crcforge --help` lists: "  NAME   what it does" before the first blank line."""
    lines = text.split("\n\n")[0].splitlines()
    return {m.group(1) for line in lines if (m := re.match(r"  ([a-z]+)\s{2,}\S", line))}


def test_every_command_has_its_section(run, repo_root):
    code, out, _ = run("--help")
    assert code == 0
    commands = help_commands(out.decode())
    assert {"sum", "list", "cpu", "keyslot", "bench"} <= commands  # the parse found them
    documented = {name for level, name in man_sections(man_text(repo_root)) if level == "SS"}
    assert documented == commands


@pytest.mark.parametrize("command", ["sum", "list", "cpu", "keyslot", "bench"])
def test_every_option_of_a_command_is_documented(run, repo_root, command):
    code, out, _ = run(command, "--help")
    assert code == 0
    in_help = help_options(out.decode())
    assert "--help" in in_help
    in_man = man_options(man_sections(man_text(repo_root))[("SS", command)])
    assert in_man == in_help, (sorted(in_man - in_help), sorted(in_help - in_man))


def test_options_before_the_command(run, repo_root):
    in_man = man_options(man_sections(man_text(repo_root))[("SH", "OPTIONS")])
    assert in_man == {"-h", "--help", "--version"}
    for option in sorted(in_man):
        code, out, err = run(option)
        assert code == 0, (option, err)
    code, out, _ = run("--version")
    assert re.fullmatch(rb"crcforge \d+\.\d+\.\d+\n", out)


def test_environment_variables_are_documented(repo_root):
    sources = [*repo_root.glob("src/**/*.c"), *repo_root.glob("tools/*.c")]
    read = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        read |= set(re.findall(r'getenv\("(\w+)"\)', text))
        # A name kept in a macro or constant and read through it (getenv(TUNE)).
        for macro in re.findall(r"getenv\(([A-Z_]+)\)", text):
            read |= set(re.findall(rf'\b{macro}\b[^"\n]*"(\w+)"', text))
    assert {"CRCFORGE_IMPL", "CRCFORGE_CPU_MASK", "CRCFORGE_TUNE"} <= read
    body = man_sections(man_text(repo_root))[("SH", "ENVIRONMENT")]
    documented = {m.group(1) for i, line in enumerate(body) if line.strip() == ".TP"
                  and (m := re.match(r"\.B (\w+)", body[i + 1]))}
    assert read <= documented, sorted(read - documented)
    assert documented <= read | {"POSIXLY_CORRECT"}, sorted(documented - read)


def test_exit_statuses_are_documented(run, repo_root):
    body = "\n".join(man_sections(man_text(repo_root))[("SH", "EXIT STATUS")])
    statuses = set(re.findall(r"^\.B (\d+)$", body, re.M))
    assert statuses == {"0", "1", "2"}
    # Every status a command's help names has its entry.
    for command in ("sum", "list", "cpu", "keyslot", "bench"):
        _, out, _ = run(command, "--help")
        said = re.search(r"Exit status:(.*?)(?:\n\n|$)", out.decode(), re.S)
        if said:
            assert set(re.findall(r"\b(\d)\b", said.group(1))) <= statuses, command
    code, _, _ = run("no-such-command")
    assert code == 2
