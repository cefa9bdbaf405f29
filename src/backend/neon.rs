//! The NEON lane type: four 64-bit lanes in two `uint64x2_t` registers (NEON is 128 bits
//! wide, so one 4-lane vector is a pair; the field code sees the same four lanes as on AVX2).
//!
//! The widening multiply narrows each pair to `uint32x2_t` (`vmovn_u64`, which keeps the low
//! 32 bits, exactly what the field code requires) and multiplies with `vmull_u32`.
//!
//! # Safety
//! NEON is part of the aarch64 baseline (every `aarch64-*` Rust target enables it), and the
//! backend is additionally checked with `is_aarch64_feature_detected!("neon")`. The type is
//! crate-private and only constructed inside the NEON entry points of `crate::batch`. Each
//! `// SAFETY:` comment refers to that invariant.

#[cfg(target_arch = "aarch64")]
use core::arch::aarch64::*;

use super::lane::Lane;

/// Four 64-bit lanes in two NEON registers (lanes 0-1, lanes 2-3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NeonLane(uint64x2_t, uint64x2_t);

macro_rules! both {
    ($f:ident, $a:expr, $b:expr) => {
        // SAFETY: NEON present whenever a NeonLane exists (module docs).
        unsafe { NeonLane($f($a.0, $b.0), $f($a.1, $b.1)) }
    };
}

impl Lane for NeonLane {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        // SAFETY: NEON present (module docs).
        unsafe { NeonLane(vdupq_n_u64(x), vdupq_n_u64(x)) }
    }
    #[inline(always)]
    fn from_array(a: [u64; 4]) -> Self {
        // SAFETY: NEON present (module docs); `a` holds 4 readable u64, two per load.
        unsafe { NeonLane(vld1q_u64(a.as_ptr()), vld1q_u64(a.as_ptr().add(2))) }
    }
    #[inline(always)]
    fn to_array(self) -> [u64; 4] {
        let mut a = [0u64; 4];
        // SAFETY: NEON present (module docs); `a` holds 4 writable u64, two per store.
        unsafe {
            vst1q_u64(a.as_mut_ptr(), self.0);
            vst1q_u64(a.as_mut_ptr().add(2), self.1);
        }
        a
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        both!(vaddq_u64, self, b)
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        both!(vsubq_u64, self, b)
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        both!(vandq_u64, self, b)
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        // SAFETY: NEON present (module docs); 0 < N < 64.
        unsafe { NeonLane(vshlq_n_u64::<N>(self.0), vshlq_n_u64::<N>(self.1)) }
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        // SAFETY: NEON present (module docs); 0 < N < 64.
        unsafe { NeonLane(vshrq_n_u64::<N>(self.0), vshrq_n_u64::<N>(self.1)) }
    }
    #[inline(always)]
    fn mont_mul9(a: &[Self; 9], b: &[Self; 9]) -> [Self; 9] {
        super::packed::mont_mul(a, b)
    }
    #[inline(always)]
    fn mont_square9(a: &[Self; 9]) -> [Self; 9] {
        super::packed::mont_square(a)
    }
    #[inline(always)]
    fn mul32(self, b: Self) -> Self {
        // SAFETY: NEON present (module docs). vmovn keeps the low 32 bits of each lane.
        unsafe {
            NeonLane(
                vmull_u32(vmovn_u64(self.0), vmovn_u64(b.0)),
                vmull_u32(vmovn_u64(self.1), vmovn_u64(b.1)),
            )
        }
    }
    #[inline(always)]
    fn mul32_add(self, b: Self, c: Self) -> Self {
        // SAFETY: NEON present (module docs). vmlal_u32 is a widening multiply-accumulate.
        unsafe {
            NeonLane(
                vmlal_u32(self.0, vmovn_u64(b.0), vmovn_u64(c.0)),
                vmlal_u32(self.1, vmovn_u64(b.1), vmovn_u64(c.1)),
            )
        }
    }
    #[inline(always)]
    fn eq_mask(self, b: Self) -> Self {
        both!(vceqq_u64, self, b)
    }
    #[inline(always)]
    fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: NEON present (module docs). vbslq takes bits of `b` where mask is set.
        unsafe { NeonLane(vbslq_u64(mask.0, b.0, a.0), vbslq_u64(mask.1, b.1, a.1)) }
    }
}
