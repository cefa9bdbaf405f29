//! Conversions between [`Felt`] and `starknet_types_core::felt::Felt` (feature
//! `starknet-types-core`), one at a time and for whole batches.
//!
//! # Representation
//! Both types hold a field element in Montgomery form `a·R mod p` with `R = 2^256`, fully
//! reduced (below p), in four 64-bit limbs: starkbatch stores them least significant first,
//! starknet-types-core (lambdaworks' `UnsignedInteger<4>`) most significant first. A conversion
//! is therefore a reversal of the limb order, with no arithmetic. A starknet-types-core value
//! built from unreduced raw limbs (`Felt::from_raw` does not check them) is converted through
//! its canonical bytes instead, so every conversion is total and agrees with
//! `to_bytes_be`.
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

use crate::Felt;
use alloc::vec::Vec;
use starknet_types_core::felt::Felt as CoreFelt;

/// Reverses the limb order (least significant first ↔ most significant first).
#[inline(always)]
const fn reversed(l: [u64; 4]) -> [u64; 4] {
    [l[3], l[2], l[1], l[0]]
}

impl From<&CoreFelt> for Felt {
    #[inline]
    fn from(value: &CoreFelt) -> Felt {
        match Felt::from_montgomery_limbs(reversed(value.to_raw())) {
            Some(f) => f,
            // Unreduced raw limbs: take starknet-types-core's own canonical value.
            None => Felt::from_bytes_be_reduced(&value.to_bytes_be()),
        }
    }
}

impl From<CoreFelt> for Felt {
    #[inline]
    fn from(value: CoreFelt) -> Felt {
        Felt::from(&value)
    }
}

impl From<&Felt> for CoreFelt {
    #[inline]
    fn from(value: &Felt) -> CoreFelt {
        CoreFelt::from_raw(reversed(value.to_montgomery_limbs()))
    }
}

impl From<Felt> for CoreFelt {
    #[inline]
    fn from(value: Felt) -> CoreFelt {
        CoreFelt::from(&value)
    }
}

/// `dst[i] = Felt::from(&src[i])`.
///
/// # Panics
/// If `src.len() != dst.len()`.
pub fn from_core_slice(src: &[CoreFelt], dst: &mut [Felt]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "from_core_slice: src and dst lengths differ"
    );
    for (d, s) in dst.iter_mut().zip(src) {
        *d = Felt::from(s);
    }
}

/// `dst[i] = CoreFelt::from(&src[i])`.
///
/// # Panics
/// If `src.len() != dst.len()`.
pub fn to_core_slice(src: &[Felt], dst: &mut [CoreFelt]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "to_core_slice: src and dst lengths differ"
    );
    for (d, s) in dst.iter_mut().zip(src) {
        *d = CoreFelt::from(s);
    }
}

/// The starkbatch felts of `src`, in a new vector.
pub fn from_core_vec(src: &[CoreFelt]) -> Vec<Felt> {
    src.iter().map(Felt::from).collect()
}

/// The starknet-types-core felts of `src`, in a new vector.
pub fn to_core_vec(src: &[Felt]) -> Vec<CoreFelt> {
    src.iter().map(CoreFelt::from).collect()
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
        // Edge values and a spread of others: the conversion must agree with the byte encodings.
        let mut values = vec![Felt::ZERO, Felt::ONE, Felt::MAX, Felt::MAX - Felt::ONE];
        for i in 0..256u32 {
            values.push(Felt::TWO.pow(u128::from(i)));
            values.push(Felt::TWO.pow(u128::from(i)) - Felt::ONE);
            values.push(Felt::from(u64::from(i) * 0x9e37_79b9_7f4a_7c15).pow(7));
        }
        for f in &values {
            let c = CoreFelt::from(f);
            assert_eq!(c.to_bytes_be(), f.to_bytes_be(), "{f}");
            assert_eq!(Felt::from(&c), *f);
            assert_eq!(Felt::from(&core_of_bytes(&f.to_bytes_be())), *f);
        }
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
