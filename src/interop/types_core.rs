//! Conversions between [`Felt`] and `starknet_types_core::felt::Felt` (feature
//! `starknet-types-core`), one at a time and for whole batches.
//!
//! starknet-types-core's felt wraps lambdaworks' `FieldElement<Stark252PrimeField>`: its raw
//! limbs are the Montgomery limbs most significant first (see [the module](super)).
//!
//! ```
//! use starkbatch::interop::{from_core_vec, to_core_vec};
//! use starknet_types_core::felt::Felt as CoreFelt;
//! use starknet_types_core::hash::{Poseidon, StarkHash};
//!
//! let core = vec![CoreFelt::from(1u64), CoreFelt::from(2u64)];
//! let mut out = vec![starkbatch::Felt::ZERO; 1];
//! starkbatch::poseidon_hash_batch(&[[core[0].into(), core[1].into()]], &mut out);
//! let hash: CoreFelt = out[0].into();
//! assert_eq!(hash, Poseidon::hash(&core[0], &core[1]));
//! assert_eq!(to_core_vec(&from_core_vec(&core)), core);
//! ```

use super::{ForeignFelt, foreign_from, reversed};
use crate::Felt;
use alloc::vec::Vec;
use starknet_types_core::felt::Felt as CoreFelt;

impl ForeignFelt for CoreFelt {
    #[inline]
    fn montgomery_limbs(&self) -> [u64; 4] {
        reversed(self.to_raw())
    }
    #[inline]
    fn from_reduced_montgomery_limbs(limbs: [u64; 4]) -> Self {
        CoreFelt::from_raw(reversed(limbs))
    }
    fn canonical_bytes_be(&self) -> [u8; 32] {
        self.to_bytes_be()
    }
}

foreign_from!(CoreFelt);

/// `dst[i] = Felt::from(&src[i])`.
///
/// # Panics
/// If `src.len() != dst.len()`.
pub fn from_core_slice(src: &[CoreFelt], dst: &mut [Felt]) {
    super::from_foreign_slice(src, dst);
}

/// `dst[i] = CoreFelt::from(&src[i])`.
///
/// # Panics
/// If `src.len() != dst.len()`.
pub fn to_core_slice(src: &[Felt], dst: &mut [CoreFelt]) {
    super::to_foreign_slice(src, dst);
}

/// The starkbatch felts of `src`, in a new vector.
pub fn from_core_vec(src: &[CoreFelt]) -> Vec<Felt> {
    super::from_foreign_vec(src)
}

/// The starknet-types-core felts of `src`, in a new vector.
pub fn to_core_vec(src: &[Felt]) -> Vec<CoreFelt> {
    super::to_foreign_vec(src)
}

/// `dst[i] = [Felt::from(&src[i][0]), Felt::from(&src[i][1])]`: pairs for
/// [`poseidon_hash_batch`](crate::poseidon_hash_batch) and
/// [`pedersen_hash_batch`](crate::pedersen_hash_batch).
///
/// # Panics
/// If `src.len() != dst.len()`.
pub fn from_core_pairs(src: &[[CoreFelt; 2]], dst: &mut [[Felt; 2]]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "from_core_pairs: src and dst lengths differ"
    );
    for (d, [a, b]) in dst.iter_mut().zip(src) {
        *d = [Felt::from(a), Felt::from(b)];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core_of_bytes(b: &[u8; 32]) -> CoreFelt {
        CoreFelt::from_bytes_be(b)
    }

    #[test]
    fn constants_match() {
        assert_eq!(CoreFelt::from(Felt::ZERO), CoreFelt::ZERO);
        assert_eq!(CoreFelt::from(Felt::ONE), CoreFelt::ONE);
        assert_eq!(CoreFelt::from(Felt::TWO), CoreFelt::TWO);
        assert_eq!(CoreFelt::from(Felt::MAX), CoreFelt::MAX);
        assert_eq!(Felt::from(CoreFelt::MAX), Felt::MAX);
        assert_eq!(Felt::from(CoreFelt::ZERO), Felt::ZERO);
    }

    #[test]
    fn values_agree_through_bytes() {
        crate::interop::check_round_trips::<CoreFelt>(|c| c.to_bytes_be(), core_of_bytes);
    }

    #[test]
    fn unreduced_raw_limbs_convert_through_bytes() {
        // Raw limbs at and above p (most significant limb first), which from_raw accepts.
        let p_be = reversed(Felt::MODULUS_LIMBS);
        for raw in [
            p_be,
            [u64::MAX; 4],
            [p_be[0], p_be[1], p_be[2], p_be[3] + 5],
        ] {
            let c = CoreFelt::from_raw(raw);
            let f = Felt::from(&c);
            assert_eq!(f.to_bytes_be(), c.to_bytes_be());
        }
    }

    #[test]
    fn slices_and_vectors() {
        let felts: Vec<Felt> = (0..37u64)
            .map(|i| Felt::from(i).pow(5) - Felt::ONE)
            .collect();
        let core = to_core_vec(&felts);
        let mut back = vec![Felt::ZERO; felts.len()];
        from_core_slice(&core, &mut back);
        assert_eq!(back, felts);
        let mut core2 = vec![CoreFelt::ZERO; felts.len()];
        to_core_slice(&felts, &mut core2);
        assert_eq!(core2, core);
        assert_eq!(from_core_vec(&core), felts);
        let pairs: Vec<[CoreFelt; 2]> = core.chunks_exact(2).map(|c| [c[0], c[1]]).collect();
        let mut ours = vec![[Felt::ZERO; 2]; pairs.len()];
        from_core_pairs(&pairs, &mut ours);
        for (o, p) in ours.iter().zip(&pairs) {
            assert_eq!(o, &[Felt::from(&p[0]), Felt::from(&p[1])]);
        }
    }

    #[test]
    #[should_panic(expected = "lengths differ")]
    fn mismatched_lengths_panic() {
        from_core_slice(&[CoreFelt::ONE], &mut []);
    }
}
