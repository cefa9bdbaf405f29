//! [`verify_batch`]: many independent ECDSA verifications, each result identical to
//! [`verify`](crate::ecdsa::verify) (the same errors, checked in the same order).
//!
//! # Method
//! Items are processed in chunks of [`CHUNK`]. Per chunk:
//! 1. the range checks and the square root giving Q (per item, as `verify`);
//! 2. w = s⁻¹ mod n for every item with **one** inversion modulo n (Montgomery's trick:
//!    prefix products, one variable-time inversion, a backward pass; 3 products per item);
//! 3. the odd multiples Q, 3Q, …, 15Q of every item (one doubling and seven additions each),
//!    converted to affine together with **one** field inversion
//!    ([`Backend::to_affine_batch`](crate::Backend::to_affine_batch), in SIMD lanes), so that the
//!    additions of the width-5 NAF for u2·Q are mixed additions (7M + 4S) instead of general
//!    ones (11M + 5S);
//! 4. u2·Q for every item in SIMD lanes, `LANES` items side by side
//!    ([`Backend::mul_affine_tables`](crate::Backend), generic driver
//!    `curve::batch::mul_affine_tables`): u2 made odd (u2 + 1 if even, −Q added at the end in
//!    those lanes) and recoded in regular signed radix 16 (every digit odd, |d| ≤ 15), so that
//!    all lanes run the same 4 doublings + 1 mixed addition per digit with no idle lane
//!    (a width-5 NAF leaves most lanes without a digit at a given position); the digit's
//!    entry ±|d|·Q is picked per lane by masked selects from the item's table loaded into lane
//!    form once per group. The lane mixed addition handles infinity, P = Q and P = −Q with masks
//!    exactly as [`ProjectivePoint::add_affine`];
//! 5. per item, u1·G from the fixed-base table and the comparison x(u1·G ± u2·Q) = r in
//!    Jacobian coordinates, as `verify`.
//!
//! The group elements computed are the ones `verify` computes, so the booleans are equal.
//! Variable time, like `verify` (every input is public). [`verify_batch_par`] splits the
//! batch over rayon; each piece still shares its inversions.

use crate::Felt;
use crate::curve::{AffinePoint, BETA, ProjectivePoint};
use crate::ecdsa::gen_table::mul_generator_vartime;
use crate::ecdsa::verify::x_equals;
use crate::ecdsa::{ELEMENT_UPPER_BOUND, Scalar, VerifyError};
use alloc::vec;
use alloc::vec::Vec;
#[cfg(feature = "std")]
use rayon::prelude::*;

/// Items per shared inversion.
const CHUNK: usize = 256;
/// The NAF width for u2·Q (8 odd multiples), as in `verify`.
const W: u32 = 5;
/// Odd multiples per item.
const TABLE: usize = 1 << (W - 2);

/// One signature to verify: the public key (an x-coordinate), the message hash and (r, s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VerifyItem {
    /// The public key, the x-coordinate of the signer's point.
    pub public_key: Felt,
    /// The message hash.
    pub message: Felt,
    /// r of the signature.
    pub r: Felt,
    /// s of the signature.
    pub s: Felt,
}

/// `out[i] = verify(&items[i].public_key, &items[i].message, &items[i].r, &items[i].s)` for
/// every item, sharing the inversions of a chunk of 256 items (module docs).
///
/// ```
/// use starkbatch::{verify_batch, VerifyItem};
/// use starkbatch::{get_public_key, sign, verify, Felt};
/// let d = Felt::from(12345u64);
/// let m = Felt::from(777u64);
/// let sig = sign(&d, &m, &Felt::from(99u64)).unwrap();
/// let q = get_public_key(&d);
/// let items = [
///     VerifyItem { public_key: q, message: m, r: sig.r, s: sig.s },
///     VerifyItem { public_key: q, message: m + Felt::ONE, r: sig.r, s: sig.s },
///     VerifyItem { public_key: q, message: m, r: sig.r, s: Felt::ZERO },
/// ];
/// let mut out = [Ok(false); 3];
/// verify_batch(&items, &mut out);
/// for (item, o) in items.iter().zip(&out) {
///     assert_eq!(*o, verify(&item.public_key, &item.message, &item.r, &item.s));
/// }
/// assert_eq!(out[0], Ok(true));
/// ```
///
/// # Panics
/// If `items.len() != out.len()`.
pub fn verify_batch(items: &[VerifyItem], out: &mut [Result<bool, VerifyError>]) {
    assert_eq!(
        items.len(),
        out.len(),
        "verify_batch: items and out differ in length"
    );
    for (i, o) in items.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
        verify_chunk(i, o);
    }
}

/// [`verify_batch`] split over the rayon thread pool (pieces of at least 64 items, each
/// sharing its inversions).
///
/// ```
/// use starkbatch::{get_public_key, sign, verify_batch_par, Felt, VerifyItem};
/// let (d, m) = (Felt::from(12345u64), Felt::from(777u64));
/// let sig = sign(&d, &m, &Felt::from(99u64)).unwrap();
/// let q = get_public_key(&d);
/// let items: Vec<VerifyItem> = (0..70u64)
///     .map(|i| VerifyItem { public_key: q, message: m + Felt::from(i % 2), r: sig.r, s: sig.s })
///     .collect();
/// let mut out = vec![Ok(false); items.len()];
/// verify_batch_par(&items, &mut out);
/// // Even items carry the signed message, odd ones another message.
/// assert!(out.iter().enumerate().all(|(i, o)| *o == Ok(i % 2 == 0)));
/// ```
///
/// # Panics
/// If `items.len() != out.len()`.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn verify_batch_par(items: &[VerifyItem], out: &mut [Result<bool, VerifyError>]) {
    assert_eq!(
        items.len(),
        out.len(),
        "verify_batch_par: items and out differ in length"
    );
    let threads = rayon::current_num_threads().max(1);
    let piece = items.len().div_ceil(4 * threads).clamp(64, CHUNK);
    items
        .par_chunks(piece)
        .zip(out.par_chunks_mut(piece))
        .for_each(|(i, o)| verify_batch(i, o));
}

/// The checks of `verify` before the inversion: the point Q, or the error.
fn check(item: &VerifyItem) -> Result<AffinePoint, VerifyError> {
    if item.message >= ELEMENT_UPPER_BOUND {
        return Err(VerifyError::InvalidMessageHash);
    }
    if item.r.is_zero() || item.r >= ELEMENT_UPPER_BOUND {
        return Err(VerifyError::InvalidR);
    }
    if item.s.is_zero() || item.s >= ELEMENT_UPPER_BOUND {
        return Err(VerifyError::InvalidS);
    }
    let x = item.public_key;
    let y = (x.square() * x + x + BETA)
        .sqrt()
        .ok_or(VerifyError::InvalidPublicKey)?;
    Ok(AffinePoint::new_unchecked(x, y))
}

/// One chunk (`items.len() == out.len() <= CHUNK`).
fn verify_chunk(items: &[VerifyItem], out: &mut [Result<bool, VerifyError>]) {
    // 1. Checks; `live` lists the items still being verified, with their Q.
    let mut live: Vec<(usize, AffinePoint)> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match check(item) {
            Ok(q) => live.push((i, q)),
            Err(e) => out[i] = Err(e),
        }
    }
    if live.is_empty() {
        return;
    }
    // 2. w = s⁻¹ mod n for all live items with one inversion (s ≠ 0 and s < n: invertible).
    let ss: Vec<Scalar> = live
        .iter()
        .map(|&(i, _)| Scalar::from_felt_reduced(&items[i].s))
        .collect();
    let mut ws = Vec::with_capacity(ss.len());
    let mut acc = Scalar::ONE;
    for s in &ss {
        ws.push(acc);
        acc *= *s;
    }
    let mut inv = acc.inverse_vartime();
    for (w, s) in ws.iter_mut().zip(&ss).rev() {
        *w = inv * *w;
        inv *= *s;
    }
    // 3. The odd multiples of every Q, converted to affine with one inversion.
    let mut tables = Vec::with_capacity(live.len() * TABLE);
    for &(_, q) in &live {
        let q = ProjectivePoint::from_affine(&q);
        let q2 = q.double();
        let mut t = q;
        tables.push(t);
        for _ in 1..TABLE {
            t = t.add(&q2);
            tables.push(t);
        }
    }
    let mut affine = vec![AffinePoint::INFINITY; tables.len()];
    crate::backend::Backend::current().to_affine_batch(&tables, &mut affine);
    // 4. The bound on w, u1 and u2 per item; u2·Q for all remaining items in SIMD lanes.
    let mut us: Vec<(usize, Scalar)> = Vec::with_capacity(live.len());
    let mut u2s: Vec<[u64; 4]> = Vec::with_capacity(live.len());
    let mut kept: Vec<AffinePoint> = Vec::with_capacity(live.len() * TABLE);
    for (j, (&(i, _), w)) in live.iter().zip(&ws).enumerate() {
        let item = &items[i];
        if w.to_felt() >= ELEMENT_UPPER_BOUND {
            out[i] = Err(VerifyError::InvalidS);
            continue;
        }
        us.push((i, Scalar::from_felt_reduced(&item.message) * *w));
        u2s.push((Scalar::from_felt_reduced(&item.r) * *w).to_raw_limbs());
        kept.extend_from_slice(&affine[j * TABLE..(j + 1) * TABLE]);
    }
    let mut bs = vec![ProjectivePoint::INFINITY; u2s.len()];
    crate::backend::Backend::current().mul_affine_tables(&kept, &u2s, &mut bs);
    // 5. Per item: u1·G and the comparison x(u1·G ± u2·Q) = r.
    for (&(i, u1), b) in us.iter().zip(&bs) {
        let r = &items[i].r;
        let a = mul_generator_vartime(&u1.to_raw_limbs());
        out[i] = Ok(x_equals(&a.add(b), r) || x_equals(&a.add(&b.neg()), r));
    }
}
