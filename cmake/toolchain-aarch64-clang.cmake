# SPDX-License-Identifier: MIT
# Linux/aarch64 with Debian's clang (--target=aarch64-linux-gnu), the libc and binutils of
# gcc-aarch64-linux-gnu; tests run under qemu-aarch64.
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CROSS_TRIPLE aarch64-linux-gnu)
set(CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET ${CROSS_TRIPLE})
