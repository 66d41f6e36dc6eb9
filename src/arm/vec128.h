/* SPDX-License-Identifier: MIT */
/*
 * The ARM side of the ISA: target attributes spelled for GCC and clang, the CRC32 and SHA3
 * instructions as clang before 16 lets them be reached (it declares their ACLE intrinsics
 * only under global -march flags: its builtins, and EOR3 in inline assembly), and the
 * 128-bit carry-less vector operations of x86/vec128.h over NEON, for the code written
 * once for both (../fold_lanes.h, ../crc16_short.h).  Little-endian aarch64: 64-bit lane
 * 0 is the low qword, and a 16-byte load gives the lane x86's movdqu gives.
 */
#ifndef CRCFORGE_ARM_VEC128_H
#define CRCFORGE_ARM_VEC128_H

#include <arm_neon.h>
#if !defined(__clang__)
#include <arm_acle.h>
#endif

#if defined(__clang__)
#define CRC_ARM_TARGET_CRC __attribute__((target("crc")))
#define CRC_ARM_TARGET_PMULL __attribute__((target("aes")))
#define CRC_ARM_TARGET_CRC_PMULL __attribute__((target("crc,aes")))
#define CRC_ARM_TARGET_PMULL_SHA3 __attribute__((target("aes,sha3")))
#define CRC_ARM_TARGET_CRC_PMULL_SHA3 __attribute__((target("crc,aes,sha3")))
#define crc_arm_crc32b __builtin_arm_crc32b
#define crc_arm_crc32h __builtin_arm_crc32h
#define crc_arm_crc32w __builtin_arm_crc32w
#define crc_arm_crc32d __builtin_arm_crc32d
#define crc_arm_crc32cb __builtin_arm_crc32cb
#define crc_arm_crc32ch __builtin_arm_crc32ch
#define crc_arm_crc32cw __builtin_arm_crc32cw
#define crc_arm_crc32cd __builtin_arm_crc32cd
#else
#define CRC_ARM_TARGET_CRC __attribute__((target("+crc")))
#define CRC_ARM_TARGET_PMULL __attribute__((target("+crypto")))
#define CRC_ARM_TARGET_CRC_PMULL __attribute__((target("+crc+crypto")))
#define CRC_ARM_TARGET_PMULL_SHA3 __attribute__((target("arch=armv8.2-a+crypto+sha3")))
#define CRC_ARM_TARGET_CRC_PMULL_SHA3 __attribute__((target("arch=armv8.2-a+crc+crypto+sha3")))
#define crc_arm_crc32b __crc32b
#define crc_arm_crc32h __crc32h
#define crc_arm_crc32w __crc32w
#define crc_arm_crc32d __crc32d
#define crc_arm_crc32cb __crc32cb
#define crc_arm_crc32ch __crc32ch
#define crc_arm_crc32cw __crc32cw
#define crc_arm_crc32cd __crc32cd
#endif

/* a ^ b ^ c in one EOR3 (SHA3). */
#if defined(__clang__) && __clang_major__ < 16
#define CRC_ARM_EOR3(a, b, c)                                                              \
    __extension__({                                                                        \
        uint64x2_t eor3_;                                                                  \
        __asm__("eor3 %0.16b, %1.16b, %2.16b, %3.16b" : "=w"(eor3_) : "w"(a), "w"(b), "w"(c)); \
        eor3_;                                                                             \
    })
#else
#define CRC_ARM_EOR3(a, b, c) veor3q_u64(a, b, c)
#endif

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
