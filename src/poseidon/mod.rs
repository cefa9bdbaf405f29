//! Starknet's Poseidon hash: the Hades permutation (width 3, `x ↦ x³`, 4 + 83 + 4 rounds) in a
//! sponge of rate 2 and capacity 1.
//!
//! The public surface matches `starknet-crypto` 0.8 (same names, same outputs):
//!
//! * `poseidon_hash(x, y)` = `permute([x, y, 2])[0]`
//! * `poseidon_hash_single(x)` = `permute([x, 0, 1])[0]`
//! * `poseidon_hash_many(m)`: pad `m` with 1 (then 0 if its length is odd), start from
//!   `[0, 0, 0]`, for each pair `(u, v)` permute `[s0 + u, s1 + v, s2]`; return `s0`.
//! * `poseidon_permute_comp(state)`: the permutation itself.
//!
//! Definitions: cairo-lang `poseidon_utils.py` / `poseidon_hash.py`. The permutation is written
//! once, generic over [`PackedFelt`] (`hades.rs`), and used here with the
//! lazily reduced scalar type `lazy::Lazy`.

pub(crate) mod constants;
pub(crate) mod hades;
mod hasher;
pub(crate) mod lazy;

pub use hasher::PoseidonHasher;

use crate::field::{Felt, PackedFelt};
use constants::COMPRESSED_ROUND_CONSTANTS;
use lazy::Lazy;

/// The permutation on scalar field elements, compiled for the best scalar instruction set
/// this CPU has (see `crate::backend::scalar`): [`permute_lazy`] either way.
#[inline]
fn permute_scalar(state: &mut [Felt; 3]) {
    crate::backend::scalar::poseidon_permute(state, &[])
}

/// The permutation on scalar field elements: the generic [`hades::permute_known`]
/// instantiated with the lazily reduced scalar type [`lazy::Lazy`] (values below 2p inside,
/// canonical out). The last `K` cells are fixed and given as their first-round S-box outputs
/// `cubes` ([`constants::HASH2_CUBES`] for `poseidon_hash`'s `[x, y, 2]`); `state`'s values
/// there are ignored.
#[inline(always)]
pub(crate) fn permute_lazy<const K: usize>(state: &mut [Felt; 3], cubes: &[Felt; K]) {
    let mut s = [
        Lazy::load(&state[0..1]),
        Lazy::load(&state[1..2]),
        Lazy::load(&state[2..3]),
    ];
    hades::permute_known::<Lazy>(&mut s, &COMPRESSED_ROUND_CONSTANTS, cubes);
    for (x, out) in s.into_iter().zip(state.chunks_exact_mut(1)) {
        x.store(out);
    }
}

/// The Poseidon hash of two elements: `permute([x, y, 2])[0]`.
///
/// ```
/// use starkbatch::{poseidon_hash, Felt};
/// // Vector from spec/starknet.md (cairo-lang).
/// let h = poseidon_hash(Felt::from(0x123456u64), Felt::from(0x789101u64));
/// assert_eq!(
///     h,
///     Felt::from_hex("0x2fb6e1e8838d4b850877944f0a13340dd5810f01f5d4361c54b22b4abda3248").unwrap()
/// );
/// ```
pub fn poseidon_hash(x: Felt, y: Felt) -> Felt {
    // Cell 2 holds 2; its first S-box output is a constant (`hades::permute_known`).
    let mut state = [x, y, Felt::TWO];
    crate::backend::scalar::poseidon_permute(&mut state, &constants::HASH2_CUBES);
    state[0]
}

/// The Poseidon hash of one element: `permute([x, 0, 1])[0]`.
pub fn poseidon_hash_single(x: Felt) -> Felt {
    // Cells 1 and 2 hold 0 and 1; their first S-box outputs are constants.
    let mut state = [x, Felt::ZERO, Felt::ONE];
    crate::backend::scalar::poseidon_permute(&mut state, &constants::HASH1_CUBES);
    state[0]
}

/// The Poseidon hash of any number of elements (the sponge described in the module docs);
/// the same as feeding them to a [`PoseidonHasher`].
///
/// Takes anything that iterates over `&Felt`, as `starknet-crypto` does: a slice, a `Vec`
/// reference, an array reference or an iterator.
pub fn poseidon_hash_many<'a, I: IntoIterator<Item = &'a Felt>>(msgs: I) -> Felt {
    let mut state = [Felt::ZERO; 3];
    let mut iter = msgs.into_iter();
    loop {
        let Some(u) = iter.next() else {
            state[0] += Felt::ONE;
            break;
        };
        state[0] += *u;
        let Some(v) = iter.next() else {
            state[1] += Felt::ONE;
            break;
        };
        state[1] += *v;
        permute_scalar(&mut state);
    }
    permute_scalar(&mut state);
    state[0]
}

/// The Hades permutation applied in place (named as in `starknet-crypto`).
pub fn poseidon_permute_comp(state: &mut [Felt; 3]) {
    permute_scalar(state);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// The lazily reduced scalar path equals the generic permutation on canonical `Felt`s.
        #[test]
        fn lazy_permute_equals_felt_permute(a in any::<[u8; 32]>(), b in any::<[u8; 32]>(), c in any::<[u8; 32]>()) {
            let mut x = [a, b, c].map(|v| Felt::from_bytes_be_reduced(&v));
            let mut y = x;
            permute_scalar(&mut x);
            hades::permute::<Felt>(&mut y, &COMPRESSED_ROUND_CONSTANTS);
            prop_assert_eq!(x, y);
        }
    }
}
