//! The AVX2 lane type: one `__m256i` holding four 64-bit lanes.
//!
//! # Safety
//! Every intrinsic below requires AVX2. [`Avx2Lane`] is crate-private and is only constructed
//! inside the `#[target_feature(enable = "avx2")]` (or `"avx2,bmi2"`) entry points of
//! `crate::batch`, which are only called after [`crate::Backend`] confirmed AVX2 and BMI2 at
//! run time (`is_x86_feature_detected!`). So whenever a method of this type runs, the CPU has
//! AVX2: that is the invariant each `// SAFETY:` comment refers to.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::lane::Lane;

/// Four 64-bit lanes in one AVX2 register.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct Avx2Lane(__m256i);

impl Lane for Avx2Lane {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        // SAFETY: AVX2 is present whenever an Avx2Lane exists (module docs).
        Avx2Lane(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[inline(always)]
    fn from_array(a: [u64; 4]) -> Self {
        // SAFETY: AVX2 present (module docs); `a` is 32 readable bytes and loadu has no
        // alignment requirement.
        Avx2Lane(unsafe { _mm256_loadu_si256(a.as_ptr() as *const __m256i) })
    }
    #[inline(always)]
    fn to_array(self) -> [u64; 4] {
        let mut a = [0u64; 4];
        // SAFETY: AVX2 present (module docs); `a` is 32 writable bytes and storeu has no
        // alignment requirement.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, self.0) };
        a
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Lane(unsafe { _mm256_add_epi64(self.0, b.0) })
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Lane(unsafe { _mm256_sub_epi64(self.0, b.0) })
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Lane(unsafe { _mm256_and_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Lane(unsafe { _mm256_slli_epi64::<N>(self.0) })
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Lane(unsafe { _mm256_srli_epi64::<N>(self.0) })
    }
    #[inline(always)]
    fn mul32(self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs). vpmuludq reads the low 32 bits of each lane.
        Avx2Lane(unsafe { _mm256_mul_epu32(self.0, b.0) })
    }
    #[inline(always)]
    fn mont_mul9(a: &[Self; 9], b: &[Self; 9]) -> [Self; 9] {
        // SAFETY: AVX2 present (module docs), all the out-of-line kernel requires.
        unsafe { mont_mul9(a, b) }
    }
    #[inline(always)]
    fn mont_square9(a: &[Self; 9]) -> [Self; 9] {
        // SAFETY: AVX2 present (module docs), all the out-of-line kernel requires.
        unsafe { mont_square9(a) }
    }
    #[inline(always)]
    fn eq_mask(self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Lane(unsafe { _mm256_cmpeq_epi64(self.0, b.0) })
    }
    #[inline(always)]
    fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs). blendv picks by the top bit of each byte; the
        // masks (from eq_mask, or `0 − bit`) are all-ones or all-zero per lane.
        Avx2Lane(unsafe { _mm256_blendv_epi8(a.0, b.0, mask.0) })
    }
}

/// The 9×28-bit Montgomery product on AVX2 lanes as a separate function, meant to stay out of
/// line: one copy of its ~300 instructions for every multiplication of a kernel, so that the
/// curve formulas' straight-line code stays small enough for the instruction caches. Not
/// guaranteed: rustc emits no `noinline` for a `#[target_feature]` function, so with fat LTO
/// LLVM inlines it where its cost model says so (docs/curve-batch.md). Hot loops
/// that want it inlined ask for that explicitly (`PackedSelect::mul_inline`).
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn mont_mul9(a: &[Avx2Lane; 9], b: &[Avx2Lane; 9]) -> [Avx2Lane; 9] {
    super::packed::mont_mul(a, b)
}

/// The 9×28-bit Montgomery square on AVX2 lanes, as [`mont_mul9`].
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn mont_square9(a: &[Avx2Lane; 9]) -> [Avx2Lane; 9] {
    super::packed::mont_square(a)
}
