# SPDX-License-Identifier: MIT
# macOS on x86-64, cross-built with zig cc (cmake/zig-cc: Clang with macOS's libc headers
# and a Mach-O linker); the programs cannot run here.
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CRCFORGE_ZIG_TARGET x86_64-macos)
include(${CMAKE_CURRENT_LIST_DIR}/zig-macos.cmake)
