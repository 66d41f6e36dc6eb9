/* SPDX-License-Identifier: MIT */
/*
 * CRC-16/XMODEM of 0..64 bytes with PCLMULQDQ: the whole key in at most four 128-bit
 * lanes, one carry-less multiply per 64-bit word, one Barrett reduction.
 *
 * The key M, first byte most significant, is split into 64-bit words w_0..w_{m-1}
 * (w_0 zero-padded on the left: XMODEM starts from zero, so leading zeros are free).
 * Then M x^16 = sum_j w_{m-1-j} x^(64j+16), and with k_j = x^(64j+16) mod P (degree
 * < 16) the sum A = w_{m-1} x^16 + sum_{j>=1} w_{m-1-j} k_j has degree < 80 and the
 * same remainder.  Every product is taken against k_j x^48, so a 128-bit lane holds
 * A x^48: its high qword is A_hi = floor(A / x^16), bits 48..63 are A_lo = A mod x^16.
 * All the products are independent.
 *
 * Barrett (exact over GF(2)): with mu = floor(x^80 / P) = x^64 + mu',
 * q = floor(A_hi mu / x^64) = A_hi + floor(A_hi mu' / x^64) = floor(A / P), and
 * A mod P = A_lo + (q (P - x^16) mod x^16); both terms of q are multiplied by
 * (P - x^16) x^48 so that the answer appears at bits 48..63 again, no shifts needed.
 *
 * Loads never leave [p, p+n): 16-byte loads only when n >= 16 (the first, partial,
 * block is a load at p shuffled down to its bytes), 8/4/1-byte overlapping loads below.
 */
#include "../compiler.h"
#include "../cpu.h"
#include "fold.h"
#include "vec128.h"

#define TARGET CRC_TARGET("pclmul,ssse3,sse4.1") CODE_ALIGNED

#define SHORT_FEATURES (CRC_CPU_PCLMUL | CRC_CPU_SSE41)
#include "../crc16_short.h" /* the body and the key-slot operations */

/* One path per folding tier, for inputs beyond CRC16_SHORT_MAX. */
CRC16_XMODEM_PATH(x86_vpclmul_avx512, x86_vpclmul_avx512);
CRC16_XMODEM_PATH(x86_vpclmul_avx2, x86_vpclmul_avx2);
CRC16_XMODEM_PATH(x86_pclmul, x86_pclmul);
