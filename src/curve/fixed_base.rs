//! Constant-time fixed-base multiplication k·G for secret k (private keys, nonces):
//! [`mul_generator_ct`]. The only constant-time fixed-base multiplication of the crate: key
//! derivation, signing and [`mul_generator_ct`] all use it.
//!
//! # Method
//! k (any 256-bit integer) is first reduced modulo n in constant time (five masked
//! subtractions of n·2^j, j = 4..0, as k < 2^256 < 32·n), so k < n < 2^252, and recoded into 37 signed radix-128 digits,
//! k = Σ d_i·128^i with d_i ∈ [−64, 64] (window value plus carry v; if v > 64 the digit is
//! v − 128 and 1 carries on); 36 windows cover bits 0..251 and digit 36 is the final carry
//! (0 or 1). A table built once holds T[i][j − 1] = j·128^i·G (affine, 37 rows × 64 points,
//! 148 KiB), and k·G = Σ sign(d_i)·T[i][|d_i| − 1]: 37 mixed additions (madd-2007-bl,
//! 7M + 4S), no doubling. (Radix 64 and 256 measured about the same under load; 128 trades
//! the table scan against the number of additions.)
//!
//! # Why the additions need no special cases
//! Before step i the accumulator is A_i·G with A_i = Σ_(t<i) d_t·128^t, an integer with
//! |A_i| <= 64·(128^i − 1)/127 < 0.51·128^i. The added point is d·128^i·G with
//! 1 <= |d| <= 64, so A_i ∓ d·128^i is non-zero and, for 7i + 7 <= 250 (i <= 34), smaller than
//! 64.51·2^238 < n in absolute value: the two points are never equal or opposite. The only
//! special case there is A_i = 0 (accumulator at infinity), handled with a masked select. The
//! last two steps (i = 35, 36) can meet equal points for some k (k = 2^252 mod n does at
//! step 35), so they also compute the doubling and select it (for opposite points the generic
//! formula already yields Z3 = 2·Z1·H = 0, infinity).
//!
//! # Constant time
//! The recoding uses arithmetic masks; each step reads all 64 entries of its row and keeps one
//! with masks (an entry is the Montgomery limbs of x and y in one aligned cache line; the scan
//! is the kernel `Backend::scan_row` of `crate::backend::ct_scan`, vectorised on AVX2 and NEON), negates y under a mask, and replaces the result with masks for a zero digit or an
//! empty accumulator. No branch or memory index depends on k.

use super::{EC_ORDER_LIMBS, GENERATOR, ProjectivePoint, formulas};
use crate::Felt;
use crate::backend::ct_scan::{Entry64, scan_backend};
use crate::field::mont::sbb;
use crate::sync::OnceTable;
use alloc::vec::Vec;

/// Bits per window.
pub(crate) const W: usize = 7;
/// Number of signed digits for a scalar below 2^252: 36 windows and the final carry.
pub(crate) const DIGITS: usize = 37;
/// Table entries per row: |d| in 1..=64.
const ENTRIES: usize = 1 << (W - 1);

pub(crate) fn table() -> &'static [[Entry64; ENTRIES]] {
    static TABLE: OnceTable<Vec<[Entry64; ENTRIES]>> = OnceTable::new();
    TABLE.get_or_init(|| {
        let mut points = Vec::with_capacity(DIGITS * ENTRIES);
        let mut base = ProjectivePoint::from_affine(&GENERATOR);
        for _ in 0..DIGITS {
            let mut m = base;
            for _ in 0..ENTRIES {
                points.push(m);
                m = m.add(&base);
            }
            // The next base is 2^W·base = 2·(2^(W−1)·base).
            base = points[points.len() - 1].double();
        }
        let affine = ProjectivePoint::batch_to_affine(&points);
        affine
            .chunks_exact(ENTRIES)
            .map(|row| {
                core::array::from_fn(|j| {
                    let (x, y) = (row[j].x.0, row[j].y.0);
                    Entry64([x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]])
                })
            })
            .collect()
    })
}

/// 1 if `v == 0`, else 0, without a branch.
#[inline(always)]
fn ct_is_zero_u64(v: u64) -> u64 {
    ((v | v.wrapping_neg()) >> 63) ^ 1
}

/// 1 if the field element is zero, else 0, without a branch.
#[inline(always)]
fn ct_is_zero(f: &Felt) -> u64 {
    let l = f.to_montgomery_limbs();
    ct_is_zero_u64(l[0] | l[1] | l[2] | l[3])
}

/// Bits `[start, start + W)` of the little-endian limbs (positions are public).
#[inline(always)]
fn window(k: &[u64; 4], start: usize) -> u64 {
    let limb = start / 64;
    let off = start % 64;
    let mut v = k[limb] >> off;
    if off + W > 64 && limb + 1 < 4 {
        v |= k[limb + 1] << (64 - off);
    }
    v & ((1 << W) - 1)
}

/// Signed digits (magnitude, negative flag) of k < 2^252, in constant time.
#[inline(always)]
pub(crate) fn recode(k: &[u64; 4]) -> [(u64, u64); DIGITS] {
    let mut out = [(0u64, 0u64); DIGITS];
    let mut carry = 0u64;
    for (i, o) in out.iter_mut().enumerate() {
        let v = window(k, W * i) + carry;
        // neg = 1 iff v > 2^(W−1).
        let neg = ((1u64 << (W - 1)).wrapping_sub(v)) >> 63;
        // |d| = v when neg = 0, 2^W − v when neg = 1.
        let mask = 0u64.wrapping_sub(neg);
        let mag = (v & !mask) | ((1u64 << W).wrapping_sub(v) & mask);
        *o = (mag, neg);
        carry = neg;
    }
    out
}

/// `n·2^j` for j = 4, 3, 2, 1, 0 (each below 2^256, as n < 2^252).
const N_SHIFTED: [[u64; 4]; 5] = {
    let n = EC_ORDER_LIMBS;
    let mut out = [[0u64; 4]; 5];
    let mut t = 0;
    while t < 5 {
        let j = 4 - t;
        out[t][0] = n[0] << j;
        let mut i = 1;
        while i < 4 {
            out[t][i] = if j == 0 {
                n[i]
            } else {
                (n[i] << j) | (n[i - 1] >> (64 - j))
            };
            i += 1;
        }
        t += 1;
    }
    out
};

/// `k mod n` for any 256-bit `k` (little-endian limbs), in constant time: since
/// `k < 2^256 < 32·n`, subtracting `n·2^j` under a mask for j = 4, 3, 2, 1, 0 leaves `k < n`.
#[inline]
pub(crate) fn reduce_mod_n(k: &[u64; 4]) -> [u64; 4] {
    let mut k = *k;
    for m in N_SHIFTED.iter() {
        let (d0, b) = sbb(k[0], m[0], 0);
        let (d1, b) = sbb(k[1], m[1], b);
        let (d2, b) = sbb(k[2], m[2], b);
        let (d3, b) = sbb(k[3], m[3], b);
        // Keep k when the subtraction borrowed (k < n·2^j).
        let keep = 0u64.wrapping_sub(b);
        k = [
            (k[0] & keep) | (d0 & !keep),
            (k[1] & keep) | (d1 & !keep),
            (k[2] & keep) | (d2 & !keep),
            (k[3] & keep) | (d3 & !keep),
        ];
    }
    k
}

/// `k·G` for a secret scalar `k` given as little-endian `u64` limbs of its integer value (any
/// 256-bit value; it is used modulo n, the order of G). Constant time in `k`: no branch and no
/// memory index depends on it (see the module docs). The result is in Jacobian form (infinity
/// exactly when k ≡ 0 mod n).
///
/// On x86-64 CPUs with BMI2 the same code runs compiled with `mulx` (`backend::cpu::has_bmi2`
/// picks the build).
pub fn mul_generator_ct(scalar: &[u64; 4]) -> ProjectivePoint {
    mul_generator_ct_best(scalar)
}

/// [`mul_generator_ct`] compiled with BMI2.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn mul_generator_ct_bmi2(k: &[u64; 4]) -> ProjectivePoint {
    mul_generator_ct_inline(k)
}

/// Constant-time `k·G` with the fastest scalar code this CPU runs (the choice depends on the
/// CPU only, never on `k`).
#[inline]
pub(crate) fn mul_generator_ct_best(k: &[u64; 4]) -> ProjectivePoint {
    #[cfg(target_arch = "x86_64")]
    if crate::backend::cpu::has_bmi2() {
        // SAFETY: BMI2 is present (run-time test above, or the build targets it).
        return unsafe { mul_generator_ct_bmi2(k) };
    }
    mul_generator_ct_plain(k)
}

/// The plain build, kept out of line like the BMI2 one (its callers stay small).
#[inline(never)]
fn mul_generator_ct_plain(k: &[u64; 4]) -> ProjectivePoint {
    mul_generator_ct_inline(k)
}

/// The body of [`mul_generator_ct`], inlined into each of its builds.
#[inline(always)]
pub(crate) fn mul_generator_ct_inline(scalar: &[u64; 4]) -> ProjectivePoint {
    let k = reduce_mod_n(scalar);
    let digits = recode(&k);
    let t = table();
    let scan = scan_backend();
    let mut acc = ProjectivePoint::INFINITY;
    for (i, (row, &(mag, neg))) in t.iter().zip(digits.iter()).enumerate() {
        // Constant-time lookup of row[mag − 1]: every entry is read and combined under a
        // mask (mag = 0 selects none); the kernel is picked once per call.
        let sel = scan.scan_row(row, mag);
        let px = Felt([sel[0], sel[1], sel[2], sel[3]]);
        let mut py = Felt([sel[4], sel[5], sel[6], sel[7]]);
        py = Felt::select(&py, &-py, neg);

        let ((mut x, mut y, mut z), h, r) =
            formulas::add_affine_unchecked(acc.x, acc.y, acc.z, px, py);
        let acc_inf = ct_is_zero(&acc.z);
        if W * i + W > 250 {
            // Last steps (public index): equal points are possible, use the doubling then.
            let (dx, dy, dz) = formulas::double(acc.x, acc.y, acc.z);
            let use_double = ct_is_zero(&h) & ct_is_zero(&r) & (acc_inf ^ 1);
            x = Felt::select(&x, &dx, use_double);
            y = Felt::select(&y, &dy, use_double);
            z = Felt::select(&z, &dz, use_double);
        }
        // Accumulator at infinity: the sum is the table point.
        x = Felt::select(&x, &px, acc_inf);
        y = Felt::select(&y, &py, acc_inf);
        z = Felt::select(&z, &Felt::ONE, acc_inf);
        // Digit 0: keep the accumulator.
        let keep = ct_is_zero_u64(mag);
        acc = ProjectivePoint {
            x: Felt::select(&x, &acc.x, keep),
            y: Felt::select(&y, &acc.y, keep),
            z: Felt::select(&z, &acc.z, keep),
        };
    }
    acc
}

/// `z⁻¹` (0 for 0) with the constant-time safegcd of `crate::field::safegcd`, without the
/// zero test of [`Felt::inverse`]: no branch at all on `z`.
#[inline]
pub(crate) fn inverse_ct(z: &Felt) -> Felt {
    Felt(crate::field::safegcd::invert_scaled_p(
        &z.0,
        &crate::field::mont::R2,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recoding_recomposes_and_never_carries_out() {
        for k in [
            [0u64, 0, 0, 0],
            [1, 0, 0, 0],
            [u64::MAX, u64::MAX, u64::MAX, 0x0800_0000_0000_0010],
            [
                0x1e66_a241_adc6_4d2e,
                0xb781_126d_cae7_b232,
                u64::MAX,
                0x0800_0000_0000_0010,
            ],
            [
                0xf0f0_f0f0_f0f0_f0f0,
                0x1111_1111_1111_1111,
                0x8888_8888_8888_8888,
                0x07ff_ffff_ffff_ffff,
            ],
        ] {
            let d = recode(&k);
            // Recompose in i128 pieces: Σ d_i·32^i, checked limb by limb via num-like accumulation.
            let mut acc = [0i128; 5]; // 64-bit limbs with signed slack
            for (i, &(mag, neg)) in d.iter().enumerate() {
                let v = if neg == 1 {
                    -(mag as i128)
                } else {
                    mag as i128
                };
                let bit = W * i;
                acc[bit / 64] += v << (bit % 64);
            }
            // Normalise.
            let mut out = [0u64; 4];
            let mut carry = 0i128;
            for i in 0..4 {
                let t = acc[i] + carry;
                out[i] = t as u64;
                carry = t >> 64;
            }
            assert_eq!(out, k);
            assert_eq!(carry + acc[4], 0);
            for &(mag, _) in &d {
                assert!(mag <= 1 << (W - 1));
            }
        }
    }

    #[test]
    fn matches_vartime_multiplication() {
        let mut k = Felt::from(0x1234_5678_9abc_def0u64);
        for i in 0..40u64 {
            k = k * k + Felt::from(i);
            let ct = mul_generator_ct(&k.to_raw_limbs()).to_affine();
            let vt = GENERATOR.mul_vartime(&k.to_raw_limbs()).to_affine();
            assert_eq!(ct, vt);
        }
        // Top-window special cases: k = 2^252 − n (equal points at step 35), neighbours, n − 1, 0.
        let n = EC_ORDER_LIMBS;
        let two_252_minus_n = Felt::from_hex_unchecked(
            "0x7ffffffffffffef0000000000000000487eed9235184dcde1995dbe5239b2d1",
        );
        for k in [
            two_252_minus_n,
            two_252_minus_n + Felt::ONE,
            two_252_minus_n - Felt::ONE,
            Felt::from_raw_limbs([n[0] - 1, n[1], n[2], n[3]]).unwrap(),
            Felt::ZERO,
            Felt::ONE,
        ] {
            let ct = mul_generator_ct(&k.to_raw_limbs()).to_affine();
            let vt = GENERATOR.mul_vartime(&k.to_raw_limbs()).to_affine();
            assert_eq!(ct, vt, "k = {k}");
        }
    }

    #[test]
    fn reduction_mod_n_matches_bigint() {
        use num_bigint::BigUint;
        let big = |l: &[u64; 4]| {
            l.iter()
                .rev()
                .fold(BigUint::from(0u8), |acc, &x| (acc << 64) + BigUint::from(x))
        };
        let n = big(&EC_ORDER_LIMBS);
        let mut x = 0x0123_4567_89ab_cdefu64;
        let mut cases = vec![
            [0u64; 4],
            [u64::MAX; 4],
            EC_ORDER_LIMBS,
            N_SHIFTED[0],
            N_SHIFTED[4],
            [
                EC_ORDER_LIMBS[0] - 1,
                EC_ORDER_LIMBS[1],
                EC_ORDER_LIMBS[2],
                EC_ORDER_LIMBS[3],
            ],
        ];
        for _ in 0..200 {
            let mut l = [0u64; 4];
            for v in l.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *v = x;
            }
            cases.push(l);
        }
        for k in cases {
            assert_eq!(big(&reduce_mod_n(&k)), big(&k) % &n, "{k:x?}");
        }
    }

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    /// The BMI2 build of the constant-time generator multiplication equals the plain one on
    /// edge scalars (0, 1, n − 1, n, n + 1, 2^256 − 1, single bits, limb boundaries) and
    /// pseudo-random ones.
    #[test]
    fn bmi2_generator_multiplication_equals_plain() {
        if !crate::backend::cpu::has_bmi2() {
            return;
        }
        let n = crate::curve::EC_ORDER.to_raw_limbs();
        let mut scalars = vec![
            [0; 4],
            [1, 0, 0, 0],
            [n[0] - 1, n[1], n[2], n[3]],
            n,
            [n[0] + 1, n[1], n[2], n[3]],
            [u64::MAX; 4],
            [0, 0, 0, 1 << 59],
            [u64::MAX, 0, u64::MAX, 0],
        ];
        for bit in [0, 63, 64, 127, 128, 191, 192, 250, 251, 255] {
            let mut k = [0u64; 4];
            k[bit / 64] = 1 << (bit % 64);
            scalars.push(k);
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..24 {
            let mut k = [0u64; 4];
            for l in k.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *l = x;
            }
            scalars.push(k);
        }
        for k in scalars {
            let plain = mul_generator_ct_inline(&k);
            // SAFETY: `crate::backend::cpu::has_bmi2()` was checked at the top of the test.
            let fast = unsafe { mul_generator_ct_bmi2(&k) };
            assert_eq!(
                (plain.x, plain.y, plain.z),
                (fast.x, fast.y, fast.z),
                "k = {k:x?}"
            );
        }
    }
}
