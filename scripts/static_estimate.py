#!/usr/bin/env python3
"""Static cycle estimates of whole calls, for CPUs this machine is not.

Each call (one path forced, or a public entry, on SIZE bytes) is run once under gdb, one
instruction at a time, on this machine, and the instructions it executes (set-up, every
loop iteration, reduction and return: a straight-line trace, branches dropped) are given
to llvm-mca, which models their schedule on the CPUs named with --mcpu.  That is an
estimate of the call's cycles on a CPU whose instruction tables llvm-mca has, from one
trace taken on any CPU that can run the path (the trace itself depends only on the code
and the length).

Usage: scripts/static_estimate.py [--build DIR] [--mcpu CPU,...] PATH ALGO SIZE...
  PATH   a path name (`crcforge cpu --impls`), or entry:crc32c (crc32, crc64_nvme,
         crc64_xz, crc16_xmodem): the public one-shot function, dispatched
  ALGO   catalogue name or alias (ignored for entry:...)
Needs gdb, a C compiler and llvm-mca (llvm-mca-16 from Debian's llvm-16, or llvm-mca).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crcforge.h"
static crcforge_state s;
static volatile unsigned long long sink;
/* The public entries, one signature (the wrapper's call and return are in the trace). */
#define ENTRY(fn) static unsigned long long e_##fn(const unsigned char *b, size_t n) \
    { return crcforge_##fn(0, b, n); }
ENTRY(crc32c) ENTRY(crc32) ENTRY(crc64_nvme) ENTRY(crc64_xz) ENTRY(crc16_xmodem)
static unsigned long long forced(const unsigned char *b, size_t n)
{
    crcforge_update(&s, b, n);
    return 0;
}
static const struct { const char *name; unsigned long long (*fn)(const unsigned char *, size_t); }
    entries[] = {{"crc32c", e_crc32c}, {"crc32", e_crc32}, {"crc64_nvme", e_crc64_nvme},
                 {"crc64_xz", e_crc64_xz}, {"crc16_xmodem", e_crc16_xmodem}};
static unsigned long long (*call)(const unsigned char *, size_t) = forced;
__attribute__((noinline)) void traced_call(const unsigned char *buf, size_t n)
{
    sink = call(buf, n);
}
int main(int argc, char **argv)
{
    static unsigned char buf[1 << 20] __attribute__((aligned(64)));
    size_t n = strtoul(argv[3], 0, 0);
    if (argc != 4 || n > sizeof buf) return 2;
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 131 + 7);
    if (!strncmp(argv[1], "entry:", 6)) {
        call = NULL;
        for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
            if (!strcmp(argv[1] + 6, entries[i].name))
                call = entries[i].fn;
        if (call == NULL) {
            fprintf(stderr, "no public entry %s\n", argv[1] + 6);
            return 2;
        }
    } else {
        const char *why;
        const crcforge_model *m = crcforge_model_find(argv[2]);
        if (m == NULL || crcforge_init_impl(&s, m, argv[1], &why)) {
            fprintf(stderr, "%s %s: %s\n", argv[1], argv[2], m ? why : "unknown model");
            return 2;
        }
    }
    traced_call(buf, n); /* first use: dispatch resolved, constants built */
    traced_call(buf, n); /* the traced one */
    return 0;
}
"""

# Runs inside gdb: steps through the second call of traced_call, one instruction at a
# time, and writes each executed instruction's text to $outfile.
GDB_SCRIPT = r"""
import gdb
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("break traced_call")
gdb.execute("run", to_string=True)
gdb.execute("continue", to_string=True)
sp0 = int(gdb.parse_and_eval("$sp"))
lines = []
while True:
    text = gdb.execute("x/i $pc", to_string=True).split(":", 1)[1].strip()
    lines.append(text)
    if text.startswith("ret") and int(gdb.parse_and_eval("$sp")) == sp0:
        break
    gdb.execute("stepi", to_string=True)
with open(gdb.convenience_variable("outfile").string(), "w") as f:
    f.write("\n".join(lines) + "\n")
gdb.execute("kill")
"""

# What llvm-mca cannot take, or what a straight-line trace makes meaningless.
DROP = re.compile(r"^(j[a-z]+|call|ret|nop|endbr64|data16|cs|bnd)\b")


def find_mca():
    for name in ("llvm-mca-16", "llvm-mca"):
        if shutil.which(name):
            return name
    sys.exit("static_estimate: llvm-mca not found (Debian package llvm-16)")


def trace(driver, path, algo, size, work):
    out = os.path.join(work, f"trace-{size}.txt")
    script = os.path.join(work, "trace.py")
    with open(script, "w") as f:
        f.write(GDB_SCRIPT)
    subprocess.run(["gdb", "-batch", "-nx", "-ex", f'set $outfile="{out}"', "-x", script,
                    "--args", driver, path, algo, str(size)],
                   check=True, capture_output=True)
    with open(out) as f:
        return [line for line in f.read().splitlines() if line]


def to_asm(lines):
    asm = []
    for line in lines:
        line = re.sub(r"<[^>]*>", "", line).split("#", 1)[0].strip()
        if line and not DROP.match(line):
            asm.append(line)
    return asm


def mca_cycles(mca, asm, mcpu, work):
    src = os.path.join(work, "region.s")
    with open(src, "w") as f:
        f.write("\n".join(asm) + "\n")
    out = subprocess.run([mca, f"-mcpu={mcpu}", "-iterations=1", src], check=True,
                         capture_output=True, text=True).stdout
    return int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--mcpu", default="sapphirerapids")
    ap.add_argument("path")
    ap.add_argument("algo")
    ap.add_argument("sizes", nargs="+", type=int)
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lib = os.path.join(args.build, "libcrcforge.a")
    if not os.path.exists(lib):
        sys.exit(f"static_estimate: {lib} not built")
    if not shutil.which("gdb"):
        sys.exit("static_estimate: gdb not found (Debian package gdb)")
    mca = find_mca()
    cpus = args.mcpu.split(",")
    with tempfile.TemporaryDirectory() as work:
        driver = os.path.join(work, "driver")
        with open(os.path.join(work, "driver.c"), "w") as f:
            f.write(DRIVER)
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-g0",
                        "-I" + os.path.join(root, "include"), os.path.join(work, "driver.c"),
                        lib, "-o", driver], check=True)
        check = subprocess.run([driver, args.path, args.algo, "0"], capture_output=True,
                               text=True)
        if check.returncode != 0:
            sys.exit(f"static_estimate: {check.stderr.strip() or 'the driver failed'}")
        print(f"{'path':<28} {'algo':<14} {'size':>6} {'insns':>6} " +
              " ".join(f"{c + ' cyc':>18} {'B/cyc':>6}" for c in cpus))
        for size in args.sizes:
            asm = to_asm(trace(driver, args.path, args.algo, size, work))
            row = f"{args.path:<28} {args.algo:<14} {size:>6} {len(asm):>6} "
            for cpu in cpus:
                cycles = mca_cycles(mca, asm, cpu, work)
                row += f"{cycles:>18} {size / cycles:>6.1f} "
            print(row.rstrip())


if __name__ == "__main__":
    main()
