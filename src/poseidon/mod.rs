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

// The AVX2 backend's Poseidon type: two sets of four lanes whose rounds run as generated
// assembly (x86-64 only).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2_rounds;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2_twin;
pub(crate) mod constants;
pub(crate) mod hades;
mod hasher;
pub(crate) mod lazy;

pub use hasher::PoseidonHasher;

use crate::field::{Felt, PackedFelt};
use constants::COMPRESSED_ROUND_CONSTANTS;
use lazy::Lazy;

/// The permutation on scalar field elements, compiled for the best scalar instruction set
/// this CPU has ([`permute_best`]): [`permute_lazy`] either way.
#[inline]
fn permute_scalar(state: &mut [Felt; 3]) {
    permute_best(state, &[])
}

/// [`permute_lazy`] compiled with BMI2.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn poseidon_permute_bmi2<const K: usize>(state: &mut [Felt; 3], cubes: &[Felt; K]) {
    permute_lazy(state, cubes)
}

/// The Hades permutation on one state, with the fastest scalar code this CPU runs; the last
/// `K` cells are fixed and given as their first-round S-box outputs (`hades::permute_known`).
#[inline]
pub(crate) fn permute_best<const K: usize>(state: &mut [Felt; 3], cubes: &[Felt; K]) {
    #[cfg(target_arch = "x86_64")]
    if crate::backend::cpu::has_bmi2() {
        // SAFETY: BMI2 is present (run-time test above, or the build targets it).
        unsafe { poseidon_permute_bmi2(state, cubes) };
        return;
    }
    permute_lazy(state, cubes)
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
    permute_best(&mut state, &constants::HASH2_CUBES);
    state[0]
}

/// The Poseidon hash of one element: `permute([x, 0, 1])[0]`.
pub fn poseidon_hash_single(x: Felt) -> Felt {
    // Cells 1 and 2 hold 0 and 1; their first S-box outputs are constants.
    let mut state = [x, Felt::ZERO, Felt::ONE];
    permute_best(&mut state, &constants::HASH1_CUBES);
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

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    /// The BMI2 build of the permutation equals the plain one, on edge and pseudo-random states.
    #[test]
    fn bmi2_permutation_equals_plain() {
        if !crate::backend::cpu::has_bmi2() {
            return;
        }
        let edges = [
            Felt::ZERO,
            Felt::ONE,
            Felt::TWO,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::from_hex("0x800000000000000000000000000000000000000000000000000000000000000")
                .unwrap(),
            Felt::from(u64::MAX),
            Felt::from(u128::MAX),
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut states = Vec::new();
        for a in edges {
            for b in edges {
                states.push([a, b, Felt::from(next())]);
            }
        }
        for _ in 0..200 {
            let limbs = [next(), next(), next(), next() >> 5];
            let v = Felt::from_raw_limbs(limbs).unwrap_or(Felt::MAX);
            states.push([v, Felt::from(next()), v.square()]);
        }
        use constants::{HASH1_CUBES, HASH2_CUBES};
        for s in states {
            let mut plain = s;
            permute_lazy(&mut plain, &[]);
            let mut fast = s;
            // SAFETY: `crate::backend::cpu::has_bmi2()` was checked at the top of the test.
            unsafe { poseidon_permute_bmi2(&mut fast, &[]) };
            assert_eq!(plain, fast, "state {s:?}");
            // The forms with known cells (`poseidon_hash`, `poseidon_hash_single`).
            let (mut plain, mut fast) = (s, s);
            permute_lazy(&mut plain, &HASH2_CUBES);
            // SAFETY: as above.
            unsafe { poseidon_permute_bmi2(&mut fast, &HASH2_CUBES) };
            assert_eq!(plain, fast, "state {s:?} with cell 2 known");
            let (mut plain, mut fast) = (s, s);
            permute_lazy(&mut plain, &HASH1_CUBES);
            // SAFETY: as above.
            unsafe { poseidon_permute_bmi2(&mut fast, &HASH1_CUBES) };
            assert_eq!(plain, fast, "state {s:?} with cells 1 and 2 known");
        }
    }
}
