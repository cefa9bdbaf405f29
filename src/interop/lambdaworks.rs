//! Conversions between [`Felt`](crate::Felt) and lambdaworks' `FieldElement<Stark252PrimeField>` (feature
//! `lambdaworks`): the raw limbs are the Montgomery limbs most significant first (see
//! [the module](super)).
//!
//! ```
//! use lambdaworks_math::field::element::FieldElement;
//! use lambdaworks_math::field::fields::fft_friendly::stark_252_prime_field::Stark252PrimeField;
//! use starkbatch::Felt;
//!
//! let lw = FieldElement::<Stark252PrimeField>::from(7u64) * FieldElement::from(6u64);
//! let felt = Felt::from(&lw);
//! assert_eq!(felt, Felt::from(42u64));
//! assert_eq!(FieldElement::<Stark252PrimeField>::from(felt), lw);
//! ```

use super::{ForeignFelt, foreign_from, reversed};
use lambdaworks_math::field::element::FieldElement;
use lambdaworks_math::field::fields::fft_friendly::stark_252_prime_field::Stark252PrimeField;
use lambdaworks_math::unsigned_integer::element::UnsignedInteger;

/// lambdaworks' Stark252 field element.
pub type LambdaworksFelt = FieldElement<Stark252PrimeField>;

impl ForeignFelt for LambdaworksFelt {
    #[inline]
    fn montgomery_limbs(&self) -> [u64; 4] {
        reversed(self.value().limbs)
    }
    #[inline]
    fn from_reduced_montgomery_limbs(limbs: [u64; 4]) -> Self {
        LambdaworksFelt::from_raw(UnsignedInteger::from_limbs(reversed(limbs)))
    }
    fn canonical_bytes_be(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        let be = self.to_bytes_be();
        out[32 - be.len()..].copy_from_slice(&be);
        out
    }
}

foreign_from!(LambdaworksFelt, by_value);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Felt;
    use lambdaworks_math::traits::ByteConversion;

    #[test]
    fn values_agree_through_bytes() {
        crate::interop::check_round_trips::<LambdaworksFelt>(
            |x| x.canonical_bytes_be(),
            |b| LambdaworksFelt::from_bytes_be(b).unwrap(),
        );
    }

    #[test]
    fn arithmetic_agrees() {
        let (a, b) = (
            Felt::from(0x1234_5678_9abc_u64).pow(9),
            Felt::MAX - Felt::TWO,
        );
        let (la, lb) = (LambdaworksFelt::from(a), LambdaworksFelt::from(b));
        assert_eq!(Felt::from(la * lb), a * b);
        assert_eq!(Felt::from(la + lb), a + b);
    }

    #[test]
    fn unreduced_raw_limbs_convert_through_bytes() {
        crate::interop::check_unreduced(|raw| {
            LambdaworksFelt::from_raw(UnsignedInteger::from_limbs(reversed(raw)))
        });
    }
}
