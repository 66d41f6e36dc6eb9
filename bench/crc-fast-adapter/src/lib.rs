// SPDX-License-Identifier: MIT
//! C entry points over the crc-fast crate, for crcforge's benchmark (bench/peers.c).
//!
//! Each function returns the catalogue CRC value of `len` bytes at `buf`, one shot,
//! through crc-fast's public `checksum`, the call a Rust user would write.  The C side
//! declares them as `uint64_t NAME(const uint8_t *buf, size_t len)`.

use crc_fast::{checksum, CrcAlgorithm};

/// # Safety
/// `buf` must point at `len` readable bytes (or be anything when `len` is 0).
unsafe fn bytes<'a>(buf: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(buf, len)
    }
}

macro_rules! adapter {
    ($name:ident, $algorithm:ident) => {
        /// # Safety
        /// `buf` must point at `len` readable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn $name(buf: *const u8, len: usize) -> u64 {
            checksum(CrcAlgorithm::$algorithm, bytes(buf, len))
        }
    };
}

adapter!(crc_fast_adapter_crc32_iscsi, Crc32Iscsi);
adapter!(crc_fast_adapter_crc32_iso_hdlc, Crc32IsoHdlc);
adapter!(crc_fast_adapter_crc64_nvme, Crc64Nvme);
adapter!(crc_fast_adapter_crc64_xz, Crc64Xz);
adapter!(crc_fast_adapter_crc64_ecma_182, Crc64Ecma182);
adapter!(crc_fast_adapter_crc16_xmodem, Crc16Xmodem);
adapter!(crc_fast_adapter_crc16_t10dif, Crc16T10Dif);

/// crc-fast's name for the kernels it chose (its `get_calculator_target`), as bytes
/// copied into `out` (at most `cap`, no terminator); returns the length copied.
///
/// # Safety
/// `out` must point at `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn crc_fast_adapter_target(out: *mut u8, cap: usize) -> usize {
    let target = crc_fast::get_calculator_target(CrcAlgorithm::Crc32Iscsi);
    let n = target.len().min(cap);
    std::ptr::copy_nonoverlapping(target.as_ptr(), out, n);
    n
}
