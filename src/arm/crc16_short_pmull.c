/*
 * CRC-16/XMODEM of 0..64 bytes with PMULL: the same fold and Barrett reduction as
 * x86/crc16_short_pclmul.c (whose header comment gives the mathematics), in NEON.
 * 64-bit lane 0 is the low qword (little-endian hosts only, see crc16_short.h).
 * TBL, like PSHUFB, writes zero for an out-of-range index, so the same take_last
 * window both reverses the bytes and drops those of a partial first block.
 */
#include <arm_neon.h>

#include "../bytes.h"
#include "../cpu.h"

#define TARGET __attribute__((target("+crypto")))

static int pmull_runnable(void)
{
    return crc_cpu_has(CRC_CPU_ARM_PMULL);
}

/* 128-bit vectors as two qwords (lane 0 the low one); byte operations reinterpret. */
typedef uint64x2_t vec_t;
#define V_LOAD(q) vreinterpretq_u64_u8(vld1q_u8((const uint8_t *)(const void *)(q)))
#define V_PAIR(lo, hi) vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))
#define V_XOR veorq_u64
#define V_OR vorrq_u64
#define V_SHUFFLE(x, idx)                                                                 \
    vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x), vreinterpretq_u8_u64(idx)))
#define V_BRACES(x) vreinterpretq_u64_u8(vceqq_u8(vreinterpretq_u8_u64(x), vdupq_n_u8('{')))
#define V_ANY(x) (vmaxvq_u8(vreinterpretq_u8_u64(x)) != 0)
#define V_CLMUL(a, ia, b, ib)                                                             \
    vreinterpretq_u64_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), ia),        \
                                     vgetq_lane_p64(vreinterpretq_p64_u64(b), ib)))
#define V_LOW_UP(x) vcombine_u64(vdup_n_u64(0), vget_low_u64(x))
#define V_WORD3(x) vgetq_lane_u16(vreinterpretq_u16_u64(x), 3)

#define IMPL crc16_short_pmull
#define NAME "pmull"
#define RUNNABLE pmull_runnable
#include "../crc16_short_entries.h" /* the body and the entry points */
