# SPDX-License-Identifier: MIT
# What the zig macOS toolchain files share: the compiler is cmake/zig-cc with the target
# as a flag (zig spells targets its own way), no SDK to look for.
set(CMAKE_C_COMPILER ${CMAKE_CURRENT_LIST_DIR}/zig-cc)
set(CMAKE_C_FLAGS_INIT "-target ${CRCFORGE_ZIG_TARGET}")
set(CMAKE_OSX_SYSROOT "" CACHE PATH "" FORCE)
# The host's libraries and headers are Linux's: none is looked for (programs are the host's).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
