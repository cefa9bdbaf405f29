//! Conversions between [`Felt`](crate::Felt) and `starknet_ff::FieldElement` (feature `starknet-ff`), the felt
//! type of stwo 2.x's Poseidon252 channel and Merkle hasher: its Montgomery limbs are stored
//! least significant first, as [`Felt`](crate::Felt)'s are (see [the module](super)).
//!
//! ```
//! use starkbatch::Felt;
//! use starknet_ff::FieldElement;
//!
//! let x = FieldElement::from(7u64) * FieldElement::from(6u64);
//! assert_eq!(Felt::from(x), Felt::from(42u64));
//! assert_eq!(FieldElement::from(Felt::from(42u64)), x);
//! ```

use super::{ForeignFelt, foreign_from};
use starknet_ff::FieldElement;

impl ForeignFelt for FieldElement {
    #[inline]
    fn montgomery_limbs(&self) -> [u64; 4] {
        self.into_mont()
    }
    #[inline]
    fn from_reduced_montgomery_limbs(limbs: [u64; 4]) -> Self {
        FieldElement::from_mont(limbs)
    }
    fn canonical_bytes_be(&self) -> [u8; 32] {
        self.to_bytes_be()
    }
}

foreign_from!(FieldElement);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Felt;

    #[test]
    fn values_agree_through_bytes() {
        crate::interop::check_round_trips::<FieldElement>(
            |x| x.to_bytes_be(),
            |b| FieldElement::from_bytes_be(b).unwrap(),
        );
    }

    #[test]
    fn arithmetic_agrees() {
        let (a, b) = (
            Felt::from(0x1234_5678_9abc_u64).pow(9),
            Felt::MAX - Felt::TWO,
        );
        let (fa, fb) = (FieldElement::from(a), FieldElement::from(b));
        assert_eq!(Felt::from(fa * fb), a * b);
        assert_eq!(Felt::from(fa - fb), a - b);
    }

    #[test]
    fn unreduced_raw_limbs_convert_through_bytes() {
        crate::interop::check_unreduced(FieldElement::from_mont);
    }
}
