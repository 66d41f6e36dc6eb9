/* SPDX-License-Identifier: MIT */
/*
 * `sysctl hw.optional` as Macs print it, for test_cpu_recorded.c: "name: value" lines.
 */
#ifndef CRCFORGE_RECORDED_SYSCTL_H
#define CRCFORGE_RECORDED_SYSCTL_H

/* MacBook Air, Apple M1 (hw.cpufamily 458787763, J313), as published in 2022. */
static const char sysctl_apple_m1[] =
    "hw.optional.arm.FEAT_FlagM: 1\nhw.optional.arm.FEAT_FlagM2: 1\n"
    "hw.optional.arm.FEAT_FHM: 1\nhw.optional.arm.FEAT_DotProd: 1\n"
    "hw.optional.arm.FEAT_SHA3: 1\nhw.optional.arm.FEAT_RDM: 1\n"
    "hw.optional.arm.FEAT_LSE: 1\nhw.optional.arm.FEAT_SHA256: 1\n"
    "hw.optional.arm.FEAT_SHA512: 1\nhw.optional.arm.FEAT_SHA1: 1\n"
    "hw.optional.arm.FEAT_AES: 1\nhw.optional.arm.FEAT_PMULL: 1\n"
    "hw.optional.arm.FEAT_SPECRES: 0\nhw.optional.arm.FEAT_SB: 1\n"
    "hw.optional.arm.FEAT_FRINTTS: 1\nhw.optional.arm.FEAT_LRCPC: 1\n"
    "hw.optional.arm.FEAT_LRCPC2: 1\nhw.optional.arm.FEAT_FCMA: 1\n"
    "hw.optional.arm.FEAT_JSCVT: 1\nhw.optional.arm.FEAT_PAuth: 1\n"
    "hw.optional.arm.FEAT_PAuth2: 0\nhw.optional.arm.FEAT_FPAC: 0\n"
    "hw.optional.arm.FEAT_DPB: 1\nhw.optional.arm.FEAT_DPB2: 1\n"
    "hw.optional.arm.FEAT_BF16: 0\nhw.optional.arm.FEAT_I8MM: 0\n"
    "hw.optional.arm.FEAT_ECV: 1\nhw.optional.arm.FEAT_LSE2: 1\n"
    "hw.optional.arm.FEAT_CSV2: 1\nhw.optional.arm.FEAT_CSV3: 1\n"
    "hw.optional.arm.FEAT_FP16: 1\nhw.optional.arm.FEAT_SSBS: 1\n"
    "hw.optional.arm.FEAT_BTI: 0\nhw.optional.floatingpoint: 1\nhw.optional.neon: 1\n"
    "hw.optional.neon_hpfp: 1\nhw.optional.neon_fp16: 1\n"
    "hw.optional.armv8_1_atomics: 1\nhw.optional.armv8_2_fhm: 1\n"
    "hw.optional.armv8_2_sha512: 1\nhw.optional.armv8_2_sha3: 1\n"
    "hw.optional.armv8_3_compnum: 1\nhw.optional.watchpoint: 4\n"
    "hw.optional.breakpoint: 6\nhw.optional.armv8_crc32: 1\nhw.optional.armv8_gpi: 1\n"
    "hw.optional.AdvSIMD: 1\nhw.optional.AdvSIMD_HPFPCvt: 1\n"
    "hw.optional.ucnormal_mem: 1\nhw.optional.arm64: 1\n";

/* Apple M4 Pro (hw.cpufamily 399882554, J773s), as published in 2024. */
static const char sysctl_apple_m4_pro[] =
    "hw.optional.arm.FEAT_FlagM: 1\nhw.optional.arm.FEAT_FlagM2: 1\n"
    "hw.optional.arm.FEAT_FHM: 1\nhw.optional.arm.FEAT_DotProd: 1\n"
    "hw.optional.arm.FEAT_SHA3: 1\nhw.optional.arm.FEAT_RDM: 1\n"
    "hw.optional.arm.FEAT_LSE: 1\nhw.optional.arm.FEAT_SHA256: 1\n"
    "hw.optional.arm.FEAT_SHA512: 1\nhw.optional.arm.FEAT_SHA1: 1\n"
    "hw.optional.arm.FEAT_AES: 1\nhw.optional.arm.FEAT_PMULL: 1\n"
    "hw.optional.arm.FEAT_SPECRES: 0\nhw.optional.arm.FEAT_SB: 1\n"
    "hw.optional.arm.FEAT_FRINTTS: 1\nhw.optional.arm.FEAT_LRCPC: 1\n"
    "hw.optional.arm.FEAT_LRCPC2: 1\nhw.optional.arm.FEAT_FCMA: 1\n"
    "hw.optional.arm.FEAT_JSCVT: 1\nhw.optional.arm.FEAT_PAuth: 1\n"
    "hw.optional.arm.FEAT_PAuth2: 1\nhw.optional.arm.FEAT_FPAC: 1\n"
    "hw.optional.arm.FEAT_DPB: 1\nhw.optional.arm.FEAT_DPB2: 1\n"
    "hw.optional.arm.FEAT_BF16: 1\nhw.optional.arm.FEAT_I8MM: 1\n"
    "hw.optional.arm.FEAT_WFxT: 1\nhw.optional.arm.FEAT_RPRES: 1\n"
    "hw.optional.arm.FEAT_ECV: 1\nhw.optional.arm.FEAT_AFP: 1\n"
    "hw.optional.arm.FEAT_LSE2: 1\nhw.optional.arm.FEAT_CSV2: 1\n"
    "hw.optional.arm.FEAT_CSV3: 1\nhw.optional.arm.FEAT_DIT: 1\n"
    "hw.optional.arm.FEAT_FP16: 1\nhw.optional.arm.FEAT_SSBS: 0\n"
    "hw.optional.arm.FEAT_BTI: 1\nhw.optional.arm.FEAT_SME: 1\n"
    "hw.optional.arm.FEAT_SME2: 1\nhw.optional.arm.SME_F32F32: 1\n"
    "hw.optional.arm.SME_BI32I32: 1\nhw.optional.arm.SME_B16F32: 1\n"
    "hw.optional.arm.SME_F16F32: 1\nhw.optional.arm.SME_I8I32: 1\n"
    "hw.optional.arm.SME_I16I32: 1\nhw.optional.arm.FEAT_SME_F64F64: 1\n"
    "hw.optional.arm.FEAT_SME_I16I64: 1\nhw.optional.arm.FP_SyncExceptions: 1\n"
    "hw.optional.arm.caps: 1152375836863623167\nhw.optional.floatingpoint: 1\n"
    "hw.optional.neon: 1\nhw.optional.neon_hpfp: 1\nhw.optional.neon_fp16: 1\n"
    "hw.optional.armv8_1_atomics: 1\nhw.optional.armv8_2_fhm: 1\n"
    "hw.optional.armv8_2_sha512: 1\nhw.optional.armv8_2_sha3: 1\n"
    "hw.optional.armv8_3_compnum: 1\nhw.optional.watchpoint: 4\n"
    "hw.optional.breakpoint: 6\nhw.optional.armv8_crc32: 1\nhw.optional.armv8_gpi: 1\n"
    "hw.optional.AdvSIMD: 1\nhw.optional.AdvSIMD_HPFPCvt: 1\n"
    "hw.optional.ucnormal_mem: 1\nhw.optional.arm64: 1\n";

/* The M1's answers without the hw.optional.arm. names, which older releases lack. */
static const char sysctl_apple_m1_older_macos[] =
    "hw.optional.floatingpoint: 1\nhw.optional.neon: 1\nhw.optional.neon_hpfp: 1\n"
    "hw.optional.neon_fp16: 1\nhw.optional.armv8_1_atomics: 1\n"
    "hw.optional.armv8_2_fhm: 1\nhw.optional.armv8_2_sha512: 1\n"
    "hw.optional.armv8_2_sha3: 1\nhw.optional.armv8_3_compnum: 1\n"
    "hw.optional.watchpoint: 4\nhw.optional.breakpoint: 6\nhw.optional.armv8_crc32: 1\n"
    "hw.optional.armv8_gpi: 1\nhw.optional.AdvSIMD: 1\nhw.optional.AdvSIMD_HPFPCvt: 1\n"
    "hw.optional.ucnormal_mem: 1\nhw.optional.arm64: 1\n";

#endif /* CRCFORGE_RECORDED_SYSCTL_H */
