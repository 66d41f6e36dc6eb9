/* SPDX-License-Identifier: MIT */
/*
 * The peer libraries, each adapted to the bench_fn signature and to the value
 * semantics of the catalogue model it equals (init, refout and xorout applied), so that
 * its result can be compared with crcforge's and its time with the same loop.  A
 * library is compiled in when CMake found it (CRCFORGE_BENCH_HAVE_*); a missing one is
 * listed as not built.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#if CRCFORGE_BENCH_HAVE_ISAL
#include <isa-l.h>
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#if ISAL_VERSION < ISAL_MAKE_VERSION(2, 32, 0)
#error "the named kernels below are isa-l 2.32's (crc/crc_multibinary.asm): CMake takes no older isa-l"
#endif

/*
 * ISA-L's dispatcher (crc/crc_multibinary.asm, mbin_dispatch_init_clmul) chooses among
 * five kernels by CPUID, each tier needing what the one before it needs and more:
 * 01 SSE4.1 and PCLMULQDQ; 02 also OSXSAVE, AVX and the XMM/YMM state enabled; avx2 also
 * AVX2, GFNI, VAES and VPCLMULQDQ; by16_10 (AVX-512) also the opmask/ZMM state, AVX-512
 * F, VL, BW, CD and DQ, and VBMI2, GFNI, VAES, VPCLMULQDQ, VNNI, BITALG and VPOPCNTDQ.
 * Each kernel is also timed by its own name where this CPU has what its tier needs, the
 * same test as the dispatcher's.
 */
#if !defined(__aarch64__)
enum isal_tier { ISAL_01 = 1, ISAL_02, ISAL_AVX2, ISAL_10 };

#if defined(__x86_64__)
#include <cpuid.h>

static int isal_tier_here(void)
{
    unsigned a, b, c, d, b7 = 0, c7 = 0, xcr0 = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 1)))
        return 0;
    int tier = ISAL_01;
    if (!(c & (1u << 27)))
        return tier;
    __asm__("xgetbv" : "=a"(xcr0), "=d"(d) : "c"(0));
    if ((xcr0 & 0x6) != 0x6 || !(c & (1u << 28)))
        return tier;
    tier = ISAL_02;
    __cpuid_count(7, 0, a, b7, c7, d);
    if (!(b7 & (1u << 5))) /* no AVX2: the dispatcher stops here, AVX-512 or not */
        return tier;
    const unsigned avx2_g2 = 1u << 8 | 1u << 9 | 1u << 10; /* GFNI, VAES, VPCLMULQDQ */
    const unsigned avx512_g1 = 1u << 16 | 1u << 17 | 1u << 28 | 1u << 30 | 1u << 31;
    const unsigned avx512_g2 = avx2_g2 | 1u << 6 | 1u << 11 | 1u << 12 | 1u << 14;
    int avx2 = (c7 & avx2_g2) == avx2_g2;
    int avx512 = (xcr0 & 0xe0) == 0xe0 && (b7 & avx512_g1) == avx512_g1 &&
                 (c7 & avx512_g2) == avx512_g2;
    return avx512 ? ISAL_10 : avx2 ? ISAL_AVX2 : tier;
}
#else
static int isal_tier_here(void)
{
    return 0;
}
#endif

/* Whether this CPU has what a tier's kernel needs.  The AVX-512 tier holds the AVX2
 * tier's needs too; a CPU whose dispatcher stops at 02 for want of GFNI (AMD Zen 3) runs
 * neither. */
static int isal_runs(int tier)
{
    static int here = -1;
    if (here < 0)
        here = isal_tier_here();
    return here >= tier;
}
#define ISAL_RUNS(tier)                                                                   \
    static int isal_runs_##tier(void)                                                     \
    {                                                                                     \
        return isal_runs(tier);                                                           \
    }
ISAL_RUNS(ISAL_01)
ISAL_RUNS(ISAL_02)
ISAL_RUNS(ISAL_AVX2)
ISAL_RUNS(ISAL_10)
#undef ISAL_RUNS
#endif

/* The named kernels: libisal exports them, its headers do not declare them. */
typedef unsigned int isal_iscsi_fn(unsigned char *buffer, int len, unsigned int init_crc);
typedef uint32_t isal_crc32_fn(uint32_t init_crc, const unsigned char *buf, uint64_t len);
typedef uint64_t isal_crc64_fn(uint64_t init_crc, const unsigned char *buf, uint64_t len);
typedef uint16_t isal_crc16_fn(uint16_t init_crc, const unsigned char *buf, uint64_t len);
#if defined(__aarch64__)
/* ISA-L's aarch64 kernels (crc/aarch64/crc_aarch64_dispatcher.c chooses crc_ext, one
 * crc32 chain, on Neoverse N1 and Cortex-A57/A72; 3crc_fold, crc32 beside PMULL,
 * elsewhere; refl_pmull without CRC32). */
isal_iscsi_fn crc32_iscsi_3crc_fold, crc32_iscsi_crc_ext, crc32_iscsi_refl_pmull;
isal_crc32_fn crc32_gzip_refl_3crc_fold, crc32_gzip_refl_crc_ext, crc32_gzip_refl_pmull;
#else
isal_iscsi_fn crc32_iscsi_01, crc32_iscsi_by8_02, crc32_iscsi_avx2, crc32_iscsi_by16_10;
isal_crc32_fn crc32_gzip_refl_by8, crc32_gzip_refl_avx2, crc32_gzip_refl_by16_10;
isal_crc64_fn crc64_ecma_refl_by8, crc64_ecma_refl_avx2, crc64_ecma_refl_by16_10;
isal_crc64_fn crc64_rocksoft_refl_by8, crc64_rocksoft_refl_avx2, crc64_rocksoft_refl_by16_10;
isal_crc64_fn crc64_ecma_norm_by8, crc64_ecma_norm_avx2, crc64_ecma_norm_by16_10;
isal_crc16_fn crc16_t10dif_01, crc16_t10dif_avx2, crc16_t10dif_by16_10;
#endif

/* crc32_iscsi takes and returns the bare register: no inversion on either side, and an
 * int length; CRC-32/ISCSI's init and xorout are all ones. */
#define ISAL_ISCSI(fn)                                                                    \
    static BENCH_CODE_ALIGNED uint64_t isal_##fn(const void *ctx, const uint8_t *buf,     \
                                                 size_t len)                              \
    {                                                                                     \
        (void)ctx;                                                                        \
        uint32_t reg = 0xffffffffu;                                                       \
        while (len > INT_MAX) {                                                           \
            reg = fn((unsigned char *)buf, INT_MAX, reg);                                 \
            buf += INT_MAX;                                                               \
            len -= INT_MAX;                                                               \
        }                                                                                 \
        return ~fn((unsigned char *)buf, (int)len, reg) & 0xffffffffu;                    \
    }
/* The others take and return the value, zlib-style (0 to start): CRC-32/ISO-HDLC,
 * CRC-64/XZ (ecma_refl), CRC-64/NVME (rocksoft_refl), CRC-16/T10-DIF.  ecma_norm inverts
 * on both sides, CRC-64/WE: CRC-64/ECMA-182 (init 0, xorout 0) starts from all ones and
 * inverts its result. */
#define ISAL_VALUE(fn)                                                                    \
    static BENCH_CODE_ALIGNED uint64_t isal_##fn(const void *ctx, const uint8_t *buf,     \
                                                 size_t len)                              \
    {                                                                                     \
        (void)ctx;                                                                        \
        return fn(0, buf, len);                                                           \
    }
#define ISAL_ECMA_182(fn)                                                                 \
    static BENCH_CODE_ALIGNED uint64_t isal_##fn(const void *ctx, const uint8_t *buf,     \
                                                 size_t len)                              \
    {                                                                                     \
        (void)ctx;                                                                        \
        return ~fn(~UINT64_C(0), buf, len);                                               \
    }
#if defined(__aarch64__)
ISAL_ISCSI(crc32_iscsi)
ISAL_ISCSI(crc32_iscsi_3crc_fold)
ISAL_ISCSI(crc32_iscsi_crc_ext)
ISAL_ISCSI(crc32_iscsi_refl_pmull)
ISAL_VALUE(crc32_gzip_refl)
ISAL_VALUE(crc32_gzip_refl_3crc_fold)
ISAL_VALUE(crc32_gzip_refl_crc_ext)
ISAL_VALUE(crc32_gzip_refl_pmull)
ISAL_VALUE(crc64_ecma_refl)
ISAL_VALUE(crc64_rocksoft_refl)
ISAL_ECMA_182(crc64_ecma_norm)
ISAL_VALUE(crc16_t10dif)
#else
ISAL_ISCSI(crc32_iscsi)
ISAL_ISCSI(crc32_iscsi_01)
ISAL_ISCSI(crc32_iscsi_by8_02)
ISAL_ISCSI(crc32_iscsi_avx2)
ISAL_ISCSI(crc32_iscsi_by16_10)
ISAL_VALUE(crc32_gzip_refl)
ISAL_VALUE(crc32_gzip_refl_by8)
ISAL_VALUE(crc32_gzip_refl_avx2)
ISAL_VALUE(crc32_gzip_refl_by16_10)
ISAL_VALUE(crc64_ecma_refl)
ISAL_VALUE(crc64_ecma_refl_by8)
ISAL_VALUE(crc64_ecma_refl_avx2)
ISAL_VALUE(crc64_ecma_refl_by16_10)
ISAL_VALUE(crc64_rocksoft_refl)
ISAL_VALUE(crc64_rocksoft_refl_by8)
ISAL_VALUE(crc64_rocksoft_refl_avx2)
ISAL_VALUE(crc64_rocksoft_refl_by16_10)
ISAL_ECMA_182(crc64_ecma_norm)
ISAL_ECMA_182(crc64_ecma_norm_by8)
ISAL_ECMA_182(crc64_ecma_norm_avx2)
ISAL_ECMA_182(crc64_ecma_norm_by16_10)
ISAL_VALUE(crc16_t10dif)
ISAL_VALUE(crc16_t10dif_01)
ISAL_VALUE(crc16_t10dif_avx2)
ISAL_VALUE(crc16_t10dif_by16_10)
#endif
#undef ISAL_ISCSI
#undef ISAL_VALUE
#undef ISAL_ECMA_182

/* The kernel ISA-L's dispatcher chose for crc32_iscsi, by name: its entry point is an
 * indirect jump (endbr64, then jmp [rip+disp32]) through a pointer set on the first call. */
const char *bench_isal_iscsi_dispatched(void)
{
#if defined(__x86_64__)
    static const struct {
        const char *name;
        isal_iscsi_fn *fn;
    } kernels[] = {{"crc32_iscsi_01", crc32_iscsi_01},
                   {"crc32_iscsi_by8_02", crc32_iscsi_by8_02},
                   {"crc32_iscsi_avx2", crc32_iscsi_avx2},
                   {"crc32_iscsi_by16_10", crc32_iscsi_by16_10}};
    unsigned char one = 1;
    (void)crc32_iscsi(&one, 1, 0); /* dispatched now */
    const unsigned char *code = (const unsigned char *)(uintptr_t)crc32_iscsi;
    if (code[0] == 0xf3 && code[1] == 0x0f && code[2] == 0x1e && code[3] == 0xfa)
        code += 4;
    if (code[0] != 0xff || code[1] != 0x25)
        return "(not an indirect jump)";
    int32_t disp;
    memcpy(&disp, code + 2, sizeof disp);
    void *target;
    memcpy(&target, code + 6 + disp, sizeof target);
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if ((void *)(uintptr_t)kernels[i].fn == target)
            return kernels[i].name;
    return "(another kernel)";
#else
    return "(not x86-64)";
#endif
}

/* The dispatcher, then each kernel it may choose, by name. */
#define ISAL(model, fn) {"isa-l", #fn, model, isal_##fn, NULL}
#define ISAL_AT(model, fn, tier) {"isa-l", #fn, model, isal_##fn, isal_runs_##tier}
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
/* The kernels' instructions, as ISA-L's dispatcher asks (HWCAP_PMULL, HWCAP_CRC32). */
static int isal_arm_has(unsigned long bits)
{
    return (getauxval(AT_HWCAP) & bits) == bits;
}
static int isal_runs_crc32(void)
{
    return isal_arm_has(1ul << 7);
}
static int isal_runs_pmull(void)
{
    return isal_arm_has(1ul << 4);
}
static int isal_runs_crc32_pmull(void)
{
    return isal_arm_has(1ul << 7 | 1ul << 4);
}
#elif defined(__aarch64__)
/* Apple's M cores (macOS) have both. */
static int isal_runs_crc32(void)
{
    return 1;
}
#define isal_runs_pmull isal_runs_crc32
#define isal_runs_crc32_pmull isal_runs_crc32
#endif
#endif

#if CRCFORGE_BENCH_HAVE_LIBDEFLATE
#include <libdeflate.h>

static BENCH_CODE_ALIGNED uint64_t libdeflate_crc32_value(const void *ctx, const uint8_t *buf,
                                                          size_t len)
{
    (void)ctx;
    return libdeflate_crc32(0, buf, len);
}
#endif

#if CRCFORGE_BENCH_HAVE_ZLIB
#include <zlib.h>

static BENCH_CODE_ALIGNED uint64_t zlib_crc32(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return crc32_z(0, buf, len);
}
#endif

#if CRCFORGE_BENCH_HAVE_CRC_FAST
/* bench/crc-fast-adapter: the crate's one-shot `checksum`, returning the value. */
uint64_t crc_fast_adapter_crc32_iscsi(const uint8_t *buf, size_t len);
uint64_t crc_fast_adapter_crc32_iso_hdlc(const uint8_t *buf, size_t len);
uint64_t crc_fast_adapter_crc64_nvme(const uint8_t *buf, size_t len);
uint64_t crc_fast_adapter_crc64_xz(const uint8_t *buf, size_t len);
uint64_t crc_fast_adapter_crc64_ecma_182(const uint8_t *buf, size_t len);
uint64_t crc_fast_adapter_crc16_xmodem(const uint8_t *buf, size_t len);
uint64_t crc_fast_adapter_crc16_t10dif(const uint8_t *buf, size_t len);

size_t crc_fast_adapter_target(uint8_t *out, size_t cap);

#define CRC_FAST(algo)                                                                    \
    static BENCH_CODE_ALIGNED uint64_t crc_fast_##algo(const void *ctx, const uint8_t *buf,\
                                                       size_t len)                        \
    {                                                                                     \
        (void)ctx;                                                                        \
        return crc_fast_adapter_##algo(buf, len);                                         \
    }
CRC_FAST(crc32_iscsi)
CRC_FAST(crc32_iso_hdlc)
CRC_FAST(crc64_nvme)
CRC_FAST(crc64_xz)
CRC_FAST(crc64_ecma_182)
CRC_FAST(crc16_xmodem)
CRC_FAST(crc16_t10dif)
#undef CRC_FAST
#endif

const struct bench_peer bench_peers[] = {
#if CRCFORGE_BENCH_HAVE_ISAL
#if defined(__aarch64__)
    ISAL("CRC-32/ISCSI", crc32_iscsi),
    ISAL_AT("CRC-32/ISCSI", crc32_iscsi_3crc_fold, crc32_pmull),
    ISAL_AT("CRC-32/ISCSI", crc32_iscsi_crc_ext, crc32),
    ISAL_AT("CRC-32/ISCSI", crc32_iscsi_refl_pmull, pmull),
    ISAL("CRC-32/ISO-HDLC", crc32_gzip_refl),
    ISAL_AT("CRC-32/ISO-HDLC", crc32_gzip_refl_3crc_fold, crc32_pmull),
    ISAL_AT("CRC-32/ISO-HDLC", crc32_gzip_refl_crc_ext, crc32),
    ISAL_AT("CRC-32/ISO-HDLC", crc32_gzip_refl_pmull, pmull),
    ISAL("CRC-64/XZ", crc64_ecma_refl),
    ISAL("CRC-64/NVME", crc64_rocksoft_refl),
    ISAL("CRC-64/ECMA-182", crc64_ecma_norm),
    ISAL("CRC-16/T10-DIF", crc16_t10dif),
#else
    ISAL("CRC-32/ISCSI", crc32_iscsi),
    ISAL_AT("CRC-32/ISCSI", crc32_iscsi_01, ISAL_01),
    ISAL_AT("CRC-32/ISCSI", crc32_iscsi_by8_02, ISAL_02),
    ISAL_AT("CRC-32/ISCSI", crc32_iscsi_avx2, ISAL_AVX2),
    ISAL_AT("CRC-32/ISCSI", crc32_iscsi_by16_10, ISAL_10),
    ISAL("CRC-32/ISO-HDLC", crc32_gzip_refl),
    ISAL_AT("CRC-32/ISO-HDLC", crc32_gzip_refl_by8, ISAL_01),
    ISAL_AT("CRC-32/ISO-HDLC", crc32_gzip_refl_avx2, ISAL_AVX2),
    ISAL_AT("CRC-32/ISO-HDLC", crc32_gzip_refl_by16_10, ISAL_10),
    ISAL("CRC-64/XZ", crc64_ecma_refl),
    ISAL_AT("CRC-64/XZ", crc64_ecma_refl_by8, ISAL_01),
    ISAL_AT("CRC-64/XZ", crc64_ecma_refl_avx2, ISAL_AVX2),
    ISAL_AT("CRC-64/XZ", crc64_ecma_refl_by16_10, ISAL_10),
    ISAL("CRC-64/NVME", crc64_rocksoft_refl),
    ISAL_AT("CRC-64/NVME", crc64_rocksoft_refl_by8, ISAL_01),
    ISAL_AT("CRC-64/NVME", crc64_rocksoft_refl_avx2, ISAL_AVX2),
    ISAL_AT("CRC-64/NVME", crc64_rocksoft_refl_by16_10, ISAL_10),
    ISAL("CRC-64/ECMA-182", crc64_ecma_norm),
    ISAL_AT("CRC-64/ECMA-182", crc64_ecma_norm_by8, ISAL_01),
    ISAL_AT("CRC-64/ECMA-182", crc64_ecma_norm_avx2, ISAL_AVX2),
    ISAL_AT("CRC-64/ECMA-182", crc64_ecma_norm_by16_10, ISAL_10),
    ISAL("CRC-16/T10-DIF", crc16_t10dif),
    ISAL_AT("CRC-16/T10-DIF", crc16_t10dif_01, ISAL_01),
    ISAL_AT("CRC-16/T10-DIF", crc16_t10dif_avx2, ISAL_AVX2),
    ISAL_AT("CRC-16/T10-DIF", crc16_t10dif_by16_10, ISAL_10),
#endif
#endif
#if CRCFORGE_BENCH_HAVE_LIBDEFLATE
    {"libdeflate", "libdeflate_crc32", "CRC-32/ISO-HDLC", libdeflate_crc32_value, NULL},
#endif
#if CRCFORGE_BENCH_HAVE_ZLIB
    {"zlib", "crc32_z", "CRC-32/ISO-HDLC", zlib_crc32, NULL},
#endif
#if CRCFORGE_BENCH_HAVE_CRC_FAST
    {"crc-fast", "Crc32Iscsi", "CRC-32/ISCSI", crc_fast_crc32_iscsi, NULL},
    {"crc-fast", "Crc32IsoHdlc", "CRC-32/ISO-HDLC", crc_fast_crc32_iso_hdlc, NULL},
    {"crc-fast", "Crc64Nvme", "CRC-64/NVME", crc_fast_crc64_nvme, NULL},
    {"crc-fast", "Crc64Xz", "CRC-64/XZ", crc_fast_crc64_xz, NULL},
    {"crc-fast", "Crc64Ecma182", "CRC-64/ECMA-182", crc_fast_crc64_ecma_182, NULL},
    {"crc-fast", "Crc16Xmodem", "CRC-16/XMODEM", crc_fast_crc16_xmodem, NULL},
    {"crc-fast", "Crc16T10Dif", "CRC-16/T10-DIF", crc_fast_crc16_t10dif, NULL},
#endif
    {NULL, NULL, NULL, NULL, NULL}, /* keeps the array non-empty in a build without peers */
};
const size_t bench_peer_count = sizeof bench_peers / sizeof bench_peers[0] - 1;

int bench_peer_runs_here(const struct bench_peer *p)
{
    return p->runs_here == NULL || p->runs_here();
}

void bench_peer_kernels(const char *library, char *out, size_t cap)
{
    *out = '\0';
#if CRCFORGE_BENCH_HAVE_CRC_FAST
    if (strcmp(library, "crc-fast") == 0 && cap > 0) {
        size_t n = crc_fast_adapter_target((uint8_t *)out, cap - 1);
        out[n] = '\0';
    }
#else
    (void)library, (void)cap;
#endif
}

/* Read from the library at run time where it says (isa-l, zlib), else from what the build
 * compiled in (libdeflate's header; crc-fast's version in the adapter's Cargo.lock). */
const char *bench_peer_version(const char *library)
{
#if CRCFORGE_BENCH_HAVE_ISAL
    if (strcmp(library, "isa-l") == 0)
        return isal_get_version_str();
#endif
#if CRCFORGE_BENCH_HAVE_LIBDEFLATE
    if (strcmp(library, "libdeflate") == 0)
        return LIBDEFLATE_VERSION_STRING;
#endif
#if CRCFORGE_BENCH_HAVE_ZLIB
    if (strcmp(library, "zlib") == 0)
        return zlibVersion();
#endif
#if CRCFORGE_BENCH_HAVE_CRC_FAST
    if (strcmp(library, "crc-fast") == 0)
        return CRCFORGE_BENCH_CRC_FAST_VERSION;
#endif
    (void)library;
    return "";
}

#if !CRCFORGE_BENCH_HAVE_ISAL
const char *bench_isal_iscsi_dispatched(void)
{
    return NULL;
}
#endif

#define NOT_FOUND "not found when the build was configured"
const struct bench_peer_library bench_peer_libraries[] = {
    {"isa-l", CRCFORGE_BENCH_HAVE_ISAL, CRCFORGE_BENCH_ISAL_WHY_NOT},
    {"libdeflate", CRCFORGE_BENCH_HAVE_LIBDEFLATE,
     "libdeflate " NOT_FOUND " (bash .ci/install-libdeflate.sh installs the newest)"},
    {"zlib", CRCFORGE_BENCH_HAVE_ZLIB, "zlib " NOT_FOUND},
    {"crc-fast", CRCFORGE_BENCH_HAVE_CRC_FAST,
     "not asked for (cmake -DCRCFORGE_BENCH_CRC_FAST=ON), or cargo " NOT_FOUND
     ", or crates.io unreachable"},
};
const size_t bench_peer_library_count =
    sizeof bench_peer_libraries / sizeof bench_peer_libraries[0];
