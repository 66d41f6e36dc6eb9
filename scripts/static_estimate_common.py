# SPDX-License-Identifier: MIT
"""What static_estimate.py (x86-64, traced under gdb) and static_estimate_arm.py (aarch64,
traced under qemu) share: the driver program's common C (the subjects called by name, the
forced path, the traced call, the listing of a model's subjects), ISA-L's functions wrapped
into it, and the checks of the core names given to llvm-mca.  Each estimator adds its own C
(how a subject is resolved and run) and builds the driver for its target."""
import glob
import os
import re
import subprocess
import tempfile

# The driver's C before the estimator's own: every subject is a function of one signature
# (the wrapper's call and return are in the trace), called by name, or a path forced into
# the stream `s`; traced_call is where a trace starts.
DRIVER_COMMON = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crcforge_dispatch.h"
typedef unsigned long long (*fn_t)(const unsigned char *, size_t);
static crcforge_state s;
static volatile unsigned long long sink;
/* The public entries, from the model's initial value. */
#define ENTRY(fn) static unsigned long long e_##fn(const unsigned char *b, size_t n) \
    { return crcforge_##fn(0, b, n); }
ENTRY(crc32c) ENTRY(crc32) ENTRY(crc64_nvme) ENTRY(crc64_xz) ENTRY(crc16_xmodem)
/*ISAL_WRAPPERS*/
static unsigned long long forced(const unsigned char *b, size_t n)
{
    crcforge_update(&s, b, n);
    return 0;
}
/* Called by name; warm: called once before (a dispatcher resolves, a table is built). */
static const struct { const char *name; fn_t fn, warm; } named[] = {
    {"entry:crc32c", e_crc32c, e_crc32c}, {"entry:crc32", e_crc32, e_crc32},
    {"entry:crc64_nvme", e_crc64_nvme, e_crc64_nvme}, {"entry:crc64_xz", e_crc64_xz, e_crc64_xz},
    {"entry:crc16_xmodem", e_crc16_xmodem, e_crc16_xmodem},
    /*ISAL_NAMED*/
};
#define NAMED (sizeof named / sizeof named[0])
static fn_t call = forced;
__attribute__((noinline)) void traced_call(const unsigned char *buf, size_t n)
{
    sink = call(buf, n);
}

/* list ALGO: the model's name and check value, its public entry, and the paths serving it,
 * each with whether this CPU runs it. */
static int list(const crcforge_model *m)
{
    printf("model %s\ncheck %llx\n", crcforge_model_name(m),
           (unsigned long long)crcforge_model_check(m));
    for (size_t i = 0; i < NAMED; i++)
        if (!strncmp(named[i].name, "entry:", 6) &&
            crcforge_model_find(named[i].name + 6) == m)
            printf("%s 1\n", named[i].name);
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        if (strcmp(name, "portable") && crcforge_impl_supports(name, m))
            printf("%s %d\n", name, crcforge_impl_runnable(name));
    }
    return 0;
}
"""

# ISA-L's functions that take (buffer, length, register) with an inverted register, as its
# crc32_iscsi does; the others take (initial CRC, buffer, length) and the model's values.
ISAL_ISCSI_STYLE = re.compile(r"crc32_iscsi|crc32c_mix_")


def isal_wrappers(functions, iscsi_style, dispatcher=None):
    """C for the driver: each ISA-L function declared and wrapped to the model's CRC from
    its initial value, named isal:FUNCTION; warmed by its dispatcher (dispatcher(FUNCTION),
    wrapped too) where one is given, else by itself.  iscsi_style: the parameters an
    ISCSI-style function is declared with and the arguments the wrapper gives it, buffer b
    and length n (the register ~0u follows)."""
    params, args = iscsi_style
    warm = {fn: dispatcher(fn) if dispatcher else fn for fn in functions}
    decls = []
    for fn in sorted(set(functions) | set(warm.values())):
        if ISAL_ISCSI_STYLE.match(fn):
            decls.append(f"unsigned int {fn}({params}, unsigned int);\n"
                         f"static unsigned long long i_{fn}(const unsigned char *b, size_t n)\n"
                         f"{{ return ~{fn}({args}, ~0u) & 0xffffffffu; }}")
        else:
            t = "uint%s_t" % fn[3:5]
            decls.append(f"{t} {fn}({t}, const unsigned char *, uint64_t);\n"
                         f"static unsigned long long i_{fn}(const unsigned char *b, size_t n)\n"
                         f"{{ return {fn}(0, b, n); }}")
    named = [f'{{"isal:{fn}", i_{fn}, i_{warm[fn]}}},' for fn in functions]
    return "\n".join(decls), "\n    ".join(named)


def driver_source(own, isal_functions=(), iscsi_style=None, dispatcher=None):
    """The driver's C: the common part, ISA-L's functions wrapped into it (isal_wrappers),
    then `own`."""
    decls, named = (isal_wrappers(isal_functions, iscsi_style, dispatcher) if isal_functions
                    else ("", ""))
    return (DRIVER_COMMON.replace("/*ISAL_WRAPPERS*/", decls).replace("/*ISAL_NAMED*/", named)
            + own)


def library_objects(root, build):
    """The library's object files in a CMake build, for a driver that reaches its internals:
    those of the sources the tree has (CMake leaves the object of a source since removed)."""
    objects = os.path.join(build, "CMakeFiles", "crcforge_objects.dir")
    return [obj for obj in sorted(glob.glob(os.path.join(objects, "**", "*.o"), recursive=True))
            if os.path.exists(os.path.join(root, os.path.relpath(obj, objects)[:-len(".o")]))]


def parse_listing(text):
    """The driver's `list` output: (the model's name, its check value, its subjects)."""
    lines = text.splitlines()
    return (lines[0].split()[1], int(lines[1].split()[1], 16),
            [line.split()[0] for line in lines[2:]])


def refused_mcpus(mca, cpus, mca_args=()):
    """{core: what llvm-mca said} for each core named that it has no model of: it refuses an
    unknown name only when run, which would come after the minutes of tracing, and on some
    targets takes a known name without a model with a warning alone."""
    refused = {}
    with tempfile.TemporaryDirectory() as work:
        src = os.path.join(work, "nop.s")
        with open(src, "w") as f:
            f.write("nop\n")
        for cpu in cpus:
            done = subprocess.run([mca, *mca_args, f"-mcpu={cpu}", "-iterations=1", src],
                                  capture_output=True, text=True)
            # llvm-mca repeats its complaint: once is enough.
            said = "; ".join(dict.fromkeys(done.stderr.strip().splitlines()))
            if done.returncode != 0 or "not a recognized processor" in said:
                refused[cpu] = said or f"exit {done.returncode}"
    return refused


def size_label(n):
    return f"{n // 1024} KiB" if n >= 1024 and n % 1024 == 0 else f"{n} B"
