//! Variable-time scalar multiplication: width-w NAF ([`ProjectivePoint::mul_vartime`]) and the
//! interleaved double-scalar product a·G + b·Q ([`double_scalar_mul_vartime`]) used to verify
//! signatures. Both branch on the scalar bits: use them for public scalars only.

use super::{AffinePoint, GENERATOR, ProjectivePoint};
use crate::field::mont::adc;
use crate::sync::OnceTable;
use alloc::vec::Vec;

/// Window width of the on-the-fly table for a variable base (8 odd multiples).
const W_VAR: u32 = 5;
/// Window width for the generator in [`double_scalar_mul_vartime`] (64 odd multiples, affine,
/// built once).
const W_GEN: u32 = 8;

/// `k -= d` for a small signed `d` on five little-endian limbs, as the addition of `−d`
/// sign-extended to 320 bits (wrapping). The caller guarantees the result is non-negative.
fn sub_small(k: &mut [u64; 5], d: i64) {
    let ext = if d > 0 { u64::MAX } else { 0 };
    let mut carry = 0;
    for (j, limb) in k.iter_mut().enumerate() {
        let addend = if j == 0 { d.wrapping_neg() as u64 } else { ext };
        (*limb, carry) = adc(*limb, addend, carry);
    }
}

/// Width-`w` non-adjacent form of a 256-bit scalar (little-endian limbs): digits `d_i`, each
/// zero or odd with `|d_i| < 2^(w−1)`, with `Σ d_i·2^i = scalar`, and at most one non-zero digit
/// in any `w` consecutive positions. Returns the digits and the number of positions used
/// (at most 257).
pub(crate) fn wnaf(scalar: &[u64; 4], w: u32) -> ([i8; 258], usize) {
    let mut k = [scalar[0], scalar[1], scalar[2], scalar[3], 0u64];
    let mut digits = [0i8; 258];
    let mask = (1u64 << w) - 1;
    let half = 1i64 << (w - 1);
    let mut i = 0;
    while k.iter().any(|&l| l != 0) {
        if k[0] & 1 == 1 {
            let mut d = (k[0] & mask) as i64;
            if d >= half {
                d -= 1i64 << w;
            }
            digits[i] = d as i8;
            // k -= d (k stays non-negative: d <= k mod 2^w, or d < 0).
            sub_small(&mut k, d);
        }
        // k >>= 1
        for j in 0..4 {
            k[j] = (k[j] >> 1) | (k[j + 1] << 63);
        }
        k[4] >>= 1;
        i += 1;
    }
    (digits, i)
}

/// Digits of the regular signed radix-16 recoding (at most 64).
pub(crate) const REGULAR_DIGITS: usize = 64;

/// Regular signed radix-16 recoding of an **odd** scalar `k < 16^t` (little-endian limbs,
/// `1 <= t <= 64`): `t` digits, every one odd with `|d_i| <= 15`, the top one positive, with
/// `Σ d_i·16^i = k` (Joye–Tunstall). Every window has a non-zero digit, so `t` lanes can run
/// the same steps: 4 doublings and one addition of ±(|d_i|)·P from the odd multiples
/// P, 3P, …, 15P. Returns the digits (unused positions 0).
///
/// Each step keeps k odd: d = (k mod 32) − 16 makes k − d ≡ 16 (mod 32), so (k − d)/16 is odd;
/// and k < 16^(t−i) + 1 after i steps, so the last quotient is odd, positive and at most 15.
pub(crate) fn regular_recode(k: &[u64; 4], t: usize) -> [i8; REGULAR_DIGITS] {
    debug_assert!(k[0] & 1 == 1 && (1..=REGULAR_DIGITS).contains(&t));
    let mut k = [k[0], k[1], k[2], k[3], 0u64];
    let mut digits = [0i8; REGULAR_DIGITS];
    for d in digits.iter_mut().take(t - 1) {
        let v = (k[0] & 31) as i64 - 16;
        *d = v as i8;
        // k -= v, then k >>= 4 (k − v is non-negative: v <= k mod 32 when v > 0).
        sub_small(&mut k, v);
        for j in 0..4 {
            k[j] = (k[j] >> 4) | (k[j + 1] << 60);
        }
        k[4] >>= 4;
    }
    digits[t - 1] = k[0] as i8;
    digits
}

/// The number of radix-16 digits [`regular_recode`] needs for the odd `k`: ⌈bits(k)/4⌉.
pub(crate) fn regular_len(k: &[u64; 4]) -> usize {
    let bits = (0..4)
        .rev()
        .find(|&j| k[j] != 0)
        .map_or(0, |j| 64 * j + 64 - k[j].leading_zeros() as usize);
    bits.div_ceil(4).max(1)
}

/// The odd multiples P, 3P, …, (2^(w−1) − 1)·P in Jacobian form.
fn odd_multiples(p: &ProjectivePoint, w: u32) -> Vec<ProjectivePoint> {
    let n = 1usize << (w - 2);
    let mut t = Vec::with_capacity(n);
    t.push(*p);
    let p2 = p.double();
    for i in 1..n {
        let next = t[i - 1].add(&p2);
        t.push(next);
    }
    t
}

/// Odd multiples of G for [`W_GEN`], affine, built on first use.
fn generator_odd_multiples() -> &'static [AffinePoint] {
    static TABLE: OnceTable<Vec<AffinePoint>> = OnceTable::new();
    TABLE.get_or_init(|| {
        ProjectivePoint::batch_to_affine(&odd_multiples(
            &ProjectivePoint::from_affine(&GENERATOR),
            W_GEN,
        ))
    })
}

impl ProjectivePoint {
    /// `scalar·self` for a scalar given as little-endian `u64` limbs of its integer value (any
    /// 256-bit value, used as is: not reduced modulo the group order). Width-5 NAF: about 256
    /// doublings and 43 additions. Variable time: for public scalars only.
    pub fn mul_vartime(&self, scalar: &[u64; 4]) -> ProjectivePoint {
        if self.is_infinity() {
            return ProjectivePoint::INFINITY;
        }
        let (digits, len) = wnaf(scalar, W_VAR);
        let table = odd_multiples(self, W_VAR);
        let mut acc = ProjectivePoint::INFINITY;
        for i in (0..len).rev() {
            acc = acc.double();
            let d = digits[i];
            if d > 0 {
                acc = acc.add(&table[(d as usize) >> 1]);
            } else if d < 0 {
                acc = acc.add(&table[((-d) as usize) >> 1].neg());
            }
        }
        acc
    }
}

/// `a·G + b·Q` for scalars given as little-endian `u64` limbs (any 256-bit values, used as is),
/// with one shared chain of doublings: interleaved width-8 NAF for G (a table of 64 affine odd
/// multiples built once) and width-5 NAF for Q. Variable time: for verification, where every
/// input is public.
pub fn double_scalar_mul_vartime(a: &[u64; 4], b: &[u64; 4], q: &AffinePoint) -> ProjectivePoint {
    let g_table = generator_odd_multiples();
    let (da, la) = wnaf(a, W_GEN);
    let (db, lb) = if q.infinity {
        ([0i8; 258], 0)
    } else {
        wnaf(b, W_VAR)
    };
    let q_table = if lb > 0 {
        odd_multiples(&ProjectivePoint::from_affine(q), W_VAR)
    } else {
        Vec::new()
    };
    let mut acc = ProjectivePoint::INFINITY;
    for i in (0..la.max(lb)).rev() {
        acc = acc.double();
        let d = da[i];
        if d > 0 {
            acc = acc.add_affine(&g_table[(d as usize) >> 1]);
        } else if d < 0 {
            acc = acc.add_affine(&g_table[((-(d as i16)) as usize) >> 1].neg());
        }
        let d = db[i];
        if d > 0 {
            acc = acc.add(&q_table[(d as usize) >> 1]);
        } else if d < 0 {
            acc = acc.add(&q_table[((-d) as usize) >> 1].neg());
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(digits: &[i8], len: usize) -> [i128; 3] {
        // Recompose modulo a few small primes as a cheap check.
        let ms = [1_000_000_007i128, 998_244_353, 2_147_483_647];
        let mut out = [0i128; 3];
        for (o, m) in out.iter_mut().zip(ms) {
            let mut acc = 0i128;
            for i in (0..len).rev() {
                acc = (acc * 2 + digits[i] as i128).rem_euclid(m);
            }
            *o = acc;
        }
        out
    }

    #[test]
    fn regular_recode_recomposes() {
        let ms = [1_000_000_007i128, 998_244_353, 2_147_483_647];
        for k in [
            [1u64, 0, 0, 0],
            [15, 0, 0, 0],
            [17, 0, 0, 0],
            [u64::MAX; 4],
            [0x1234_5678_9abc_def1, 7, u64::MAX, 1 << 59],
            [0xffff_ffff_ffff_fff1, u64::MAX, u64::MAX, u64::MAX >> 4],
        ] {
            let t0 = regular_len(&k);
            for t in [t0, t0 + 1, REGULAR_DIGITS.max(t0)] {
                if t > REGULAR_DIGITS {
                    continue;
                }
                let d = regular_recode(&k, t);
                assert!(d[t - 1] > 0);
                for (i, &di) in d.iter().enumerate() {
                    if i < t {
                        assert!(di % 2 != 0 && (-15..=15).contains(&di), "{k:?} {t} {i}");
                    } else {
                        assert_eq!(di, 0);
                    }
                }
                let mut expect = [0i128; 3];
                let mut got = [0i128; 3];
                for ((e, g), m) in expect.iter_mut().zip(&mut got).zip(ms) {
                    for limb in k.iter().rev() {
                        for bit in (0..64).rev() {
                            *e = (*e * 2 + ((limb >> bit) & 1) as i128).rem_euclid(m);
                        }
                    }
                    for i in (0..t).rev() {
                        *g = (*g * 16 + d[i] as i128).rem_euclid(m);
                    }
                }
                assert_eq!(got, expect, "{k:?} {t}");
            }
        }
        assert_eq!(regular_len(&[1, 0, 0, 0]), 1);
        assert_eq!(regular_len(&[17, 0, 0, 0]), 2);
        assert_eq!(regular_len(&[1, 0, 0, 1 << 59]), 63);
        assert_eq!(regular_len(&[1, 0, 0, 1 << 60]), 64);
    }

    #[test]
    fn wnaf_recomposes_and_is_sparse() {
        let ms = [1_000_000_007i128, 998_244_353, 2_147_483_647];
        for (s, w) in [
            ([u64::MAX; 4], 5),
            ([1, 0, 0, 0], 5),
            ([0x1234_5678_9abc_def0, 7, u64::MAX, 1 << 63], 8),
            ([0, 0, 0, 0], 5),
        ] {
            let (d, len) = wnaf(&s, w);
            assert!(len <= 257);
            let mut expect = [0i128; 3];
            for (e, m) in expect.iter_mut().zip(ms) {
                let mut acc = 0i128;
                for limb in s.iter().rev() {
                    for bit in (0..64).rev() {
                        acc = (acc * 2 + ((limb >> bit) & 1) as i128).rem_euclid(m);
                    }
                }
                *e = acc;
            }
            assert_eq!(value(&d, len), expect);
            for i in 0..len {
                if d[i] != 0 {
                    assert!(d[i] % 2 != 0 && (d[i] as i32).abs() < (1 << (w - 1)));
                    for j in 1..(w as usize) {
                        if i + j < len {
                            assert_eq!(d[i + j], 0);
                        }
                    }
                }
            }
        }
    }
}
