# SPDX-License-Identifier: MIT
"""Checks a Windows or macOS wheel of crcforge as a file, what auditwheel show does for the
Linux ones (scripts/build_wheels.sh runs it on every wheel it builds for those systems):

  - the extension's file name is the one its CPython loads for the wheel's tags
    (_crcforge.pyd for cp311-abi3 on Windows, _crcforge.abi3.so on macOS,
    _crcforge.cp310-win_amd64.pyd, _crcforge.cpython-310-darwin.so);
  - Windows (PE): an x86-64 DLL that imports the interpreter's DLL the tags name
    (python3.dll for abi3, python310.dll for cp310), the Universal C Runtime (api-ms-win-crt-*,
    as python.org's CPython does) and KERNEL32 only -- no other C runtime (msvcrt,
    vcruntime, MinGW's) -- and exports PyInit__crcforge alone;
  - macOS (Mach-O): a 64-bit file of the CPU the tags name, whose minimum macOS (its
    LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX) is the tag's, that loads libSystem alone,
    has dyld look up in any image (-undefined dynamic_lookup: the interpreter) only Python's
    own symbols and bind the rest to libSystem (as its binding opcodes say), and exports
    _PyInit__crcforge alone.

Usage: python scripts/check_wheel.py WHEEL...   (pefile, from scripts/wheel-tools.txt)
Prints what it found; exit status 1 when anything is wrong, each problem named."""
import os
import re
import struct
import sys
import zipfile

import pefile

UCRT = re.compile(r"api-ms-win-crt-[a-z0-9-]+\.dll|ucrtbase\.dll")
MACHO_CPUS = {0x01000007: "x86_64", 0x0100000C: "arm64"}
LC_LOAD_DYLIBS = {0xC, 0x18 | 0x80000000, 0x1F | 0x80000000, 0x23}  # load, weak, reexport, upward
LC_SYMTAB, LC_VERSION_MIN_MACOSX, LC_BUILD_VERSION = 0x2, 0x24, 0x32
LC_DYLD_INFO, LC_DYLD_INFO_ONLY, LC_DYLD_CHAINED_FIXUPS = 0x22, 0x80000022, 0x80000034
FLAT_LOOKUP = -2  # a bind's "dylib" when -undefined dynamic_lookup left it to any image
LIBSYSTEM = "/usr/lib/libSystem.B.dylib"
LINKERS_OWN = {"__mh_dylib_header", "__mh_bundle_header", "___dso_handle"}


def expected_name(python, abi, platform):
    """The extension's file name the wheel's CPython loads."""
    windows = platform.startswith("win")
    if abi == "abi3":
        return "_crcforge.pyd" if windows else "_crcforge.abi3.so"
    return (f"_crcforge.{python}-{platform}.pyd" if windows
            else f"_crcforge.cpython-{python[2:]}-darwin.so")


def check_pe(data, python, abi, platform):
    pe = pefile.PE(data=data)
    problems = []
    if pe.FILE_HEADER.Machine != pefile.MACHINE_TYPE["IMAGE_FILE_MACHINE_AMD64"]:
        problems.append(f"machine {pe.FILE_HEADER.Machine:#x}, not x86-64 ({platform})")
    if not pe.is_dll():
        problems.append("not a DLL")
    imports = sorted(entry.dll.decode().lower() for entry in
                     getattr(pe, "DIRECTORY_ENTRY_IMPORT", []))
    interpreter = "python3.dll" if abi == "abi3" else f"python{python[2:]}.dll"
    if interpreter not in imports:
        problems.append(f"does not import {interpreter}")
    if not any(UCRT.fullmatch(dll) for dll in imports):
        problems.append("does not import the Universal C Runtime (api-ms-win-crt-*)")
    others = [dll for dll in imports
              if dll not in (interpreter, "kernel32.dll") and not UCRT.fullmatch(dll)]
    if others:
        problems.append(f"imports {', '.join(others)} (a C runtime or a DLL beyond Windows' "
                        f"own and {interpreter})")
    exports = sorted(symbol.name.decode() for symbol in
                     getattr(getattr(pe, "DIRECTORY_ENTRY_EXPORT", None), "symbols", []))
    if exports != ["PyInit__crcforge"]:
        problems.append(f"exports {exports}, not PyInit__crcforge alone")
    print(f"  PE x86-64 DLL; imports {', '.join(imports)}; exports {', '.join(exports)}")
    return problems


def macho_commands(data):
    """(cputype, [(cmd, offset of its data)]) of a 64-bit little-endian Mach-O file."""
    magic, cputype, _, _, ncmds, _, _, _ = struct.unpack_from("<8I", data)
    if magic != 0xFEEDFACF:
        raise ValueError(f"magic {magic:#x}: not a 64-bit Mach-O file")
    commands, at = [], 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<2I", data, at)
        commands.append((cmd, at))
        at += size
    return cputype, commands


def macho_symbols(data, at):
    """(name, type) of each symbol of the LC_SYMTAB at `at`."""
    symoff, nsyms, stroff, _ = struct.unpack_from("<4I", data, at + 8)
    for i in range(nsyms):
        strx, ntype = struct.unpack_from("<IB", data, symoff + 16 * i)
        yield data[stroff + strx:data.index(b"\0", stroff + strx)].decode(), ntype


def uleb(data, i):
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def macho_binds(data, at):
    """{symbol: dylib ordinal} of the binds (eager, weak, lazy) of the LC_DYLD_INFO at `at`:
    the library dyld looks each imported symbol up in (1 the first LC_LOAD_DYLIB,
    FLAT_LOOKUP every image loaded).  The symbol table's n_desc ordinal is not what dyld
    reads (zig's linker leaves it 0 for a dynamic lookup)."""
    binds = {}
    info = struct.unpack_from("<10I", data, at + 8)
    for off, size in ((info[2], info[3]), (info[4], info[5]), (info[6], info[7])):
        i, end, ordinal, symbol = off, off + size, 0, None
        while i < end:
            opcode, imm = data[i] & 0xF0, data[i] & 0x0F
            i += 1
            if opcode == 0x10:  # SET_DYLIB_ORDINAL_IMM
                ordinal = imm
            elif opcode == 0x20:  # SET_DYLIB_ORDINAL_ULEB
                ordinal, i = uleb(data, i)
            elif opcode == 0x30:  # SET_DYLIB_SPECIAL_IMM: 0, -1, -2 as a 4-bit sign
                ordinal = imm - 16 if imm else 0
            elif opcode == 0x40:  # SET_SYMBOL_TRAILING_FLAGS_IMM, then the name
                nul = data.index(b"\0", i)
                symbol, i = data[i:nul].decode(), nul + 1
            elif opcode in (0x60, 0x70, 0x80, 0xA0):  # addend, segment, address: a number
                _, i = uleb(data, i)
            elif opcode == 0xC0:  # DO_BIND_ULEB_TIMES_SKIPPING_ULEB
                _, i = uleb(data, i)
                _, i = uleb(data, i)
            elif opcode not in (0x00, 0x50, 0x90, 0xB0):  # DONE, TYPE, DO_BIND(_IMM)
                raise ValueError(f"bind opcode {opcode:#x}: not one this script reads")
            if opcode in (0x90, 0xA0, 0xB0, 0xC0) and symbol is not None:
                binds[symbol] = ordinal
    return binds


def check_macho(data, python, abi, platform):
    problems = []
    cputype, commands = macho_commands(data)
    cpu = MACHO_CPUS.get(cputype, f"{cputype:#x}")
    tag = re.fullmatch(r"macosx_(\d+)_(\d+)_(\w+)", platform)
    want_os, want_cpu = f"{tag.group(1)}.{tag.group(2)}", tag.group(3)
    if cpu != want_cpu:
        problems.append(f"CPU {cpu}, not {want_cpu}")
    minimum, dylibs, undefined, exported, binds = None, [], [], [], None
    for cmd, at in commands:
        if cmd == LC_BUILD_VERSION:
            minos = struct.unpack_from("<I", data, at + 12)[0]
            minimum = f"{minos >> 16}.{(minos >> 8) & 0xFF}"
        elif cmd == LC_VERSION_MIN_MACOSX:
            version = struct.unpack_from("<I", data, at + 8)[0]
            minimum = f"{version >> 16}.{(version >> 8) & 0xFF}"
        elif cmd in LC_LOAD_DYLIBS:
            offset = struct.unpack_from("<I", data, at + 8)[0]
            dylibs.append(data[at + offset:data.index(b"\0", at + offset)].decode())
        elif cmd in (LC_DYLD_INFO, LC_DYLD_INFO_ONLY):
            binds = macho_binds(data, at)
        elif cmd == LC_DYLD_CHAINED_FIXUPS:
            problems.append("chained fixups, which this script does not read")
        elif cmd == LC_SYMTAB:
            for name, ntype in macho_symbols(data, at):
                if ntype & 0xE0 or not ntype & 1:  # debugging entries, local symbols
                    continue
                if ntype & 0x0E == 0:
                    undefined.append(name)
                elif name not in LINKERS_OWN:
                    exported.append(name)
    # What dyld looks up is what the binds name; an undefined symbol no bind names (left
    # by code the linker dropped) is never looked up.
    binds = binds or {}
    undefined_python = [n for n in undefined if binds.get(n) == FLAT_LOOKUP]
    bound = [(n, binds[n]) for n in undefined if n in binds and binds[n] != FLAT_LOOKUP]
    unbound = [n for n in undefined if n not in binds]
    if minimum != want_os:
        problems.append(f"minimum macOS {minimum}, not the tag's {want_os}")
    if dylibs != [LIBSYSTEM]:
        problems.append(f"loads {dylibs}, not {LIBSYSTEM} alone")
    not_python = [n for n in undefined_python if not n.startswith(("_Py", "__Py"))]
    if not_python or not undefined_python:
        problems.append(f"looked up in the interpreter: {not_python or 'nothing'} (only "
                        f"Python's own symbols should be)")
    elsewhere = [name for name, ordinal in bound if ordinal != 1]
    if elsewhere:
        problems.append(f"bound to a library other than libSystem: {elsewhere}")
    if exported != ["_PyInit__crcforge"]:
        problems.append(f"exports {exported}, not _PyInit__crcforge alone")
    print(f"  Mach-O {cpu}, macOS {minimum} and later; loads {', '.join(dylibs)}; "
          f"{len(undefined_python)} of Python's symbols left to the interpreter, "
          f"{len(bound)} from libSystem, {len(unbound)} never bound; "
          f"exports {', '.join(exported)}")
    return problems


def check(path):
    name = os.path.basename(path)
    match = re.fullmatch(r"crcforge-[^-]+-(cp\d+)-(cp\d+|abi3)-([^-]+)\.whl", name)
    if match is None:
        return [f"{name}: not a crcforge wheel's name"]
    python, abi, platform = match.groups()
    print(name)
    with zipfile.ZipFile(path) as wheel:
        found = [n for n in wheel.namelist()
                 if re.fullmatch(r"crcforge/_crcforge\.[^/]*(?<!\.pyi)", n)]
        want = f"crcforge/{expected_name(python, abi, platform)}"
        if found != [want]:
            return [f"{name}: holds {found}, not {want}"]
        data = wheel.read(want)
    if platform == "win_amd64":
        problems = check_pe(data, python, abi, platform)
    elif platform.startswith("macosx_"):
        problems = check_macho(data, python, abi, platform)
    else:
        problems = [f"platform {platform}: auditwheel checks Linux wheels, not this script"]
    return [f"{name}: {p}" for p in problems]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: python scripts/check_wheel.py WHEEL...")
    problems = [p for path in sys.argv[1:] for p in check(path)]
    for problem in problems:
        print("FAIL:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
