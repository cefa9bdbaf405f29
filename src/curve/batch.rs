//! Batch point arithmetic across SIMD lanes: [`double_batch`], [`add_batch`] and
//! [`to_affine_batch`] (and their `_par` variants), with methods of the same names on
//! [`Backend`](crate::Backend).
//!
//! # Method
//! Points are gathered `LANES` at a time into the backend's packed field type (lane `k` holds
//! coordinate X, Y or Z of point `i + k`) and run through the formulas of [`super::formulas`],
//! the same code the scalar [`ProjectivePoint`] methods run, then scattered back. The outputs
//! are the very triples the scalar functions produce (bit for bit after the canonical store),
//! on every backend. The tail (fewer than `LANES` points) is padded and only its real lanes are
//! written back.
//!
//! - Doubling (dbl-2007-bl) is exact for every input, infinity included (Z = 0 stays 0): no
//!   mask at all.
//! - Addition (add-2007-bl) computes the generic sum and, only when some lane needs it (a
//!   variable-time test, as [`ProjectivePoint::add`] itself branches), the doubling; then it
//!   picks per lane with masks, in the scalar function's order: `a` at infinity → `b`;
//!   `b` at infinity → `a`; H = 0 and r = 0 (P + P) → the doubling; H = 0 and r ≠ 0
//!   (P + (−P)) → infinity (1, 1, 0); else the generic sum.
//! - Conversion to affine uses Montgomery's trick in the lanes: each lane keeps a running
//!   product of its Z values (zeros replaced by 1), the `LANES` lane products are inverted with
//!   one field inversion in total ([`Felt::batch_inverse`]), and a backward pass yields each
//!   Z⁻¹ with two multiplications. A point with Z = 0 becomes [`AffinePoint::INFINITY`]. The
//!   forward products are kept in one scratch vector of `n / LANES` packed values (the only
//!   allocation).
//!
//! # Backends
//! Every [`Backend`](crate::Backend): portable runs one scalar element at a time (`Felt`;
//! four in lock-step, `X4<Felt>`, measured slower and is kept as a tested reference), AVX2
//! and NEON the 9×28-bit lanes. Lane types are converted on load and store,
//! which is part of the measured cost (for the 9×28-bit lanes shifts, masks and one
//! product-free reduction step per element, see `crate::backend::packed`).

use super::formulas;
use super::{AffinePoint, ProjectivePoint};
use crate::backend::MAX_LANES;
use crate::backend::select::PackedSelect;
use crate::field::Felt;
use alloc::vec::Vec;

/// The number of elements in the chunk starting at `i` (at most `l`).
#[inline(always)]
fn take(n: usize, i: usize, l: usize) -> usize {
    if n - i < l { n - i } else { l }
}

/// A packed Jacobian point.
#[derive(Clone, Copy)]
pub(crate) struct PackedPoint<P> {
    pub(crate) x: P,
    pub(crate) y: P,
    pub(crate) z: P,
}

impl<P: PackedSelect> PackedPoint<P> {
    /// The point at infinity (1, 1, 0) in every lane.
    #[inline(always)]
    pub(crate) fn infinity() -> Self {
        let one = P::constant(&P::prepare(Felt::ONE));
        PackedPoint {
            x: one,
            y: one,
            z: P::zero(),
        }
    }

    /// Lanes from `points` (at most `LANES`), padded with `pad`.
    #[inline(always)]
    pub(crate) fn gather(points: &[ProjectivePoint], pad: &ProjectivePoint) -> Self {
        let l = P::LANES;
        let mut xs = [pad.x; MAX_LANES];
        let mut ys = [pad.y; MAX_LANES];
        let mut zs = [pad.z; MAX_LANES];
        for (k, p) in points.iter().enumerate() {
            xs[k] = p.x;
            ys[k] = p.y;
            zs[k] = p.z;
        }
        PackedPoint {
            x: P::load(&xs[..l]),
            y: P::load(&ys[..l]),
            z: P::load(&zs[..l]),
        }
    }

    /// Writes the first `points.len()` lanes into `points`.
    #[inline(always)]
    pub(crate) fn scatter(self, points: &mut [ProjectivePoint]) {
        let l = P::LANES;
        let mut xs = [Felt::ZERO; MAX_LANES];
        let mut ys = [Felt::ZERO; MAX_LANES];
        let mut zs = [Felt::ZERO; MAX_LANES];
        self.x.store(&mut xs[..l]);
        self.y.store(&mut ys[..l]);
        self.z.store(&mut zs[..l]);
        for (k, p) in points.iter_mut().enumerate() {
            *p = ProjectivePoint {
                x: xs[k],
                y: ys[k],
                z: zs[k],
            };
        }
    }

    /// `b` in the lanes where `mask` is set, `a` elsewhere.
    #[inline(always)]
    pub(crate) fn select(mask: P::Word, a: Self, b: Self) -> Self {
        PackedPoint {
            x: P::select(mask, a.x, b.x),
            y: P::select(mask, a.y, b.y),
            z: P::select(mask, a.z, b.z),
        }
    }

    /// `2·self` in every lane (exact for every input).
    #[inline(always)]
    pub(crate) fn double(self) -> Self {
        let (x, y, z) = formulas::double(self.x, self.y, self.z);
        PackedPoint { x, y, z }
    }

    /// `self + other` in every lane, exactly as [`ProjectivePoint::add`] (module docs);
    /// `infinity` is the packed (1, 1, 0).
    #[inline(always)]
    pub(crate) fn add(self, other: Self, infinity: Self) -> Self {
        let ((x, y, z), h, r) =
            formulas::add_unchecked(self.x, self.y, self.z, other.x, other.y, other.z);
        let mut out = PackedPoint { x, y, z };
        let h0 = h.zero_mask();
        let a_inf = self.z.zero_mask();
        let b_inf = other.z.zero_mask();
        if P::any(h0) {
            let r0 = r.zero_mask();
            out = Self::select(P::word_and(h0, P::mask_not(r0)), out, infinity);
            out = Self::select(P::word_and(h0, r0), out, self.double());
        }
        out = Self::select(b_inf, out, self);
        Self::select(a_inf, out, other)
    }
}

impl<P: PackedSelect> PackedPoint<P> {
    /// `self + (x2, y2)` for affine finite points `(x2, y2)` in every lane, exactly as
    /// [`ProjectivePoint::add_affine`] (mixed addition, madd-2007-bl): `self` at infinity →
    /// `(x2, y2, 1)`; H = 0 and r = 0 → the doubling; H = 0 and r ≠ 0 → `infinity`
    /// (the packed (1, 1, 0)); else the generic sum. `one` is the packed 1.
    #[inline(always)]
    pub(crate) fn add_affine(self, x2: P, y2: P, one: P, infinity: Self) -> Self {
        let ((x, y, z), h, r) = formulas::add_affine_unchecked(self.x, self.y, self.z, x2, y2);
        let mut out = PackedPoint { x, y, z };
        let h0 = h.zero_mask();
        if P::any(h0) {
            let r0 = r.zero_mask();
            out = Self::select(P::word_and(h0, P::mask_not(r0)), out, infinity);
            out = Self::select(P::word_and(h0, r0), out, self.double());
        }
        let a_inf = self.z.zero_mask();
        Self::select(
            a_inf,
            out,
            PackedPoint {
                x: x2,
                y: y2,
                z: one,
            },
        )
    }
}

/// `±|d|·Q` for digit `pos` in every lane (`d` odd and non-zero; lane `k`'s digits are
/// `digits[k]`, its table `tx`, `ty`, with `ny = −ty`): masked selects over only the entries the
/// lanes use (variable time in the digits, which are public).
///
/// A function, not a closure: a closure does not inherit the entry point's target features, so
/// the intrinsics of the selects inside it would be out-of-line calls.
#[inline(always)]
fn gather_signed<P: PackedSelect>(
    tx: &[P; 8],
    ty: &[P; 8],
    ny: &[P; 8],
    l: usize,
    pos: usize,
    digits: &[[i8; super::wnaf::REGULAR_DIGITS]; MAX_LANES],
) -> (P, P) {
    // code = entry + 8·(d < 0); entry = (|d| − 1)/2.
    let mut code = [0u64; MAX_LANES];
    let mut entry = [0u64; MAX_LANES];
    for k in 0..l {
        let d = digits[k][pos];
        entry[k] = d.unsigned_abs() as u64 >> 1;
        code[k] = entry[k] | (((d < 0) as u64) << 3);
    }
    let first = code[0] as usize;
    let (mut x, mut y) = (
        tx[first & 7],
        if first & 8 != 0 {
            ny[first & 7]
        } else {
            ty[first & 7]
        },
    );
    let words = P::word_load(&code[..l]);
    let entries = P::word_load(&entry[..l]);
    let mut seen_x = 1u32 << (first & 7);
    let mut seen_y = 1u32 << first;
    for &c in &code[1..l] {
        let c = c as usize;
        if seen_x & (1 << (c & 7)) == 0 {
            seen_x |= 1 << (c & 7);
            // Lanes using entry c & 7 with either sign.
            let m = P::word_eq(entries, P::word_splat((c & 7) as u64));
            x = P::select(m, x, tx[c & 7]);
        }
        if seen_y & (1 << c) == 0 {
            seen_y |= 1 << c;
            let m = P::word_eq(words, P::word_splat(c as u64));
            let yc = if c & 8 != 0 { ny[c & 7] } else { ty[c & 7] };
            y = P::select(m, y, yc);
        }
    }
    (x, y)
}

/// `out[i] = k_i·Q_i` where `tables[8i..8i + 8]` holds the affine odd multiples
/// Q_i, 3Q_i, …, 15Q_i (all finite) and `k_i = scalars[i]` (any 256-bit value, used as is),
/// `LANES` items side by side.
///
/// Method (variable time in the scalars, for public data): each k is made odd (k + 1 when k is
/// even) and recoded with [`regular_recode`](super::wnaf::regular_recode) to `t` odd digits,
/// `t` the largest length in the group, so that every lane runs the same steps: start at
/// d_(t−1)·Q, then per digit four doublings and one mixed addition of ±|d|·Q, gathered per
/// lane from the item's table. Lanes whose k was even then add −Q (a masked mixed addition).
/// Every addition is exact ([`PackedPoint::add_affine`]), so each lane holds the group element
/// k·Q, the one [`ProjectivePoint::mul_vartime`] returns (as a point; the Jacobian triple may
/// differ).
///
/// Precondition: `tables.len() == 8 * scalars.len()` and `out.len() == scalars.len()`.
#[inline(always)]
pub(crate) fn mul_affine_tables<P: PackedSelect>(
    tables: &[AffinePoint],
    scalars: &[[u64; 4]],
    out: &mut [ProjectivePoint],
) {
    use super::wnaf::{REGULAR_DIGITS, regular_len, regular_recode};
    const T: usize = 8;
    let l = P::LANES;
    assert!(l <= MAX_LANES && tables.len() == T * scalars.len() && out.len() == scalars.len());
    let infinity = PackedPoint::<P>::infinity();
    let one = infinity.x;
    let n = scalars.len();
    let mut i = 0;
    while i < n {
        let t = take(n, i, l);
        // Lane k runs item i + min(k, t − 1) (the padding repeats the last item).
        let item = |k: usize| i + k.min(t - 1);
        let mut even = [0u64; MAX_LANES];
        let mut odd = [[0u64; 4]; MAX_LANES];
        let mut len = 1;
        for k in 0..l {
            let s = scalars[item(k)];
            even[k] = ((s[0] & 1) ^ 1).wrapping_neg();
            odd[k] = [s[0] | 1, s[1], s[2], s[3]];
            len = len.max(regular_len(&odd[k]));
        }
        let mut digits = [[0i8; REGULAR_DIGITS]; MAX_LANES];
        for k in 0..l {
            digits[k] = regular_recode(&odd[k], len);
        }
        // The tables in lane form, loaded once per group: entry e of lane k is item k's
        // (2e + 1)·Q; `ny` holds the negated y-coordinates.
        let mut tx = [P::zero(); T];
        let mut ty = [P::zero(); T];
        let mut ny = [P::zero(); T];
        for e in 0..T {
            let mut xs = [Felt::ZERO; MAX_LANES];
            let mut ys = [Felt::ZERO; MAX_LANES];
            for k in 0..l {
                let p = &tables[T * item(k) + e];
                xs[k] = p.x;
                ys[k] = p.y;
            }
            tx[e] = P::load(&xs[..l]);
            ty[e] = P::load(&ys[..l]);
            ny[e] = P::zero().sub(ty[e]);
        }
        let (x, y) = gather_signed(&tx, &ty, &ny, l, len - 1, &digits);
        let mut acc = PackedPoint { x, y, z: one };
        for pos in (0..len - 1).rev() {
            acc = acc.double().double().double().double();
            let (x, y) = gather_signed(&tx, &ty, &ny, l, pos, &digits);
            acc = acc.add_affine(x, y, one, infinity);
        }
        if even[..l].iter().any(|&e| e != 0) {
            // −Q in every lane; kept only where k was even.
            let sum = acc.add_affine(tx[0], ny[0], one, infinity);
            acc = PackedPoint::select(P::word_load(&even[..l]), acc, sum);
        }
        acc.scatter(&mut out[i..i + t]);
        i += t;
    }
}

/// Doubles every point in place, `LANES` at a time.
#[inline(always)]
pub(crate) fn double_points<P: PackedSelect>(points: &mut [ProjectivePoint]) {
    let l = P::LANES;
    assert!(l <= MAX_LANES);
    let n = points.len();
    let mut i = 0;
    while i < n {
        let t = take(n, i, l);
        let chunk = &mut points[i..i + t];
        PackedPoint::<P>::gather(chunk, &ProjectivePoint::INFINITY)
            .double()
            .scatter(chunk);
        i += t;
    }
}

/// `points[i] = points[i] + others[i]`. Precondition: equal lengths.
#[inline(always)]
pub(crate) fn add_points<P: PackedSelect>(
    points: &mut [ProjectivePoint],
    others: &[ProjectivePoint],
) {
    let l = P::LANES;
    assert!(l <= MAX_LANES && points.len() == others.len());
    let infinity = PackedPoint::<P>::infinity();
    let n = points.len();
    let mut i = 0;
    while i < n {
        let t = take(n, i, l);
        let pad = ProjectivePoint::INFINITY;
        let b = PackedPoint::<P>::gather(&others[i..i + t], &pad);
        let chunk = &mut points[i..i + t];
        let a = PackedPoint::<P>::gather(chunk, &pad);
        a.add(b, infinity).scatter(chunk);
        i += t;
    }
}

/// `out[i] = points[i].to_affine()`, with one field inversion in total. Precondition: equal
/// lengths.
#[inline(always)]
pub(crate) fn to_affine_points<P: PackedSelect>(
    points: &[ProjectivePoint],
    out: &mut [AffinePoint],
) {
    let l = P::LANES;
    assert!(l <= MAX_LANES && points.len() == out.len());
    let n = points.len();
    if n == 0 {
        return;
    }
    let chunks = n.div_ceil(l);
    // prefix[c] = the lane-wise product of the (non-zero) Z of chunks 0..c.
    let mut prefix: Vec<P> = Vec::with_capacity(chunks);
    let one = P::constant(&P::prepare(Felt::ONE));
    let mut acc = one;
    let mut c = 0;
    while c < chunks {
        prefix.push(acc);
        acc = acc.mul(load_z::<P>(points, c * l));
        c += 1;
    }
    // One inversion for the LANES lane products (all non-zero).
    let mut lane_products = [Felt::ONE; MAX_LANES];
    acc.store(&mut lane_products[..l]);
    Felt::batch_inverse(&mut lane_products[..l]);
    let mut inv = P::load(&lane_products[..l]);
    let mut c = chunks;
    while c > 0 {
        c -= 1;
        let i = c * l;
        let z = load_z::<P>(points, i);
        let zinv = inv.mul(prefix[c]);
        inv = inv.mul(z);
        let t = take(n, i, l);
        let mut xs = [Felt::ZERO; MAX_LANES];
        let mut ys = [Felt::ZERO; MAX_LANES];
        for k in 0..t {
            xs[k] = points[i + k].x;
            ys[k] = points[i + k].y;
        }
        let zinv2 = zinv.square();
        let x = P::load(&xs[..l]).mul(zinv2);
        let y = P::load(&ys[..l]).mul(zinv2.mul(zinv));
        x.store(&mut xs[..l]);
        y.store(&mut ys[..l]);
        for k in 0..t {
            let inf = points[i + k].z.is_zero() as u64;
            out[i + k] = AffinePoint {
                x: Felt::select(&xs[k], &Felt::ZERO, inf),
                y: Felt::select(&ys[k], &Felt::ZERO, inf),
                infinity: inf == 1,
            };
        }
    }
}

/// The Z values of the chunk at `i`, zeros (infinity) and padding replaced by 1.
#[inline(always)]
fn load_z<P: PackedSelect>(points: &[ProjectivePoint], i: usize) -> P {
    let l = P::LANES;
    let t = take(points.len(), i, l);
    let mut zs = [Felt::ONE; MAX_LANES];
    for k in 0..t {
        let z = points[i + k].z;
        zs[k] = Felt::select(&z, &Felt::ONE, z.is_zero() as u64);
    }
    P::load(&zs[..l])
}
