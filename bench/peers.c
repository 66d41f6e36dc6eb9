/*
 * The peer libraries, each adapted to the bench_fn signature and to the value
 * semantics of the catalogue model it equals (init, refout and xorout applied), so that
 * its result can be compared with crcforge's and its time with the same loop.  A
 * library is compiled in when CMake found it (CRCFORGE_BENCH_HAVE_*); a missing one is
 * listed as not built.
 */
#include <limits.h>
#include <string.h>

#include "bench.h"

#if CRCFORGE_BENCH_HAVE_ISAL
#include <isa-l/crc.h>
#include <isa-l/crc64.h>

#if CRCFORGE_BENCH_PEERS_AS_AVX2
/* The kernels isa-l's dispatcher picks on a CPU with AVX but no AVX-512, read from the
 * dispatch code of isa-l 2.30 (libisal exports them, its headers do not declare them);
 * later versions add AVX2 kernels of their own, so another version must be read again. */
#include <isa-l.h>
#if ISAL_VERSION != ISAL_MAKE_VERSION(2, 30, 0)
#error "CRCFORGE_BENCH_PEER_CPU=avx2 names isa-l 2.30's AVX-CPU kernels: read this isa-l's dispatcher (objdump -d libisal.so, crc32_iscsi and the others) and name its choices here"
#endif
unsigned int crc32_iscsi_01(unsigned char *buffer, int len, unsigned int init_crc);
uint32_t crc32_gzip_refl_by8_02(uint32_t init_crc, const unsigned char *buf, uint64_t len);
uint64_t crc64_ecma_refl_by8(uint64_t init_crc, const unsigned char *buf, uint64_t len);
uint16_t crc16_t10dif_02(uint16_t init_crc, const unsigned char *buf, uint64_t len);
/* Each reached through a pointer, as isa-l's entry points reach the kernel their
 * dispatcher chose (an indirect jump), so that a call costs what it costs there. */
static unsigned int (*volatile held_crc32_iscsi)(unsigned char *, int,
                                                 unsigned int) = crc32_iscsi_01;
static uint32_t (*volatile held_crc32_gzip_refl)(uint32_t, const unsigned char *,
                                                 uint64_t) = crc32_gzip_refl_by8_02;
static uint64_t (*volatile held_crc64_ecma_refl)(uint64_t, const unsigned char *,
                                                 uint64_t) = crc64_ecma_refl_by8;
static uint16_t (*volatile held_crc16_t10dif)(uint16_t, const unsigned char *,
                                              uint64_t) = crc16_t10dif_02;
#define crc32_iscsi held_crc32_iscsi
#define crc32_gzip_refl held_crc32_gzip_refl
#define crc64_ecma_refl held_crc64_ecma_refl
#define crc16_t10dif held_crc16_t10dif
#define ISAL_NAME(held, native) held
#else
#define ISAL_NAME(held, native) native
#endif

/* isa-l's crc32_iscsi takes and returns the bare register: no inversion on either
 * side, and an int length; CRC-32/ISCSI's init and xorout are all ones. */
static uint64_t isal_crc32_iscsi(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    uint32_t reg = 0xffffffffu;
    while (len > INT_MAX) { /* its length is an int */
        reg = crc32_iscsi((unsigned char *)buf, INT_MAX, reg);
        buf += INT_MAX;
        len -= INT_MAX;
    }
    return ~crc32_iscsi((unsigned char *)buf, (int)len, reg) & 0xffffffffu;
}

/* The others take and return the value, zlib-style (crc 0 to start). */
static uint64_t isal_crc32_gzip_refl(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return crc32_gzip_refl(0, buf, len);
}

/* Reflected ECMA-182 polynomial with all-ones init and xorout: CRC-64/XZ. */
static uint64_t isal_crc64_ecma_refl(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return crc64_ecma_refl(0, buf, len);
}

static uint64_t isal_crc16_t10dif(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return crc16_t10dif(0, buf, len);
}
#endif

#if CRCFORGE_BENCH_HAVE_LIBDEFLATE
#include <libdeflate.h>
/* Held to AVX2, libdeflate runs as it is: 1.14 has no AVX-512 kernel (its CRC-32 tops out
 * at PCLMULQDQ with AVX).  Later versions were not read. */
#if CRCFORGE_BENCH_PEERS_AS_AVX2 && !(LIBDEFLATE_VERSION_MAJOR == 1 && LIBDEFLATE_VERSION_MINOR <= 14)
#error "CRCFORGE_BENCH_PEER_CPU=avx2 was checked against libdeflate 1.14, which has no AVX-512 kernel: check this version's CRC-32 dispatch before holding it to AVX2"
#endif

static uint64_t libdeflate_crc32_value(const void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    return libdeflate_crc32(0, buf, len);
}
#endif

#if CRCFORGE_BENCH_HAVE_ZLIB
#include <zlib.h>

static uint64_t zlib_crc32(const void *ctx, const uint8_t *buf, size_t len)
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
    static uint64_t crc_fast_##algo(const void *ctx, const uint8_t *buf, size_t len)       \
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
    {"isa-l", ISAL_NAME("crc32_iscsi_01", "crc32_iscsi"), "CRC-32/ISCSI", isal_crc32_iscsi},
    {"isa-l", ISAL_NAME("crc32_gzip_refl_by8_02", "crc32_gzip_refl"), "CRC-32/ISO-HDLC",
     isal_crc32_gzip_refl},
    {"isa-l", ISAL_NAME("crc64_ecma_refl_by8", "crc64_ecma_refl"), "CRC-64/XZ",
     isal_crc64_ecma_refl},
    {"isa-l", ISAL_NAME("crc16_t10dif_02", "crc16_t10dif"), "CRC-16/T10-DIF", isal_crc16_t10dif},
#endif
#if CRCFORGE_BENCH_HAVE_LIBDEFLATE
    {"libdeflate", "libdeflate_crc32", "CRC-32/ISO-HDLC", libdeflate_crc32_value},
#endif
#if CRCFORGE_BENCH_HAVE_ZLIB
    {"zlib", "crc32_z", "CRC-32/ISO-HDLC", zlib_crc32},
#endif
#if CRCFORGE_BENCH_HAVE_CRC_FAST
    {"crc-fast", "Crc32Iscsi", "CRC-32/ISCSI", crc_fast_crc32_iscsi},
    {"crc-fast", "Crc32IsoHdlc", "CRC-32/ISO-HDLC", crc_fast_crc32_iso_hdlc},
    {"crc-fast", "Crc64Nvme", "CRC-64/NVME", crc_fast_crc64_nvme},
    {"crc-fast", "Crc64Xz", "CRC-64/XZ", crc_fast_crc64_xz},
    {"crc-fast", "Crc64Ecma182", "CRC-64/ECMA-182", crc_fast_crc64_ecma_182},
    {"crc-fast", "Crc16Xmodem", "CRC-16/XMODEM", crc_fast_crc16_xmodem},
    {"crc-fast", "Crc16T10Dif", "CRC-16/T10-DIF", crc_fast_crc16_t10dif},
#endif
    {NULL, NULL, NULL, NULL}, /* keeps the array non-empty in a build without peers */
};
const size_t bench_peer_count = sizeof bench_peers / sizeof bench_peers[0] - 1;

const char bench_peer_cpu[] = CRCFORGE_BENCH_PEER_CPU;

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

#define NOT_FOUND "not found when the build was configured"
const struct bench_peer_library bench_peer_libraries[] = {
    {"isa-l", CRCFORGE_BENCH_HAVE_ISAL, "libisal-dev " NOT_FOUND},
    {"libdeflate", CRCFORGE_BENCH_HAVE_LIBDEFLATE, "libdeflate-dev " NOT_FOUND},
    {"zlib", CRCFORGE_BENCH_HAVE_ZLIB, "zlib " NOT_FOUND},
    {"crc-fast", CRCFORGE_BENCH_HAVE_CRC_FAST,
     "not asked for (cmake -DCRCFORGE_BENCH_CRC_FAST=ON), or cargo " NOT_FOUND
     ", or crates.io unreachable"},
};
const size_t bench_peer_library_count =
    sizeof bench_peer_libraries / sizeof bench_peer_libraries[0];
