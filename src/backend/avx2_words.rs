//! Eight 32-bit word lanes in one `__m256i` (x86-64, AVX2).
//!
//! # Safety
//! Every intrinsic below requires AVX2. [`Avx2Words`] is crate-private and only used inside the
//! `#[target_feature(enable = "avx2")]` entry points of `crate::batch::blake2s`, which run only
//! after [`crate::Backend`] confirmed AVX2 at run time. So whenever a method runs, the CPU has
//! AVX2: the invariant each `// SAFETY:` comment names.

use core::arch::x86_64::*;

use super::words::Words;

/// Eight 32-bit lanes in one AVX2 register.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct Avx2Words(__m256i);

impl Words for Avx2Words {
    const LANES: usize = 8;
    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX2 is present whenever Avx2Words is used (module docs).
        Avx2Words(unsafe { _mm256_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn load(src: &[u32]) -> Self {
        assert!(src.len() >= 8);
        // SAFETY: AVX2 present (module docs); `src` has at least 32 readable bytes (checked
        // above) and loadu has no alignment requirement.
        Avx2Words(unsafe { _mm256_loadu_si256(src.as_ptr() as *const __m256i) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32]) {
        assert!(dst.len() >= 8);
        // SAFETY: AVX2 present (module docs); `dst` has at least 32 writable bytes (checked
        // above) and storeu has no alignment requirement.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr() as *mut __m256i, self.0) }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Words(unsafe { _mm256_add_epi32(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        // SAFETY: AVX2 present (module docs).
        Avx2Words(unsafe { _mm256_xor_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn rotr<const N: u32>(self) -> Self {
        // SAFETY: AVX2 present (module docs). The byte shuffles rotate each 32-bit word by 16
        // or 8 bits within its own 128-bit half, which is what the masks select.
        Avx2Words(unsafe {
            match N {
                16 => _mm256_shuffle_epi8(
                    self.0,
                    _mm256_setr_epi8(
                        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4,
                        5, 10, 11, 8, 9, 14, 15, 12, 13,
                    ),
                ),
                8 => _mm256_shuffle_epi8(
                    self.0,
                    _mm256_setr_epi8(
                        1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7,
                        4, 9, 10, 11, 8, 13, 14, 15, 12,
                    ),
                ),
                12 => _mm256_or_si256(
                    _mm256_srli_epi32::<12>(self.0),
                    _mm256_slli_epi32::<20>(self.0),
                ),
                7 => _mm256_or_si256(
                    _mm256_srli_epi32::<7>(self.0),
                    _mm256_slli_epi32::<25>(self.0),
                ),
                _ => _mm256_or_si256(
                    _mm256_srlv_epi32(self.0, _mm256_set1_epi32(N as i32)),
                    _mm256_sllv_epi32(self.0, _mm256_set1_epi32(32 - N as i32)),
                ),
            }
        })
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    #[test]
    fn avx2_words() {
        if std::is_x86_feature_detected!("avx2") {
            #[target_feature(enable = "avx2")]
            fn run() {
                super::super::words::tests::check_words::<super::Avx2Words>();
            }
            // SAFETY: AVX2 was detected just above.
            unsafe { run() }
        }
    }
}
