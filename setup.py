"""Builds crcforge._crcforge from the library's C sources (see pyproject.toml).

Sources are globbed, so kernels added under src/x86 or src/arm are picked up as they
land.  ISA code is enabled per function with target attributes, so one set of flags
compiles everything (no -march).  CRCFORGE_API is defined empty and visibility hidden:
the extension exports only PyInit__crcforge.
"""
import glob
import platform
import re

from setuptools import Extension, setup

ISA_FOLDERS = {"x86_64": "x86", "amd64": "x86", "aarch64": "arm", "arm64": "arm"}


def library_sources():
    sources = sorted(glob.glob("src/*.c"))
    isa = ISA_FOLDERS.get(platform.machine().lower())
    if isa is not None:
        sources += sorted(glob.glob(f"src/{isa}/*.c"))
    return sources


def version():
    with open("include/crcforge.h", encoding="utf-8") as header:
        return re.search(r'#define CRCFORGE_VERSION "([^"]+)"', header.read()).group(1)


extension = Extension(
    "crcforge._crcforge",
    sources=library_sources() + sorted(glob.glob("python/ext/*.c")),
    depends=sorted(glob.glob("src/**/*.h", recursive=True) + glob.glob("python/ext/*.h")
                   + ["include/crcforge.h"]),
    include_dirs=["include", "src"],
    define_macros=[("CRCFORGE_API", "")],
    # -falign-loops=64 as CMakeLists.txt gives the ISA sources: the crc32-instruction loops'
    # speed measured dependent on their placement otherwise.
    extra_compile_args=["-std=gnu11", "-fvisibility=hidden", "-falign-loops=64", "-Wall",
                        "-Wextra"],
)

# build_base: CMake owns build/ at the root.
setup(version=version(), ext_modules=[extension],
      options={"build": {"build_base": "build-python"}})
