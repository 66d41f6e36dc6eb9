#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The sources the x86 paths are built from, and their digest: what a tuning sweep measured.

    kernel_sources.py [--commit REV] [--json [--family NAME] [--note TEXT]]
    kernel_sources.py --tables

A table (src/x86/tuning/FAMILY.h) is a claim about one CPU running one version of the
kernels, so a sweep records which sources it ran (sweep.sh writes sources.json beside its
runs) and make_table.py compares them with the tree's before it writes a table.

The sources: every .c file of src/x86/ but tuning.c (the family's choice, not a path), and
src/fold_consts.c (the kernels' constants), with every file they include by a quoted name,
transitively (looked up beside the including file, then in src/ and include/).  The tables
themselves (src/x86/tuning/) are never among them: they are what a sweep tunes.
The digest: SHA-256 over the lines "SHA256-OF-FILE  PATH" of the sources in path order.

Without options, prints the digest and the files of the working tree; --commit REV those of
a commit (git show), --json the record sweep.sh keeps (sources.json: the commit, whether the
sources differed from it, the digest, every file's SHA-256, and with --family the family the
sweep is for).  --tables: for every table make_table.py wrote, the sweep it names, and
whether the tree's kernels are still the ones that sweep ran or which files changed since.
"""
import argparse
import hashlib
import json
import os
import posixpath
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOT_DIRS = ("src/x86",)
EXTRA_ROOTS = ("src/fold_consts.c",)
EXCLUDED_ROOTS = ("src/x86/tuning.c",)
SEARCH = ("src", "include")
INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)


class SourcesError(Exception):
    pass


class Tree:
    """The working tree's files."""

    def __init__(self, root=ROOT):
        self.root = root

    def read(self, path):
        try:
            with open(os.path.join(self.root, path), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def listdir(self, path):
        full = os.path.join(self.root, path)
        return sorted(os.listdir(full)) if os.path.isdir(full) else []


class Commit:
    """A commit's files, through git."""

    def __init__(self, rev, root=ROOT):
        self.root = root
        try:
            self.rev = self._git("rev-parse", "--verify", "--quiet", rev + "^{commit}").strip()
        except SourcesError:
            raise SourcesError(f"'{rev}' names no commit") from None
        self._names = set(self._git("ls-tree", "-r", "--name-only", self.rev).splitlines())

    def _git(self, *args):
        done = subprocess.run(["git", "-C", self.root, *args], capture_output=True)
        if done.returncode != 0:
            raise SourcesError(f"git {' '.join(args)}: {done.stderr.decode().strip()}")
        return done.stdout.decode()

    def read(self, path):
        if path not in self._names:
            return None
        done = subprocess.run(["git", "-C", self.root, "show", f"{self.rev}:{path}"],
                              capture_output=True)
        return done.stdout if done.returncode == 0 else None

    def listdir(self, path):
        prefix = path.rstrip("/") + "/"
        return sorted({n[len(prefix):] for n in self._names
                       if n.startswith(prefix) and "/" not in n[len(prefix):]})


def sources(files):
    """{path: sha256} of the sources, read through `files` (a Tree or a Commit)."""
    pending = [posixpath.join(d, n) for d in ROOT_DIRS for n in files.listdir(d)
               if n.endswith(".c")]
    pending = [p for p in pending if p not in EXCLUDED_ROOTS] + list(EXTRA_ROOTS)
    out = {}
    while pending:
        path = pending.pop()
        if path in out:
            continue
        data = files.read(path)
        if data is None:
            raise SourcesError(f"{path}: not found")
        out[path] = hashlib.sha256(data).hexdigest()
        here = posixpath.dirname(path)
        for name in INCLUDE.findall(data):
            name = name.decode()
            for base in (here, *SEARCH):
                found = posixpath.normpath(posixpath.join(base, name))
                if found.startswith("src/x86/tuning/"):
                    break  # a table: what the sweep tunes, not what it ran
                if files.read(found) is not None:
                    pending.append(found)
                    break
            # a name found nowhere is a system header spelt with quotes: not ours
    return dict(sorted(out.items()))


def digest(files_hashes):
    lines = "".join(f"{h}  {p}\n" for p, h in sorted(files_hashes.items()))
    return hashlib.sha256(lines.encode()).hexdigest()


def record(rev=None, root=ROOT):
    """The record of the working tree (rev None) or of a commit: what sources.json holds."""
    if rev is None:
        files = sources(Tree(root))
        head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True)
        commit = head.stdout.decode().strip() if head.returncode == 0 else None
        # Dirty: the sources differ from the commit's (what else changed does not matter).
        dirty = commit is None or sources(Commit(commit, root)) != files
    else:
        c = Commit(rev, root)
        files, commit, dirty = sources(c), c.rev, False
    return {"commit": commit, "dirty": dirty, "digest": digest(files), "files": files}


TABLES_DIR = os.path.join(ROOT, "src", "x86", "tuning")
# The line make_table.py writes into a table: the sweep's commit and digest.
SWEPT = re.compile(r"^ \* Swept: crcforge at commit ([0-9a-f]{40}),\n"
                   r" \*     kernel sources SHA-256 ([0-9a-f]{64})$", re.M)


def table_sweeps(root=ROOT):
    """{table file: (commit, digest) or None}: the sweep each table in src/x86/tuning/ names
    (None: written by hand)."""
    out = {}
    tables = os.path.join(root, "src", "x86", "tuning")
    for name in sorted(os.listdir(tables)):
        with open(os.path.join(tables, name)) as f:
            found = SWEPT.search(f.read())
        out[name] = found.groups() if found else None
    return out


def changes(old, new):
    """The paths whose content differs between two {path: sha256}, each with how."""
    out = []
    for p in sorted(set(old) | set(new)):
        if p not in new:
            out.append(f"{p} (gone)")
        elif p not in old:
            out.append(f"{p} (new)")
        elif old[p] != new[p]:
            out.append(p)
    return out


def print_tables():
    tree = sources(Tree())
    for name, swept in table_sweeps().items():
        if swept is None:
            print(f"{name}: names no sweep")
            continue
        commit, swept_digest = swept
        if swept_digest == digest(tree):
            print(f"{name}: swept at {commit[:12]}: the tree's kernels")
            continue
        try:
            old = sources(Commit(commit))
        except SourcesError:
            old = None
        if old is None or digest(old) != swept_digest:
            print(f"{name}: swept at {commit[:12]} on other kernels than this tree's "
                  "(that commit's own sources differ from the sweep's: uncommitted changes)")
        else:
            print(f"{name}: swept at {commit[:12]}; changed since: {', '.join(changes(old, tree))}")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commit", metavar="REV", help="a commit's sources, not the tree's")
    ap.add_argument("--json", action="store_true", help="the record sweep.sh keeps")
    ap.add_argument("--family", help="with --json: the family the sweep is for")
    ap.add_argument("--note", help="with --json: a remark kept in the record")
    ap.add_argument("--tables", action="store_true",
                    help="which tables were swept on the kernels of this tree")
    args = ap.parse_args(argv)
    if (args.family or args.note) and not args.json:
        ap.error("--family and --note go with --json")
    try:
        if args.tables:
            return print_tables()
        rec = record(args.commit)
    except SourcesError as e:
        print(f"kernel_sources.py: {e}", file=sys.stderr)
        return 2
    if args.family:
        rec["family"] = args.family
    if args.note:
        rec["note"] = args.note
    if args.json:
        json.dump(rec, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(f"digest {rec['digest']} ({len(rec['files'])} files"
              f"{', uncommitted changes' if rec['dirty'] else ''})")
        for p in rec["files"]:
            print(f"  {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
