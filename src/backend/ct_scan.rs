//! Constant-time table scan: the kernel behind the fixed-base multiplication of secret scalars
//! (`crate::curve::fixed_base`).
//!
//! # Contract
//! [`Backend::scan_row`] returns entry `index − 1` of `row` (entries numbered from 1), or all
//! zeros for `index = 0` or an index past the end. Every entry of the row is loaded and
//! combined with a mask (`entry & mask`, OR-accumulated; exactly one mask is all ones when the
//! index is in range): no branch and no memory address depends on `index`. Every kernel has the
//! same signature and returns the same value; `tests` below compare each available kernel with
//! the portable one, and `scripts/ct-check.sh` checks the compiled kernel of this host under
//! valgrind with the secret marked undefined.
//!
//! # Kernels
//! * portable: the masks are formed in an array behind one `black_box` (so LLVM cannot see
//!   that they are 0 or all ones and turn the scan into a branch), then eight scalar
//!   `and`/`or` per entry;
//! * AVX2 (also used by the AVX-512 IFMA backend): the index is compared with a running entry
//!   counter (`vpcmpeqq`), and each 64-byte entry is two aligned 256-bit loads, two `vpand`,
//!   two `vpor`: six instructions per entry instead of about 27;
//! * NEON: the same with four 128-bit registers per entry.
//!
//! The scan was the largest cost of key derivation (about 60 % of its instructions with the
//! scalar kernel, measured with callgrind); see docs/constant-time.md.

use super::{Backend, Kind};
#[cfg(feature = "std")]
use std::sync::OnceLock;

/// The backend whose scan kernel the constant-time fixed-base multiplication uses:
/// [`Backend::from_env`] (so `STARKBATCH_BACKEND=portable` also selects the portable scan, which
/// `scripts/ct-check.sh` checks), or [`Backend::detect`] when the variable names a backend this
/// CPU lacks: key derivation and signing never panic on configuration (the batch functions
/// report that error). Evaluated once.
#[cfg(feature = "std")]
pub(crate) fn scan_backend() -> Backend {
    static SCAN: OnceLock<Backend> = OnceLock::new();
    *SCAN.get_or_init(|| Backend::from_env().unwrap_or_else(|_| Backend::detect()))
}

/// Without `std` (no environment variable): [`Backend::detect`].
#[cfg(not(feature = "std"))]
pub(crate) fn scan_backend() -> Backend {
    Backend::detect()
}

/// One table entry: eight 64-bit words (for the comb, the Montgomery limbs of x then y),
/// aligned to a cache line so that the vector kernels use aligned whole-register loads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Entry64(pub(crate) [u64; 8]);

impl Backend {
    /// Entry `index − 1` of `row`, or zeros when `index` is 0 or above `row.len()`, reading
    /// every entry (see the module docs). Constant time in `index`.
    #[inline]
    pub(crate) fn scan_row(self, row: &[Entry64], index: u64) -> [u64; 8] {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx2 or Kind::Avx512Ifma is only created after
            // is_x86_feature_detected!("avx2") returned true (backend/mod.rs).
            // Without `std` the check is instead that the build enables the feature
            // (`cfg!(target_feature)`), so every CPU running this code has it.
            Kind::Avx2 | Kind::Avx512Ifma => unsafe { scan_avx2(row, index) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: a Backend with Kind::Neon is only created after NEON was detected
            // (backend/mod.rs).
            Kind::Neon => unsafe { scan_neon(row, index) },
            _ => scan_portable(row, index),
        }
    }
}

/// The portable kernel (every host).
#[inline]
pub(crate) fn scan_portable(row: &[Entry64], index: u64) -> [u64; 8] {
    const MAX: usize = 64;
    assert!(row.len() <= MAX, "scan rows hold at most {MAX} entries");
    let mut masks = [0u64; MAX];
    for (j, m) in masks.iter_mut().enumerate() {
        let d = index ^ (j as u64 + 1);
        // d == 0 -> all ones, else 0, arithmetically.
        *m = ((d | d.wrapping_neg()) >> 63).wrapping_sub(1);
    }
    // One optimisation barrier per row: LLVM cannot see that the masks are 0 or all ones, so
    // it cannot turn the scan into a branch that loads only the chosen entry.
    let masks = core::hint::black_box(masks);
    let mut sel = [0u64; 8];
    for (e, &m) in row.iter().zip(masks.iter()) {
        for (s, &l) in sel.iter_mut().zip(e.0.iter()) {
            *s |= l & m;
        }
    }
    sel
}

/// The AVX2 kernel.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn scan_avx2(row: &[Entry64], index: u64) -> [u64; 8] {
    use core::arch::x86_64::*;
    let want = _mm256_set1_epi64x(index as i64);
    let one = _mm256_set1_epi64x(1);
    let mut counter = one;
    let mut lo = _mm256_setzero_si256();
    let mut hi = _mm256_setzero_si256();
    for e in row {
        let m = _mm256_cmpeq_epi64(counter, want);
        let p = e.0.as_ptr() as *const __m256i;
        // SAFETY: `e` is 64 readable bytes aligned to 64 (Entry64 is repr(align(64))), so
        // both 32-byte aligned loads are in bounds and aligned.
        let (a, b) = unsafe { (_mm256_load_si256(p), _mm256_load_si256(p.add(1))) };
        lo = _mm256_or_si256(lo, _mm256_and_si256(m, a));
        hi = _mm256_or_si256(hi, _mm256_and_si256(m, b));
        counter = _mm256_add_epi64(counter, one);
    }
    let mut out = Entry64::default();
    let q = out.0.as_mut_ptr() as *mut __m256i;
    // SAFETY: `out` is 64 writable bytes aligned to 64: both aligned stores are in bounds.
    unsafe {
        _mm256_store_si256(q, lo);
        _mm256_store_si256(q.add(1), hi);
    }
    out.0
}

/// The NEON kernel.
///
/// # Safety
/// The CPU must support NEON.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon")]
unsafe fn scan_neon(row: &[Entry64], index: u64) -> [u64; 8] {
    use core::arch::aarch64::*;
    let want = vdupq_n_u64(index);
    let one = vdupq_n_u64(1);
    let mut counter = one;
    let mut acc = [vdupq_n_u64(0); 4];
    for e in row {
        let m = vceqq_u64(counter, want);
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: `e.0` holds 8 words; words 2k and 2k + 1 (k < 4) are in bounds.
            let v = unsafe { vld1q_u64(e.0.as_ptr().add(2 * k)) };
            *a = vorrq_u64(*a, vandq_u64(m, v));
        }
        counter = vaddq_u64(counter, one);
    }
    let mut out = [0u64; 8];
    for (k, a) in acc.iter().enumerate() {
        // SAFETY: words 2k and 2k + 1 (k < 4) of `out` are in bounds and writable.
        unsafe { vst1q_u64(out.as_mut_ptr().add(2 * k), *a) };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn row(seed: u64, len: usize) -> Vec<Entry64> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                Entry64(core::array::from_fn(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x
                }))
            })
            .collect()
    }

    #[test]
    fn every_kernel_selects_every_index() {
        for len in [0usize, 1, 2, 3, 17, 63, 64] {
            let r = row(len as u64 + 11, len);
            for index in 0..=len as u64 + 2 {
                let want = if index >= 1 && index <= len as u64 {
                    r[index as usize - 1].0
                } else {
                    [0; 8]
                };
                assert_eq!(scan_portable(&r, index), want, "len {len} index {index}");
                for b in Backend::available() {
                    assert_eq!(
                        b.scan_row(&r, index),
                        want,
                        "{} len {len} index {index}",
                        b.name()
                    );
                }
            }
        }
        // Indices far out of range select nothing.
        let r = row(5, 64);
        for index in [65u64, 1 << 32, u64::MAX] {
            for b in Backend::available() {
                assert_eq!(b.scan_row(&r, index), [0; 8]);
            }
        }
    }
}
