//! Four 32-bit word lanes in one `uint32x4_t` (aarch64, NEON).
//!
//! # Safety
//! Every intrinsic below requires NEON. [`NeonWords`] is crate-private and only used inside the
//! `#[target_feature(enable = "neon")]` entry points of `crate::batch::blake2s`, which run only
//! after [`crate::Backend`] confirmed NEON at run time. So whenever a method runs, the CPU has
//! NEON: the invariant each `// SAFETY:` comment names.

use core::arch::aarch64::*;

use super::words::Words;

/// Four 32-bit lanes in one NEON register.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct NeonWords(uint32x4_t);

impl Words for NeonWords {
    const LANES: usize = 4;
    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: NEON is present whenever NeonWords is used (module docs).
        NeonWords(unsafe { vdupq_n_u32(x) })
    }
    #[inline(always)]
    fn load(src: &[u32]) -> Self {
        assert!(src.len() >= 4);
        // SAFETY: NEON present (module docs); `src` has at least 4 readable words (checked
        // above); vld1q has no alignment requirement beyond the element's.
        NeonWords(unsafe { vld1q_u32(src.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32]) {
        assert!(dst.len() >= 4);
        // SAFETY: NEON present (module docs); `dst` has at least 4 writable words (checked
        // above).
        unsafe { vst1q_u32(dst.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: NEON present (module docs).
        NeonWords(unsafe { vaddq_u32(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        // SAFETY: NEON present (module docs).
        NeonWords(unsafe { veorq_u32(self.0, b.0) })
    }
    #[inline(always)]
    fn rotr<const N: u32>(self) -> Self {
        // SAFETY: NEON present (module docs). For N = 16 the halfword reversal within each
        // word is the rotation; otherwise shift left by 32 - N, then insert the right shift
        // (vshlq with a negative count shifts right).
        NeonWords(unsafe {
            match N {
                16 => vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(self.0))),
                12 => vsriq_n_u32::<12>(vshlq_n_u32::<20>(self.0), self.0),
                8 => vsriq_n_u32::<8>(vshlq_n_u32::<24>(self.0), self.0),
                7 => vsriq_n_u32::<7>(vshlq_n_u32::<25>(self.0), self.0),
                _ => vorrq_u32(
                    vshlq_u32(self.0, vdupq_n_s32(-(N as i32))),
                    vshlq_u32(self.0, vdupq_n_s32(32 - N as i32)),
                ),
            }
        })
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    #[test]
    fn neon_words() {
        if std::arch::is_aarch64_feature_detected!("neon") {
            #[target_feature(enable = "neon")]
            fn run() {
                super::super::words::tests::check_words::<super::NeonWords>();
            }
            // SAFETY: NEON was detected just above.
            unsafe { run() }
        }
    }
}
