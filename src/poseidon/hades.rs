//! The Hades permutation of Starknet's Poseidon, written once over [`PackedFelt`].
//!
//! # Math
//! State `(a, b, c)` of three field elements. Rounds: 4 full, 83 partial, 4 full. A round adds
//! constants, cubes (all three cells in a full round, cell 2 in a partial round) and multiplies
//! by the MDS matrix `[[3,1,1],[1,-1,1],[1,1,-2]]`. This uses the compressed schedule of
//! [`COMPRESSED_ROUND_CONSTANTS`](super::constants::COMPRESSED_ROUND_CONSTANTS) (107 constants:
//! three per full round, one per partial round, see `constants.rs`), which gives exactly the
//! textbook 91-round permutation (tested below).
//!
//! # The linear layer without multiplications
//! With `s = a + b` and `t = s + c`: `M·(a, b, c) = (t + 2a, t - 2b, s - 2c)` (the last is
//! `t - 3c`). That is 8 additions, subtractions or doublings per full round and no
//! multiplication.
//!
//! # Partial rounds in other coordinates
//! Between the full rounds the state is carried as `(A, s, c) = (2a, a + b, c)`, with the next
//! round constant already added to `c`. With `z = 2c³ = c²·(2c)` a round is
//! `s' = 2A + z`, `A' = 2s + s'`, `c' = (s + k) - z`: seven linear operations (three doublings,
//! as many as the factor `det M = 8` calls for, and four additions or subtractions, one of
//! them the constant) against nine in the textbook form. The chain from one S-box to the
//! next is square → mul → sub, with the doubling of `c` and `s + k` beside it. The last
//! partial round returns to `(a, b, c)` without halving (see [`last_partial_round`]).
//!
//! # Representation and bounds (lazy linear layer)
//! Only trait operations are used, so every lane type (scalar or SIMD) shares this code. The
//! S-box inputs need only be valid multiplication inputs; the linear layer uses the lazy
//! operations of [`PackedFelt`] where the weight contract (`crate::field::packed`) allows, so
//! that every type (the SIMD lanes and the scalar `crate::poseidon::lazy::Lazy`) renormalises
//! as rarely as possible. Weights, written `w(x)`:
//! * full round: the three `add_constant` normalise (inputs of weight at most 7, below the
//!   limit 10), the cubes give weight 1, and the lazy MDS layer gives `w = 5, 7, 6`
//!   (`t = a + b + c` has weight 3, `2a`, `2b`, `2c` weight 2, a lazy subtraction adds 4);
//! * entering the partial rounds, `a` is normalised, then `A = 2a` and `s = a + b` normalise
//!   (`w(a + b) = 1 + 7`), and `c + k` normalises;
//! * partial round, from `w(A) = 1`, `w(s) <= 3`, `w(c) <= 2`: `c²` has weight 1 (a square
//!   input of weight 2: `w²` = 4) and `2c` weight at most 4 (a multiplication input; the
//!   product of the weights is at most 4, which every type's
//!   [`MUL_WEIGHTS`](PackedFelt::MUL_WEIGHTS) allows); `s' = 2A + z` has weight 3 and is never
//!   normalised; `A' = 2s + s'` (weight at most 9) is normalised; `c' = (s + k) - z` is a
//!   [`sub_for_mul`](PackedFelt::sub_for_mul) from weights 4 and 1, which gives weight at most
//!   2 (weight 1 for the SIMD lane types, whose `sub_for_mul` is the normalising `sub`; for the
//!   scalar type the last step of the chain from one S-box to the next is then one borrow
//!   chain, with the reduction of `s + k` beside it);
//! * for types whose multiplication accepts a square input of weight 4 (`MUL_WEIGHTS >= 16`:
//!   every lane type) the partial rounds run [`partial_round_wide`] instead, which normalises
//!   once per round: from `w(A) <= 3`, `w(s) = 1`, `w(c) <= 4`, `z = (2c²)·c`, `s' = 2A + z`
//!   is normalised (weight 7 in), `A' = 2s + s'` (weight 3) and `c' = (s + k) - z` (a lazy
//!   subtraction of a normal value, weight 4) stay lazy. Such a type may also run all 82 of
//!   them in a fused kernel ([`PackedFelt::poseidon_partial_rounds`]; the AVX2 eight-lane type
//!   does);
//! * the last partial round takes `c` of weight at most 2, or 4 after the wide rounds (`cube`
//!   squares it: `w² <= 16`), and uses normalising operations only (inputs of weight at most
//!   7), and the permutation normalises its three outputs (weights 5, 7, 6) before returning;
//! * full rounds of types with [`PackedFelt::ROLLED_FULL_ROUNDS`] run their three S-boxes as a
//!   loop (the same operations), and a type may run each group of four full rounds in a fused
//!   kernel ([`PackedFelt::poseidon_full_rounds`]; the AVX2 eight-lane type does).
//!
//! # Known cells
//! `poseidon_hash` permutes `[x, y, 2]` and `poseidon_hash_single` `[x, 0, 1]`: a fixed cell's
//! first-round S-box output is the same in every call. [`permute_known`] takes it prepared
//! (`HASH2_CUBES`, `HASH1_CUBES` in `constants.rs`) and runs the first round's S-boxes on the
//! other cells only; a prepared constant has weight 1, like the S-box output it replaces.
//!
//! [`PackedFelt::store`] makes values canonical.

use crate::field::PackedFelt;

/// Number of constants in the compressed schedule.
const N: usize = super::constants::N_CONSTANTS;

/// `x³` with one squaring and one multiplication.
#[inline(always)]
fn cube<P: PackedFelt>(x: P) -> P {
    x.cube()
}

/// The MDS layer `(t + 2a, t - 2b, t - 3c)` with `t = a + b + c`, using only add/sub/double.
#[inline(always)]
fn mix<P: PackedFelt>(a: P, b: P, c: P) -> (P, P, P) {
    // Inputs of weight 1; outputs of weight 5, 7, 6 (module docs).
    let s = a.add_lazy(b);
    let t = s.add_lazy(c);
    (
        t.add_lazy(a.double_lazy()),
        t.sub_lazy(b.double_lazy()),
        s.sub_lazy(c.double_lazy()),
    )
}

/// A full round: add three constants, cube every cell, mix.
#[inline(always)]
pub(crate) fn full_round<P: PackedFelt>(a: P, b: P, c: P, k: &[P::Constant]) -> (P, P, P) {
    full_round_first(a, b, c, k, 3)
}

/// A full round whose S-boxes run on the first `sboxes` cells only: the others already hold
/// their S-box output (weight 1), the same in every call ([`permute_known`]).
#[inline(always)]
pub(crate) fn full_round_first<P: PackedFelt>(
    a: P,
    b: P,
    c: P,
    k: &[P::Constant],
    sboxes: usize,
) -> (P, P, P) {
    let mut x = [a, b, c];
    if P::ROLLED_FULL_ROUNDS {
        // One S-box per iteration. The trip count is hidden from the optimiser so that it
        // keeps the loop rolled: one copy of the cube's code, small enough for the
        // decoded-instruction cache (see `PackedFelt::ROLLED_FULL_ROUNDS`).
        for (x, k) in x.iter_mut().zip(k).take(core::hint::black_box(sboxes)) {
            *x = cube(x.add_constant(k));
        }
    } else {
        // Straight-line S-boxes (`sboxes` is a constant wherever this is inlined).
        x[0] = cube(x[0].add_constant(&k[0]));
        if sboxes > 1 {
            x[1] = cube(x[1].add_constant(&k[1]));
        }
        if sboxes > 2 {
            x[2] = cube(x[2].add_constant(&k[2]));
        }
    }
    mix(x[0], x[1], x[2])
}

/// One partial round in the coordinates `(A = 2a, s = a + b, c)`, where `c` already holds the
/// round constant; `k` is the next partial round's constant.
///
/// With `y = c³` the MDS gives `a' = s + 2a + y`, `s' = a' + b' = 4a + 2y`, `c' = s - 2y`. In
/// terms of `z = 2y = c²·(2c)` (the doubling runs beside the squaring, off the critical path):
/// `s' = 2A + z`, `A' = 2a' = 2s + s'` and `c' + k = (s + k) - z`, where `s + k` is also off
/// the critical path. Seven linear operations; the chain through the round is
/// square → mul → sub.
#[inline(always)]
fn partial_round<P: PackedFelt>(big_a: P, s: P, c: P, k: &P::Constant) -> (P, P, P) {
    // w(big_a) = 1, w(s) <= 3, w(c) <= 2 in; the same out (module docs).
    let z = c.square().mul(c.double_lazy());
    let s_next = big_a.double_lazy().add_lazy(z);
    let a_next = s.double_lazy().add_lazy(s_next).normalize();
    (a_next, s_next, s.add_constant_lazy(k).sub_for_mul(z))
}

/// The partial round of [`partial_round`] with one normalisation instead of two, for types
/// whose multiplication accepts a square input of weight 4 (`MUL_WEIGHTS >= 16`: every lane
/// type, not the scalar Poseidon type).
///
/// Weights: in and out `w(A) <= 3`, `w(s) = 1`, `w(c) <= 4`. `z = (2c²)·c` (inputs of weight
/// 2 and 4, product 8); `s' = 2A + z` is normalised (weight `2·3 + 1 = 7` in); `A' = 2s + s'`
/// stays lazy (`2·1 + 1 = 3`); `c' = (s + k) - z` is a lazy subtraction of a normal value
/// (`1 + 1 + 2 = 4`). The chain from one S-box to the next is square → double → mul → two
/// lane-wise additions, without a normalisation.
#[inline(always)]
pub(crate) fn partial_round_wide<P: PackedFelt>(
    big_a: P,
    s: P,
    c: P,
    k: &P::Constant,
) -> (P, P, P) {
    let z = c.double_cube();
    let s_next = big_a.double_lazy().add_lazy(z).normalize();
    let a_next = s.double_lazy().add_lazy(s_next);
    (a_next, s_next, s.add_constant_lazy(k).sub_lazy_normal(z))
}

/// The last partial round, from `(A = 2a, s = a + b, c)` back to `(a, b, c)` without halving:
/// `a' = s + (A + y)`, `s' = 2(A + y)`, `b' = s' - a'`, `c' = s - 2y`.
#[inline(always)]
fn last_partial_round<P: PackedFelt>(big_a: P, s: P, c: P) -> (P, P, P) {
    let y = cube(c);
    let w = big_a.add(y);
    let a = s.add(w);
    let b = w.double().sub(a);
    (a, b, s.sub(y.double()))
}

/// The Hades permutation on `state`, using a prepared copy of the compressed schedule
/// (`rc[i] = P::prepare(COMPRESSED_ROUND_CONSTANTS[i])`).
#[inline(always)]
pub(crate) fn permute<P: PackedFelt>(state: &mut [P; 3], rc: &[P::Constant; N]) {
    permute_known(state, rc, &[]);
}

/// The Hades permutation of a state whose last `cubes.len()` cells (at most two) hold the same
/// value in every call, given as those cells' first-round S-box outputs: cell
/// `3 − cubes.len() + j` of the input is ignored, and `cubes[j]` (prepared
/// `(v + k)³` of its fixed value `v` and first-round constant `k`) takes the place of its
/// first S-box. The result is that of [`permute`] on the full state, with one or two S-boxes
/// fewer (`poseidon_hash`'s `[x, y, 2]`: 105 instead of 106 per permutation).
///
/// # Panics
/// If `cubes.len() > 2` (a constant in every caller).
#[inline(always)]
pub(crate) fn permute_known<P: PackedFelt>(
    state: &mut [P; 3],
    rc: &[P::Constant; N],
    cubes: &[P::Constant],
) {
    // The largest product of multiplication input weights used here (module docs).
    const { assert!(P::MUL_WEIGHTS >= 4) };
    assert!(cubes.len() <= 2, "at most two known cells");
    let sboxes = 3 - cubes.len();
    for (x, c) in state[sboxes..].iter_mut().zip(cubes) {
        *x = P::constant(c);
    }
    let (first, rest) = rc.split_at(12);
    let (partial, last) = rest.split_at(83);
    if !P::poseidon_full_rounds(state, first, sboxes) {
        let [a, b, c] = *state;
        let (mut a, mut b, mut c) = full_round_first(a, b, c, &first[..3], sboxes);
        for k in first[3..].chunks_exact(3) {
            (a, b, c) = full_round(a, b, c, k);
        }
        *state = [a, b, c];
    }
    let [mut a, b, mut c] = *state;
    // Partial rounds in the coordinates (A = 2a, s = a + b, c + constant).
    a = a.normalize();
    let mut big_a = a.double();
    let mut s = a.add(b);
    c = c.add_constant(&partial[0]);
    if P::MUL_WEIGHTS >= 16 {
        let mut state = [big_a, s, c];
        if P::poseidon_partial_rounds(&mut state) {
            [big_a, s, c] = state;
        } else {
            for k in &partial[1..] {
                (big_a, s, c) = partial_round_wide(big_a, s, c, k);
            }
        }
    } else {
        for k in &partial[1..] {
            (big_a, s, c) = partial_round(big_a, s, c, k);
        }
    }
    let (a, b, c) = last_partial_round(big_a, s, c);
    *state = [a, b, c];
    if !P::poseidon_full_rounds(state, last, 3) {
        for k in last.chunks_exact(3) {
            let [a, b, c] = *state;
            let (a, b, c) = full_round(a, b, c, k);
            *state = [a, b, c];
        }
    }
    // Not `state.map(..)`: a closure does not inherit the caller's target features, and the
    // lane operations inside it would become calls (docs/backends.md, safety section).
    let [a, b, c] = *state;
    *state = [a.normalize(), b.normalize(), c.normalize()];
}

#[cfg(test)]
mod tests {
    use super::super::constants::COMPRESSED_ROUND_CONSTANTS;
    use super::super::constants::tests::{raw_constants, to_felt};
    use super::*;
    use crate::field::Felt;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The textbook permutation: 91 rounds, each adding all three raw constants.
    fn textbook(state: &mut [Felt; 3], ark: &[[Felt; 3]]) {
        for (i, row) in ark.iter().enumerate() {
            for j in 0..3 {
                state[j] += row[j];
            }
            let full = !(4..87).contains(&i);
            for (j, x) in state.iter_mut().enumerate() {
                if full || j == 2 {
                    *x = *x * *x * *x;
                }
            }
            let [a, b, c] = *state;
            // [[3,1,1],[1,-1,1],[1,1,-2]] as a plain matrix product.
            let three = Felt::from(3u64);
            let two = Felt::from(2u64);
            *state = [three * a + b + c, a - b + c, a + b - two * c];
        }
    }

    fn ark_felts() -> &'static [[Felt; 3]] {
        static ARK: crate::sync::OnceTable<Vec<[Felt; 3]>> = crate::sync::OnceTable::new();
        ARK.get_or_init(|| {
            raw_constants()
                .iter()
                .map(|r| [to_felt(&r[0]), to_felt(&r[1]), to_felt(&r[2])])
                .collect()
        })
    }

    fn felt_strategy() -> impl Strategy<Value = Felt> {
        prop_oneof![
            any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)),
            prop_oneof![
                Just(Felt::ZERO),
                Just(Felt::ONE),
                Just(Felt::MAX),
                Just(Felt::MAX - Felt::ONE),
            ],
        ]
    }

    #[test]
    fn zero_state_vector() {
        // starkware-industries/poseidon test vector (spec/starknet.md).
        let mut s = [Felt::ZERO; 3];
        permute(&mut s, &COMPRESSED_ROUND_CONSTANTS);
        assert_eq!(
            s[0],
            Felt::from_hex_unchecked(
                "0x79e8d1e78258000a28fc9d49e233bc6852357968577b1e386550ed6a9086133"
            )
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn compressed_equals_textbook(a in felt_strategy(), b in felt_strategy(), c in felt_strategy()) {
            let ark = ark_felts();
            let mut x = [a, b, c];
            let mut y = x;
            permute(&mut x, &COMPRESSED_ROUND_CONSTANTS);
            textbook(&mut y, ark);
            prop_assert_eq!(x, y);
        }

        /// `permute_known` with the prepared first-round cubes equals `permute` of the full
        /// states `[x, y, 2]` and `[x, 0, 1]`, whatever the ignored cells hold, for `Felt` and
        /// for the scalar Poseidon type `Lazy` (which runs the unrolled full rounds).
        #[test]
        fn known_cells_equal_full_state(x in felt_strategy(), y in felt_strategy(), junk in felt_strategy()) {
            use super::super::constants::{HASH1_CUBES, HASH2_CUBES};
            known_equals_full([x, y, Felt::TWO], &HASH2_CUBES, [junk, y])?;
            known_equals_full([x, Felt::ZERO, Felt::ONE], &HASH1_CUBES, [junk, y])?;
        }
    }

    /// `full` permuted with `permute` equals the same state with its last `K` cells replaced
    /// by `junk` permuted with `permute_known` (for `Felt`) and with `permute_lazy` (`Lazy`),
    /// given the cubes of those cells' values.
    fn known_equals_full<const K: usize>(
        full: [Felt; 3],
        cubes: &[Felt; K],
        junk: [Felt; 2],
    ) -> Result<(), TestCaseError> {
        let rc = &COMPRESSED_ROUND_CONSTANTS;
        let mut want = full;
        permute(&mut want, rc);
        let mut known = full;
        for (x, j) in known[3 - K..].iter_mut().zip(junk) {
            *x = j;
        }
        let mut got = known;
        permute_known(&mut got, rc, cubes);
        prop_assert_eq!(got, want);
        let mut lazy = known;
        super::super::permute_lazy(&mut lazy, cubes);
        prop_assert_eq!(lazy, want);
        Ok(())
    }
}
