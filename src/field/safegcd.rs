//! Constant-time modular inversion by Bernstein–Yang "safegcd" divsteps.
//!
//! # Math
//! Sources: D. J. Bernstein, B.-Y. Yang, "Fast constant-time gcd computation and modular
//! inversion" (TCHES 2019), and the "safegcd implementation" write-up of libsecp256k1
//! (`doc/safegcd_implementation.md`), which analyses the half-delta variant used here. The code
//! below is written from that math.
//!
//! One *divstep* maps `(δ, f, g)`, with `f` odd, to
//! - `(1 − δ, g, (g − f)/2)` if `δ > 0` and `g` is odd,
//! - `(1 + δ, f, (g + f)/2)` if `g` is odd otherwise,
//! - `(1 + δ, f, g/2)` if `g` is even.
//!
//! Starting from `δ = 1/2`, `f = M` (odd), `g = x` with `0 <= x < M < 2^256`, 590 divsteps
//! always reach `g = 0` and `f = ±gcd(M, x)` (the bound of the write-up, section "Bounds on the
//! number of divsteps", computed with the safegcd-bounds convex-hull method for 256-bit
//! inputs). We run exactly 10 batches of 59 = 590 divsteps, whatever the input (extra
//! divsteps after `g = 0` leave `f` and `d` unchanged); libsecp256k1's `modinv64` runs the
//! same 10 × 59 for its 256-bit moduli.
//!
//! Each batch only looks at the low 62 bits of `f` and `g`. It runs two rounds, of 30 and of
//! 29 divsteps, whose 2×2 transition matrices have entries below 2^30, so each matrix row
//! fits in one 64-bit word as two 32-bit fields (see `divsteps_packed`); their product,
//! scaled by 8, is `T = [[u, v], [q, r]]` with `2^62·(f', g') = T·(f, g)` and
//! `|u| + |v| <= 2^62`, `|q| + |r| <= 2^62` (each divstep at most doubles a row sum). The matrix is then applied to
//! the full-width `(f, g)` (an exact division by 2^62) and to `(d, e)` modulo M.
//!
//! `d` and `e` track `d·x ≡ c·f` and `e·x ≡ c·g (mod M)` (starting at `d = 0`, `e = c`), so when
//! `f = ±1` the answer `c/x mod M` is `±d`. Taking `c = 1` gives the plain inverse; Felt uses
//! `c = R²` to land directly in Montgomery form (see [`invert_scaled_with`]).
//!
//! # Representation and bounds
//! Numbers are held as five *signed-62* limbs: value `Σ l_i·2^(62i)`, limbs 0..3 in
//! `[0, 2^62)`, limb 4 signed. `f, g` stay in `[−M, M]`; `d, e` stay in `(−2M, M)` (before the
//! update, a negative `d` or `e` gets `M` folded in through the correction term `md`/`me`, which
//! also makes the sum divisible by 2^62; the division by 2^62 then keeps the bound, as argued in
//! the write-up, section "Avoiding modulus operations"). The final normalisation maps `(−2M, M)`
//! to `[0, M)`. Products are `i64 × i64 → i128`; every accumulator is below 2^127 in absolute
//! value.
//!
//! # Constant time
//! Fixed iteration counts; the divstep uses masks only; there is no secret-dependent branch or
//! memory index anywhere in this module.

/// Mask of the low 62 bits.
const M62: u64 = u64::MAX >> 2;

/// Number of batches of 59 divsteps: 10 · 59 = 590 divsteps, enough for any modulus below
/// 2^256 (module docs).
const BATCHES: usize = 10;

/// A 256-bit odd modulus prepared for safegcd inversion.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Modulus {
    /// The modulus in signed-62 limbs.
    m62: [i64; 5],
    /// The modulus inverse modulo 2^62.
    inv62: u64,
    /// The modulus as little-endian 64-bit limbs.
    #[allow(dead_code)]
    limbs: [u64; 4],
}

impl Modulus {
    /// Prepares an odd modulus given in little-endian 64-bit limbs. Panics (at compile time
    /// when used in a `const`) if the modulus is even.
    pub(crate) const fn new(limbs: [u64; 4]) -> Modulus {
        assert!(limbs[0] & 1 == 1, "safegcd modulus must be odd");
        // Newton iteration for the inverse mod 2^64: each step doubles the number of correct
        // low bits; m·m ≡ 1 (mod 8) for odd m gives 3 bits to start from.
        let m = limbs[0];
        let mut inv = m;
        let mut i = 0;
        while i < 5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
            i += 1;
        }
        Modulus {
            m62: to_signed62(&limbs),
            inv62: inv & M62,
            limbs,
        }
    }

    /// The modulus as little-endian 64-bit limbs.
    #[allow(dead_code)]
    pub(crate) const fn limbs(&self) -> [u64; 4] {
        self.limbs
    }
}

/// Starknet's field prime p = 2^251 + 17·2^192 + 1.
pub(crate) const MODULUS_P: Modulus = Modulus::new(super::mont::P);

/// The STARK curve order n (from `/work/shared/spec/starknet.md`, "Order n").
#[allow(dead_code)]
pub(crate) const MODULUS_N: Modulus = Modulus::new([
    0x1e66_a241_adc6_4d2f,
    0xb781_126d_cae7_b232,
    0xffff_ffff_ffff_ffff,
    0x0800_0000_0000_0010,
]);

/// 256-bit little-endian limbs to signed-62 limbs (all limbs non-negative).
const fn to_signed62(a: &[u64; 4]) -> [i64; 5] {
    [
        (a[0] & M62) as i64,
        (((a[0] >> 62) | (a[1] << 2)) & M62) as i64,
        (((a[1] >> 60) | (a[2] << 4)) & M62) as i64,
        (((a[2] >> 58) | (a[3] << 6)) & M62) as i64,
        (a[3] >> 56) as i64,
    ]
}

/// Signed-62 limbs of a value in `[0, 2^256)` (limbs 0..3 in `[0, 2^62)`) to 64-bit limbs.
#[inline(always)]
const fn from_signed62(a: &[i64; 5]) -> [u64; 4] {
    let l = [
        a[0] as u64,
        a[1] as u64,
        a[2] as u64,
        a[3] as u64,
        a[4] as u64,
    ];
    [
        l[0] | (l[1] << 62),
        (l[1] >> 2) | (l[2] << 60),
        (l[2] >> 4) | (l[3] << 58),
        (l[3] >> 6) | (l[4] << 56),
    ]
}

/// A transition matrix `[[u, v], [q, r]]` scaled by 2^62.
#[derive(Clone, Copy)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// `N <= 30` divsteps in constant time with each matrix row packed in one word.
///
/// The f-row `(u, v)` is held as `u + v·2^32` and the g-row `(q, r)` as `q + r·2^32` (as
/// wrapping 64-bit integers): the divstep only adds, negates, swaps and doubles whole rows,
/// which are linear, so the packed words stay exact while `|u|, |v|, |q|, |r| < 2^31`; after
/// `N <= 30` steps every row sum is at most 2^30. The swap case takes the old g-row and g (a
/// masked select) instead of adding the updated g-row back, which keeps f off the g dependency
/// chain.
///
/// Returns the new zeta and `T` with `2^N·(f_N, g_N) = T·(f_0, g_0)`.
#[inline(always)]
fn divsteps_packed<const N: usize>(mut zeta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    const { assert!(N <= 30) };
    let (mut f, mut g) = (f0, g0);
    let mut fr: u64 = 1; // u = 1, v = 0
    let mut gr: u64 = 1 << 32; // q = 0, r = 1
    // One divstep. The loops below run it in groups of five (so that the compiler renames
    // registers instead of copying them), then the remaining `N mod 5` one by one.
    macro_rules! step {
        () => {{
            let c1 = (zeta >> 63) as u64; // δ > 0
            let c2 = (g & 1).wrapping_neg(); // g odd
            let s = c1 & c2; // swap
            let x = (f ^ c1).wrapping_sub(c1); // ±f
            let y = (fr ^ c1).wrapping_sub(c1); // ±f-row
            let f_next = f ^ ((f ^ g) & s);
            let fr_next = fr ^ ((fr ^ gr) & s);
            g = g.wrapping_add(x & c2);
            gr = gr.wrapping_add(y & c2);
            zeta = (zeta ^ s as i64).wrapping_sub(1);
            f = f_next;
            fr = fr_next;
            g >>= 1;
            fr = fr.wrapping_add(fr);
        }};
    }
    let mut i = 0;
    while i + 5 <= N {
        step!();
        step!();
        step!();
        step!();
        step!();
        i += 5;
    }
    while i < N {
        step!();
        i += 1;
    }
    let unpack = |w: u64| {
        let lo = (w as i64) << 32 >> 32;
        (lo, (w as i64).wrapping_sub(lo) >> 32)
    };
    let (u, v) = unpack(fr);
    let (q, r) = unpack(gr);
    (zeta, Trans { u, v, q, r })
}

/// 59 divsteps in constant time: a packed round of 30, then one of 29 on the low bits of
/// `(f_30, g_30) = T_1·(f, g) / 2^30` (exact in the 32 bits above bit 30 of the 62 known), and
/// the product matrix `T_2·T_1` (`2^59·(f_59, g_59) = T_2·T_1·(f, g)`, row sums at most 2^59)
/// scaled by 8 to the common 2^62 scale.
#[inline(always)]
fn divsteps_59(zeta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (zeta, t1) = divsteps_packed::<30>(zeta, f0, g0);
    let f1 = (t1.u as u64)
        .wrapping_mul(f0)
        .wrapping_add((t1.v as u64).wrapping_mul(g0))
        >> 30;
    let g1 = (t1.q as u64)
        .wrapping_mul(f0)
        .wrapping_add((t1.r as u64).wrapping_mul(g0))
        >> 30;
    let (zeta, t2) = divsteps_packed::<29>(zeta, f1, g1);
    let t = Trans {
        u: (t2.u * t1.u + t2.v * t1.q) << 3,
        v: (t2.u * t1.v + t2.v * t1.r) << 3,
        q: (t2.q * t1.u + t2.r * t1.q) << 3,
        r: (t2.q * t1.v + t2.r * t1.r) << 3,
    };
    (zeta, t)
}

/// `(f, g) ← T·(f, g) / 2^62`, exact. Inputs and outputs in `[−M, M]`.
#[inline(always)]
fn update_fg(f: &mut [i64; 5], g: &mut [i64; 5], t: Trans) {
    let (u, v, q, r) = (t.u as i128, t.v as i128, t.q as i128, t.r as i128);
    let mut cf = u * f[0] as i128 + v * g[0] as i128;
    let mut cg = q * f[0] as i128 + r * g[0] as i128;
    debug_assert!(cf as u64 & M62 == 0 && cg as u64 & M62 == 0);
    cf >>= 62;
    cg >>= 62;
    let mut i = 1;
    while i < 5 {
        cf += u * f[i] as i128 + v * g[i] as i128;
        cg += q * f[i] as i128 + r * g[i] as i128;
        f[i - 1] = (cf as u64 & M62) as i64;
        g[i - 1] = (cg as u64 & M62) as i64;
        cf >>= 62;
        cg >>= 62;
        i += 1;
    }
    f[4] = cf as i64;
    g[4] = cg as i64;
}

/// `(d, e) ← T·(d, e) / 2^62 (mod M)`, with inputs and outputs in `(−2M, M)`.
#[inline(always)]
fn update_de(d: &mut [i64; 5], e: &mut [i64; 5], t: Trans, m: &Modulus) {
    let (u, v, q, r) = (t.u, t.v, t.q, t.r);
    // Sign masks of d and e.
    let sd = d[4] >> 63;
    let se = e[4] >> 63;
    // Fold M into a negative d or e: adds (u·M, q·M) per negative d, (v·M, r·M) per negative e.
    let mut md = (u & sd).wrapping_add(v & se);
    let mut me = (q & sd).wrapping_add(r & se);
    let (ui, vi, qi, ri) = (u as i128, v as i128, q as i128, r as i128);
    let mut cd = ui * d[0] as i128 + vi * e[0] as i128;
    let mut ce = qi * d[0] as i128 + ri * e[0] as i128;
    // Adjust md, me so that cd + md·M and ce + me·M are divisible by 2^62.
    md = md.wrapping_sub((m.inv62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62) as i64);
    me = me.wrapping_sub((m.inv62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62) as i64);
    let (mdi, mei) = (md as i128, me as i128);
    cd += m.m62[0] as i128 * mdi;
    ce += m.m62[0] as i128 * mei;
    debug_assert!(cd as u64 & M62 == 0 && ce as u64 & M62 == 0);
    cd >>= 62;
    ce >>= 62;
    let mut i = 1;
    while i < 5 {
        let mi = m.m62[i] as i128;
        cd += ui * d[i] as i128 + vi * e[i] as i128 + mi * mdi;
        ce += qi * d[i] as i128 + ri * e[i] as i128 + mi * mei;
        d[i - 1] = (cd as u64 & M62) as i64;
        e[i - 1] = (ce as u64 & M62) as i64;
        cd >>= 62;
        ce >>= 62;
        i += 1;
    }
    d[4] = cd as i64;
    e[4] = ce as i64;
}

/// Propagates carries so that limbs 0..3 are in `[0, 2^62)` (value unchanged).
#[inline(always)]
fn carry62(a: &mut [i64; 5]) {
    let mut i = 0;
    while i < 4 {
        a[i + 1] += a[i] >> 62;
        a[i] &= M62 as i64;
        i += 1;
    }
}

/// Maps `d ∈ (−2M, M)` to `±d mod M ∈ [0, M)`, negating when `neg` is all ones.
#[inline(always)]
fn normalize(d: &mut [i64; 5], neg: i64, m: &Modulus) {
    // d < 0: add M, giving (−M, M). black_box: LLVM otherwise branches on the sign of d
    // (found by scripts/ct-check.sh).
    let c = core::hint::black_box(d[4] >> 63);
    for (di, mi) in d.iter_mut().zip(m.m62.iter()) {
        *di += mi & c;
    }
    // Conditional negation, limb-wise, then carries: still (−M, M).
    for di in d.iter_mut() {
        *di = (*di ^ neg).wrapping_sub(neg);
    }
    carry62(d);
    // d < 0: add M, giving [0, M).
    let c = core::hint::black_box(d[4] >> 63);
    for (di, mi) in d.iter_mut().zip(m.m62.iter()) {
        *di += mi & c;
    }
    carry62(d);
}

/// `c / x mod M` in constant time, for `x, c < M`; returns 0 when `x = 0`.
///
/// Inline so that a constant modulus is folded into the limb products.
#[inline(always)]
pub(crate) fn invert_scaled_with(x: &[u64; 4], c: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let mut zeta = -1i64; // δ = 1/2
    let mut f = m.m62;
    let mut g = to_signed62(x);
    let mut d = [0i64; 5];
    let mut e = to_signed62(c);
    let mut i = 0;
    while i < BATCHES {
        let (z, t) = divsteps_59(zeta, f[0] as u64, g[0] as u64);
        zeta = z;
        update_fg(&mut f, &mut g, t);
        update_de(&mut d, &mut e, t, m);
        i += 1;
    }
    // Now g = 0 and f = ±gcd = ±1 (or ±M when x = 0, where d = 0).
    let neg = f[4] >> 63;
    normalize(&mut d, neg, m);
    from_signed62(&d)
}

/// 62 divsteps in variable time (the original divstep, `δ` starting at 1, tracked as
/// `eta = −δ`), skipping runs of zero bits of `g` at once. Returns the new eta and `T` with
/// `2^62·(f_62, g_62) = T·(f_0, g_0)`. Not constant time: for public inputs only.
#[inline(always)]
fn divsteps_62_var(mut eta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (mut u, mut v, mut q, mut r) = (1i64, 0i64, 0i64, 1i64);
    let (mut f, mut g) = (f0, g0);
    let mut left = 62u32;
    loop {
        // Even steps: g /= 2 (the f-row doubles), δ += 1, for every trailing zero of g.
        let zeros = core::cmp::min(g.trailing_zeros(), left);
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        left -= zeros;
        if left == 0 {
            break;
        }
        // g is odd. If δ > 0: (f, g) ← (g, −f), and δ ← −δ (the "+1" comes with the halving).
        if eta < 0 {
            eta = -eta;
            (f, g) = (g, f.wrapping_neg());
            (u, v, q, r) = (q, r, -u, -v);
        }
        // g ← g + f (even now); the halving happens at the top of the loop.
        g = g.wrapping_add(f);
        q += u;
        r += v;
    }
    (eta, Trans { u, v, q, r })
}

/// `c / x mod M` in variable time (runs only as many divstep batches as the input needs), for
/// `x, c < M`; returns 0 when `x = 0`. For public inputs only.
#[inline(always)]
pub(crate) fn invert_scaled_vartime_with(x: &[u64; 4], c: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let mut eta = -1i64; // δ = 1
    let mut f = m.m62;
    let mut g = to_signed62(x);
    let mut d = [0i64; 5];
    let mut e = to_signed62(c);
    while (g[0] | g[1] | g[2] | g[3] | g[4]) != 0 {
        let (z, t) = divsteps_62_var(eta, f[0] as u64, g[0] as u64);
        eta = z;
        update_fg(&mut f, &mut g, t);
        update_de(&mut d, &mut e, t, m);
    }
    let neg = f[4] >> 63;
    normalize(&mut d, neg, m);
    from_signed62(&d)
}

/// `c / x mod p` in variable time for `x, c < p` (0 when `x = 0`). Public inputs only.
pub(crate) fn invert_scaled_p_vartime(x: &[u64; 4], c: &[u64; 4]) -> [u64; 4] {
    invert_scaled_vartime_with(x, c, &MODULUS_P)
}

/// `x^(−1) mod n` in variable time for `x < n` (0 maps to 0). Public inputs only (e.g. the
/// `s^(−1)` of signature verification).
#[allow(dead_code)]
pub(crate) fn invert_mod_n_vartime(x: &[u64; 4]) -> [u64; 4] {
    invert_scaled_vartime_with(x, &[1, 0, 0, 0], &MODULUS_N)
}

/// `x^(−1) mod M` in constant time for `x < M` (0 maps to 0).
#[allow(dead_code)]
pub(crate) fn invert(x: &[u64; 4], m: &Modulus) -> [u64; 4] {
    invert_scaled_with(x, &[1, 0, 0, 0], m)
}

/// `c / x mod p` in constant time for `x, c < p` (0 when `x = 0`).
pub(crate) fn invert_scaled_p(x: &[u64; 4], c: &[u64; 4]) -> [u64; 4] {
    invert_scaled_with(x, c, &MODULUS_P)
}

/// `x^(−1) mod n` (the curve order) in constant time for `x < n` (0 maps to 0).
#[allow(dead_code)]
pub(crate) fn invert_mod_n(x: &[u64; 4]) -> [u64; 4] {
    invert_scaled_with(x, &[1, 0, 0, 0], &MODULUS_N)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed62_roundtrip() {
        let a = [
            0x0123_4567_89ab_cdef,
            u64::MAX,
            0x8000_0000_0000_0001,
            u64::MAX,
        ];
        assert_eq!(from_signed62(&to_signed62(&a)), a);
    }

    #[test]
    fn inv62_is_inverse() {
        for m in [MODULUS_P, MODULUS_N] {
            assert_eq!((m.inv62.wrapping_mul(m.limbs[0])) & M62, 1);
        }
    }

    #[test]
    fn small_inverses() {
        for m in [MODULUS_P, MODULUS_N] {
            assert_eq!(invert(&[1, 0, 0, 0], &m), [1, 0, 0, 0]);
            assert_eq!(invert(&[0, 0, 0, 0], &m), [0, 0, 0, 0]);
            let mut mm1 = m.limbs;
            mm1[0] -= 1;
            // (M − 1)^(−1) = M − 1.
            assert_eq!(invert(&mm1, &m), mm1);
        }
    }

    fn big(l: &[u64; 4]) -> num_bigint::BigUint {
        num_bigint::BigUint::from_slice(&[
            l[0] as u32,
            (l[0] >> 32) as u32,
            l[1] as u32,
            (l[1] >> 32) as u32,
            l[2] as u32,
            (l[2] >> 32) as u32,
            l[3] as u32,
            (l[3] >> 32) as u32,
        ])
    }

    fn check(x: [u64; 4], m: &Modulus) {
        let mb = big(&m.limbs);
        let xb = big(&x) % &mb;
        let mut digits = xb.to_u64_digits();
        digits.resize(4, 0);
        let x = [digits[0], digits[1], digits[2], digits[3]];
        let got = big(&invert(&x, m));
        let got_var = big(&invert_scaled_vartime_with(&x, &[1, 0, 0, 0], m));
        assert_eq!(got, got_var, "vartime inverse of {xb:x} mod {mb:x}");
        let expected = if xb == num_bigint::BigUint::from(0u32) {
            xb.clone()
        } else {
            xb.modpow(&(&mb - 2u32), &mb)
        };
        assert_eq!(got, expected, "inverse of {xb:x} mod {mb:x}");
    }

    #[test]
    fn edge_inverses_mod_n_and_p() {
        for m in [MODULUS_P, MODULUS_N] {
            let l = m.limbs;
            let edges = [
                [2, 0, 0, 0],
                [u64::MAX, 0, 0, 0],
                [0, 1, 0, 0],
                [0, 0, 1, 0],
                [0, 0, 0, 1],
                [0, 0, 0, 1 << 59],
                {
                    // M − 2 (M's low limb may be 1, so borrow through the limbs).
                    let (a0, b) = l[0].overflowing_sub(2);
                    let (a1, b) = l[1].overflowing_sub(b as u64);
                    let (a2, b) = l[2].overflowing_sub(b as u64);
                    [a0, a1, a2, l[3] - b as u64]
                },
                [
                    (l[0] >> 1) | (l[1] << 63),
                    (l[1] >> 1) | (l[2] << 63),
                    (l[2] >> 1) | (l[3] << 63),
                    l[3] >> 1,
                ],
            ];
            for x in edges {
                check(x, &m);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn inverse_mod_n_matches_bigint(x in proptest::prelude::any::<[u64; 4]>()) {
            check(x, &MODULUS_N);
            let mb = big(&MODULUS_N.limbs);
            let xb = big(&x) % &mb;
            let mut digits = xb.to_u64_digits();
            digits.resize(4, 0);
            let r = invert_mod_n(&[digits[0], digits[1], digits[2], digits[3]]);
            if xb != num_bigint::BigUint::from(0u32) {
                proptest::prop_assert_eq!((big(&r) * xb) % mb, num_bigint::BigUint::from(1u32));
            }
        }

        #[test]
        fn inverse_mod_p_matches_bigint(x in proptest::prelude::any::<[u64; 4]>()) {
            check(x, &MODULUS_P);
        }

        #[test]
        fn scaled_inverse_mod_p(x in proptest::prelude::any::<[u64; 4]>(), c in proptest::prelude::any::<[u64; 4]>()) {
            let mb = big(&MODULUS_P.limbs);
            let red = |v: &[u64; 4]| {
                let mut d = (big(v) % &mb).to_u64_digits();
                d.resize(4, 0);
                [d[0], d[1], d[2], d[3]]
            };
            let (x, c) = (red(&x), red(&c));
            let got = big(&invert_scaled_p(&x, &c));
            let expected = (big(&c) * big(&x).modpow(&(&mb - 2u32), &mb)) % &mb;
            proptest::prop_assert_eq!(got, expected);
        }
    }
}
