//! [`Lazy`]: a private scalar [`PackedFelt`] for the Hades permutation that keeps values
//! below 2p instead of below p.
//!
//! # Representation
//! Four little-endian `u64` limbs holding `a·2^256 mod p` (Montgomery form, as [`Felt`]), but
//! any representative in `[0, 2p)` is allowed between operations; [`PackedFelt::store`]
//! subtracts p once if needed, so what leaves this type is canonical.
//!
//! # Bounds (p = 2^251 + 17·2^192 + 1, so 2p < 2^253 and 4p < 2^254)
//! * `add`, `double`, `add_constant`: `a + b < 4p` fits in four limbs; it is brought back
//!   below 2p by subtracting `(q - 1)·p` with `q = ⌊(a + b) / 2^251⌋` (see [`fold`]), which
//!   needs no comparison.
//! * `sub`: `a - b ∈ (-2p, 2p)`; adding 2p when it borrows gives `[0, 2p)`.
//! * `mul`, `square`: the Montgomery product of `a, b < 2p` is
//!   `(a·b + M·p) / 2^256 < 4p²/2^256 + p < 1.2·p < 2p` with `M < 2^256`, so the
//!   final conditional subtraction that a canonical product needs is skipped: the product is
//!   reduced by `crate::field::mont::reduce_partial`, which uses p's special form (limbs
//!   `[1, 0, 0, P3]`, `-p⁻¹ ≡ -1 mod 2^64`: step `i` takes `m = -t_i`, which clears limb `i`
//!   with a carry of `(t_i ≠ 0)`, and adds the one product `m·P3` at limb `i + 3`) with the
//!   first three steps' products independent of each other.
//!
//! All steps are branch-free. Carries are passed as `u64` through the shared helpers of
//! `crate::field::mont` (`adc`, `sbb`, `mac`), the form LLVM turns into clean `adc` / `sbb`
//! chains; a subtraction is written as the
//! addition `a + !b + 1`, whose carry out is the complement of the borrow.

use crate::field::mont::{adc, mac, reduce_partial, sbb};
use crate::field::{Felt, PackedFelt};

/// p's top limb, 2^59 + 17 (the other limbs are 1, 0, 0).
const P3: u64 = 0x0800_0000_0000_0011;
/// 2p in little-endian limbs.
const P2: [u64; 4] = [2, 0, 0, 2 * P3];

/// A field element in Montgomery form, any representative below 2p (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lazy(pub(crate) [u64; 4]);

/// Subtracts `m` (2p or p) when `a >= m`. Precondition: `a < 2m`, so the result is `< m`.
#[inline(always)]
fn sub_if_ge(a: [u64; 4], m: [u64; 4]) -> [u64; 4] {
    let (d0, b) = sbb(a[0], m[0], 0);
    let (d1, b) = sbb(a[1], m[1], b);
    let (d2, b) = sbb(a[2], m[2], b);
    let (d3, b) = sbb(a[3], m[3], b);
    // b: a < m, keep a.
    let keep = 0u64.wrapping_sub(b);
    [
        (a[0] & keep) | (d0 & !keep),
        (a[1] & keep) | (d1 & !keep),
        (a[2] & keep) | (d2 & !keep),
        (a[3] & keep) | (d3 & !keep),
    ]
}

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
    let (r0, c) = adc(s[0], k, 0);
    let (r1, c) = adc(s[1], m, c);
    let (r2, c) = adc(s[2], m, c);
    let (r3, _) = adc(s[3], k3, c);
    [r0, r1, r2, r3]
}

/// `a + b` for `a, b < 2p`: the sum is below 4p < 2^254 (no carry out), folded below 2p.
#[inline(always)]
fn add_2p(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let (s0, c) = adc(a[0], b[0], 0);
    let (s1, c) = adc(a[1], b[1], c);
    let (s2, c) = adc(a[2], b[2], c);
    let (s3, _) = adc(a[3], b[3], c);
    fold([s0, s1, s2, s3])
}

impl PackedFelt for Lazy {
    const LANES: usize = 1;
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
        dst[0] = Felt(sub_if_ge(self.0, crate::field::mont::P));
    }
    #[inline(always)]
    fn add(self, rhs: Lazy) -> Lazy {
        Lazy(add_2p(self.0, rhs.0))
    }
    #[inline(always)]
    fn add_constant(self, c: &Felt) -> Lazy {
        Lazy(add_2p(self.0, c.0))
    }
    #[inline(always)]
    fn double(self) -> Lazy {
        Lazy(add_2p(self.0, self.0))
    }
    #[inline(always)]
    fn sub(self, rhs: Lazy) -> Lazy {
        let (a, b) = (self.0, rhs.0);
        // a - b = a + !b + 1 - 2^256: written as additions (which compile to one sub/sbb
        // chain), the carry out is 1 exactly when a >= b.
        let (d0, c) = adc(a[0], !b[0], 1);
        let (d1, c) = adc(a[1], !b[1], c);
        let (d2, c) = adc(a[2], !b[2], c);
        let (d3, c) = adc(a[3], !b[3], c);
        // Borrowed: the difference is in (-2p, 0); add 2p = [2, 0, 0, 2·P3].
        let mask = c.wrapping_sub(1);
        let (r0, c) = adc(d0, mask & P2[0], 0);
        let (r1, c) = adc(d1, 0, c);
        let (r2, c) = adc(d2, 0, c);
        let (r3, _) = adc(d3, mask & P2[3], c);
        Lazy([r0, r1, r2, r3])
    }
    #[inline(always)]
    fn mul(self, rhs: Lazy) -> Lazy {
        let (a, b) = (self.0, rhs.0);
        let (r0, c) = mac(0, a[0], b[0], 0);
        let (r1, c) = mac(0, a[0], b[1], c);
        let (r2, c) = mac(0, a[0], b[2], c);
        let (r3, r4) = mac(0, a[0], b[3], c);

        let (r1, c) = mac(r1, a[1], b[0], 0);
        let (r2, c) = mac(r2, a[1], b[1], c);
        let (r3, c) = mac(r3, a[1], b[2], c);
        let (r4, r5) = mac(r4, a[1], b[3], c);

        let (r2, c) = mac(r2, a[2], b[0], 0);
        let (r3, c) = mac(r3, a[2], b[1], c);
        let (r4, c) = mac(r4, a[2], b[2], c);
        let (r5, r6) = mac(r5, a[2], b[3], c);

        let (r3, c) = mac(r3, a[3], b[0], 0);
        let (r4, c) = mac(r4, a[3], b[1], c);
        let (r5, c) = mac(r5, a[3], b[2], c);
        let (r6, r7) = mac(r6, a[3], b[3], c);
        Lazy(reduce_partial([r0, r1, r2, r3, r4, r5, r6, r7]))
    }
    #[inline(always)]
    fn square(self) -> Lazy {
        let a = self.0;
        // Cross products a_i·a_j, i < j, then doubled, then the diagonal added.
        let (r1, c) = mac(0, a[0], a[1], 0);
        let (r2, c) = mac(0, a[0], a[2], c);
        let (r3, r4) = mac(0, a[0], a[3], c);
        let (r3, c) = mac(r3, a[1], a[2], 0);
        let (r4, r5) = mac(r4, a[1], a[3], c);
        let (r5, r6) = mac(r5, a[2], a[3], 0);
        let r7 = r6 >> 63;
        let r6 = (r6 << 1) | (r5 >> 63);
        let r5 = (r5 << 1) | (r4 >> 63);
        let r4 = (r4 << 1) | (r3 >> 63);
        let r3 = (r3 << 1) | (r2 >> 63);
        let r2 = (r2 << 1) | (r1 >> 63);
        let r1 = r1 << 1;
        let (r0, c) = mac(0, a[0], a[0], 0);
        let (r1, c) = adc(r1, c, 0);
        let (r2, c2) = mac(r2, a[1], a[1], c);
        let (r3, c) = adc(r3, c2, 0);
        let (r4, c2) = mac(r4, a[2], a[2], c);
        let (r5, c) = adc(r5, c2, 0);
        let (r6, c2) = mac(r6, a[3], a[3], c);
        let r7 = r7.wrapping_add(c2);
        Lazy(reduce_partial([r0, r1, r2, r3, r4, r5, r6, r7]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
