# SPDX-License-Identifier: MIT
# Shared part of the toolchain files: Debian's cross GCC for CROSS_TRIPLE, its libc under
# /usr/CROSS_TRIPLE, and qemu-user (CMAKE_CROSSCOMPILING_EMULATOR, used by ctest) to run
# the test programs.  Set CMAKE_SYSTEM_PROCESSOR, CROSS_TRIPLE and CROSS_QEMU first.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${CROSS_TRIPLE}-gcc)
# The target's binutils (the static archive's partial link and objcopy, CMakeLists.txt).
set(CMAKE_LINKER ${CROSS_TRIPLE}-ld CACHE FILEPATH "")
set(CMAKE_OBJCOPY ${CROSS_TRIPLE}-objcopy CACHE FILEPATH "")
set(CMAKE_FIND_ROOT_PATH /usr/${CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CROSS_QEMU} -L /usr/${CROSS_TRIPLE})
