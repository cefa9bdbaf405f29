//! The STARK curve: y² = x³ + α·x + β over the field of [`Felt`], with α = 1.
//!
//! # Parameters
//! Source: cairo-lang `src/starkware/crypto/signature/signature.py` (and `starknet-curve`'s
//! `curve_params.rs`, which carry the same values):
//! - α = 1, β = `0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89`;
//! - the generator G = (`0x1ef15c18599971b7beced415a40f0c7deacfd9b0d1819e03d723d8bc943cfca`,
//!   `0x5668060aa49730b7be4801df46ec62de53ecd11abe43a32873000c36e8dc1f`);
//! - the group order n = `0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2f`,
//!   a prime (so the group is cyclic, n < p, and no point other than infinity has order 2).
//!
//! # Representation
//! - [`AffinePoint`] `{ x, y, infinity }`: what is stored and exchanged.
//! - [`ProjectivePoint`] `{ x, y, z }`: **Jacobian** coordinates, (X, Y, Z) ↦ (X/Z², Y/Z³);
//!   Z = 0 is infinity. Jacobian coordinates give the cheapest doubling for a general `a`
//!   (here a = 1, so the `a·Z⁴` term costs no multiplication).
//!
//! # Formulas (Explicit-Formulas Database, `g1p/shortw/jacobian`)
//! - doubling `dbl-2007-bl`, 1M + 8S ([`formulas::double`], written once generic over
//!   [`crate::PackedFelt`]);
//! - mixed addition `madd-2007-bl`, 7M + 4S ([`formulas::add_affine_unchecked`]);
//! - addition `add-2007-bl`, 11M + 5S ([`formulas::add_unchecked`]).
//!
//! The exact formulas are written out in [`formulas`]. [`ProjectivePoint::add`] and
//! [`ProjectivePoint::add_affine`] handle infinity, P + P and P + (−P) exactly.
//!
//! # Scalar multiplication
//! - [`ProjectivePoint::mul_vartime`]: width-5 NAF, variable time (public scalars).
//! - [`mul_generator_ct`]: fixed-base k·G (k used modulo n) with a precomputed radix-128 comb
//!   table and a constant-time scan; the one constant-time path, also behind key derivation and
//!   signing.
//! - [`double_scalar_mul_vartime`]: a·G + b·Q (interleaved NAF), for verification.
//!
//! # Batches
//! [`double_batch`](crate::double_batch), [`add_batch`](crate::add_batch) and [`to_affine_batch`](crate::to_affine_batch) (and `_par`) run the same formulas in
//! SIMD lanes on the current [`crate::Backend`], with identical results (`batch.rs`).
//!
//! Scalars are `&[u64; 4]`, the little-endian limbs of a 256-bit integer (for a [`Felt`] use
//! [`Felt::to_raw_limbs`]); they are used as given, not reduced modulo n.

mod affine;
pub(crate) mod batch;
pub(crate) mod comb_lanes;
mod error;
pub(crate) mod fixed_base;
pub mod formulas;
mod projective;
pub(crate) mod wnaf;

pub use affine::AffinePoint;
pub use error::CurveError;
pub(crate) use fixed_base::inverse_ct;
pub use fixed_base::mul_generator_ct;
pub use projective::ProjectivePoint;
pub use wnaf::double_scalar_mul_vartime;

use crate::Felt;

/// α = 1, the coefficient of x in y² = x³ + α·x + β.
pub const ALPHA: Felt = Felt::ONE;

/// β, the constant term of the curve equation.
pub const BETA: Felt =
    Felt::from_hex_unchecked("0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89");

/// The order n of the group of points (prime), as a field element (n < p).
pub const EC_ORDER: Felt =
    Felt::from_hex_unchecked("0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2f");

/// The group order n as little-endian `u64` limbs of its integer value.
pub const EC_ORDER_LIMBS: [u64; 4] = EC_ORDER.to_raw_limbs();

/// The generator G of the group.
pub const GENERATOR: AffinePoint = AffinePoint::new_unchecked(
    Felt::from_hex_unchecked("0x1ef15c18599971b7beced415a40f0c7deacfd9b0d1819e03d723d8bc943cfca"),
    Felt::from_hex_unchecked("0x5668060aa49730b7be4801df46ec62de53ecd11abe43a32873000c36e8dc1f"),
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_is_on_curve_and_has_order_n() {
        assert!(GENERATOR.is_on_curve());
        let g = ProjectivePoint::from_affine(&GENERATOR);
        assert!(g.mul_vartime(&EC_ORDER_LIMBS).is_infinity());
        assert!(mul_generator_ct(&EC_ORDER_LIMBS).is_infinity());
    }
}
