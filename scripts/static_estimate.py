#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Static cycle estimates of whole calls, for CPUs this machine is not.

Each call (one path forced, a public entry, or an ISA-L function, on SIZE bytes) is run
once under gdb, one instruction at a time, on this machine, and the instructions it
executes (set-up, every loop iteration, reduction and return: a straight-line trace,
branches dropped) are given to llvm-mca, which models their schedule on the CPUs named
with --mcpu.  That is an estimate of the call's cycles on a CPU whose instruction tables
llvm-mca has, from one trace taken on any CPU that can run the path (the trace itself
depends only on the code and the length).

A path this CPU cannot run (AVX-512 on an AVX2 machine) is traced all the same: each
instruction the CPU refuses (SIGILL) is recorded and stepped over instead of executed.
Its results are then wrong, but the trace is the one the path runs: its branches depend
on the length and the buffer's address alone, never on the data.  For crcforge's paths
the driver first runs every runnable path serving the model on the same buffer (so every
lazily built table exists) and then puts the path in the state itself, past the CPU
check; ISA-L's kernels are called directly (its dispatcher, once, resolves beforehand).
The rows say how many instructions were stepped over.  --refuse-avx512 makes a CPU with
AVX-512 refuse it too (each AVX-512 or GFNI instruction becomes ud2 as it is reached, and
crcforge's CPU features are masked to a Zen 3's), so such a machine checks that tracing.

crcforge's paths read a family's tuning table (bands, accumulators, hybrid qwords): for
each --mcpu with a family below (sapphirerapids: intel-spr, znver4: zen4, ...), that
family's (CRCFORGE_TUNE=family=NAME), else this CPU's.  A family whose features this CPU
lacks cannot be named: this CPU's table serves, and the output says so; CRCFORGE_TUNE=fold_parallel_max=N,fold_accumulators=N,hybrid_qwords=N in the
environment then sets the parameters for every CPU named (and overrides the families).

Usage: scripts/static_estimate.py [--build DIR] [--mcpu CPU,...] [--isal PREFIX]
                                  [--refuse-avx512] [--offset N] [--markdown]
                                  SUBJECT ALGO[,ALGO...] SIZE...
  SUBJECT  a path name (`crcforge cpu --impls`); entry:crc32c (crc32, crc64_nvme,
           crc64_xz, crc16_xmodem): the public one-shot function, dispatched;
           isal:FUNCTION: an ISA-L function (isal:crc32_iscsi, its dispatcher, or a named
           kernel, isal:crc32_iscsi_by16_10); or all: every x86 path serving ALGO, its
           public entry, and ISA-L's dispatcher and kernels computing it
  ALGO     catalogue name or alias (for entry: and isal:, only the rows' label)
  --isal   ISA-L's install prefix (include/isa-l.h, lib/libisal.a); default
           $CRCFORGE_ISAL_PREFIX, else where .ci/install-isal.sh puts it:
           ${CRCFORGE_PEERS_PREFIX:-/opt/crcforge-peers}/isa-l-2.32.1
Needs gdb, a C compiler and llvm-mca (llvm-mca-19 from Debian's llvm-19, else llvm-mca-16 or
llvm-mca: LLVM 16 models sapphirerapids as Skylake-SP).
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import static_estimate_common as common  # noqa: E402

# Where .ci/install-isal.sh installs ISA-L 2.32.1 (bench/CMakeLists.txt looks there too).
ISAL_DEFAULT_PREFIX = os.path.join(os.environ.get("CRCFORGE_PEERS_PREFIX", "/opt/crcforge-peers"),
                                   "isa-l-2.32.1")

# The family whose table a CPU llvm-mca models runs (src/x86/tuning.c).
MCPU_FAMILY = {"sapphirerapids": "intel-spr", "znver4": "zen4", "znver3": "avx2-vpclmul",
               "icelake-server": "intel-avx512-256"}

# ISA-L's dispatcher per catalogue model (its zero initial value gives the model's CRC,
# crc32_iscsi's all-ones register and inverted result), and the kernels it chooses from
# (ISA-L 2.32.1, crc/crc_multibinary.asm; the table-driven _base left out).
ISAL_FOR_MODEL = {"CRC-32/ISCSI": "crc32_iscsi", "CRC-32/ISO-HDLC": "crc32_gzip_refl",
                  "CRC-32/BZIP2": "crc32_ieee", "CRC-16/T10-DIF": "crc16_t10dif",
                  "CRC-64/XZ": "crc64_ecma_refl", "CRC-64/WE": "crc64_ecma_norm",
                  "CRC-64/GO-ISO": "crc64_iso_refl", "CRC-64/NVME": "crc64_rocksoft_refl"}
ISAL_KERNELS = {"crc32_iscsi": ("by16_10", "avx2", "by8_02", "01"),
                "crc32_gzip_refl": ("by16_10", "avx2", "by8"),
                "crc32_ieee": ("by16_10", "avx2", "01"), "crc16_t10dif": ("by16_10", "avx2", "01")}
# crc32_iscsi as isa-l.h declares it, and the wrapper's arguments to it.
ISAL_ISCSI_STYLE = ("unsigned char *, int", "(unsigned char *)b, (int)n")
ISAL_NAME = re.compile(r"(crc16_t10dif|crc32_iscsi|crc32_gzip_refl|crc32_ieee|"
                       r"crc64_(?:ecma|iso|jones|rocksoft)_(?:refl|norm))(_[a-z0-9_]+)?")

# The driver's own C, after the common part (static_estimate_common.DRIVER_COMMON).
DRIVER = r"""
#ifdef UNRUNNABLE
#include "dispatch.h" /* the path's selection, set in the state past the CPU check */
#include "registry.h"
#endif

/* Puts SUBJECT's call in `call` (and a forced path in s); 0, or 3 when this CPU cannot
 * run the path, 2 on a bad argument. */
static int resolve(const char *subject, const crcforge_model *m, const unsigned char *buf,
                   size_t n)
{
    const char *why;
    for (size_t i = 0; i < NAMED; i++)
        if (!strcmp(subject, named[i].name)) {
            call = named[i].fn;
            sink = named[i].warm(buf, n);
            return 0;
        }
    if (strchr(subject, ':')) {
        fprintf(stderr, "no such function: %s\n", subject);
        return 2;
    }
    call = forced;
#ifdef UNRUNNABLE
    const struct crc_impl *target = crc_impl_lookup(subject);
    if (target == NULL || !target->supports(m) || crc_impl_runnable(target)) {
        fprintf(stderr, "%s %s: %s\n", subject, crcforge_model_name(m),
                target == NULL ? "unknown path" : !target->supports(m)
                ? "that path does not serve this model" : "this CPU runs that path");
        return 2;
    }
    /* Every runnable path of the model once: the tables they share are built. */
    for (size_t i = 0; i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        if (crcforge_impl_runnable(name) && crcforge_impl_supports(name, m) &&
            crcforge_init_impl(&s, m, name, &why) == 0)
            crcforge_update(&s, buf, n);
    }
    crcforge_init(&s, m);
    /* As crcforge_init_impl would, were the CPU able: the path alone, the tuning's
     * parameters handed to it. */
    crc_state_of(&s)->pinned = crc_pinned(target);
    return 0;
#else
    if (crcforge_init_impl(&s, m, subject, &why)) {
        fprintf(stderr, "%s %s: %s\n", subject, crcforge_model_name(m), why);
        return strstr(why, "this CPU cannot run") ? 3 : 2;
    }
    sink = forced(buf, n); /* first use: dispatch resolved, constants built */
    return crcforge_init_impl(&s, m, subject, &why);
#endif
}

/* run SUBJECT ALGO SIZE...: one traced call a size (none: the arguments checked, and the
 * tuning family in use printed), its buffer ESTIMATE_OFFSET bytes past 64-byte alignment.
 * crc SUBJECT ALGO: the subject's CRC of "123456789". */
int main(int argc, char **argv)
{
    static unsigned char buf[1 << 20] __attribute__((aligned(64)));
    const crcforge_model *m = argc >= 3 ? crcforge_model_find(argv[argc == 3 ? 2 : 3]) : NULL;
    if (argc == 3 && !strcmp(argv[1], "list") && m != NULL)
        return list(m);
    if (argc < 4 || (strcmp(argv[1], "run") && strcmp(argv[1], "crc"))) {
        fprintf(stderr, "usage: driver list ALGO | run SUBJECT ALGO SIZE... | crc SUBJECT ALGO\n");
        return 2;
    }
    if (m == NULL) {
        fprintf(stderr, "%s: unknown model\n", argv[3]);
        return 2;
    }
    if (!strcmp(argv[1], "crc")) {
        memcpy(buf, "123456789", 9);
        int rc = resolve(argv[2], m, buf, 9);
        if (rc == 0) {
            sink = call(buf, 9);
            printf("%llx\n", call == forced ? (unsigned long long)crcforge_final(&s) : sink);
        }
        return rc;
    }
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    int rc = resolve(argv[2], m, buf, 4096); /* the arguments checked, the tuning read */
    if (argc == 4)
        printf("family %s\n", crcforge_tuning_family());
    const char *offset = getenv("ESTIMATE_OFFSET");
    const size_t off = offset != NULL ? strtoul(offset, 0, 0) % 64 : 0;
    for (int a = 4; rc == 0 && a < argc; a++) {
        size_t n = strtoul(argv[a], 0, 0);
        if (n + off > sizeof buf)
            return 2;
        rc = resolve(argv[2], m, buf + off, n);
        traced_call(buf + off, n); /* the traced one, under gdb */
    }
    return rc;
}
"""

# Runs inside gdb: steps through each call of traced_call, one instruction at a time, and
# writes each executed instruction's text to $outfile-K (K-th call), then the count of
# those stepped over.
GDB_SCRIPT = r"""
import re
import gdb
gdb.execute("set pagination off")
gdb.execute("set confirm off")
# An instruction this CPU lacks stops the step with SIGILL, which is then dropped.
gdb.execute("handle SIGILL stop print nopass", to_string=True)
gdb.execute("break traced_call", to_string=True)
outfile = gdb.convenience_variable("outfile").string()
calls = int(gdb.convenience_variable("calls"))
refuse = int(gdb.convenience_variable("refuse"))
MAX_STEPS = 50000
# What a CPU without AVX-512 and GFNI refuses: EVEX-encoded (0x62 after the legacy
# prefixes; REX cannot precede it), the VEX-encoded opmask instructions, GFNI.
LEGACY = b"\x26\x2e\x36\x3e\x64\x65\x66\x67\xf0\xf2\xf3"
AVX512_TEXT = re.compile(r"%k[0-7]\b|^gf2p8")

def refused(inf, insn):
    if AVX512_TEXT.search(insn["asm"]):
        return True
    code = bytes(inf.read_memory(insn["addr"], insn["length"]))
    rest = code.lstrip(LEGACY)
    return rest[:1] == b"\x62"

gdb.execute("run", to_string=True)
inf = gdb.selected_inferior()
arch = gdb.selected_frame().architecture()
for k in range(calls):
    if k:
        gdb.execute("enable", to_string=True)
        gdb.execute("continue", to_string=True)
    gdb.execute("disable", to_string=True)  # not reinserted at every step
    sp0 = int(gdb.selected_frame().read_register("rsp"))
    lines = []
    skipped = 0
    while True:
        pc = gdb.selected_frame().pc()
        insn = arch.disassemble(pc)[0]
        lines.append(insn["asm"])
        if insn["asm"].startswith("ret") and int(gdb.selected_frame().read_register("rsp")) == sp0:
            break
        if len(lines) > MAX_STEPS:  # a table built in the call, or a path stuck
            break
        if refuse and refused(inf, insn):
            saved = bytes(inf.read_memory(pc, 2))
            inf.write_memory(pc, b"\x0f\x0b")  # ud2: the CPU raises SIGILL on it
            gdb.execute("stepi", to_string=True)
            inf.write_memory(pc, saved)
        else:
            gdb.execute("stepi", to_string=True)
        stuck = gdb.selected_frame().pc() == pc
        if stuck and int(gdb.parse_and_eval("$_siginfo.si_signo")) == 4:
            # Refused: stepped over, to the next instruction.
            gdb.execute(f"set $pc = {pc + insn['length']}")
            skipped += 1
    with open(f"{outfile}-{k}", "w") as f:
        f.write("\n".join(lines) + "\n")
        f.write(f"#skipped {skipped}\n")
    if len(lines) > MAX_STEPS:
        break
gdb.execute("kill")
"""

# What llvm-mca cannot take, or what a straight-line trace makes meaningless.
DROP = re.compile(r"^(j[a-z]+|call|ret|nop|endbr64|data16|cs|bnd|notrack)\b")
# The features a Zen 3 has, to which --refuse-avx512 masks crcforge's.
WITHOUT_AVX512 = "sse4.1,sse4.2,pclmulqdq,avx2,vpclmulqdq"


def fail(msg):
    sys.exit(f"static_estimate: {msg}")


def find_mca():
    # LLVM 16's sapphirerapids is Skylake-SP's model; 19 has Sapphire Rapids' own.
    for name in ("llvm-mca-19", "llvm-mca-16", "llvm-mca"):
        if shutil.which(name):
            return name
    fail("llvm-mca not found (Debian package llvm-19)")


def isal_library(prefix):
    """ISA-L's static library and its version ("2.32.1") under an install prefix."""
    libs = sorted(glob.glob(os.path.join(prefix, "lib*", "libisal.a")) +
                  glob.glob(os.path.join(prefix, "lib", "*", "libisal.a")))
    header = os.path.join(prefix, "include", "isa-l.h")
    if not libs or not os.path.exists(header):
        fail(f"ISA-L not found under {prefix} (no lib/libisal.a and include/isa-l.h): build it "
             "with .ci/install-isal.sh, or name its install prefix with --isal DIR or "
             "CRCFORGE_ISAL_PREFIX")
    with open(header) as f:
        text = f.read()
    parts = [re.search(rf"#define ISAL_{p}_VERSION (\d+)", text)
             for p in ("MAJOR", "MINOR", "PATCH")]
    version = ".".join(p.group(1) for p in parts) if all(parts) else "unknown"
    return libs[0], version


def build_driver(root, build, work, unrunnable, isal=None, isal_functions=()):
    """The driver: on the library (and ISA-L's, for its functions), or (unrunnable) on
    crcforge's objects, internals reachable."""
    driver = os.path.join(work, "driver-unrunnable" if unrunnable else "driver")
    src = driver + ".c"
    with open(src, "w") as f:
        f.write(common.driver_source(DRIVER, isal_functions, ISAL_ISCSI_STYLE,
                                     lambda fn: ISAL_NAME.fullmatch(fn).group(1)))
    if unrunnable:
        objs = common.library_objects(root, build)
        if not objs:
            fail(f"no library objects under {build}/CMakeFiles")
        extra = ["-DUNRUNNABLE", "-I" + os.path.join(root, "src")] + objs + ["-lpthread"]
    else:
        extra = [os.path.join(build, "libcrcforge.a")] + ([isal] if isal_functions else [])
    done = subprocess.run([os.environ.get("CC", "cc"), "-O2", "-g0",
                           "-I" + os.path.join(root, "include"), src] + extra + ["-o", driver],
                          capture_output=True, text=True)
    if done.returncode != 0:
        missing = re.findall(r"undefined reference to `(\w+)'", done.stderr)
        if missing and isal_functions:
            fail(f"ISA-L at {isal} has no {', '.join(sorted(set(missing)))}")
        fail(f"the driver did not build:\n{done.stderr}")
    return driver


def trace(driver, subject, algo, sizes, work, refuse=False, env=None):
    """Each call's executed instructions, and how many of them were stepped over, a size."""
    out = os.path.join(work, "trace")
    script = os.path.join(work, "trace.py")
    with open(script, "w") as f:
        f.write(GDB_SCRIPT)
    for old in glob.glob(out + "-*"):
        os.remove(old)
    done = subprocess.run(["gdb", "-batch", "-nx", "-ex", f'set $outfile="{out}"',
                           "-ex", f"set $calls={len(sizes)}", "-ex", f"set $refuse={int(refuse)}",
                           "-x", script, "--args", driver, "run", subject, algo] +
                          [str(n) for n in sizes], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        fail(f"{subject} {algo}: gdb failed:\n{done.stderr.strip()}")
    traces = []
    for k, size in enumerate(sizes):
        path = f"{out}-{k}"
        if not os.path.exists(path):
            fail(f"{subject} {algo} {size}: no trace (gdb stopped before)")
        with open(path) as f:
            lines = [line for line in f.read().splitlines() if line]
        if not lines[-2].startswith("ret"):
            fail(f"{subject} {algo} {size}: the call ran past {len(lines) - 1} "
                 "instructions without returning")
        traces.append((lines[:-1], int(lines[-1].split()[1])))
    return traces


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


def check_mcpus(mca, cpus):
    """Fails unless llvm-mca models every CPU named, before any trace."""
    if "" in cpus:
        fail(f"--mcpu {','.join(cpus)!r}: an empty CPU name (CPU,... as llvm-mca's -mcpu "
             "takes, e.g. znver4,sapphirerapids)")
    for cpu, said in common.refused_mcpus(mca, cpus).items():
        fail(f"--mcpu {cpu}: {mca} refuses it: {said}")


def listing(driver, algo):
    """The model's catalogue name and check value, and its subjects for `all`."""
    done = subprocess.run([driver, "list", algo], capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{algo}: unknown model")
    return common.parse_listing(done.stdout)


def isal_subjects(model):
    fn = ISAL_FOR_MODEL.get(model)
    if fn is None:
        return []
    kernels = ISAL_KERNELS.get(fn, ("by16_10", "avx2", "by8"))  # the crc64 ones
    return [f"isal:{fn}"] + [f"isal:{fn}_{k}" for k in kernels]


def tunings(cpus):
    """CRCFORGE_TUNE per CPU named (None: this CPU's table)."""
    if "CRCFORGE_TUNE" in os.environ:
        return {cpu: os.environ["CRCFORGE_TUNE"] for cpu in cpus}
    return {cpu: f"family={MCPU_FAMILY[cpu]}" if cpu in MCPU_FAMILY else None for cpu in cpus}


def environment(tune, refuse, offset=0):
    env = dict(os.environ)
    env.pop("CRCFORGE_TUNE", None)
    env["ESTIMATE_OFFSET"] = str(offset)
    if tune is not None:
        env["CRCFORGE_TUNE"] = tune
    if refuse and "CRCFORGE_CPU_MASK" not in env:
        env["CRCFORGE_CPU_MASK"] = WITHOUT_AVX512
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", metavar="DIR",
                    help="the build directory holding libcrcforge.a and its objects "
                         "(default: build)")
    ap.add_argument("--mcpu", default="sapphirerapids", metavar="CPU,...",
                    help="the CPUs llvm-mca models, as its -mcpu names them; each with a "
                         f"family ({', '.join(f'{c}: {f}' for c, f in MCPU_FAMILY.items())}) "
                         "runs that family's table (default: sapphirerapids)")
    ap.add_argument("--isal", default=os.environ.get("CRCFORGE_ISAL_PREFIX", ISAL_DEFAULT_PREFIX),
                    metavar="PREFIX",
                    help="ISA-L's install prefix, for isal: subjects (default: "
                         f"$CRCFORGE_ISAL_PREFIX, else {ISAL_DEFAULT_PREFIX})")
    ap.add_argument("--refuse-avx512", action="store_true",
                    help="trace AVX-512 and GFNI instructions as stepped over even where this "
                         "CPU runs them (crcforge's features masked to a Zen 3's), to check "
                         "that tracing")
    ap.add_argument("--offset", type=int, default=0, metavar="N",
                    help="the input N bytes (0-63) past 64-byte alignment (default 0)")
    ap.add_argument("--markdown", action="store_true",
                    help="print a Markdown table of cycles per call (a column per size, the "
                         "CPUs side by side) instead of rows")
    ap.add_argument("subject",
                    help="a path name (`crcforge cpu --impls`), entry:NAME (a public one-shot "
                         "function: crc32c, crc32, crc64_nvme, crc64_xz, crc16_xmodem), "
                         "isal:FUNCTION, or all")
    ap.add_argument("algos", metavar="ALGO[,ALGO...]",
                    help="catalogue names or aliases of the models")
    ap.add_argument("sizes", nargs="+", type=int, metavar="SIZE",
                    help="input lengths in bytes, 0 to 1048576")
    args = ap.parse_args()
    if not 0 <= args.offset <= 63:
        fail(f"--offset {args.offset}: offsets run from 0 to 63")
    for size in args.sizes:
        if not 0 <= size <= (1 << 20) - args.offset:  # the driver's buffer
            fail(f"size {size}: sizes run from 0 to {(1 << 20) - args.offset} bytes at offset "
                 f"{args.offset}")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(args.build)
    if not os.path.exists(os.path.join(build, "libcrcforge.a")):
        fail(f"{args.build}/libcrcforge.a not built")
    if not shutil.which("gdb"):
        fail("gdb not found (Debian package gdb)")
    mca = find_mca()
    mca_version = re.search(r"version ([0-9.]+)", subprocess.run(
        [mca, "--version"], capture_output=True, text=True).stdout).group(1)
    cpus = args.mcpu.split(",")
    check_mcpus(mca, cpus)
    tune = tunings(cpus)
    with tempfile.TemporaryDirectory() as work:
        plain = build_driver(root, build, work, False)
        jobs = []  # (model, subject)
        for algo in args.algos.split(","):
            model, _, subjects = listing(plain, algo)
            if args.subject == "all":
                paths = [s for s in subjects if not s.startswith("entry:")]
                entries = [s for s in subjects if s.startswith("entry:")]
                jobs += [(model, s) for s in paths + entries + isal_subjects(model)]
            else:
                jobs.append((model, args.subject))
        isal_functions = [s[5:] for _, s in jobs if s.startswith("isal:")]
        for fn in isal_functions:
            if not ISAL_NAME.fullmatch(fn) or "copy" in fn:
                fail(f"isal:{fn}: not an ISA-L CRC function (crc32_iscsi..., crc32_gzip_refl..., "
                     "crc32_ieee..., crc16_t10dif..., "
                     "crc64_{ecma,iso,jones,rocksoft}_{refl,norm}...)")
        if isal_functions:
            lib, version = isal_library(args.isal)
            print(f"ISA-L {version} ({lib})")
            plain = build_driver(root, build, work, False, lib, isal_functions)
        unrunnable_driver = None
        notes = {}  # cpu: why its family's table did not serve
        results = []  # (algo, subject, size, cpu, insns, over, cycles)
        for algo, subject in jobs:
            # One trace per tuning the CPUs named run (ISA-L reads none).
            by_tune = {}
            for cpu in cpus:
                key = None if subject.startswith("isal:") else tune[cpu]
                by_tune.setdefault(key, []).append(cpu)
            for key, tuned_cpus in by_tune.items():
                env = environment(key, args.refuse_avx512, args.offset)
                driver = plain
                check = subprocess.run([driver, "run", subject, algo], capture_output=True,
                                       text=True, env=env)
                if check.returncode == 3:
                    if unrunnable_driver is None:
                        unrunnable_driver = build_driver(root, build, work, True)
                    driver = unrunnable_driver
                    check = subprocess.run([driver, "run", subject, algo], capture_output=True,
                                           text=True, env=env)
                if check.returncode != 0:
                    fail(check.stderr.strip() or f"{subject} {algo}: the driver failed")
                used = check.stdout.split()[-1]
                wanted = re.search(r"(?:^|,)family=([^,]*)", key or "")
                if wanted and used != wanted.group(1):
                    for cpu in tuned_cpus:  # the library did not take it
                        notes[cpu] = (f"this CPU lacks family {wanted.group(1)}'s features: "
                                      f"{used}'s table")
                traces = trace(driver, subject, algo, args.sizes, work, args.refuse_avx512, env)
                for size, (lines, over) in zip(args.sizes, traces):
                    asm = to_asm(lines)
                    for cpu in tuned_cpus:
                        results.append((algo, subject, size, cpu, len(asm), over,
                                        mca_cycles(mca, asm, cpu, work)))
    print(f"{mca} {mca_version}")
    for cpu in cpus:
        print(f"{cpu}: crcforge's paths with " +
              (f"CRCFORGE_TUNE={tune[cpu]}" if tune[cpu] else "this CPU's table") +
              (f" ({notes[cpu]})" if cpu in notes else ""))
    if args.markdown:
        print_markdown(results, cpus, args.sizes)
    else:
        print_rows(results, cpus, args.sizes)


def print_rows(results, cpus, sizes):
    print(f"{'subject':<32} {'algo':<12} {'size':>6} {'mcpu':<16} {'insns':>6} {'over':>5} "
          f"{'cycles':>7} {'B/cyc':>6}")
    for algo, subject, size, cpu, insns, over, cycles in sorted(
            results, key=lambda r: (r[0], order(results, r), r[2], cpus.index(r[3]))):
        print(f"{subject:<32} {algo:<12} {size:>6} {cpu:<16} {insns:>6} {over:>5} "
              f"{cycles:>7} {size / cycles:>6.1f}")


def order(results, r):
    """A subject's place: as first listed."""
    return [(x[0], x[1]) for x in results].index((r[0], r[1]))


def print_markdown(results, cpus, sizes):
    cell = {(r[0], r[1], r[2], r[3]): r[6] for r in results}
    over = {(r[0], r[1]) for r in results if r[5]}
    rows = sorted({(r[0], r[1]) for r in results}, key=lambda k: order(results, k))
    print(f"\nCycles per call, {' / '.join(cpus)} (llvm-mca); "
          "* traced with instructions stepped over\n")
    print("| algo | subject | " + " | ".join(common.size_label(n) for n in sizes) + " |")
    print("|---|---|" + "---:|" * len(sizes))
    for algo, subject in rows:
        name = f"`{subject}`" + ("*" if (algo, subject) in over else "")
        print(f"| {algo} | {name} | " + " | ".join(
            " / ".join(str(cell[(algo, subject, n, c)]) for c in cpus) for n in sizes) + " |")


if __name__ == "__main__":
    main()
