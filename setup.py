# SPDX-License-Identifier: MIT
"""Builds crcforge._crcforge from the library's C sources (see pyproject.toml), and the
command-line tool's engine from tools/ (behind `python -m crcforge`).

The sources, their per-file flags and link needs come from src/sources.txt, the list
CMakeLists.txt reads too.  The tool's files are all of tools/ but the C program's own:
main.c (its main) and cmd_bench.c (the benchmark, with its peer libraries).  CRCFORGE_API
is defined empty and visibility hidden: the extension exports only PyInit__crcforge.

CRCFORGE_LIMITED_API=3.11 (or a later 3.N) builds the extension to the limited C API of
that CPython, and tags the wheel cpXY-abi3: one wheel for every CPython from it on
(scripts/build_wheels.sh).  Unset, the extension uses the full API of the interpreter that
builds it, as any build from the sdist does.
"""
import glob
import os
import re
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ARCHES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}


def read_source_list(path="src/sources.txt"):
    """(sources, {source: extra flags}, link flags) for this machine, from the list."""
    # The platform the extension is built for: the machine's, or the one a cross build
    # names in _PYTHON_HOST_PLATFORM (linux-aarch64), which sysconfig reports.
    arch = ARCHES.get(sysconfig.get_platform().rsplit("-", 1)[-1].lower(), "other")
    sources, flags, link = [], {}, []
    with open(path, encoding="utf-8") as listing:
        for number, line in enumerate(listing, 1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) < 2:
                raise SystemExit(f"{path}:{number}: expected ARCH and a glob or 'link'")
            line_arch, what, args = fields[0], fields[1], fields[2:]
            if line_arch not in ("any", arch):
                continue
            if what == "link":
                if args != ["threads"]:
                    raise SystemExit(f"{path}:{number}: unknown link need {' '.join(args)!r}")
                link.append("-pthread")
                continue
            matched = sorted(glob.glob(what))
            if not matched:
                raise SystemExit(f"{path}:{number}: {what!r} matches no file")
            sources += matched
            flags.update((source, args) for source in matched)
    return sources, flags, link


def limited_api(value):
    """(Py_LIMITED_API's value, the wheel's cpXY tag) for CRCFORGE_LIMITED_API=3.N, N >= 11
    (the buffer protocol joined the limited API in 3.11); None when it is unset."""
    if not value:
        return None
    match = re.fullmatch(r"3\.([0-9]+)", value)
    if match is None or int(match.group(1)) < 11:
        raise SystemExit(f"CRCFORGE_LIMITED_API={value!r}: not a CPython version 3.11 or later")
    minor = int(match.group(1))
    return f"0x03{minor:02X}0000", f"cp3{minor}"


LIBRARY_SOURCES, PER_FILE_FLAGS, LINK_FLAGS = read_source_list()
LIMITED = limited_api(os.environ.get("CRCFORGE_LIMITED_API"))
TOOL_ONLY = {"tools/main.c", "tools/cmd_bench.c"}
ENGINE_SOURCES = [f for f in sorted(glob.glob("tools/*.c")) if f not in TOOL_ONLY]


class BuildExtPerFileFlags(build_ext):
    """Adds each library file's own flags from the list (setuptools knows one flag set
    per extension)."""

    def build_extensions(self):
        # Windows' pyconfig.h defines MS_WIN64 for MSVC alone: a GNU compiler (MinGW-w64,
        # zig cc) is told, or Py_ssize_t would be an int there.
        if sysconfig.get_platform() == "win-amd64" and self.compiler.compiler_type != "msvc":
            for ext in self.extensions:
                ext.define_macros.append(("MS_WIN64", None))
        compile_one = self.compiler._compile

        def _compile(obj, src, ext, cc_args, extra_postargs, pp_opts):
            extra = PER_FILE_FLAGS.get(src.replace("\\", "/"), [])
            return compile_one(obj, src, ext, cc_args, extra_postargs + extra, pp_opts)

        self.compiler._compile = _compile
        super().build_extensions()


def version():
    """MAJOR.MINOR.PATCH from the stable header, where the version is written."""
    with open("include/crcforge.h", encoding="utf-8") as header:
        text = header.read()
    return ".".join(re.search(rf"^#define CRCFORGE_VERSION_{part} ([0-9]+)$", text, re.M).group(1)
                    for part in ("MAJOR", "MINOR", "PATCH"))


extension = Extension(
    "crcforge._crcforge",
    sources=LIBRARY_SOURCES + ENGINE_SOURCES + sorted(glob.glob("python/ext/*.c")),
    depends=sorted(glob.glob("src/**/*.h", recursive=True) + glob.glob("python/ext/*.h")
                   + glob.glob("tools/*.h")
                   + ["include/crcforge.h", "include/crcforge_dispatch.h", "src/sources.txt"]),
    include_dirs=["include", "src", "tools"],
    define_macros=[("CRCFORGE_API", "")] + ([("Py_LIMITED_API", LIMITED[0])] if LIMITED else []),
    # The file's abi3 suffix (.abi3.so, .pyd) from this interpreter, unless a cross build
    # names the target's in SETUPTOOLS_EXT_SUFFIX.
    py_limited_api=bool(LIMITED) and not os.environ.get("SETUPTOOLS_EXT_SUFFIX"),
    extra_compile_args=["-std=gnu11", "-fvisibility=hidden", "-Wall", "-Wextra"],
    # The engine's threads: -j's readers and the progress line.
    extra_link_args=sorted(set(LINK_FLAGS) | {"-pthread"}),
)

# build_base: CMake owns build/ at the root.
options = {"build": {"build_base": "build-python"}}
if LIMITED:
    options["bdist_wheel"] = {"py_limited_api": LIMITED[1]}
setup(version=version(), ext_modules=[extension], cmdclass={"build_ext": BuildExtPerFileFlags},
      options=options)
