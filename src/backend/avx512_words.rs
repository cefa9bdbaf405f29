//! Sixteen 32-bit word lanes in one `__m512i` (x86-64, AVX-512F), with one-instruction
//! rotations (`vprord`).
//!
//! # Safety
//! Every intrinsic below requires AVX-512F. [`Avx512Words`] is crate-private and only used
//! inside the `#[target_feature(enable = "avx512f")]` entry points of `crate::batch::blake2s`,
//! which run only for [`crate::Backend`]'s AVX-512 IFMA backend, created after AVX-512F was
//! confirmed at run time. So whenever a method runs, the CPU has AVX-512F: the invariant each
//! `// SAFETY:` comment names.

use core::arch::x86_64::*;

use super::words::Words;

/// Sixteen 32-bit lanes in one AVX-512 register.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct Avx512Words(__m512i);

impl Words for Avx512Words {
    const LANES: usize = 16;
    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX-512F is present whenever Avx512Words is used (module docs).
        Avx512Words(unsafe { _mm512_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn load(src: &[u32]) -> Self {
        assert!(src.len() >= 16);
        // SAFETY: AVX-512F present (module docs); `src` has at least 64 readable bytes
        // (checked above) and loadu has no alignment requirement.
        Avx512Words(unsafe { _mm512_loadu_si512(src.as_ptr() as *const __m512i) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32]) {
        assert!(dst.len() >= 16);
        // SAFETY: AVX-512F present (module docs); `dst` has at least 64 writable bytes
        // (checked above) and storeu has no alignment requirement.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr() as *mut __m512i, self.0) }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: AVX-512F present (module docs).
        Avx512Words(unsafe { _mm512_add_epi32(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        // SAFETY: AVX-512F present (module docs).
        Avx512Words(unsafe { _mm512_xor_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn rotr<const N: u32>(self) -> Self {
        // SAFETY: AVX-512F present (module docs).
        Avx512Words(unsafe {
            match N {
                16 => _mm512_ror_epi32::<16>(self.0),
                12 => _mm512_ror_epi32::<12>(self.0),
                8 => _mm512_ror_epi32::<8>(self.0),
                7 => _mm512_ror_epi32::<7>(self.0),
                _ => _mm512_rorv_epi32(self.0, _mm512_set1_epi32(N as i32)),
            }
        })
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    #[test]
    fn avx512_words() {
        if std::is_x86_feature_detected!("avx512f") {
            #[target_feature(enable = "avx512f")]
            fn run() {
                super::super::words::tests::check_words::<super::Avx512Words>();
            }
            // SAFETY: AVX-512F was detected just above.
            unsafe { run() }
        }
    }
}
