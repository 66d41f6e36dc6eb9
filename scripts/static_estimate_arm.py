#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Static cycle estimates of aarch64 calls and bulk loops, for ARM cores this machine is not.

The aarch64 sibling of static_estimate.py.  Each call (one crcforge path forced, a public
entry, or an ISA-L aarch64 function, on SIZE bytes) is run once under qemu-aarch64, one
instruction per translation block with every block's execution logged (-singlestep -d
exec,nochain), so the log is the call's executed instruction stream; each address is
given its instruction from the static driver's disassembly (llvm-objdump), and the stream
(set-up, every loop iteration, reduction, return: straight-line, branches kept but aimed
at the end) goes to llvm-mca once per core named with --mcpu.  The bulk loop is found in the
traces themselves: of the backward branches, the one whose iterations grow most between the
two largest sizes; its bytes per iteration are the sizes' difference over the iterations'
difference, and one iteration's instructions are simulated by llvm-mca as a steady loop.

What is traced on which core: neoverse-n1 under `qemu-aarch64 -cpu neoverse-n1` (CRC32 and
PMULL, no SHA3: a path needing EOR3 is "not on this core"), the others under `-cpu max`
(V1, V2 and N2 have SHA3).  crcforge's paths read the core's family table where the library
has one (CRCFORGE_TUNE=family=NAME, NAME the --mcpu name; the output says which family
served), else the build's own choice.  Every subject is checked before it is traced: its
CRC of "123456789" against the catalogue's check value, and (ISA-L's functions, which are
called directly, their dispatcher left out) against crcforge's bitwise reference at every
length 0..300 at offsets 0..15 and at lengths up to 65,537 B.

ISA-L's aarch64 CRC functions are assembled from the pinned sdist (isal==1.9.1, ISA-L
2.32.1, sha256-checked as .ci/install-isal.sh does) with the cross compiler: --isal-src
names its tarball or an unpacked isa-l tree; without it the sdist is fetched with pip into
a cache (${XDG_CACHE_HOME:-~/.cache}/crcforge).  --no-isal leaves ISA-L out.

Usage: scripts/static_estimate_arm.py [--build DIR] [--mcpu CPU,...] [--isal-src PATH]
                                      [--no-isal] [--markdown] SUBJECT ALGO[,ALGO...] [SIZE...]
  SUBJECT  (or several, separated by commas: each with the models it serves)
           a path name (`crcforge cpu --impls` of the aarch64 build); entry:crc32c (crc32,
           crc64_nvme, crc64_xz, crc16_xmodem): the public one-shot function, dispatched;
           isal:FUNCTION (isal:crc32_iscsi_3crc_fold); or all: every aarch64 path serving
           ALGO (the library's registry), its public entry and ISA-L's functions computing it
  SIZE     input lengths, default 8 64 256 1024 4096 16384 65536 (the two largest give the
           bulk loop)
Needs the aarch64 cross build (cmake/toolchain-aarch64.cmake, default build-aarch64, its
objects), aarch64-linux-gnu-gcc, qemu-aarch64 (qemu-user), llvm-objdump-19 and llvm-mca-19
(Debian's llvm-19).
"""
import argparse
import concurrent.futures
import contextlib
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import static_estimate_common as common  # noqa: E402

CC = "aarch64-linux-gnu-gcc"
QEMU = "qemu-aarch64"
MCA = "llvm-mca-19"
OBJDUMP = "llvm-objdump-19"
DEFAULT_MCPUS = ("neoverse-n1", "neoverse-v1", "neoverse-v2", "neoverse-n2")
DEFAULT_SIZES = (8, 64, 256, 1024, 4096, 16384, 65536)
# The features every traced instruction may need, given to llvm-mca's assembler whatever
# the core (glibc's string functions may take SVE where qemu's CPU has it).
MATTR = "+crc,+aes,+sha3,+sve,+sve2"
# qemu's own model of a core where it has one (its MIDR and features); else `max`.
QEMU_CPU = {"neoverse-n1": "neoverse-n1"}
LOOP_ITERATIONS = 200

# The pinned ISA-L: the PyPI sdist isal==1.9.1 bundles ISA-L 2.32.1 (.ci/install-isal.sh).
ISAL_SDIST = "isal==1.9.1"
ISAL_SDIST_SHA256 = "d210dca02a689ef2af709d2c62d2daac2e36b5d2fa06e6dc0d023c83fee77e91"
ISAL_VERSION = "2.32.1"
# ISA-L's aarch64 functions per catalogue model: what its dispatcher chooses from
# (crc/aarch64/crc_aarch64_dispatcher.c: crc_ext on Neoverse N1, Cortex-A57 and -A72,
# 3crc_fold elsewhere with PMULL, refl_pmull without CRC32) and the mix kernels it ships.
ISAL_FOR_MODEL = {
    "CRC-32/ISCSI": ("crc32_iscsi_3crc_fold", "crc32_iscsi_crc_ext", "crc32_iscsi_refl_pmull",
                     "crc32c_mix_neoverse_n1", "crc32c_mix_default"),
    "CRC-32/ISO-HDLC": ("crc32_gzip_refl_3crc_fold", "crc32_gzip_refl_crc_ext",
                        "crc32_gzip_refl_pmull", "crc32_mix_neoverse_n1", "crc32_mix_default"),
    "CRC-32/BZIP2": ("crc32_ieee_norm_pmull",),
    "CRC-16/T10-DIF": ("crc16_t10dif_pmull",),
    "CRC-64/XZ": ("crc64_ecma_refl_pmull",),
    "CRC-64/WE": ("crc64_ecma_norm_pmull",),
    "CRC-64/GO-ISO": ("crc64_iso_refl_pmull",),
    "CRC-64/NVME": ("crc64_rocksoft_refl_pmull",),
}
ISAL_FUNCTIONS = {fn for fns in ISAL_FOR_MODEL.values() for fn in fns}
# How the ISCSI-style kernels are declared, and the wrapper's arguments to them.
ISAL_ISCSI_STYLE = ("const unsigned char *, size_t", "b, n")

# The driver's own C, after the common part (static_estimate_common.DRIVER_COMMON).
DRIVER = r"""
#include "internal.h" /* crc_reference: the bitwise oracle */
static const crcforge_model *model;
static const char *path; /* the forced path, NULL for a named function */

/* The subject computing b[0..n) from the model's initial value. */
static unsigned long long crc_of(const unsigned char *b, size_t n)
{
    const char *why;
    if (path == NULL)
        return call(b, n);
    if (crcforge_init_impl(&s, model, path, &why)) {
        fprintf(stderr, "%s: %s\n", path, why);
        exit(2);
    }
    forced(b, n);
    return crcforge_final(&s);
}

/* 0, 2 on a bad subject, 3 when this CPU cannot run the path. */
static int resolve(const char *subject)
{
    const char *why;
    for (size_t i = 0; i < NAMED; i++)
        if (!strcmp(subject, named[i].name)) {
            call = named[i].fn;
            return 0;
        }
    if (strchr(subject, ':')) {
        fprintf(stderr, "no such function: %s (not built into the driver)\n", subject);
        return 2;
    }
    path = subject;
    if (crcforge_init_impl(&s, model, subject, &why)) {
        fprintf(stderr, "%s %s: %s\n", subject, crcforge_model_name(model), why);
        return strstr(why, "this CPU cannot run") ? 3 : 2;
    }
    return 0;
}

/* verify: the subject against the bitwise reference, every length 0..300 at offsets
 * 0..15, and longer ones at three offsets. */
static int verify(const char *subject)
{
    static unsigned char buf[65537 + 64];
    static const size_t longer[] = {511, 512, 1023, 1024, 4095, 4096, 4097, 16384, 65536, 65537};
    const crcforge_params *p = crcforge_model_params(model);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof buf; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (unsigned char)x;
    }
    int bad = 0;
    for (size_t n = 0; n <= 300 + sizeof longer / sizeof longer[0]; n++) {
        size_t len = n <= 300 ? n : longer[n - 301];
        for (size_t off = 0; off < (n <= 300 ? 16u : 24u); off += (n <= 300 ? 1 : 7)) {
            unsigned long long got = crc_of(buf + off, len);
            unsigned long long want = crc_reference(p, buf + off, len);
            if (got != want && bad++ < 5)
                fprintf(stderr, "%s %s: length %zu offset %zu: %llx, the reference %llx\n",
                        subject, crcforge_model_name(model), len, off, got, want);
        }
    }
    return bad ? 1 : 0;
}

/* list ALGO | crc SUBJECT ALGO | verify SUBJECT ALGO | run SUBJECT ALGO [SIZE...] */
int main(int argc, char **argv)
{
    static unsigned char buf[(1 << 20) + 64] __attribute__((aligned(64)));
    if (argc < 3 || (model = crcforge_model_find(argv[argc == 3 ? 2 : 3])) == NULL) {
        fprintf(stderr, "usage: driver list ALGO | crc|verify|run SUBJECT ALGO [SIZE...]"
                        " (ALGO a catalogue model)\n");
        return 2;
    }
    if (!strcmp(argv[1], "list"))
        return list(model);
    int rc = resolve(argv[2]);
    if (rc)
        return rc;
    if (!strcmp(argv[1], "crc")) {
        memcpy(buf, "123456789", 9);
        printf("%llx\n", crc_of(buf, 9));
        return 0;
    }
    if (!strcmp(argv[1], "verify"))
        return verify(argv[2]);
    if (strcmp(argv[1], "run"))
        return 2;
    /* The buffer stays zero: the kernels' branches depend on the length and the address
     * alone, and a fill would be traced too. */
    for (int a = 4; a < argc; a++)
        if (strtoul(argv[a], 0, 0) > (1 << 20))
            return 2;
    sink = crc_of(buf, 4096); /* first use: the dispatch resolved, the tables built */
    printf("family %s\n", crcforge_tuning_family());
    for (int a = 4; a < argc; a++) {
        size_t n = strtoul(argv[a], 0, 0);
        const char *why;
        sink = crc_of(buf, n); /* warm: the same code, the same data */
        if (path != NULL)
            crcforge_init_impl(&s, model, path, &why);
        traced_call(buf, n); /* the traced one: a forced path's update alone */
    }
    return 0;
}
"""

TRACE_LINE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
DISASM_LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S.*)$")
# Instructions whose last operand is a code or data address (branches, literal loads,
# adr/adrp): aimed at a label in the modelled text, since addresses mean nothing there.
ADDRESSED = re.compile(r"^(b|bl|b\.\w+|bc\.\w+|cbn?z|tbn?z|adrp?|ldr|ldrsw|prfm)$")
BRANCH = re.compile(r"^(b|bl|br|blr|ret|b\.\w+|bc\.\w+|cbn?z|tbn?z)$")


def fail(msg):
    sys.exit(f"static_estimate_arm: {msg}")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def need_tools():
    for tool, package in ((CC, "gcc-aarch64-linux-gnu"), (QEMU, "qemu-user"),
                          (MCA, "llvm-19"), (OBJDUMP, "llvm-19")):
        if not shutil.which(tool):
            fail(f"{tool} not found (Debian package {package})")


def check_mcpus(cpus):
    """Fails unless llvm-mca has a scheduling model for every core named, before any
    trace."""
    for cpu, said in common.refused_mcpus(MCA, cpus, ("-mtriple=aarch64",)).items():
        fail(f"--mcpu {cpu}: {MCA} does not know it ({said}); "
             f"`{MCA} -mtriple=aarch64 -mcpu=help` lists the cores")


# ---------------------------------------------------------------------------------------
# ISA-L from the pinned sdist

def isal_tree(src):
    """The unpacked isa-l tree of the pinned sdist: from PATH (its tarball, or a tree
    holding crc/aarch64), else fetched into the cache."""
    if src is None:
        cache = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                             "crcforge")
        os.makedirs(cache, exist_ok=True)
        tarballs = glob.glob(os.path.join(cache, "isal-1.9.1.tar.gz"))
        if not tarballs:
            done = run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                        "--disable-pip-version-check", "--no-binary", ":all:", ISAL_SDIST,
                        "-d", cache])
            if done.returncode != 0:
                fail(f"pip download {ISAL_SDIST} failed (name the sdist or an isa-l tree "
                     f"with --isal-src, or leave ISA-L out with --no-isal):\n{done.stderr}")
        src = os.path.join(cache, "isal-1.9.1.tar.gz")
    if os.path.isdir(src):
        tree = src
    else:
        with open(src, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if digest != ISAL_SDIST_SHA256:
            fail(f"{src} is not the pinned {ISAL_SDIST} sdist (sha256 {digest})")
        unpacked = os.path.join(os.path.dirname(os.path.abspath(src)), "isal-1.9.1-unpacked")
        if not os.path.isdir(unpacked):
            with tarfile.open(src) as t:
                t.extractall(unpacked + ".tmp")
            os.rename(unpacked + ".tmp", unpacked)
        tree = os.path.join(unpacked, "isal-1.9.1", "src", "isal", "isa-l")
    if not os.path.isdir(os.path.join(tree, "crc", "aarch64")):
        fail(f"{tree}: no crc/aarch64 (an ISA-L source tree is wanted)")
    with open(os.path.join(tree, "make.inc")) as f:
        version = re.search(r"^version \?= *(\S+)", f.read(), re.M)
    return tree, version.group(1) if version else "unknown"


def isal_objects(tree, work):
    """ISA-L's aarch64 CRC kernels assembled with the cross compiler."""
    objs = []
    srcdir = os.path.join(tree, "crc", "aarch64")
    for fn in sorted(ISAL_FUNCTIONS):
        obj = os.path.join(work, fn + ".o")
        done = run([CC, "-c", "-I" + os.path.join(tree, "include"), "-I" + srcdir,
                    os.path.join(srcdir, fn + ".S"), "-o", obj])
        if done.returncode != 0:
            fail(f"ISA-L {fn}.S did not assemble:\n{done.stderr}")
        objs.append(obj)
    return objs


# ---------------------------------------------------------------------------------------
# The driver, its disassembly, the traces

def build_driver(root, build, work, isal_objs=(), isal_functions=()):
    """The static aarch64 driver on crcforge's objects (internals reachable) and ISA-L's."""
    objs = common.library_objects(root, build)
    if not objs:
        fail(f"no library objects under {build}/CMakeFiles (an aarch64 build of "
             "cmake/toolchain-aarch64.cmake is wanted)")
    src = os.path.join(work, "driver.c")
    driver = os.path.join(work, "driver")
    with open(src, "w") as f:
        f.write(common.driver_source(DRIVER, isal_functions, ISAL_ISCSI_STYLE))
    done = run([CC, "-O2", "-g0", "-static", "-I" + os.path.join(root, "include"),
                "-I" + os.path.join(root, "src"), src] + objs + list(isal_objs) +
               ["-lpthread", "-o", driver])
    if done.returncode != 0:
        fail(f"the driver did not build (is {build} an aarch64 build?):\n{done.stderr}")
    return driver


def disassembly(driver):
    """address: (mnemonic, operands) of every instruction of the static driver, and the
    address of traced_call."""
    out = run([OBJDUMP, "-d", "--no-show-raw-insn", driver], check=True).stdout
    insns, start = {}, None
    for line in out.splitlines():
        if line.endswith("<traced_call>:"):
            start = int(line.split()[0], 16)
        m = DISASM_LINE.match(line)
        if m:
            text = re.sub(r"\s*(<[^>]*>|//.*)$", "", m.group(2)).strip()
            mnemonic, _, operands = text.partition("\t")
            insns[int(m.group(1), 16)] = (mnemonic.strip(), operands.strip())
    if start is None:
        fail("the driver has no traced_call")
    return insns, start


def qemu(cpu, args, env, log=None):
    cmd = [QEMU, "-cpu", cpu]
    if log:
        cmd += ["-singlestep", "-d", "exec,nochain", "-D", log]
    return run(cmd + args, env=env)


def traces(driver, insns, start, cpu, subject, algo, sizes, work, env):
    """The addresses each traced call executed, a size, and the tuning family in use."""
    log = os.path.join(work, "exec.log")
    done = qemu(cpu, [driver, "run", subject, algo] + [str(n) for n in sizes], env, log)
    if done.returncode != 0:
        fail(f"{subject} {algo} under -cpu {cpu}: {done.stderr.strip()}")
    family = done.stdout.split()[1]
    calls, current = [], None
    with open(log) as f:
        for line in f:
            m = TRACE_LINE.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            if current is None:
                if pc == start:
                    current = [pc]
                continue
            current.append(pc)
            # traced_call returns at its own ret: the one whose address follows its start.
            if insns[pc][0] == "ret" and start <= pc < start + 256:
                calls.append(current)
                current = None
    os.remove(log)
    if len(calls) != len(sizes):
        fail(f"{subject} {algo}: {len(calls)} traced calls found for {len(sizes)} sizes")
    return calls, family


def to_asm(pcs, insns):
    """llvm-mca's text: each instruction as disassembled, addresses aimed at a label."""
    asm = []
    for pc in pcs:
        mnemonic, operands = insns[pc]
        if mnemonic in ("nop", "hint") or mnemonic.startswith(("bti", "paci", "auti")):
            continue
        if ADDRESSED.match(mnemonic) and re.search(r"(^|,\s*)0x[0-9a-f]+$", operands):
            operands = re.sub(r"0x[0-9a-f]+$", ".Lend", operands)
        # llvm-mca gives a call 100 cycles of latency; the branch it is, without the link.
        mnemonic = {"bl": "b", "blr": "br"}.get(mnemonic, mnemonic)
        asm.append(f"{mnemonic}\t{operands}" if operands else mnemonic)
    return asm


def bulk_loop(pcs_big, pcs_small, size_big, size_small, insns):
    """The bulk loop: of the innermost loops (backward branches whose iteration repeats no
    instruction), the one whose iterations grow most with the length, weighted by its
    iteration's instructions; (one iteration's addresses, bytes an iteration), or None when
    no loop grows."""
    def edges(pcs):
        count = {}
        for a, b in zip(pcs, pcs[1:]):
            if b <= a and BRANCH.match(insns[a][0]):
                count[(a, b)] = count.get((a, b), 0) + 1
        return count
    big, small = edges(pcs_big), edges(pcs_small)
    # grew counts a loop's iterations over both sizes' blocks and tails, which need not
    # grow in proportion: the bytes an iteration loads are exact where the loop loads
    # only its input, so they are taken when they agree with the growth within 25%.
    best, best_weight = None, 0
    for edge, n in big.items():
        grew = n - small.get(edge, 0)
        if grew <= 0:
            continue
        # One iteration: from the middle taken branch's target to the next one's branch.
        taken = [i for i, (a, b) in enumerate(zip(pcs_big, pcs_big[1:])) if (a, b) == edge]
        if len(taken) < 2:
            continue
        mid = len(taken) // 2
        body = pcs_big[taken[mid - 1] + 1:taken[mid] + 1]
        if len(set(body)) < len(body):
            continue  # an outer loop: its inner one is the candidate
        if grew * len(body) > best_weight:
            growth = (size_big - size_small) / grew
            loaded = sum(load_bytes(*insns[pc]) for pc in body)
            per_iter = loaded if 0.75 <= loaded / growth <= 1.33 else growth
            best, best_weight = (body, per_iter), grew * len(body)
    return best


LOAD_SIZE = {"x": 8, "w": 4, "q": 16, "d": 8, "s": 4, "h": 2, "b": 1}


def load_bytes(mnemonic, operands):
    """The bytes an instruction loads from memory other than the stack and literals."""
    if "[sp" in operands or not mnemonic.startswith("ld") or mnemonic.startswith("ldxr"):
        return 0
    if mnemonic.startswith("ld1"):
        regs = re.findall(r"v\d+\.(\d*)([bhsd])", operands.split("}")[0])
        if "}[" in operands:  # one lane
            return LOAD_SIZE[regs[0][1]]
        return sum(16 if lanes * LOAD_SIZE[kind] == 16 else 8
                   for lanes, kind in ((int(n or 1), k) for n, k in regs))
    if "[" not in operands:
        return 0
    width = {"ldrb": 1, "ldurb": 1, "ldrsb": 1, "ldursb": 1, "ldrh": 2, "ldurh": 2,
             "ldrsh": 2, "ldursh": 2, "ldrsw": 4, "ldursw": 4}.get(mnemonic)
    if width is None:
        width = LOAD_SIZE.get(operands[:1], 0)
    return width * (2 if mnemonic in ("ldp", "ldnp", "ldpsw") else 1)


def mca(asm, mcpu, iterations, work, tag):
    src = os.path.join(work, f"region-{tag}.s")
    with open(src, "w") as f:
        f.write("\n".join(asm) + "\n.Lend:\n")
    done = run([MCA, "-mtriple=aarch64", f"-mcpu={mcpu}", f"-mattr={MATTR}",
                f"-iterations={iterations}", src])
    if done.returncode != 0:
        fail(f"{MCA} -mcpu={mcpu} refused the trace ({src}):\n{done.stderr[:2000]}")
    out = done.stdout
    return (int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)),
            float(re.search(r"Block RThroughput:\s+([0-9.]+)", out).group(1)))


# What each core's model assumes of the instructions the kernels are made of.
PROBES = ("crc32cx\tw0, w0, x1", "pmull\tv0.1q, v1.1d, v2.1d", "pmull2\tv0.1q, v1.2d, v2.2d",
          "eor3\tv0.16b, v1.16b, v2.16b, v3.16b", "eor\tv0.16b, v1.16b, v2.16b",
          "ldp\tq0, q1, [x0]", "ldr\tq0, [x0]", "ldp\tx2, x3, [x0]", "ldr\tx2, [x0]")


def assumptions(cpus, work):
    """{(probe, cpu): (latency, reciprocal throughput)} from llvm-mca's instruction info."""
    src = os.path.join(work, "probes.s")
    with open(src, "w") as f:
        f.write("\n".join(PROBES) + "\n")
    table = {}
    for cpu in cpus:
        out = run([MCA, "-mtriple=aarch64", f"-mcpu={cpu}", f"-mattr={MATTR}", "-iterations=1",
                   "--instruction-info", src], check=True).stdout
        info = [line.split() for line in out.split("Instructions:", 1)[1].splitlines()
                if re.match(r"^\s+\d+\s+\d+\s+[0-9.]+", line)]
        for probe, cols in zip(PROBES, info):
            table[(probe, cpu)] = (int(cols[1]), float(cols[2]))
    return table


# ---------------------------------------------------------------------------------------

def listing(driver, algo, env):
    done = qemu("max", [driver, "list", algo], env)
    if done.returncode != 0:
        fail(f"{algo}: {done.stderr.strip() or 'unknown model'}")
    return common.parse_listing(done.stdout)


def environment(mcpu):
    env = dict(os.environ)
    for var in ("CRCFORGE_IMPL", "CRCFORGE_CPU_MASK", "CRCFORGE_TUNE"):
        env.pop(var, None)
    if "CRCFORGE_TUNE" in os.environ:
        env["CRCFORGE_TUNE"] = os.environ["CRCFORGE_TUNE"]
    elif mcpu is not None:
        env["CRCFORGE_TUNE"] = f"family={mcpu}"
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build-aarch64", metavar="DIR",
                    help="the aarch64 cross build (its library objects; default build-aarch64)")
    ap.add_argument("--mcpu", default=",".join(DEFAULT_MCPUS), metavar="CPU,...",
                    help="the cores llvm-mca models, as its -mcpu names them "
                         f"(default {','.join(DEFAULT_MCPUS)})")
    ap.add_argument("--isal-src", metavar="PATH",
                    help="the isal==1.9.1 sdist tarball or an unpacked isa-l tree "
                         "(default: fetched with pip into the cache)")
    ap.add_argument("--no-isal", action="store_true", help="leave ISA-L's functions out")
    ap.add_argument("--markdown", action="store_true", help="Markdown tables")
    ap.add_argument("--markdown-to", metavar="FILE",
                    help="also write the Markdown tables to FILE (the rows still printed)")
    ap.add_argument("--jobs", type=int, default=2, help="llvm-mca runs at once (default 2)")
    ap.add_argument("subject", help="a path, entry:NAME, isal:FUNCTION, or all; several "
                                    "separated by commas (each with the models it serves)")
    ap.add_argument("algos", metavar="ALGO[,ALGO...]")
    ap.add_argument("sizes", nargs="*", type=int, metavar="SIZE")
    args = ap.parse_args()
    sizes = args.sizes or list(DEFAULT_SIZES)
    for size in sizes:
        if not 0 <= size <= 1 << 20:
            fail(f"size {size}: sizes run from 0 to 1048576 bytes")
    need_tools()
    cpus = [c for c in args.mcpu.split(",") if c]
    if not cpus:
        fail("--mcpu names no core")
    check_mcpus(cpus)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(args.build)
    versions = [run([MCA, "--version"]).stdout, run([QEMU, "--version"]).stdout]
    with tempfile.TemporaryDirectory() as work:
        driver = build_driver(root, build, work)
        jobs = []  # (model, subject)
        for algo in args.algos.split(","):
            model, _, subjects = listing(driver, algo, environment(None))
            for subject in args.subject.split(","):
                if subject == "all":
                    entries = [s for s in subjects if s.startswith("entry:")]
                    paths = [s for s in subjects if not s.startswith("entry:")]
                    isal = ([] if args.no_isal else
                            [f"isal:{f}" for f in ISAL_FOR_MODEL.get(model, ())])
                    jobs += [(model, s) for s in paths + entries + isal]
                elif "," not in args.subject:
                    jobs.append((model, subject))  # the driver names what is wrong
                elif subject in subjects or subject[5:] in ISAL_FOR_MODEL.get(model, ()):
                    jobs.append((model, subject))
        isal_functions = sorted({s[5:] for _, s in jobs if s.startswith("isal:")})
        for fn in isal_functions:
            if fn not in ISAL_FUNCTIONS:
                fail(f"isal:{fn}: not one of ISA-L's aarch64 CRC functions modelled here "
                     f"({', '.join(sorted(ISAL_FUNCTIONS))})")
        header = []
        if isal_functions:
            tree, version = isal_tree(args.isal_src)
            if version != ISAL_VERSION:
                fail(f"{tree}: ISA-L {version}, not {ISAL_VERSION}")
            header.append(f"ISA-L {version} ({tree}), assembled by {CC}")
            driver = build_driver(root, build, work, isal_objects(tree, work), isal_functions)
        insns, start = disassembly(driver)
        assumed = assumptions(cpus, work)
        llvm = re.search(r"LLVM version (\S+)", versions[0])
        header.append(f"{MCA} (LLVM {llvm.group(1) if llvm else 'unknown'}); "
                      f"{versions[1].splitlines()[0]}")

        # Check, then trace: once per qemu CPU and tuning the cores named need.
        pending = []  # (model, subject, size or "bulk", mcpu, asm, iterations, scale)
        rows = {}  # (model, subject): {"insns": {size: n}, "cpus": {mcpu: note}, "bytes": B}
        for model, subject in jobs:
            row = rows.setdefault((model, subject), {"insns": {}, "cpus": {}, "bytes": None})
            checked = False
            groups = {}  # (qemu's CPU, the family asked for): the cores traced so
            for cpu in cpus:
                tune = None if subject.startswith("isal:") else cpu
                groups.setdefault((QEMU_CPU.get(cpu, "max"), tune), []).append(cpu)
            for (qcpu, tune), group in groups.items():
                env = environment(tune)
                crc = qemu(qcpu, [driver, "crc", subject, model], env)
                if crc.returncode == 3:
                    for cpu in group:
                        row["cpus"][cpu] = "not on this core"
                    continue
                if crc.returncode != 0:
                    fail(crc.stderr.strip() or f"{subject} {model}: the driver failed")
                if not checked:
                    want = listing(driver, model, env)[1]
                    if int(crc.stdout, 16) != want:
                        fail(f"{subject} {model}: CRC of 123456789 {crc.stdout.strip()}, "
                             f"the check value {want:x}")
                    if subject.startswith("isal:"):
                        v = qemu(qcpu, [driver, "verify", subject, model], env)
                        if v.returncode != 0:
                            fail(f"{subject} does not compute {model}:\n{v.stderr}")
                    checked = True
                calls, family = traces(driver, insns, start, qcpu, subject, model, sizes,
                                       work, env)
                for size, pcs in zip(sizes, calls):
                    row["insns"][size] = len(pcs)
                    for cpu in group:
                        pending.append((model, subject, size, cpu, to_asm(pcs, insns), 1, 1))
                order = sorted(range(len(sizes)), key=lambda i: sizes[i])
                loop = None
                if len(sizes) >= 2 and sizes[order[-1]] >= 4096:
                    big, small = order[-1], order[-2]
                    loop = bulk_loop(calls[big], calls[small], sizes[big], sizes[small], insns)
                if loop:
                    body, per_iter = loop
                    row["bytes"] = per_iter
                    for cpu in group:
                        pending.append((model, subject, "bulk", cpu, to_asm(body, insns),
                                        LOOP_ITERATIONS, 64 / per_iter))
                for cpu in group:
                    row["cpus"][cpu] = (f"qemu -cpu {qcpu}, family {family}"
                                        if not subject.startswith("isal:") else f"qemu -cpu {qcpu}")

        cycles = {}
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            futures = {pool.submit(mca, asm, cpu, its, work, i): (m, s, size, cpu, its, scale)
                       for i, (m, s, size, cpu, asm, its, scale) in enumerate(pending)}
            for future, (m, s, size, cpu, its, scale) in futures.items():
                total, rthroughput = future.result()
                if size == "bulk":
                    cycles[(m, s, size, cpu)] = (total / its * scale, rthroughput * scale)
                else:
                    cycles[(m, s, size, cpu)] = total
    for line in header:
        print(line)
    print(f"\nWhat the models assume, latency / cycles per instruction (reciprocal throughput), "
          f"cores {' / '.join(cpus)}")
    for probe in PROBES:
        print(f"{probe.split(chr(9))[0]:<8} {probe.split(chr(9))[1]:<36} " + "   ".join(
            "%d / %.2f" % assumed[(probe, cpu)] for cpu in cpus))
    report(rows, cycles, cpus, sizes, args.markdown)
    if args.markdown_to:
        with open(args.markdown_to, "w") as f, contextlib.redirect_stdout(f):
            for line in header:
                print(line + "  ")
            report(rows, cycles, cpus, sizes, True)


def report(rows, cycles, cpus, sizes, markdown):
    big = max(sizes)
    label = common.size_label
    notes = {}
    for (model, subject), row in rows.items():
        for cpu, note in row["cpus"].items():
            notes.setdefault(note, set()).add(cpu)

    def cell(model, subject, key, cpu, fmt):
        value = cycles.get((model, subject, key, cpu))
        if value is None:
            return "-"
        return fmt(value)

    per64 = lambda v: f"{v[0]:.2f} ({v[1]:.2f})"
    print(f"\nBulk loop, cycles per 64 B simulated (its RThroughput), and the whole "
          f"{label(big)} call's cycles per 64 B; cores {' / '.join(cpus)}")
    if markdown:
        print("\n| model | subject | B/iter | " + " | ".join(f"{c} loop | {c} call" for c in cpus)
              + " |\n|---|---|---:|" + "---:|---:|" * len(cpus))
    else:
        print(f"{'model':<16} {'subject':<34} {'B/iter':>6} " +
              " ".join(f"{c + ' loop':>18} {'call':>6}" for c in cpus))
    for (model, subject), row in rows.items():
        per_iter = f"{row['bytes']:.0f}" if row["bytes"] else "-"
        cells = []
        for cpu in cpus:
            whole = cycles.get((model, subject, big, cpu))
            cells += [cell(model, subject, "bulk", cpu, per64),
                      f"{whole * 64 / big:.2f}" if whole and big else "-"]
        if markdown:
            print(f"| {model} | `{subject}` | {per_iter} | " + " | ".join(cells) + " |")
        else:
            print(f"{model:<16} {subject:<34} {per_iter:>6} " +
                  " ".join(f"{a:>18} {b:>6}" for a, b in zip(cells[::2], cells[1::2])))

    print(f"\nCalls, cycles (llvm-mca, the executed instructions once) per core "
          f"{' / '.join(cpus)}, and the instructions executed")
    if markdown:
        print("\n| model | subject | " + " | ".join(label(n) for n in sizes) + " | insns " +
              " / ".join(label(n) for n in sizes) + " |\n|---|---|" + "---:|" * (len(sizes) + 1))
    else:
        print(f"{'model':<16} {'subject':<34} {'size':>6} {'insns':>6} " +
              " ".join(f"{c:>12}" for c in cpus))
    for (model, subject), row in rows.items():
        if markdown:
            print(f"| {model} | `{subject}` | " + " | ".join(
                " / ".join(cell(model, subject, n, c, str) for c in cpus) for n in sizes) +
                " | " + " / ".join(str(row["insns"].get(n, "-")) for n in sizes) + " |")
            continue
        for n in sizes:
            print(f"{model:<16} {subject:<34} {n:>6} {row['insns'].get(n, '-'):>6} " +
                  " ".join(f"{cell(model, subject, n, c, str):>12}" for c in cpus))
    print()
    for note, which in notes.items():
        print(f"{', '.join(c for c in cpus if c in which)}: {note}")


if __name__ == "__main__":
    main()
