/* SPDX-License-Identifier: MIT */
/*
 * crcforge: every CRC of the RevEng catalogue (width 1..64), exact, streaming and
 * combinable, on the fastest path this CPU can run.
 *
 * Values, not registers: every function that takes or returns a CRC deals in the
 * final CRC value of the model (after refout and xorout), as the catalogue's check
 * values are written.  All functions are thread-safe.
 *
 * Buffers: a data pointer (buf, key) may be NULL only when its length is 0; this holds
 * for every function taking one, crcforge_crc32c_inline and crcforge_keyslots included.
 *
 * Memory: a model's tables and constants are built lazily, on first use, and kept; if
 * that allocation fails the library calls abort().  Only crcforge_model_new reports
 * running out of memory (NULL, *why "out of memory").
 *
 * This is the stable header: what it declares follows the ABI policy (README, "C
 * library"; docs/DESIGN.md): a release may add to it, and only a new major version (and
 * with it a new SONAME) removes or changes anything.  Which implementation runs, forcing
 * one, the tuning tables and the CPU's features are in crcforge_dispatch.h, which is
 * outside that policy.
 */
#ifndef CRCFORGE_H
#define CRCFORGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A build that embeds the library in another binary (the Python extension) defines
 * CRCFORGE_API empty, so that nothing but its own entry point is exported.  On Windows
 * the DLL's build defines CRCFORGE_SHARED_BUILD (dllexport); a program linking the
 * static library defines CRCFORGE_STATIC (CMake's crcforge::crcforge_static does);
 * any other user imports from the DLL. */
#ifndef CRCFORGE_API
#if defined(_WIN32) && defined(CRCFORGE_SHARED_BUILD)
#define CRCFORGE_API __declspec(dllexport)
#elif defined(_WIN32) && !defined(CRCFORGE_STATIC)
#define CRCFORGE_API __declspec(dllimport)
#elif defined(_WIN32)
#define CRCFORGE_API
#elif defined(__GNUC__)
#define CRCFORGE_API __attribute__((visibility("default")))
#else
#define CRCFORGE_API
#endif
#endif

/* The version of this header: these three numbers are the project's version (CMakeLists.txt
 * and setup.py read them from here).  The major version is the ABI's: the shared library's
 * SONAME is libcrcforge.so.MAJOR. */
#define CRCFORGE_VERSION_MAJOR 0
#define CRCFORGE_VERSION_MINOR 1
#define CRCFORGE_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH" */
#define CRCFORGE_STRING_(x) #x
#define CRCFORGE_VERSION_STRING_(a, b, c) \
    CRCFORGE_STRING_(a) "." CRCFORGE_STRING_(b) "." CRCFORGE_STRING_(c)
#define CRCFORGE_VERSION \
    CRCFORGE_VERSION_STRING_(CRCFORGE_VERSION_MAJOR, CRCFORGE_VERSION_MINOR, CRCFORGE_VERSION_PATCH)
/* One number that orders versions (minor and patch below 100): 0.1.0 is 100. */
#define CRCFORGE_VERSION_NUMBER \
    (CRCFORGE_VERSION_MAJOR * 10000 + CRCFORGE_VERSION_MINOR * 100 + CRCFORGE_VERSION_PATCH)

/* The version of the library the program runs with, as CRCFORGE_VERSION_NUMBER: a
 * program built with this header may require crcforge_version() >= the number it was
 * built with (and below the next major version's, 10000 * (major + 1)). */
CRCFORGE_API unsigned crcforge_version(void);

/* ---------------------------------------------------------------------------
 * The five fixed algorithms, zlib-style chaining: the first call takes crc = 0;
 * pass the returned value to the next call to continue the same stream.
 *   crc = crcforge_crc32c(0, "1234", 4); crc = crcforge_crc32c(crc, "56789", 5);
 *   -> 0xe3069283, the CRC-32C of "123456789".
 * ------------------------------------------------------------------------- */
CRCFORGE_API uint32_t crcforge_crc32c(uint32_t crc, const void *buf, size_t len);
CRCFORGE_API uint32_t crcforge_crc32(uint32_t crc, const void *buf, size_t len);
CRCFORGE_API uint64_t crcforge_crc64_nvme(uint64_t crc, const void *buf, size_t len);
CRCFORGE_API uint64_t crcforge_crc64_xz(uint64_t crc, const void *buf, size_t len);
CRCFORGE_API uint16_t crcforge_crc16_xmodem(uint16_t crc, const void *buf, size_t len);

/* CRC of A||B from crc1 = CRC(A), crc2 = CRC(B) and len2 = |B|, in O(log len2). */
CRCFORGE_API uint32_t crcforge_crc32c_combine(uint32_t crc1, uint32_t crc2, uint64_t len2);
CRCFORGE_API uint32_t crcforge_crc32_combine(uint32_t crc1, uint32_t crc2, uint64_t len2);
CRCFORGE_API uint64_t crcforge_crc64_nvme_combine(uint64_t crc1, uint64_t crc2, uint64_t len2);
CRCFORGE_API uint64_t crcforge_crc64_xz_combine(uint64_t crc1, uint64_t crc2, uint64_t len2);
CRCFORGE_API uint16_t crcforge_crc16_xmodem_combine(uint16_t crc1, uint16_t crc2, uint64_t len2);

/* Redis/Valkey cluster slot (0..16383) of a key: CRC-16/XMODEM mod 16384 of the key, or
 * of the bytes between its first '{' and the first '}' after it when there is at least
 * one such byte. */
CRCFORGE_API unsigned crcforge_keyslot(const void *key, size_t len);
/* The same for n keys in one call: slots[i] = crcforge_keyslot(keys[i], lens[i]).
 * Faster than a loop of single calls for many short keys (no call per key; the work of
 * independent keys overlaps).  keys, lens and slots may be NULL only when n == 0, keys[i]
 * only when lens[i] == 0. */
CRCFORGE_API void crcforge_keyslots(const void *const *keys, const size_t *lens, size_t n,
                                    uint16_t *slots);

/* ---------------------------------------------------------------------------
 * Models: the RevEng catalogue, and custom models from the six parameters.
 * ------------------------------------------------------------------------- */
typedef struct crcforge_params {
    unsigned width;  /* 1..64 */
    uint64_t poly;   /* generator without its x^width term, MSB-first notation */
    uint64_t init;   /* register before the first bit, MSB-first notation */
    int refin;       /* nonzero: bytes are fed least significant bit first */
    int refout;      /* nonzero: the register is reflected before xorout */
    uint64_t xorout; /* xored into the final value */
} crcforge_params;

typedef struct crcforge_model crcforge_model; /* opaque */

/* Look up a catalogue model by name or alias, case-insensitively ("CRC-32/ISCSI",
 * "crc32c"); NULL when there is none. */
CRCFORGE_API const crcforge_model *crcforge_model_find(const char *name);
/* The catalogue, in order: model i, or NULL when i is past the last one.
 *   for (size_t i = 0; (m = crcforge_model_at(i)) != NULL; i++) ... */
CRCFORGE_API const crcforge_model *crcforge_model_at(size_t i);

/* A custom model from the six parameters.  On invalid parameters (width 0 or over 64,
 * poly/init/xorout wider than width, an even poly is allowed) returns NULL and, when
 * why is not NULL, points *why at a static sentence saying what was wrong. */
CRCFORGE_API crcforge_model *crcforge_model_new(const crcforge_params *p, const char **why);
/* Frees a model from crcforge_model_new (catalogue models are ignored). */
CRCFORGE_API void crcforge_model_free(crcforge_model *m);

CRCFORGE_API const char *crcforge_model_name(const crcforge_model *m); /* "custom" if none */
/* NULL-terminated list of aliases (possibly empty, never NULL). */
CRCFORGE_API const char *const *crcforge_model_aliases(const crcforge_model *m);
CRCFORGE_API const crcforge_params *crcforge_model_params(const crcforge_model *m);
/* The CRC of the ASCII bytes "123456789": the catalogue's check value (for a custom
 * model, computed).  (The residue is in crcforge_dispatch.h, with what tools print.) */
CRCFORGE_API uint64_t crcforge_model_check(const crcforge_model *m);

/* ---------------------------------------------------------------------------
 * Computing with any model.
 * ------------------------------------------------------------------------- */
/* One shot. */
CRCFORGE_API uint64_t crcforge_checksum(const crcforge_model *m, const void *buf, size_t len);

/* Streaming: init, any number of updates over any split, final (final does not
 * consume the state; updating may go on).  A state is opaque storage of a fixed size,
 * 32 bytes aligned as uint64_t, part of the ABI; what it holds is the library's.  It owns
 * nothing: it may be copied (a copy continues the same stream independently) and is
 * dropped without a call. */
typedef struct crcforge_state {
    uint64_t opaque[4];
} crcforge_state;

CRCFORGE_API void crcforge_init(crcforge_state *s, const crcforge_model *m);
CRCFORGE_API void crcforge_update(crcforge_state *s, const void *buf, size_t len);
CRCFORGE_API uint64_t crcforge_final(const crcforge_state *s);

/* CRC of A||B for any model, from CRC(A), CRC(B) and |B|.  crc1 and crc2 are masked to
 * the model's width (bits above it are ignored). */
CRCFORGE_API uint64_t crcforge_combine(const crcforge_model *m, uint64_t crc1, uint64_t crc2,
                                       uint64_t len2);

/* ---------------------------------------------------------------------------
 * CRC-32C of short inputs inlined in the caller (a WAL record header, a page
 * trailer): the same value as crcforge_crc32c.  When the caller is compiled for a
 * CPU with the crc32 instruction (x86-64 with -msse4.2 or an -march that has it;
 * little-endian aarch64 with +crc), inputs up to CRCFORGE_CRC32C_INLINE_MAX bytes are
 * hashed by that instruction right there, with no call at all, so a small CRC costs
 * what a hand-written loop costs; otherwise, and for longer inputs, it calls
 * crcforge_crc32c.  CRCFORGE_HAVE_CRC32C_INLINE says which one was compiled.  The
 * inline path is the caller's code: forcing a path (CRCFORGE_IMPL) does not reach it.
 * ------------------------------------------------------------------------- */
#define CRCFORGE_CRC32C_INLINE_MAX 64

#if defined(__x86_64__) && defined(__GNUC__)
#include <string.h>
/* One chain of the crc32 instruction (SSE4.2) over buf[0..len) from the register reg (the
 * CRC-32C value inverted), the register after it: not part of the API (the trailing
 * underscore).  The inline path below runs it, and so does the library, in its entry
 * crcforge_crc32c and in its kernels: one chain for all.  Inline assembly rather than the
 * intrinsics, so that code compiled for any x86-64 can hold it (the library runs it only
 * on a CPU with SSE4.2) and no SSE4.2 instruction appears outside it.
 * Laid out so that whole qwords, the common case, run straight through, and inputs below
 * 32 bytes reach the qword steps with no jump: at 8-64 bytes a call's added cost is mostly
 * its taken branches, each a front-end cycle or more (Zen 3, crc32c_short_bench,
 * throughput loop: 8 and 16 B +0.62 ns over the bare loop with the 32-byte loop out of
 * line, +0.92 with it first).  The 32-byte loop, unrolled (fewer instructions a byte let
 * the core run ahead into the next call's independent chain), is out of line, ends the
 * chain there too, with no jump back into the qword steps, and starts a cache line, so
 * that no iteration spans two: where the code fell, the jump back and the straddling loop
 * cost calls of 48-144 B 0.3-1 ns on Zen 4 (crc32c_short_bench and paired rounds,
 * throughput loops). */
static inline __attribute__((always_inline)) uint32_t crcforge_crc32c_rest_(uint64_t c,
                                                                          const unsigned char *p,
                                                                          size_t n)
{
    uint32_t r;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t v;
        memcpy(&v, p, 8); /* one unaligned load; the bytes are little-endian */
        __asm__("crc32q %1, %0" : "+r"(c) : "rm"(v));
    }
    r = (uint32_t)c;
    if (__builtin_expect((n & 7) == 0, 1))
        return r;
    if (n & 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        __asm__("crc32l %1, %0" : "+r"(r) : "rm"(v));
        p += 4;
    }
    if (n & 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        __asm__("crc32w %1, %0" : "+r"(r) : "rm"(v));
        p += 2;
    }
    if (n & 1)
        __asm__("crc32b %1, %0" : "+r"(r) : "rm"(*p));
    return r;
}

static inline __attribute__((always_inline)) uint32_t crcforge_crc32c_chain_(uint32_t reg,
                                                                           const void *buf,
                                                                           size_t len)
{
    const unsigned char *p = (const unsigned char *)buf;
    uint64_t c = reg;
    if (__builtin_expect(len >= 32, 0)) {
        const unsigned char *const end = p + (len & ~(size_t)31);
        __asm__(".p2align 6\n"
                "1:\n\t"
                "crc32q (%[p]), %[c]\n\t"
                "crc32q 8(%[p]), %[c]\n\t"
                "crc32q 16(%[p]), %[c]\n\t"
                "crc32q 24(%[p]), %[c]\n\t"
                "add $32, %[p]\n\t"
                "cmp %[end], %[p]\n\t"
                "jne 1b"
                : [c] "+r"(c), [p] "+r"(p)
                : [end] "r"(end)
                : "cc", "memory"); /* it reads p[]: no operand says so in C++ or without a VLA */
        return crcforge_crc32c_rest_(c, p, len & 31);
    }
    return crcforge_crc32c_rest_(c, p, len);
}
#endif

#if defined(__x86_64__) && defined(__SSE4_2__) && defined(__GNUC__)
#define CRCFORGE_HAVE_CRC32C_INLINE 1
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CRCFORGE_HAVE_CRC32C_INLINE 1
#include <arm_acle.h>
#include <string.h>
#else
#define CRCFORGE_HAVE_CRC32C_INLINE 0
#endif

#if CRCFORGE_HAVE_CRC32C_INLINE && defined(__aarch64__)
/* The inline path's loop, for any length: not part of the API (the trailing underscore);
 * crcforge_crc32c_inline bounds it. */
static inline uint32_t crcforge_crc32c_loop_(uint32_t crc, const void *buf, size_t len)
{
    const unsigned char *p = (const unsigned char *)buf;
    uint64_t c = (uint32_t)~crc;
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t v;
        memcpy(&v, p, 8); /* one unaligned load; the bytes are little-endian */
        c = __crc32cd((uint32_t)c, v);
    }
    uint32_t r = (uint32_t)c;
    if (len & 4) { /* the rest in at most three steps */
        uint32_t v;
        memcpy(&v, p, 4);
        r = __crc32cw(r, v);
        p += 4;
    }
    if (len & 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        r = __crc32ch(r, v);
        p += 2;
    }
    if (len & 1)
        r = __crc32cb(r, *p);
    return ~r;
}
#elif CRCFORGE_HAVE_CRC32C_INLINE
static inline uint32_t crcforge_crc32c_loop_(uint32_t crc, const void *buf, size_t len)
{
    return ~crcforge_crc32c_chain_(~crc, buf, len);
}
#endif

static inline uint32_t crcforge_crc32c_inline(uint32_t crc, const void *buf, size_t len)
{
#if CRCFORGE_HAVE_CRC32C_INLINE
    if (len <= CRCFORGE_CRC32C_INLINE_MAX)
        return crcforge_crc32c_loop_(crc, buf, len);
#endif
    return crcforge_crc32c(crc, buf, len);
}

#ifdef __cplusplus
}
#endif
#endif /* CRCFORGE_H */
