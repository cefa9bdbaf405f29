//! [`PackedSelect`]: per-lane masks on top of [`PackedFelt`], for curve code that must treat
//! lanes differently (the point at infinity, P + P, a table entry per lane) without branching.
//!
//! A separate trait rather than more `PackedFelt` methods, so that a packed field type without
//! masks still works for hashing; the curve batch functions need this trait and route other
//! backends elsewhere.
//!
//! # Representation
//! A [`PackedSelect::Word`] holds one `u64` per lane. A *mask* is a word whose lanes are all-ones
//! (true) or zero (false). Implemented for:
//! - [`Felt`] (one lane, the word is a `u64`),
//! - [`X4<Felt>`] (the portable backend, `[u64; 4]`),
//! - [`Packed<V>`] for every lane type (the word is a `V`: `eq_mask` and `select` of [`Lane`]),
//! - `Ifma` (in `ifma.rs`: the word is an `__m512i`, selects are AVX-512 mask blends).
//!
//! # Constant time
//! Every operation except [`PackedSelect::any`] is branch-free and reads no memory depending on
//! the values. [`PackedSelect::zero_mask`] of [`Packed<V>`] brings the lazily reduced limbs to
//! the canonical 28-bit radix form (a sequential carry chain) and compares with the multiples
//! 0, p, 2p, 3p of p (the value is below 2^253 < 4p by invariant `I` of `packed.rs`).

use super::felt4::X4;
use super::lane::Lane;
use super::packed::{Packed, canonical_digits, mont_mul, mont_square};
use crate::field::{Felt, PackedFelt};

/// Per-lane words and masks for a [`PackedFelt`] type.
pub(crate) trait PackedSelect: PackedFelt {
    /// One `u64` per lane.
    type Word: Copy + Send + Sync;

    /// Every lane equal to `x`.
    /// (For per-lane table scans; exercised by the tests today.)
    #[allow(dead_code)]
    fn word_splat(x: u64) -> Self::Word;
    /// Lanes from `src` (`src.len() == LANES`).
    /// (For per-lane table scans; exercised by the tests today.)
    #[allow(dead_code)]
    fn word_load(src: &[u64]) -> Self::Word;
    /// All-ones in the lanes where `a == b`, zero elsewhere.
    /// (For per-lane table scans; exercised by the tests today.)
    #[allow(dead_code)]
    fn word_eq(a: Self::Word, b: Self::Word) -> Self::Word;
    /// Lane-wise and.
    fn word_and(a: Self::Word, b: Self::Word) -> Self::Word;
    /// Lane-wise complement of a mask.
    fn mask_not(a: Self::Word) -> Self::Word;
    /// Whether any lane of the mask is set (a branch on the result: for public data only).
    fn any(m: Self::Word) -> bool;
    /// The mask of the lanes whose element is 0 modulo p.
    fn zero_mask(self) -> Self::Word;
    /// `b` in the lanes where `mask` is set, `a` elsewhere.
    fn select(mask: Self::Word, a: Self, b: Self) -> Self;

    /// `self · rhs`, the same value as [`PackedFelt::mul`], with the product's code inlined at
    /// the call site even where `mul` calls one out-of-line copy (the AVX2 lanes, whose curve
    /// kernels are too long for the instruction caches otherwise). For short hot loops with few
    /// products, the Pedersen steps: there a call per product (arguments and result through
    /// memory, 288-byte copies) made the AVX2 batch 1.38× slower in builds without LTO
    /// (docs/benchmarks.md). Default: `mul`.
    #[inline(always)]
    fn mul_inline(self, rhs: Self) -> Self {
        self.mul(rhs)
    }

    /// `self²` inlined at the call site, as [`PackedSelect::mul_inline`]. Default: `square`.
    #[inline(always)]
    fn square_inline(self) -> Self {
        self.square()
    }

    /// Loading an element pre-multiplied by `2^LOAD_SHIFT` with [`PackedSelect::load_prescaled`]
    /// gives the same lanes as [`PackedFelt::load`] of the element: for a backend whose `load`
    /// includes a conversion product (IFMA: by 2^264 mod p), a table stored pre-multiplied saves
    /// it. 0 where loading needs no product.
    const LOAD_SHIFT: u32 = 0;

    /// Lane `k` holds `src[k]·2^-LOAD_SHIFT` (`src.len() == LANES`). Default: `load`.
    #[inline(always)]
    fn load_prescaled(src: &[Felt]) -> Self {
        Self::load(src)
    }

    /// Lane `k` holds `src[idx[k]]·2^-LOAD_SHIFT` (`idx.len() == LANES`): a lookup per lane
    /// in a table stored pre-multiplied by `2^LOAD_SHIFT`, for public indices only (the memory
    /// read depends on them). Copies the elements, then [`PackedSelect::load_prescaled`]
    /// (AVX-512 gathers measured slower, docs/pedersen-batch.md).
    ///
    /// # Panics
    /// If an index is out of bounds.
    #[inline(always)]
    fn gather_prescaled(src: &[Felt], idx: &[u32]) -> Self {
        let mut buf = [Felt::ZERO; super::MAX_LANES];
        for (b, &i) in buf.iter_mut().zip(idx) {
            *b = src[i as usize];
        }
        Self::load_prescaled(&buf[..Self::LANES])
    }
}

/// All-ones when `v == 0`, else 0, without a branch.
#[inline(always)]
fn ct_zero_mask_u64(v: u64) -> u64 {
    // (v | -v) has its top bit set iff v != 0.
    ((v | v.wrapping_neg()) >> 63).wrapping_sub(1)
}

impl PackedSelect for Felt {
    type Word = u64;

    #[inline(always)]
    fn word_splat(x: u64) -> u64 {
        x
    }
    #[inline(always)]
    fn word_load(src: &[u64]) -> u64 {
        src[0]
    }
    #[inline(always)]
    fn word_eq(a: u64, b: u64) -> u64 {
        ct_zero_mask_u64(a ^ b)
    }
    #[inline(always)]
    fn word_and(a: u64, b: u64) -> u64 {
        a & b
    }
    #[inline(always)]
    fn mask_not(a: u64) -> u64 {
        !a
    }
    #[inline(always)]
    fn any(m: u64) -> bool {
        m != 0
    }
    #[inline(always)]
    fn zero_mask(self) -> u64 {
        let l = self.to_montgomery_limbs();
        ct_zero_mask_u64(l[0] | l[1] | l[2] | l[3])
    }
    #[inline(always)]
    fn select(mask: u64, a: Felt, b: Felt) -> Felt {
        Felt::select(&a, &b, mask & 1)
    }
}

impl PackedSelect for X4<Felt> {
    type Word = [u64; 4];

    #[inline(always)]
    fn word_splat(x: u64) -> [u64; 4] {
        [x; 4]
    }
    #[inline(always)]
    fn word_load(src: &[u64]) -> [u64; 4] {
        [src[0], src[1], src[2], src[3]]
    }
    #[inline(always)]
    fn word_eq(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        [
            ct_zero_mask_u64(a[0] ^ b[0]),
            ct_zero_mask_u64(a[1] ^ b[1]),
            ct_zero_mask_u64(a[2] ^ b[2]),
            ct_zero_mask_u64(a[3] ^ b[3]),
        ]
    }
    #[inline(always)]
    fn word_and(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
    }
    #[inline(always)]
    fn mask_not(a: [u64; 4]) -> [u64; 4] {
        [!a[0], !a[1], !a[2], !a[3]]
    }
    #[inline(always)]
    fn any(m: [u64; 4]) -> bool {
        (m[0] | m[1] | m[2] | m[3]) != 0
    }
    #[inline(always)]
    fn zero_mask(self) -> [u64; 4] {
        let [a, b, c, d] = self.0;
        [a.zero_mask(), b.zero_mask(), c.zero_mask(), d.zero_mask()]
    }
    #[inline(always)]
    fn select(mask: [u64; 4], a: Self, b: Self) -> Self {
        let (a, b) = (a.0, b.0);
        X4([
            Felt::select(&a[0], &b[0], mask[0] & 1),
            Felt::select(&a[1], &b[1], mask[1] & 1),
            Felt::select(&a[2], &b[2], mask[2] & 1),
            Felt::select(&a[3], &b[3], mask[3] & 1),
        ])
    }
}

/// 28-bit limb mask.
const M28: u64 = (1 << 28) - 1;

/// The canonical 28-bit limbs of `k·p` for k = 0..=3 (the top limb holds bits 224..).
const P_MULTIPLES: [[u64; 9]; 4] = {
    let p = crate::field::mont::P;
    let mut out = [[0u64; 9]; 4];
    let mut k = 0;
    while k < 4 {
        // k·p as five 64-bit words (k·p < 2^254).
        let mut w = [0u64; 5];
        let mut carry = 0u128;
        let mut i = 0;
        while i < 4 {
            let v = p[i] as u128 * k as u128 + carry;
            w[i] = v as u64;
            carry = v >> 64;
            i += 1;
        }
        w[4] = carry as u64;
        let mut j = 0;
        while j < 9 {
            let bit = 28 * j;
            let (wi, off) = (bit / 64, bit % 64);
            let mut v = w[wi] >> off;
            if off > 36 {
                v |= w[wi + 1] << (64 - off);
            }
            out[k][j] = if j == 8 { v } else { v & M28 };
            j += 1;
        }
        k += 1;
    }
    out
};

impl<V: Lane> PackedSelect for Packed<V> {
    type Word = V;

    #[inline(always)]
    fn mul_inline(self, rhs: Self) -> Self {
        Packed(mont_mul(&self.0, &rhs.0))
    }

    #[inline(always)]
    fn square_inline(self) -> Self {
        Packed(mont_square(&self.0))
    }

    #[inline(always)]
    fn word_splat(x: u64) -> V {
        V::splat(x)
    }
    #[inline(always)]
    fn word_load(src: &[u64]) -> V {
        V::from_array([src[0], src[1], src[2], src[3]])
    }
    #[inline(always)]
    fn word_eq(a: V, b: V) -> V {
        a.eq_mask(b)
    }
    #[inline(always)]
    fn word_and(a: V, b: V) -> V {
        a.and(b)
    }
    #[inline(always)]
    fn mask_not(a: V) -> V {
        // For a mask (all-ones or zero per lane), !a = all-ones − a.
        V::splat(u64::MAX).sub(a)
    }
    #[inline(always)]
    fn any(m: V) -> bool {
        let a = m.to_array();
        (a[0] | a[1] | a[2] | a[3]) != 0
    }
    #[inline(always)]
    fn zero_mask(self) -> V {
        // Canonical radix-2^28 digits of the value x < 2^253 (limbs below 2^28 + 16, so each
        // carry is at most 1 and the top limb stays below 2^29).
        let l = canonical_digits(self.0);
        // x ≡ 0 (mod p) iff x ∈ {0, p, 2p, 3p}.
        let mut hit = V::splat(0);
        for m in P_MULTIPLES.iter() {
            let mut eq = l[0].eq_mask(V::splat(m[0]));
            for i in 1..9 {
                eq = eq.and(l[i].eq_mask(V::splat(m[i])));
            }
            // The four cases are exclusive, so `or` is an addition.
            hit = hit.add(eq);
        }
        hit
    }
    #[inline(always)]
    fn select(mask: V, a: Self, b: Self) -> Self {
        // A loop, not `map`: a closure would not inherit the entry point's target features.
        let mut out = a.0;
        for (o, (x, y)) in out.iter_mut().zip(a.0.iter().zip(b.0.iter())) {
            *o = V::select(mask, *x, *y);
        }
        Packed(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::PortableLane;
    use alloc::vec::Vec;

    /// Runs `$cases::<P>()` for every `PackedSelect` type: the scalar and portable ones always,
    /// the AVX2 and IFMA lanes where this CPU has them.
    macro_rules! on_every_type {
        ($cases:ident) => {{
            $cases::<Felt>();
            $cases::<X4<Felt>>();
            $cases::<Packed<PortableLane>>();
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // Sound: the CPU has AVX2, all Avx2Lane's methods require.
                $cases::<Packed<crate::backend::avx2::Avx2Lane>>();
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512ifma")
            {
                // Sound: the CPU has AVX-512F and IFMA, all Ifma's methods require.
                $cases::<crate::backend::ifma::Ifma>();
            }
        }};
    }

    fn zero_cases<P: PackedSelect>() {
        // Zero reached in different lazy forms: x − x, p-multiples from products, sums.
        let vals = [
            Felt::ZERO,
            Felt::ONE,
            Felt::MAX,
            Felt::TWO.pow(251),
            Felt::TWO.pow(192),
        ];
        for a in vals {
            for b in vals {
                let l = P::LANES;
                let xs: Vec<Felt> = (0..l).map(|k| if k % 2 == 0 { a } else { b }).collect();
                let ys: Vec<Felt> = (0..l).map(|k| if k % 3 == 0 { a } else { b }).collect();
                let x = P::load(&xs);
                let y = P::load(&ys);
                for (v, expect) in [
                    (
                        x.sub(y),
                        xs.iter().zip(&ys).map(|(p, q)| *p - *q).collect::<Vec<_>>(),
                    ),
                    (x.add(y), xs.iter().zip(&ys).map(|(p, q)| *p + *q).collect()),
                    (x.mul(y), xs.iter().zip(&ys).map(|(p, q)| *p * *q).collect()),
                    (x.sub(x), vec![Felt::ZERO; l]),
                    (x.add(P::zero().sub(x)), vec![Felt::ZERO; l]),
                    (x.mul(x.sub(x)).double(), vec![Felt::ZERO; l]),
                ] {
                    let m = v.zero_mask();
                    let one = P::load(&vec![Felt::ONE; l]);
                    let two = P::load(&vec![Felt::TWO; l]);
                    let mut out = vec![Felt::ZERO; l];
                    P::select(m, one, two).store(&mut out);
                    for k in 0..l {
                        let want = if expect[k].is_zero() {
                            Felt::TWO
                        } else {
                            Felt::ONE
                        };
                        assert_eq!(out[k], want, "lane {k} of {expect:?}");
                    }
                    let nm = P::mask_not(m);
                    P::select(nm, one, two).store(&mut out);
                    for k in 0..l {
                        let want = if expect[k].is_zero() {
                            Felt::ONE
                        } else {
                            Felt::TWO
                        };
                        assert_eq!(out[k], want);
                    }
                    assert_eq!(P::any(m), expect.iter().any(|e| e.is_zero()));
                }
            }
        }
        let w: Vec<u64> = (0..P::LANES as u64).collect();
        let m = P::word_eq(P::word_load(&w), P::word_splat(1));
        assert_eq!(P::any(m), P::LANES > 1);
        let m0 = P::word_eq(P::word_load(&w), P::word_splat(0));
        assert!(!P::any(P::word_and(m, m0)));
    }

    #[test]
    fn masks_match_felt() {
        on_every_type!(zero_cases);
    }

    /// 0, 1, p − 1, p − 2, 2^251 and 2^251 − 1, 2^192, and the 28- and 64-bit limb boundaries.
    fn edge_values() -> Vec<Felt> {
        vec![
            Felt::ZERO,
            Felt::ONE,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::TWO.pow(251),
            Felt::TWO.pow(251) - Felt::ONE,
            Felt::TWO.pow(192),
            Felt::TWO.pow(28) - Felt::ONE,
            Felt::TWO.pow(64) - Felt::ONE,
        ]
    }

    /// `mul_inline` / `square_inline` give `mul` / `square`'s values and `Felt`'s products, on
    /// edge and random values in every lane position.
    fn inline_product_cases<P: PackedSelect>() {
        let l = P::LANES;
        let mut vals = edge_values();
        vals.extend((0..15u64).map(|i| Felt::from(i * 0x9e37_79b9 + 11).pow(5)));
        let n = vals.len();
        for start in 0..n {
            let xs: Vec<Felt> = (0..l).map(|k| vals[(start + k) % n]).collect();
            let ys: Vec<Felt> = (0..l).map(|k| vals[(start + 5 * k + 1) % n]).collect();
            let (x, y) = (P::load(&xs), P::load(&ys));
            let mut got = vec![Felt::ZERO; l];
            let mut want = vec![Felt::ZERO; l];
            x.mul_inline(y).store(&mut got);
            x.mul(y).store(&mut want);
            assert_eq!(got, want);
            for k in 0..l {
                assert_eq!(got[k], xs[k] * ys[k], "lane {k}");
            }
            x.square_inline().store(&mut got);
            x.square().store(&mut want);
            assert_eq!(got, want);
            for k in 0..l {
                assert_eq!(got[k], xs[k] * xs[k], "lane {k}");
            }
        }
    }

    #[test]
    fn inline_products_match() {
        on_every_type!(inline_product_cases);
    }

    /// `load_prescaled(2^LOAD_SHIFT·x)` and `gather_prescaled` hold `x`, on edge and random
    /// values in every lane.
    fn prescaled_cases<P: PackedSelect>() {
        let l = P::LANES;
        let mut vals = edge_values();
        vals.extend((0..9u64).map(|i| Felt::from(i * 0x9e37_79b9 + 7).pow(7)));
        let scale = Felt::TWO.pow(P::LOAD_SHIFT as u128);
        let scaled: Vec<Felt> = vals.iter().map(|v| *v * scale).collect();
        for start in 0..vals.len() - l {
            let mut out = vec![Felt::ZERO; l];
            P::load_prescaled(&scaled[start..start + l]).store(&mut out);
            assert_eq!(out, vals[start..start + l]);
            let idx: Vec<u32> = (0..l as u32).map(|k| (start as u32 + 3 * k) % 16).collect();
            P::gather_prescaled(&scaled, &idx).store(&mut out);
            for k in 0..l {
                assert_eq!(out[k], vals[idx[k] as usize], "lane {k}");
            }
        }
    }

    #[test]
    fn prescaled_loads_match() {
        on_every_type!(prescaled_cases);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(crate::backend::ifma::Ifma::LOAD_SHIFT, 4);
    }

    #[test]
    fn p_multiples_are_canonical() {
        for (k, m) in P_MULTIPLES.iter().enumerate() {
            let mut acc = Felt::ZERO;
            for x in m.iter().rev() {
                acc = acc * Felt::TWO.pow(28) + Felt::from(*x);
            }
            assert_eq!(acc, Felt::ZERO, "{k}·p");
            assert!(m[..8].iter().all(|&x| x <= M28));
        }
        assert_eq!(P_MULTIPLES[1][8], 1 << 27);
    }
}
