//! Entry points for the constant-time lane comb (`crate::curve::comb_lanes`): one function per
//! lane type, the SIMD ones with `#[target_feature]`, as for the curve batches (`curve_entry.rs`),
//! and the dispatching [`Backend`] method.

use crate::Felt;
use crate::backend::{Backend, Kind};
use crate::curve::comb_lanes::mul_generator_ct_lanes;

macro_rules! comb_entry_points {
    ($(#[$attr:meta])* $name:ident, $packed:ty) => {
        /// The lane comb for one lane type.
        ///
        /// # Safety
        /// May only be called when the CPU supports this lane type's instruction set (checked
        /// by `crate::Backend`, see `docs/backends.md`).
        $(#[$attr])*
        unsafe fn $name(scan: Backend, keys: &[Felt], xs: &mut [Felt], zs: &mut [Felt]) {
            mul_generator_ct_lanes::<$packed>(scan, keys, xs, zs)
        }
    };
}

// Portable: one lane (`Felt`); four scalar lanes in lock-step (`X4<Felt>`) measured slower
// than one key at a time (0.82× the scalar loop against about 1.2×).
comb_entry_points!(portable, Felt);
#[cfg(target_arch = "x86_64")]
comb_entry_points!(
    #[target_feature(enable = "avx2")]
    avx2,
    crate::backend::packed::Packed<crate::backend::avx2::Avx2Lane>
);
#[cfg(target_arch = "x86_64")]
comb_entry_points!(
    #[target_feature(enable = "avx512f,avx512ifma")]
    avx512ifma,
    crate::backend::ifma::Ifma
);
#[cfg(target_arch = "aarch64")]
comb_entry_points!(
    #[target_feature(enable = "neon")]
    neon,
    crate::backend::packed::Packed<crate::backend::neon::NeonLane>
);

impl Backend {
    /// `crate::curve::comb_lanes::mul_generator_ct_lanes` on this backend's lanes, with this
    /// backend's scan kernel. Precondition: equal lengths.
    pub(crate) fn mul_generator_ct_batch(self, keys: &[Felt], xs: &mut [Felt], zs: &mut [Felt]) {
        #[allow(unreachable_patterns)]
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx2 is only created after
            // is_x86_feature_detected!("avx2") returned true (backend/mod.rs).
            Kind::Avx2 => unsafe { avx2(self, keys, xs, zs) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Backend with Kind::Avx512Ifma is only created after has_avx512ifma()
            // (avx512f and avx512ifma detected at run time) returned true (backend/mod.rs).
            Kind::Avx512Ifma => unsafe { avx512ifma(self, keys, xs, zs) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: a Backend with Kind::Neon is only created after
            // is_aarch64_feature_detected!("neon") returned true (backend/mod.rs).
            Kind::Neon => unsafe { neon(self, keys, xs, zs) },
            // SAFETY: portable code needs no CPU feature.
            _ => unsafe { portable(self, keys, xs, zs) },
        }
    }
}
