#!/usr/bin/env python3
"""Static cycle estimates of whole calls, for CPUs this machine is not.

Each call (one path forced, or a public entry, on SIZE bytes) is run once under gdb, one
instruction at a time, on this machine, and the instructions it executes (set-up, every
loop iteration, reduction and return: a straight-line trace, branches dropped) are given
to llvm-mca, which models their schedule on the CPUs named with --mcpu.  That is an
estimate of the call's cycles on a CPU whose instruction tables llvm-mca has, from one
trace taken on any CPU that can run the path (the trace itself depends only on the code
and the length).

A path this CPU cannot run (AVX-512 on an AVX2 machine) is traced all the same: the
driver then puts the path in the state itself, after every runnable path serving the model
has run once on the same buffer (so every lazily built table exists), and each
instruction the CPU refuses (SIGILL) is recorded and stepped over instead of executed.
Its results are then wrong, but the trace is the one the path runs: its branches depend
on the length and the buffer's address alone, never on the data.  The rows say how many
instructions were stepped over.

The paths read this CPU's tuning table (accumulators, hybrid qwords).  For another
family's, give its parameters: CRCFORGE_TUNE=fold_parallel_max=N,fold_accumulators=N,
hybrid_qwords=N (a family whose features this CPU lacks cannot be named itself).

Usage: scripts/static_estimate.py [--build DIR] [--mcpu CPU,...] PATH ALGO SIZE...
  PATH   a path name (`crcforge cpu --impls`), or entry:crc32c (crc32, crc64_nvme,
         crc64_xz, crc16_xmodem): the public one-shot function, dispatched
  ALGO   catalogue name or alias (ignored for entry:...)
Needs gdb, a C compiler and llvm-mca (llvm-mca-16 from Debian's llvm-16, or llvm-mca).
"""
import argparse
import glob
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
#include "crcforge_dispatch.h"
#ifdef UNRUNNABLE
#include "internal.h" /* the path's record, set in the state past the CPU check */
#endif
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
#ifdef UNRUNNABLE
        const struct crc_impl *target = crc_impl_lookup(argv[1]);
        if (m == NULL || target == NULL || !target->supports(m) || crc_impl_runnable(target)) {
            fprintf(stderr, "%s %s: %s\n", argv[1], argv[2],
                    m == NULL ? "unknown model" : target == NULL ? "unknown path"
                    : !target->supports(m) ? "that path does not serve this model"
                    : "this CPU runs that path");
            return 2;
        }
        /* Every runnable path of the model once: the tables they share are built. */
        for (size_t i = 0; i < crcforge_impl_count(); i++) {
            const char *name = crcforge_impl_name(i);
            if (crcforge_impl_runnable(name) && crcforge_impl_supports(name, m) &&
                crcforge_init_impl(&s, m, name, &why) == 0)
                crcforge_update(&s, buf, n);
        }
        if (n == 0) /* the arguments' check */
            return 0;
        crcforge_init(&s, m);
        crc_state_of(&s)->impl = target; /* as crcforge_init_impl would, were the CPU able */
        traced_call(buf, n); /* the traced one, under gdb */
        return 0;
#endif
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

# Runs inside gdb: steps through the second call of traced_call (the only one when
# $unrunnable), one instruction at a time, and writes each executed instruction's text to
# $outfile, then the count of those stepped over.
GDB_SCRIPT = r"""
import re
import gdb
gdb.execute("set pagination off")
gdb.execute("set confirm off")
# An instruction this CPU lacks stops the step with SIGILL, which is then dropped.
gdb.execute("handle SIGILL stop print nopass", to_string=True)
gdb.execute("break traced_call")
gdb.execute("run", to_string=True)
if not gdb.convenience_variable("unrunnable"):
    gdb.execute("continue", to_string=True)
sp0 = int(gdb.parse_and_eval("$sp"))
MAX_STEPS = 50000
lines = []
skipped = 0
while True:
    here = gdb.execute("x/2i $pc", to_string=True).splitlines()
    text = here[0].split(":", 1)[1].strip()
    lines.append(text)
    if text.startswith("ret") and int(gdb.parse_and_eval("$sp")) == sp0:
        break
    if len(lines) > MAX_STEPS:  # a table built in the call, or a path stuck
        break
    pc = int(gdb.parse_and_eval("$pc"))
    gdb.execute("stepi", to_string=True)
    stuck = int(gdb.parse_and_eval("$pc")) == pc
    if stuck and int(gdb.parse_and_eval("$_siginfo.si_signo")) == 4:
        # Refused: stepped over, to the next instruction.
        gdb.execute("set $pc = " + re.search(r"0x[0-9a-f]+", here[1]).group(0))
        skipped += 1
with open(gdb.convenience_variable("outfile").string(), "w") as f:
    f.write("\n".join(lines) + "\n")
    f.write(f"#skipped {skipped}\n")
gdb.execute("kill")
"""

# What llvm-mca cannot take, or what a straight-line trace makes meaningless.
DROP = re.compile(r"^(j[a-z]+|call|ret|nop|endbr64|data16|cs|bnd)\b")


def find_mca():
    for name in ("llvm-mca-16", "llvm-mca"):
        if shutil.which(name):
            return name
    sys.exit("static_estimate: llvm-mca not found (Debian package llvm-16)")


def trace(driver, unrunnable, path, algo, size, work):
    """The call's executed instructions, and how many of them were stepped over."""
    out = os.path.join(work, f"trace-{size}.txt")
    script = os.path.join(work, "trace.py")
    with open(script, "w") as f:
        f.write(GDB_SCRIPT)
    subprocess.run(["gdb", "-batch", "-nx", "-ex", f'set $outfile="{out}"',
                    "-ex", f"set $unrunnable={int(unrunnable)}", "-x", script,
                    "--args", driver, path, algo, str(size)],
                   check=True, capture_output=True)
    with open(out) as f:
        lines = [line for line in f.read().splitlines() if line]
    if not lines[-2].startswith("ret"):
        sys.exit(f"static_estimate: {path} {algo} {size}: the call ran past {len(lines) - 1} "
                 "instructions without returning")
    return lines[:-1], int(lines[-1].split()[1])


def build_driver(root, build, work, unrunnable):
    """The driver: on the library, or (unrunnable) on its objects, internals reachable."""
    driver = os.path.join(work, "driver-unrunnable" if unrunnable else "driver")
    src = os.path.join(work, "driver.c")
    with open(src, "w") as f:
        f.write(DRIVER)
    if unrunnable:
        objs = glob.glob(os.path.join(build, "CMakeFiles", "crcforge_objects.dir", "**", "*.o"),
                         recursive=True)
        if not objs:
            sys.exit(f"static_estimate: no library objects under {build}/CMakeFiles")
        extra = ["-DUNRUNNABLE", "-I" + os.path.join(root, "src")] + objs + ["-lpthread"]
    else:
        extra = [os.path.join(build, "libcrcforge.a")]
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-g0", "-I" + os.path.join(root, "include"),
                    src] + extra + ["-o", driver], check=True)
    return driver


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
    for size in args.sizes:
        if not 0 <= size <= 1 << 20:  # the driver's buffer
            sys.exit(f"static_estimate: size {size}: sizes run from 0 to 1048576 bytes")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lib = os.path.join(args.build, "libcrcforge.a")
    if not os.path.exists(lib):
        sys.exit(f"static_estimate: {lib} not built")
    if not shutil.which("gdb"):
        sys.exit("static_estimate: gdb not found (Debian package gdb)")
    mca = find_mca()
    cpus = args.mcpu.split(",")
    with tempfile.TemporaryDirectory() as work:
        driver = build_driver(root, args.build, work, False)
        check = subprocess.run([driver, args.path, args.algo, "0"], capture_output=True,
                               text=True)
        unrunnable = "this CPU cannot run" in check.stderr
        if unrunnable:
            driver = build_driver(root, args.build, work, True)
            check = subprocess.run([driver, args.path, args.algo, "0"], capture_output=True,
                                   text=True)
        if check.returncode != 0:
            sys.exit(f"static_estimate: {check.stderr.strip() or 'the driver failed'}")
        if unrunnable:
            print(f"{args.path}: this CPU cannot run it; the instructions it lacks are stepped "
                  "over (column over)")
        print(f"{'path':<28} {'algo':<14} {'size':>6} {'insns':>6} {'over':>5} " +
              " ".join(f"{c + ' cyc':>18} {'B/cyc':>6}" for c in cpus))
        for size in args.sizes:
            lines, over = trace(driver, unrunnable, args.path, args.algo, size, work)
            asm = to_asm(lines)
            row = f"{args.path:<28} {args.algo:<14} {size:>6} {len(asm):>6} {over:>5} "
            for cpu in cpus:
                cycles = mca_cycles(mca, asm, cpu, work)
                row += f"{cycles:>18} {size / cycles:>6.1f} "
            print(row.rstrip())

if __name__ == "__main__":
    main()
