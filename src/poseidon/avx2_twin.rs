//! [`Twin`]: two independent sets of four lanes in lock-step, eight field elements per value.
//!
//! Every operation is applied to both halves, so each multiplication is two independent carry
//! chains that the out-of-order core overlaps (one set alone leaves the vector pipes idle while
//! its chain completes; docs/poseidon-kernels.md). Both halves share one prepared constant. The
//! Poseidon rounds of a twin run as the fused assembly kernels of [`super::avx2_rounds`].
//!
//! # Safety
//! A `Twin` is only created inside the AVX2 entry points of `crate::batch` (reached through a
//! `Backend` that found AVX2 at run time), so AVX2 is present whenever its methods run.

use super::avx2_rounds::{full_rounds, partial_rounds};
use crate::backend::avx2::Avx2Lane;
use crate::backend::packed::{Packed, PackedConstant};
use crate::backend::pair::both;
use crate::field::{Felt, PackedFelt};

type V = Avx2Lane;

/// Eight elements: the first four in `.0`, the rest in `.1`.
#[derive(Clone, Copy)]
pub(crate) struct Twin(Packed<V>, Packed<V>);

impl PackedFelt for Twin {
    const LANES: usize = 8;
    const MUL_WEIGHTS: u32 = Packed::<V>::MUL_WEIGHTS;
    const ROLLED_FULL_ROUNDS: bool = Packed::<V>::ROLLED_FULL_ROUNDS;
    type Constant = PackedConstant;

    #[inline(always)]
    fn prepare(c: Felt) -> PackedConstant {
        Packed::<V>::prepare(c)
    }
    #[inline(always)]
    fn constant(c: &PackedConstant) -> Self {
        Twin(Packed::constant(c), Packed::constant(c))
    }
    #[inline(always)]
    fn zero() -> Self {
        Twin(Packed::zero(), Packed::zero())
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Self {
        let (a, b) = src.split_at(4);
        Twin(Packed::load(a), Packed::load(b))
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        let (a, b) = dst.split_at_mut(4);
        self.0.store(a);
        self.1.store(b);
    }
    both!(Twin, unary square double double_lazy normalize);
    both!(Twin, binary add sub mul add_lazy sub_lazy sub_lazy_normal sub_for_mul);
    both!(Twin, PackedConstant, constant add_constant add_constant_lazy);
    #[inline(always)]
    fn poseidon_partial_rounds(state: &mut [Self; 3]) -> bool {
        let mut limbs = to_limbs(state);
        // SAFETY: AVX2 present (module docs). The weights the kernel requires are those of
        // `partial_round_wide`, which the caller (`hades::permute`, calling this in place of
        // that loop) guarantees.
        unsafe { partial_rounds(&mut limbs) };
        *state = from_limbs(limbs);
        true
    }
    #[inline(always)]
    fn poseidon_full_rounds(
        state: &mut [Self; 3],
        k: &[PackedConstant],
        first_sboxes: usize,
    ) -> bool {
        // The kernels run four rounds (twelve constants) at a time.
        let Ok(k) = <&[PackedConstant; 12]>::try_from(k) else {
            return false;
        };
        let mut limbs = to_limbs(state);
        // SAFETY: AVX2 present (module docs). The kernel requires limbs below 7·B, the weights
        // `full_round` accepts, which the caller (`hades::permute_known`, calling this in place
        // of those rounds) guarantees; it checks `first_sboxes` itself.
        unsafe { full_rounds(&mut limbs, k, first_sboxes) };
        *state = from_limbs(limbs);
        true
    }
}

/// The limbs of three twins as the kernels take them: set 0's three values, then set 1's.
#[inline(always)]
fn to_limbs(state: &[Twin; 3]) -> [[V; 9]; 6] {
    let [x, y, z] = *state;
    [x.0.0, y.0.0, z.0.0, x.1.0, y.1.0, z.1.0]
}

/// The inverse of [`to_limbs`].
#[inline(always)]
fn from_limbs(limbs: [[V; 9]; 6]) -> [Twin; 3] {
    let [a0, b0, c0, a1, b1, c1] = limbs;
    [
        Twin(Packed(a0), Packed(a1)),
        Twin(Packed(b0), Packed(b1)),
        Twin(Packed(c0), Packed(c1)),
    ]
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::avx2_rounds::{ROUNDS, TwinLimbs};
    use super::super::constants::COMPRESSED_ROUND_CONSTANTS;
    use super::super::hades::{full_round_first, partial_round_wide};
    use super::*;
    use crate::backend::lane::Lane;
    use crate::backend::packed::tests::Rng;
    use crate::backend::packed::{LIMB_BOUND, prepare_const};

    /// The round constants in the 9×28-bit form.
    fn prepared() -> alloc::vec::Vec<PackedConstant> {
        COMPRESSED_ROUND_CONSTANTS
            .iter()
            .map(|&c| prepare_const(c))
            .collect()
    }

    fn lanes(x: &Avx2Lane) -> [u64; 4] {
        x.to_array()
    }

    /// Runs `kernel` and `generic` (on each set) from 40 states whose limbs are below
    /// `bounds` (per value; including all-maximal and all-zero states) and asserts that they
    /// give the same limbs, not only the same values.
    fn same_limbs(
        bounds: [u64; 3],
        kernel: impl Fn(&mut TwinLimbs),
        generic: impl Fn([Packed<Avx2Lane>; 3]) -> [Packed<Avx2Lane>; 3],
    ) {
        let mut rng = Rng(0x5eed_0f7a_114e_e1d5);
        for case in 0..40 {
            let mut limbs = [[Avx2Lane::splat(0); 9]; 6];
            for (v, value) in limbs.iter_mut().enumerate() {
                for limb in value.iter_mut() {
                    let bound = bounds[v % 3];
                    let l: [u64; 4] = core::array::from_fn(|_| match case {
                        0 => bound - 1,
                        1 => 0,
                        _ => rng.limb(bound),
                    });
                    *limb = Avx2Lane::from_array(l);
                }
            }
            let mut expected = limbs;
            for set in expected.chunks_exact_mut(3) {
                let out = generic([Packed(set[0]), Packed(set[1]), Packed(set[2])]);
                for (x, y) in set.iter_mut().zip(out) {
                    *x = y.0;
                }
            }
            kernel(&mut limbs);
            for v in 0..6 {
                for i in 0..9 {
                    assert_eq!(
                        lanes(&limbs[v][i]),
                        lanes(&expected[v][i]),
                        "case {case}, value {v}, limb {i}"
                    );
                }
            }
        }
    }

    /// The partial-round kernel's output limbs equal those of the generic
    /// `partial_round_wide` loop, on states with limbs up to the bounds of the weights (`A`
    /// below 3B, `s` below B, `c` below 4B).
    #[test]
    fn partial_kernel_matches_generic_rounds_limb_for_limb() {
        if !is_x86_feature_detected!("avx2") {
            return;
        }
        let b = LIMB_BOUND;
        let rc = prepared();
        let ks = &rc[13..13 + ROUNDS];
        same_limbs(
            [3 * b, b, 4 * b],
            // SAFETY: AVX2 checked above; the limbs are within the weights' bounds.
            |limbs| unsafe { partial_rounds(limbs) },
            |[mut a, mut s, mut c]| {
                for k in ks {
                    (a, s, c) = partial_round_wide(a, s, c, k);
                }
                [a, s, c]
            },
        );
    }

    /// The full-round kernel's output limbs equal those of the generic `full_round`, for the
    /// first four rounds and the last four, on states with limbs up to `7·B` (the largest
    /// weight `add_constant` accepts); and, with one or two cells' first S-boxes skipped
    /// (those cells then hold S-box outputs, limbs below `B`), those of the generic rounds of
    /// `hades::permute_known`.
    #[test]
    fn full_kernel_matches_generic_rounds_limb_for_limb() {
        if !is_x86_feature_detected!("avx2") {
            return;
        }
        let b = LIMB_BOUND;
        let rc = prepared();
        for ks in [&rc[..12], &rc[95..]] {
            let k: &[PackedConstant; 12] = ks.try_into().unwrap();
            for first in 1..=3 {
                let bounds = core::array::from_fn(|j| if j < first { 7 * b } else { b });
                same_limbs(
                    bounds,
                    // SAFETY: AVX2 checked above; the limbs are below 7·B.
                    |limbs| unsafe { full_rounds(limbs, k, first) },
                    |[mut a, mut b, mut c]| {
                        for (r, k) in ks.chunks_exact(3).enumerate() {
                            let sboxes = if r == 0 { first } else { 3 };
                            (a, b, c) = full_round_first(a, b, c, k, sboxes);
                        }
                        [a, b, c]
                    },
                );
            }
        }
    }
}
