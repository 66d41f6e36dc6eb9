# SPDX-License-Identifier: MIT
"""docs/DESIGN.md against the tree and the tool, so that the contract cannot drift from the
code: every file it names exists (the Repository block's paths, and the paths and file names
in backquotes), every source file of the library is in the Repository block, and every
option each command's --help lists is in the Command line synopsis."""
import re
import subprocess

import pytest

# The column of the Repository block (its indent removed) where descriptions start: a line
# indented less names a path, a line indented this far continues the description above.
DESCRIPTION_COLUMN = 28


def design_text(repo_root):
    return (repo_root / "docs/DESIGN.md").read_text(encoding="utf-8")


def section(text, title):
    """A `## title` section's text, up to the next `## ` heading."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"DESIGN.md has no section '{title}'"
    return m.group(1)


def code_block(body):
    """The first indented code block of a section: its lines, the 4-space indent removed."""
    lines, inside = [], False
    for line in body.splitlines():
        if line.startswith("    "):
            inside = True
            lines.append(line[4:])
        elif inside and line.strip():
            break
        elif inside:
            lines.append("")
    return lines


def repository_paths(repo_root):
    """The Repository block's paths, each under the folders listed above it, shallower."""
    folders = []  # (indent, folder path)
    paths = []
    for line in code_block(section(design_text(repo_root), "Repository")):
        indent = len(line) - len(line.lstrip())
        if not line.strip() or indent >= DESCRIPTION_COLUMN:
            continue
        name = line.split()[0]
        folders = [(i, f) for i, f in folders if i < indent]
        path = (folders[-1][1] if folders else "") + name
        paths.append(path)
        if name.endswith("/"):
            folders.append((indent, path))
    return paths


def tracked_files(repo_root):
    done = subprocess.run(["git", "-C", str(repo_root), "ls-files"], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout: the tracked files are not known")
    return [line for line in done.stdout.splitlines() if (repo_root / line).exists()]


def test_repository_paths_exist(repo_root):
    paths = repository_paths(repo_root)
    assert {"src/", "src/api.c", "src/x86/", "src/arm/tuning.c", "tools/"} <= set(paths)
    missing = [p for p in paths if not (repo_root / p).exists()]
    assert not missing, f"DESIGN.md's Repository block names what does not exist: {missing}"


def test_every_library_source_is_in_the_repository_block(repo_root):
    named = set(repository_paths(repo_root))
    sources = [f for f in tracked_files(repo_root)
               if re.fullmatch(r"src/(x86/|arm/)?[^/]+\.c", f)]
    assert "src/dispatch.c" in sources
    unnamed = [f for f in sources if f not in named]
    assert not unnamed, f"library sources DESIGN.md's Repository block does not name: {unnamed}"


def test_quoted_paths_exist(repo_root):
    """`a/b.c` names a path from the repository root; a bare `b.c`, a file somewhere in it."""
    files = tracked_files(repo_root)
    names = {f.rsplit("/", 1)[-1] for f in files}
    quoted = set(re.findall(r"`([\w./-]+)`", design_text(repo_root)))
    # A file by its extension, a folder by its trailing slash (CRC-32/ISCSI is neither).
    file_like = {q for q in quoted
                 if re.fullmatch(r"[\w./-]*\w\.(c|h|py|sh|txt|md|cmake|1|in|toml)|[\w./-]+/", q)
                 and not q.startswith(("/", "-"))}
    assert {"src/sources.txt", "scripts/fold_consts.py", "tools/platform.h"} <= file_like
    missing = sorted(q for q in file_like
                     if not ((repo_root / q).exists() if "/" in q else q in names))
    assert not missing, f"DESIGN.md names in backquotes what does not exist: {missing}"


def help_options(text):
    """The options a --help lists: its lines "  -x, --name ..." or "      --name ..."."""
    found = []
    for line in text.splitlines():
        m = re.match(r"  (?:(-\w), )?\s*(--[\w-]+)", line)
        if m:
            found.append({o for o in m.groups() if o})
    return found


@pytest.mark.c_only  # the synopsis is the C tool's (python -m crcforge's are its section)
@pytest.mark.parametrize("command", ["sum", "list", "cpu", "keyslot", "bench"])
def test_every_option_is_in_the_synopsis(run, repo_root, command):
    # A command's lines: its own and the continuation lines below them.
    mine, current = [], None
    for line in code_block(section(design_text(repo_root), "Command line")):
        m = re.match(r"crcforge (\S+)", line)
        if m:
            current = m.group(1)
        if current == command:
            mine.append(line)
    assert mine, f"no synopsis of crcforge {command}"
    written = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", " ".join(mine)))
    code, out, _ = run(command, "--help")
    assert code == 0
    listed = help_options(out.decode())
    assert listed, "the parse found no option in the help"
    # --help itself is on the synopsis's last line, for every command.
    absent = [sorted(o) for o in listed if not o & written and "--help" not in o]
    assert not absent, f"options of crcforge {command} missing from DESIGN.md's synopsis: {absent}"
