/* SPDX-License-Identifier: MIT */
/*
 * The 128-bit carry-less vector operations of x86/vec128.h over NEON, for the code written
 * once for both (../fold_lanes.h, ../crc16_short.h); the target attributes and the CRC32
 * and EOR3 instructions, which each compiler spells its own way, are ../compiler.h's.
 * Little-endian aarch64: 64-bit lane 0 is the low qword, and a 16-byte load gives the lane
 * x86's movdqu gives.
 */
#ifndef CRCFORGE_ARM_VEC128_H
#define CRCFORGE_ARM_VEC128_H

#include <arm_neon.h>

#include "../compiler.h" /* the target attributes, CRC32 and EOR3 instructions */

/* 128-bit vectors as two qwords (lane 0 the low one); byte operations reinterpret. */
typedef uint64x2_t vec_t;
#define V_LOAD(q) vreinterpretq_u64_u8(vld1q_u8((const uint8_t *)(const void *)(q)))
#define V_PAIR(lo, hi) vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))
#define V_XOR veorq_u64
#define V_OR vorrq_u64
/* TBL, like pshufb, writes zero for an out-of-range index (0x80 included). */
#define V_SHUFFLE(x, idx)                                                                 \
    vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x), vreinterpretq_u8_u64(idx)))
#define V_CLMUL(a, ia, b, ib)                                                             \
    ((ia) && (ib) ? vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a),         \
                                                          vreinterpretq_p64_u64(b)))       \
                  : vreinterpretq_u64_p128(                                                \
                        vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), ia),            \
                                  vgetq_lane_p64(vreinterpretq_p64_u64(b), ib))))
#define V_LOW_UP(x) vcombine_u64(vdup_n_u64(0), vget_low_u64(x))
#define V_HIGH_DOWN(x) vcombine_u64(vget_high_u64(x), vdup_n_u64(0))
#define V_LOW64(x) vgetq_lane_u64(x, 0)
#define V_HIGH64(x) vgetq_lane_u64(x, 1)
#define V_BSWAP_MASK() V_LOAD(crc_reverse_window)
#define V_BRACES(x) vreinterpretq_u64_u8(vceqq_u8(vreinterpretq_u8_u64(x), vdupq_n_u8('{')))
#define V_ANY(x) (vmaxvq_u8(vreinterpretq_u8_u64(x)) != 0)
#define V_WORD3(x) vgetq_lane_u16(vreinterpretq_u16_u64(x), 3)

#endif /* CRCFORGE_ARM_VEC128_H */
