/* SPDX-License-Identifier: MIT */
/*
 * The end of every folding template (x86/fold_template.h, arm/fold_template.h): the one
 * parameter contract and the one set of policies, so that every ISA's tiers behave alike.
 *
 * The including template defines (and #undefs after including this):
 *   SUFFIX      the tier: its record is crc_impl_fold_SUFFIX, named "fold_SUFFIX", its
 *               update fold_update_SUFFIX (for other kernels of the ISA, e.g. the CRC-32C
 *               and short CRC-16 paths that hand folding their longer inputs)
 *   FEATURES    the CRC_CPU_* bits of everything the tier executes (its record's features)
 *               (which compiles to "yes" when the build guarantees them, cpu.h)
 *   ATTRIBUTES  the target attribute enabling what the tier executes
 *   LANES_MAX   inputs from 16 bytes up to this go to the lane steps (fold_lanes.h), longer
 *               to fold_pass
 *   FOLD_MSB_ONLY  (optional) 1: the tier serves MSB-first models only
 *               (fold_msb_first_supported), otherwise every width 8..64 (fold_supported)
 *   FOLD_PASS_INLINE  (optional) 1: fold_pass is small (it tail-calls the ISA's passes),
 *               so the update runs it itself instead of calling it apart
 *   FOLD_RECORD_VALUES  (optional) the record's value field (internal.h:
 *               the fixed algorithms' value entries on the tier)
 * and the function fold_pass(c, reg, p, n, msb, k) for n >= LANES_MAX: the ISA's body.
 *
 * The policies, whatever the ISA:
 *  - first use of a model: its constants are built (fold_consts_build) in a cold function
 *    that then starts the update again, so the update itself makes no call and saves no
 *    registers;
 *  - 0 bytes: the register as is; 1..15 bytes: short_pass (carry-less, no table: measured
 *    on an AMD EPYC (Zen 3), ns per call for CRC-32, independent calls, short_pass takes
 *    5.6-5.9 ns from 1 to 15 bytes; the byte table 4.3 ns at 1 byte and 18 ns at 15 when
 *    called directly, but 8.3 ns at 1 byte when reached from here (one more call and the
 *    table lookup));
 *  - a partial block is taken first (head_pass; x86: a head vector), never by reading
 *    outside [p, p + n);
 *  - each bit order gets its own copy of the vector body (msb a constant).
 */
#define FOLD_CAT_(a, b) a##b
#define FOLD_CAT(a, b) FOLD_CAT_(a, b)
#define FOLD_STRINGIFY_(a) #a
#define FOLD_STRINGIFY(a) FOLD_STRINGIFY_(a)

#ifndef FOLD_MSB_ONLY
#define FOLD_MSB_ONLY 0
#endif
#ifndef FOLD_PASS_INLINE
#define FOLD_PASS_INLINE 0
#endif
#if FOLD_PASS_INLINE
#define FOLD_LSB_PASS(c, reg, p, n, k) fold_pass(c, reg, p, n, 0, k)
#define FOLD_MSB_PASS(c, reg, p, n, k) fold_pass(c, reg, p, n, 1, k)
#else
#define FOLD_LSB_PASS(c, reg, p, n, k) FOLD_CAT(fold_lsb_, SUFFIX)(c, reg, p, n, k)
#define FOLD_MSB_PASS(c, reg, p, n, k) FOLD_CAT(fold_msb_, SUFFIX)(c, reg, p, n, k)
/* One function per bit order for the vector pass, apart from the short paths so that
 * short inputs do not pay for its register set-up. */
#if !FOLD_MSB_ONLY
static ATTRIBUTES CRC_NOINLINE uint64_t
FOLD_CAT(fold_lsb_, SUFFIX)(const struct fold_consts *c, uint64_t reg, const uint8_t *p, size_t n,
                            const struct crc_params *k)
{
    return fold_pass(c, reg, p, n, 0, k);
}
#endif

static ATTRIBUTES CRC_NOINLINE uint64_t
FOLD_CAT(fold_msb_, SUFFIX)(const struct fold_consts *c, uint64_t reg, const uint8_t *p, size_t n,
                            const struct crc_params *k)
{
    return fold_pass(c, reg, p, n, 1, k);
}
#endif

static ATTRIBUTES uint64_t FOLD_CAT(update_, SUFFIX)(const crcforge_model *m, uint64_t reg,
                                                      const uint8_t *p, size_t n,
                                                      const struct crc_params *k);

static ATTRIBUTES CRC_NOINLINE CRC_COLD uint64_t
FOLD_CAT(first_update_, SUFFIX)(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n,
                                const struct crc_params *k)
{
    fold_consts_build(m);
    return FOLD_CAT(update_, SUFFIX)(m, reg, p, n, k);
}

/* The update and its short inputs each start a cache line, so that where the linker puts
 * the tier's code does not decide how many lines a short call touches (AMD Zen 4, CRC-16/XMODEM
 * at 8 B through the 512-bit tier: 7.3 ns where they fell across lines, 6.5 aligned). */
static ATTRIBUTES CRC_NOINLINE CODE_ALIGNED uint64_t
FOLD_CAT(short_update_, SUFFIX)(const struct fold_consts *c, uint64_t reg, const uint8_t *p, size_t n)
{
#if !FOLD_MSB_ONLY
    if (CRC_LIKELY(c->lsb_first)) { /* the reflected ones fall through */
        if (n >= 16)
            return LANES_MAX <= 33 ? two_lanes_pass(c, reg, p, n, 0)
                                   : lanes_pass(c, reg, p, n, 0);
        return n != 0 ? short_pass(c, reg, p, n, 0) : reg;
    }
#endif
    if (n >= 16)
        return LANES_MAX <= 33 ? two_lanes_pass(c, reg, p, n, 1) : lanes_pass(c, reg, p, n, 1);
    return n != 0 ? short_pass(c, reg, p, n, 1) : reg;
}
static ATTRIBUTES CODE_ALIGNED uint64_t
FOLD_CAT(update_, SUFFIX)(const crcforge_model *m, uint64_t reg, const uint8_t *p, size_t n,
                          const struct crc_params *k)
{
    const struct fold_consts *c = fold_consts_peek(m);
    if (c == NULL)
        return FOLD_CAT(first_update_, SUFFIX)(m, reg, p, n, k);
    if (n < LANES_MAX)
        return FOLD_CAT(short_update_, SUFFIX)(c, reg, p, n);
#if FOLD_MSB_ONLY
    return FOLD_MSB_PASS(c, reg, p, n, k);
#else
    return c->lsb_first ? FOLD_LSB_PASS(c, reg, p, n, k) : FOLD_MSB_PASS(c, reg, p, n, k);
#endif
}

/* For other kernels of the ISA; their own features include FEATURES. */
CODE_ALIGNED uint64_t FOLD_CAT(fold_update_, SUFFIX)(const crcforge_model *m, uint64_t reg,
                                                     const uint8_t *p, size_t n,
                                                     const struct crc_params *k)
{
    return FOLD_CAT(update_, SUFFIX)(m, reg, p, n, k);
}

const struct crc_impl FOLD_CAT(crc_impl_fold_, SUFFIX) = {
    .name = FOLD_STRINGIFY(FOLD_CAT(fold_, SUFFIX)), .features = FEATURES,
    .supports = FOLD_MSB_ONLY ? fold_msb_first_supported : fold_supported,
#ifdef FOLD_RECORD_VALUES
    FOLD_RECORD_VALUES
#endif
    .update = FOLD_CAT(update_, SUFFIX)};

#undef FOLD_MSB_ONLY
#undef FOLD_RECORD_VALUES
#undef FOLD_PASS_INLINE
#undef FOLD_LSB_PASS
#undef FOLD_MSB_PASS
#undef FOLD_CAT
#undef FOLD_CAT_
#undef FOLD_STRINGIFY
#undef FOLD_STRINGIFY_
