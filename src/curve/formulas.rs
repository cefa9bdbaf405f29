//! Jacobian point formulas written once, generic over [`PackedFelt`], so that the scalar
//! [`Felt`](crate::Felt) and every SIMD lane type run the same arithmetic.
//!
//! A Jacobian triple (X, Y, Z) stands for the affine point (X/Z², Y/Z³); Z = 0 is the point at
//! infinity. The curve has a = 1 (y² = x³ + x + β).
//!
//! These functions perform no case analysis: [`double`] is exact for every input (including
//! infinity, because the curve has no point of order 2), while [`add_affine_unchecked`] is only
//! the generic formula and returns the intermediate values that decide the special cases
//! (see [`super::ProjectivePoint::add_affine`]).

use crate::PackedFelt;

/// Point doubling in Jacobian coordinates for a = 1: EFD `g1p/shortw/jacobian/doubling/dbl-2007-bl`
/// (Bernstein–Lange 2007), cost 1M + 8S (the `a·ZZ²` term costs nothing as a = 1):
///
/// ```text
/// XX = X1², YY = Y1², YYYY = YY², ZZ = Z1²
/// S  = 2·((X1 + YY)² − XX − YYYY)
/// M  = 3·XX + a·ZZ²
/// T  = M² − 2·S
/// X3 = T
/// Y3 = M·(S − T) − 8·YYYY
/// Z3 = (Y1 + Z1)² − YY − ZZ
/// ```
///
/// Every `2·`, `3·` and `8·` is computed with [`PackedFelt::double`] (or its lazy form) and
/// additions, never with a multiplication. Exact for all inputs: infinity (Z1 = 0) maps to
/// Z3 = 0, and no finite point has Y1 = 0 on this curve (its order n is odd).
///
/// The lazy operations skip 10 of the 17 normalisations of the plain formula; the weights of
/// the contract in `crate::field::packed` (`w`, mul/square inputs at most 4, subtrahends at most
/// 2, normalising inputs at most 10) are noted above each step. For [`crate::Felt`] the lazy
/// operations are the ordinary ones, so the scalar results are unchanged; every outgoing
/// coordinate has weight 1, as `store` requires.
#[inline(always)]
pub fn double<P: PackedFelt>(x1: P, y1: P, z1: P) -> (P, P, P) {
    // M (weight 4) is squared: the product of the input weights is 16.
    const { assert!(P::MUL_WEIGHTS >= 16) };
    // XX, YY, YYYY, ZZ: weight 1.
    let xx = x1.square();
    let yy = y1.square();
    let yyyy = yy.square();
    let zz = z1.square();
    // S = 2·((X1 + YY)² − XX − YYYY): square input weight 2; sub_lazy gives 5; sub needs
    // 5 + 4 <= 10; S has weight 1.
    let s = x1.add_lazy(yy).square().sub_lazy(xx).sub(yyyy).double();
    // M = 3·XX + ZZ²: weight 2 + 1 + 1 = 4, a valid input of square and mul.
    let m = xx.double_lazy().add_lazy(xx).add_lazy(zz.square());
    // T = M² − 2·S: the subtrahend 2·S has weight 2; T has weight 1.
    let t = m.square().sub(s.double_lazy());
    // Y3 = M·(S − T) − 8·YYYY: 8·YYYY = double(weight 4) (2·4 <= 10); Y3 has weight 1.
    let yyyy8 = yyyy.double_lazy().double_lazy().double();
    let y3 = m.mul(s.sub(t)).sub(yyyy8);
    // Z3 = (Y1 + Z1)² − YY − ZZ: square input weight 2; sub_lazy gives 5; sub needs
    // 5 + 4 <= 10; Z3 has weight 1.
    let z3 = y1.add_lazy(z1).square().sub_lazy(yy).sub(zz);
    (t, y3, z3)
}

/// The generic mixed addition (X1, Y1, Z1) + (x2, y2, 1): EFD
/// `g1p/shortw/jacobian/addition/madd-2007-bl`, cost 7M + 4S:
///
/// ```text
/// Z1Z1 = Z1², U2 = x2·Z1Z1, S2 = y2·Z1·Z1Z1
/// H = U2 − X1, HH = H², I = 4·HH, J = H·I, r = 2·(S2 − Y1), V = X1·I
/// X3 = r² − J − 2·V
/// Y3 = r·(V − X3) − 2·Y1·J
/// Z3 = (Z1 + H)² − Z1Z1 − HH
/// ```
///
/// Returns `((X3, Y3, Z3), H, r)`. The result is the sum only when Z1 ≠ 0 and H ≠ 0; when
/// H = 0 the points have the same x (r = 0: equal, use [`double`]; r ≠ 0: opposite, the sum is
/// infinity). The caller decides those cases.
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn add_affine_unchecked<P: PackedFelt>(x1: P, y1: P, z1: P, x2: P, y2: P) -> ((P, P, P), P, P) {
    let z1z1 = z1.square();
    let u2 = x2.mul(z1z1);
    let s2 = y2.mul(z1).mul(z1z1);
    let h = u2.sub(x1);
    let hh = h.square();
    let i = hh.double().double();
    let j = h.mul(i);
    let r = s2.sub(y1).double();
    let v = x1.mul(i);
    let x3 = r.square().sub(j).sub(v.double());
    let y3 = r.mul(v.sub(x3)).sub(y1.mul(j).double());
    let z3 = z1.add(h).square().sub(z1z1).sub(hh);
    ((x3, y3, z3), h, r)
}

/// The generic addition of two Jacobian points: EFD
/// `g1p/shortw/jacobian/addition/add-2007-bl`, cost 11M + 5S:
///
/// ```text
/// Z1Z1 = Z1², Z2Z2 = Z2², U1 = X1·Z2Z2, U2 = X2·Z1Z1, S1 = Y1·Z2·Z2Z2, S2 = Y2·Z1·Z1Z1
/// H = U2 − U1, I = (2·H)², J = H·I, r = 2·(S2 − S1), V = U1·I
/// X3 = r² − J − 2·V
/// Y3 = r·(V − X3) − 2·S1·J
/// Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H
/// ```
///
/// Returns `((X3, Y3, Z3), H, r)`; valid only when both inputs are finite and H ≠ 0 (the
/// caller handles the rest, as for [`add_affine_unchecked`]).
#[inline(always)]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn add_unchecked<P: PackedFelt>(x1: P, y1: P, z1: P, x2: P, y2: P, z2: P) -> ((P, P, P), P, P) {
    let z1z1 = z1.square();
    let z2z2 = z2.square();
    let u1 = x1.mul(z2z2);
    let u2 = x2.mul(z1z1);
    let s1 = y1.mul(z2).mul(z2z2);
    let s2 = y2.mul(z1).mul(z1z1);
    let h = u2.sub(u1);
    let i = h.double().square();
    let j = h.mul(i);
    let r = s2.sub(s1).double();
    let v = u1.mul(i);
    let x3 = r.square().sub(j).sub(v.double());
    let y3 = r.mul(v.sub(x3)).sub(s1.mul(j).double());
    let z3 = z1.add(z2).square().sub(z1z1).sub(z2z2).mul(h);
    ((x3, y3, z3), h, r)
}

/// The generic mixed addition in XYZZ coordinates ((X, Y, ZZ, ZZZ) stands for
/// (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ², ZZ = 0 for infinity): EFD
/// `g1p/shortw/xyzz/addition/madd-2008-s`, cost 8M + 2S and fewer additions than
/// [`add_affine_unchecked`]; a good accumulator when only additions are needed (Pedersen):
///
/// ```text
/// U2 = x2·ZZ1, S2 = y2·ZZZ1, P = U2 − X1, R = S2 − Y1
/// PP = P², PPP = P·PP, Q = X1·PP
/// X3 = R² − PPP − 2·Q
/// Y3 = R·(Q − X3) − Y1·PPP
/// ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP
/// ```
///
/// Returns `((X3, Y3, ZZ3, ZZZ3), P, R)`; valid only when ZZ1 ≠ 0 and P ≠ 0 (P = 0 means equal
/// x: R = 0 equal points, R ≠ 0 opposite points; the caller handles those cases).
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn add_affine_xyzz_unchecked<P: PackedFelt>(
    x1: P,
    y1: P,
    zz1: P,
    zzz1: P,
    x2: P,
    y2: P,
) -> ((P, P, P, P), P, P) {
    let u2 = x2.mul(zz1);
    let s2 = y2.mul(zzz1);
    let p = u2.sub(x1);
    let r = s2.sub(y1);
    let pp = p.square();
    let ppp = p.mul(pp);
    let q = x1.mul(pp);
    let x3 = r.square().sub(ppp).sub(q.double());
    let y3 = r.mul(q.sub(x3)).sub(y1.mul(ppp));
    let zz3 = zz1.mul(pp);
    let zzz3 = zzz1.mul(ppp);
    ((x3, y3, zz3, zzz3), p, r)
}
