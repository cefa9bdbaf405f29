//! [`Lazy`]: a private scalar [`PackedFelt`] for the Hades permutation that keeps values
//! below 2p instead of below p, and whose lazy operations are plain additions.
//!
//! # Representation
//! Four little-endian `u64` limbs holding `a·2^256 mod p` (Montgomery form, as [`Felt`]), but
//! any representative below `2^256` is allowed between operations. In the weights of the
//! [`PackedFelt`] contract (`crate::field::packed`), a value of weight `w` is below `w·2p`:
//! normal values are below 2p, and [`PackedFelt::store`] subtracts p once if needed, so what
//! leaves this type is canonical. The largest weight the contract lets a value reach is
//! [`NORMALIZE_WEIGHT`](crate::field::NORMALIZE_WEIGHT) = 10, and `20p < 2^256`: every lazy
//! result fits in four limbs.
//!
//! # Bounds (p = 2^251 + 17·2^192 + 1, so 2p < 2^253 and 32p > 2^256 > 31p)
//! * Lazy operations: `add_lazy`, `double_lazy`, `add_constant_lazy` are plain four-limb
//!   additions (weights add); `sub_lazy(a, b)` is `a + 4p − b`, which cannot go negative for
//!   `w(b) <= 2` and has weight `w(a) + 2` (the contract allows `w(a) + 4`).
//! * Normalisation ([`fold`]): any four-limb value `s` is brought below 2p by subtracting
//!   `(q − 1)·p` with `q = ⌊s / 2^251⌋ <= 31`, which needs no comparison. `normalize` is a fold;
//!   `add`, `double`, `add_constant` fold the plain sum, and `sub(a, b)` folds `a + 4p − b`
//!   (below `16p` for `w(a) <= 6`).
//! * `sub_for_mul(a, b)` (`w(b) = 1`): `fold(a) + 2p − b`, in `(0, 4p)`: weight 2, and the
//!   only step that waits for `b` is one borrow chain (in the Poseidon partial rounds `b` is
//!   the S-box output, on the critical path, while `a` is ready early).
//! * `mul`, `square`: the Montgomery product of `a < w_a·2p` and `b < w_b·2p` is
//!   `(a·b + M·p) / 2^256 < 4·w_a·w_b·p²/2^256 + p` with `M < 2^256`. As `2^256 / 4p` is just
//!   below 8, the product is below 2p (weight 1) whenever `w_a·w_b <= 7`:
//!   [`MUL_WEIGHTS`](PackedFelt::MUL_WEIGHTS) is 7 (the lane types allow 16; the Hades
//!   permutation needs 4). The final conditional subtraction that a canonical product needs
//!   is skipped: the product is reduced by `crate::field::mont::reduce_partial`, which uses
//!   p's special form (limbs `[1, 0, 0, P3]` and `-p⁻¹ ≡ -1 mod 2^192`: the first three steps
//!   add `M·p` with `M` the negation of the low three limbs, one borrow chain, and `M·P3` is
//!   three independent products); its precondition `t < 4p·2^256` holds as
//!   `28p² < 4p·2^256`.
//!
//! All steps are branch-free. Carries are passed as `u64` through the shared helpers of
//! `crate::field::mont` (`adc`, `sbb`, `mac`), the form LLVM turns into clean `adc` / `sbb`
//! chains.

use crate::field::mont::{adc, mul_wide, reduce_partial, sbb, square_wide};
use crate::field::{Felt, PackedFelt};

/// p's top limb, 2^59 + 17 (the other limbs are 1, 0, 0).
const P3: u64 = 0x0800_0000_0000_0011;
/// 2p in little-endian limbs.
const P2: [u64; 4] = [2, 0, 0, 2 * P3];
/// 4p in little-endian limbs.
const P4: [u64; 4] = [4, 0, 0, 4 * P3];

/// A field element in Montgomery form, a representative below `w·2p` for its weight `w` (see
/// the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lazy(pub(crate) [u64; 4]);

/// Any four-limb value `s` to a representative below 2p of the same residue, without a
/// comparison: with `q = ⌊s / 2^251⌋ ≤ 31`, `r = s - (q - 1)·p`. Writing `s = q·2^251 + lo`,
/// `r = lo + p - q·(17·2^192 + 1)`, so `r ≥ p - 31·(17·2^192 + 1) > 0` and
/// `r < 2^251 + p < 2p`.
///
/// `-(q - 1)·p` is added as a 256-bit two's complement value: with `k = 1 - q` (a small signed
/// limb) and `m` its sign extension, its limbs are `[k, m, m, m + k·P3]` modulo 2^256 (as
/// `p = P3·2^192 + 1`).
#[inline(always)]
fn fold(s: [u64; 4]) -> [u64; 4] {
    let k = 1u64.wrapping_sub(s[3] >> 59);
    let m = ((k as i64) >> 63) as u64;
    let k3 = k.wrapping_mul(P3).wrapping_add(m);
    add4(s, [k, m, m, k3])
}

/// `a + b` modulo 2^256 (the callers' sums stay below 2^256: module docs).
#[inline(always)]
fn add4(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (s0, c) = adc(a[0], b[0], 0);
    let (s1, c) = adc(a[1], b[1], c);
    let (s2, c) = adc(a[2], b[2], c);
    let (s3, _) = adc(a[3], b[3], c);
    [s0, s1, s2, s3]
}

/// `a − b` modulo 2^256 (the callers have `a >= b`).
#[inline(always)]
fn sub4(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (d0, c) = sbb(a[0], b[0], 0);
    let (d1, c) = sbb(a[1], b[1], c);
    let (d2, c) = sbb(a[2], b[2], c);
    let (d3, _) = sbb(a[3], b[3], c);
    [d0, d1, d2, d3]
}

impl PackedFelt for Lazy {
    const LANES: usize = 1;
    /// `4·w_a·w_b·p² / 2^256 + p < 2p` for `w_a·w_b <= 7` (module docs).
    const MUL_WEIGHTS: u32 = 7;
    type Constant = Felt;

    #[inline(always)]
    fn prepare(c: Felt) -> Felt {
        c
    }
    #[inline(always)]
    fn constant(c: &Felt) -> Lazy {
        Lazy(c.0)
    }
    #[inline(always)]
    fn zero() -> Lazy {
        Lazy([0; 4])
    }
    #[inline(always)]
    fn load(src: &[Felt]) -> Lazy {
        Lazy(src[0].0)
    }
    #[inline(always)]
    fn store(self, dst: &mut [Felt]) {
        // Weight 1 (below 2p): one conditional subtraction of p.
        dst[0] = Felt(crate::field::mont::reduce_once(self.0));
    }
    #[inline(always)]
    fn add(self, rhs: Lazy) -> Lazy {
        Lazy(fold(add4(self.0, rhs.0)))
    }
    #[inline(always)]
    fn add_constant(self, c: &Felt) -> Lazy {
        Lazy(fold(add4(self.0, c.0)))
    }
    #[inline(always)]
    fn double(self) -> Lazy {
        Lazy(fold(add4(self.0, self.0)))
    }
    #[inline(always)]
    fn sub(self, rhs: Lazy) -> Lazy {
        // w(a) <= 6, w(b) <= 2: a + 4p − b lies in (0, 16p).
        Lazy(fold(sub4(add4(self.0, P4), rhs.0)))
    }
    #[inline(always)]
    fn add_lazy(self, rhs: Lazy) -> Lazy {
        Lazy(add4(self.0, rhs.0))
    }
    #[inline(always)]
    fn double_lazy(self) -> Lazy {
        Lazy(add4(self.0, self.0))
    }
    #[inline(always)]
    fn add_constant_lazy(self, c: &Felt) -> Lazy {
        Lazy(add4(self.0, c.0))
    }
    #[inline(always)]
    fn sub_lazy(self, rhs: Lazy) -> Lazy {
        // w(b) <= 2, so b < 4p: no borrow; weight w(a) + 2.
        Lazy(sub4(add4(self.0, P4), rhs.0))
    }
    #[inline(always)]
    fn sub_for_mul(self, rhs: Lazy) -> Lazy {
        // fold(a) + 2p >= 2p > b (weight 1), and the result is below 4p: weight 2.
        Lazy(sub4(add4(fold(self.0), P2), rhs.0))
    }
    #[inline(always)]
    fn normalize(self) -> Lazy {
        Lazy(fold(self.0))
    }
    #[inline(always)]
    fn mul(self, rhs: Lazy) -> Lazy {
        Lazy(reduce_partial(mul_wide(self.0, rhs.0)))
    }
    #[inline(always)]
    fn square(self) -> Lazy {
        Lazy(reduce_partial(square_wide(self.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// Any representative below 2p of a random element: `x` or `x + p`.
    fn lazy_strategy() -> impl Strategy<Value = (Felt, Lazy)> {
        let edge = prop_oneof![
            Just(Felt::ZERO),
            Just(Felt::ONE),
            Just(Felt::MAX),
            Just(Felt::MAX - Felt::ONE),
            Just(Felt::from_montgomery_limbs([u64::MAX, u64::MAX, u64::MAX, 0]).unwrap()),
            Just(Felt::from_montgomery_limbs([0, 0, 0, P3 - 1]).unwrap()),
            Just(Felt::from_montgomery_limbs([0, 0, 0, P3]).unwrap()),
        ];
        let random = any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b));
        (prop_oneof![edge, random], any::<bool>()).prop_map(|(x, plus_p)| {
            let l = if plus_p {
                // x + p < 2p: the alternative representative.
                let (r, _) = add_raw(x.0, crate::field::mont::P);
                r
            } else {
                x.0
            };
            (x, Lazy(l))
        })
    }

    fn add_raw(a: [u64; 4], b: [u64; 4]) -> ([u64; 4], bool) {
        let (s0, c) = adc(a[0], b[0], 0);
        let (s1, c) = adc(a[1], b[1], c);
        let (s2, c) = adc(a[2], b[2], c);
        let (s3, c) = adc(a[3], b[3], c);
        ([s0, s1, s2, s3], c != 0)
    }

    fn below_2p(l: Lazy) -> bool {
        crate::field::mont::lt(l.0, P2) == 1
    }

    fn canon(l: Lazy) -> Felt {
        let mut out = [Felt::ZERO];
        l.store(&mut out);
        out[0]
    }

    /// The residue and the representative of a lazy value, as integers.
    fn big(l: &[u64; 4]) -> num_bigint::BigUint {
        let bytes: Vec<u8> = l.iter().flat_map(|x| x.to_le_bytes()).collect();
        num_bigint::BigUint::from_bytes_le(&bytes)
    }

    /// `l` is below `w·2p` and congruent to `f` (both in Montgomery form).
    fn check(l: Lazy, f: Felt, w: u32) -> Result<(), TestCaseError> {
        let p = big(&crate::field::mont::P);
        let v = big(&l.0);
        prop_assert!(v < &p * (2 * w), "weight {} exceeded", w);
        prop_assert_eq!(v % &p, big(&f.0));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// Random chains of lazy and normalising operations, each chosen only where the
        /// weight contract allows it (the others normalise instead), from the edge values and
        /// random values; every result is checked for its weight and against `Felt`.
        #[test]
        fn lazy_chains_keep_their_weights(
            start in proptest::collection::vec(lazy_strategy(), 4),
            ops in proptest::collection::vec((0u8..11, 0usize..4, 0usize..4, 0usize..4), 200),
        ) {
            use crate::field::{MUL_WEIGHT, NORMALIZE_WEIGHT as NW};
            let mut xs: Vec<(Felt, Lazy, u32)> = start.into_iter().map(|(f, l)| (f, l, 1)).collect();
            for (op, i, j, d) in ops {
                let ((fa, la, wa), (fb, lb, wb)) = (xs[i], xs[j]);
                let k = fb; // a constant: any canonical value
                let mul_ok = wa <= MUL_WEIGHT && wb <= MUL_WEIGHT && wa * wb <= Lazy::MUL_WEIGHTS;
                let r = match op {
                    0 if wa + wb <= NW => (la.add_lazy(lb), fa + fb, wa + wb),
                    1 if 2 * wa <= NW => (la.double_lazy(), fa + fa, 2 * wa),
                    2 if wa < NW => (la.add_constant_lazy(&k), fa + k, wa + 1),
                    3 if wa + 4 <= NW && wb <= 2 => (la.sub_lazy(lb), fa - fb, wa + 4),
                    4 if wa + 4 <= NW && wb == 1 => (la.sub_for_mul(lb), fa - fb, 2),
                    5 if mul_ok => (la.mul(lb), fa * fb, 1),
                    6 if wa <= MUL_WEIGHT && wa * wa <= Lazy::MUL_WEIGHTS => {
                        (la.square(), fa * fa, 1)
                    }
                    7 if wa + 4 <= NW && wb <= 2 => (la.sub(lb), fa - fb, 1),
                    8 if wa + wb <= NW => (la.add(lb), fa + fb, 1),
                    9 if 2 * wa <= NW => (la.double(), fa + fa, 1),
                    10 if wa < NW => (la.add_constant(&k), fa + k, 1),
                    _ => (la.normalize(), fa, 1),
                };
                let (lr, fr, wr) = r;
                check(lr, fr, wr)?;
                if wr == 1 {
                    prop_assert_eq!(canon(lr), fr);
                }
                xs[d] = (fr, lr, wr);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn ops_match_felt((x, lx) in lazy_strategy(), (y, ly) in lazy_strategy()) {
            let cases = [
                (lx.add(ly), x + y),
                (lx.sub(ly), x - y),
                (lx.mul(ly), x * y),
                (lx.square(), x * x),
                (lx.double(), x + x),
                (lx.add_constant(&y), x + y),
            ];
            for (l, f) in cases {
                prop_assert!(below_2p(l));
                prop_assert_eq!(canon(l), f);
            }
        }
    }
}
