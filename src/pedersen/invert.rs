//! Variable-time inversion by Bernstein–Yang divsteps ("safegcd"), used once per hash
//! (Pedersen inputs are public, so the running time may depend on them).
//!
//! # Method
//! Reference: D. J. Bernstein and B.-Y. Yang, "Fast constant-time gcd computation and modular
//! inversion" (2019), with the η = −δ bookkeeping and the batching of 62 divsteps into one
//! 2×2 matrix described in libsecp256k1's `doc/safegcd_implementation.md` (read for the
//! method; this code is written from the description).
//!
//! - The Montgomery limbs of a `Felt` are the integer A = a·R mod p (R = 2^256). We run the
//!   divsteps on (f, g) = (p, A), keeping d·A ≡ f and e·A ≡ g (mod p), from (d, e) = (0, 1).
//! - Each batch applies 62 divsteps to the low 64 bits of f and g (runs of even g skipped with
//!   one shift), giving a
//!   matrix T = [[u, v], [q, r]] with |u| + |v| <= 2^62 and |q| + |r| <= 2^62 such that
//!   (f, g) ← T·(f, g)/2^62 exactly. The same matrix updates (d, e) modulo p: the division by
//!   2^62 is exact after adding m·p with m = −(u·d + v·e) mod 2^62, because p ≡ 1 (mod 2^62).
//! - Numbers are held in five signed 62-bit limbs so that every limb product fits an `i128`.
//! - The loop stops when g = 0; then f = ±1 and ±d = A^(−1). One Montgomery multiplication by
//!   R³ gives a^(−1)·R, the Montgomery form of a^(−1).

use crate::field::mont;
use crate::Felt;

/// R³ mod p, so that `mont::mul(v, R3) = v·R² mod p`.
const R3: [u64; 4] = mont::mul(mont::R2, mont::R2);

const M62: i64 = (1i64 << 62) - 1;

/// p in signed 62-bit limbs: 2^251 + 17·2^192 + 1 = 8·2^248 + 1088·2^186 + 1.
const P62: [i64; 5] = [1, 0, 0, 1088, 8];

/// 62 divsteps on the low bits of f (odd) and g. Returns the new η and the transition matrix
/// (u, v, q, r), scaled by 2^62. Runs of even g are skipped in one shift (trailing zeros);
/// each odd g takes one step.
#[inline(always)]
fn divsteps_62(mut eta: i64, f0: u64, g0: u64) -> (i64, i64, i64, i64, i64) {
    let (mut f, mut g) = (f0, g0);
    let (mut u, mut v, mut q, mut r) = (1i64, 0i64, 0i64, 1i64);
    let mut i = 62u32;
    loop {
        // Halve g as often as it is even (at most i more steps): the f row doubles instead.
        let zeros = (g | (u64::MAX << i)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        i -= zeros;
        if i == 0 {
            break;
        }
        // g is odd: one divstep.
        if eta < 0 {
            // (f, g) ← (g, −f), then g += f below gives (g − f).
            eta = -eta;
            let (tf, tu, tv) = (f, u, v);
            f = g;
            u = q;
            v = r;
            g = tf.wrapping_neg();
            q = -tu;
            r = -tv;
        }
        g = g.wrapping_add(f);
        q += u;
        r += v;
        // g is even now: the halving happens at the top of the loop (it counts as this step).
        g >>= 1;
        u <<= 1;
        v <<= 1;
        eta -= 1;
        i -= 1;
        if i == 0 {
            break;
        }
    }
    (eta, u, v, q, r)
}

/// (f, g) ← (u·f + v·g, q·f + r·g) / 2^62 (exact).
#[inline(always)]
fn update_fg(f: &mut [i64; 5], g: &mut [i64; 5], u: i64, v: i64, q: i64, r: i64) {
    let (u, v, q, r) = (u as i128, v as i128, q as i128, r as i128);
    let mut cf = u * f[0] as i128 + v * g[0] as i128;
    let mut cg = q * f[0] as i128 + r * g[0] as i128;
    debug_assert!(cf as i64 & M62 == 0 && cg as i64 & M62 == 0);
    cf >>= 62;
    cg >>= 62;
    for i in 1..5 {
        cf += u * f[i] as i128 + v * g[i] as i128;
        cg += q * f[i] as i128 + r * g[i] as i128;
        f[i - 1] = cf as i64 & M62;
        g[i - 1] = cg as i64 & M62;
        cf >>= 62;
        cg >>= 62;
    }
    f[4] = cf as i64;
    g[4] = cg as i64;
}

/// x ← (x + k·p) with limbs renormalised (k = ±1).
#[inline(always)]
fn add_p(x: &mut [i64; 5], k: i64) {
    let mut c = 0i64;
    for i in 0..4 {
        c += x[i] + k * P62[i];
        x[i] = c & M62;
        c >>= 62;
    }
    x[4] += c + k * P62[4];
}

/// `x >= p` for normalised non-negative limbs.
#[inline(always)]
fn ge_p(x: &[i64; 5]) -> bool {
    for i in (0..5).rev() {
        if x[i] != P62[i] {
            return x[i] > P62[i];
        }
    }
    true
}

/// (d, e) ← (u·d + v·e, q·d + r·e) / 2^62 mod p, both kept in [0, p).
#[inline(always)]
fn update_de(d: &mut [i64; 5], e: &mut [i64; 5], u: i64, v: i64, q: i64, r: i64) {
    let (u, v, q, r) = (u as i128, v as i128, q as i128, r as i128);
    let mut cd = u * d[0] as i128 + v * e[0] as i128;
    let mut ce = q * d[0] as i128 + r * e[0] as i128;
    // m = −c mod 2^62; p ≡ 1 (mod 2^62), so c + m·p ≡ 0 (mod 2^62).
    let md = (cd as i64).wrapping_neg() & M62;
    let me = (ce as i64).wrapping_neg() & M62;
    cd += md as i128 * P62[0] as i128;
    ce += me as i128 * P62[0] as i128;
    debug_assert!(cd as i64 & M62 == 0 && ce as i64 & M62 == 0);
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        cd += u * d[i] as i128 + v * e[i] as i128 + md as i128 * P62[i] as i128;
        ce += q * d[i] as i128 + r * e[i] as i128 + me as i128 * P62[i] as i128;
        d[i - 1] = cd as i64 & M62;
        e[i - 1] = ce as i64 & M62;
        cd >>= 62;
        ce >>= 62;
    }
    d[4] = cd as i64;
    e[4] = ce as i64;
    // Now −p < d, e < 2p (|u| + |v| <= 2^62 and d, e were in [0, p)).
    for x in [d, e] {
        while x[4] < 0 {
            add_p(x, 1);
        }
        while ge_p(x) {
            add_p(x, -1);
        }
    }
}

fn to_s62(a: &[u64; 4]) -> [i64; 5] {
    let m = M62 as u64;
    [
        (a[0] & m) as i64,
        (((a[0] >> 62) | (a[1] << 2)) & m) as i64,
        (((a[1] >> 60) | (a[2] << 4)) & m) as i64,
        (((a[2] >> 58) | (a[3] << 6)) & m) as i64,
        (a[3] >> 56) as i64,
    ]
}

/// Normalised non-negative limbs below 2^256 back to 64-bit limbs.
fn from_s62(s: &[i64; 5]) -> [u64; 4] {
    let s = s.map(|x| x as u64);
    [
        s[0] | (s[1] << 62),
        (s[1] >> 2) | (s[2] << 60),
        (s[2] >> 4) | (s[3] << 58),
        (s[3] >> 6) | (s[4] << 56),
    ]
}

/// The inverse of `a`, or 0 for 0. Variable time.
pub(crate) fn invert_vartime(a: &Felt) -> Felt {
    let limbs = a.0;
    if (limbs[0] | limbs[1] | limbs[2] | limbs[3]) == 0 {
        return Felt::ZERO;
    }
    let mut f = P62;
    let mut g = to_s62(&limbs);
    let mut d = [0i64; 5];
    let mut e = [1i64, 0, 0, 0, 0];
    let mut eta = -1i64;
    while g.iter().any(|&x| x != 0) {
        let f0 = (f[0] as u64) | ((f[1] as u64) << 62);
        let g0 = (g[0] as u64) | ((g[1] as u64) << 62);
        let (eta2, u, v, q, r) = divsteps_62(eta, f0, g0);
        eta = eta2;
        update_fg(&mut f, &mut g, u, v, q, r);
        update_de(&mut d, &mut e, u, v, q, r);
    }
    // gcd(p, A) = 1, so f = ±1 and d·A ≡ f.
    debug_assert!(f == [1, 0, 0, 0, 0] || f == [M62, M62, M62, M62, -1]);
    let mut inv = mont::mul(from_s62(&d), R3);
    if f[4] < 0 {
        inv = mont::neg(inv);
    }
    Felt(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_fermat_inverse() {
        let mut v = Felt::from(3u64);
        for _ in 0..2000 {
            assert_eq!(Some(invert_vartime(&v)), v.inverse());
            v = v.square() + Felt::from(7u64);
        }
        for v in [
            Felt::ONE,
            Felt::TWO,
            Felt::MAX,
            Felt::MAX - Felt::ONE,
            Felt::from(1u64 << 63),
            Felt::from_raw_limbs([0, 0, 0, 1 << 58]).unwrap(),
            Felt::from_montgomery_limbs([0, 0, 0, 1 << 58]).unwrap(),
            Felt::from_montgomery_limbs([1, 0, 0, 0]).unwrap(),
            Felt::from_montgomery_limbs([0, 1, 0, 0]).unwrap(),
            Felt::from_montgomery_limbs([u64::MAX, u64::MAX, u64::MAX, 0x0800_0000_0000_0010])
                .unwrap(),
        ] {
            assert_eq!(invert_vartime(&v) * v, Felt::ONE, "{v}");
        }
        assert_eq!(invert_vartime(&Felt::ZERO), Felt::ZERO);
    }
}
