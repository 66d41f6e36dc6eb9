# SPDX-License-Identifier: MIT
# Windows x86-64 with zig cc (Clang, with zig's own MinGW-w64 C runtime, linked statically):
# -target x86_64-windows-gnu.  zig is PyPI's ziglang, run as `PYTHON -m ziglang cc`;
# CRCFORGE_ZIG_PYTHON names the Python that has it (default: python3 on PATH).  The archiver
# and the resource compiler are MinGW-w64 binutils' (Debian binutils-mingw-w64-x86-64); the
# tests run under Wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
if(NOT CRCFORGE_ZIG_PYTHON)
  find_program(CRCFORGE_ZIG_PYTHON NAMES python3 python REQUIRED)
endif()
set(CMAKE_C_COMPILER ${CRCFORGE_ZIG_PYTHON} -m ziglang cc -target x86_64-windows-gnu)
set(CMAKE_AR x86_64-w64-mingw32-ar CACHE FILEPATH "")
set(CMAKE_RANLIB x86_64-w64-mingw32-ranlib CACHE FILEPATH "")
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
find_program(CRCFORGE_WINE NAMES wine64 wine PATHS /usr/lib/wine)
if(CRCFORGE_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CRCFORGE_WINE})
endif()
