//! [`verify`]: ECDSA verification against an x-only public key.

use super::gen_table::mul_generator_vartime;
use super::{ELEMENT_UPPER_BOUND, Scalar, VerifyError};
use crate::Felt;
use crate::curve::{AffinePoint, BETA, ProjectivePoint};

/// Whether the affine x-coordinate of `p` equals `x` (false for infinity), without inverting:
/// X = x·Z².
#[inline]
pub(crate) fn x_equals(p: &ProjectivePoint, x: &Felt) -> bool {
    !p.is_infinity() && p.x == *x * p.z.square()
}

/// Verifies the signature (r, s) of `message` under the public key `public_key` (an
/// x-coordinate). With w = s⁻¹ mod n, A = (message·w)·G and B = (r·w)·Q, the signature is
/// valid when x(A + B) = r or x(A − B) = r, i.e. for either point Q with x-coordinate
/// `public_key` (as starknet-crypto 0.8 and crypto-cpp).
///
/// Variable time (all inputs are public): A uses a fixed-base table for G, B a width-5 NAF, and
/// both candidates are compared in Jacobian coordinates without inversion.
///
/// # Errors
/// Checked in this order, as starknet-crypto 0.8:
/// - [`VerifyError::InvalidMessageHash`] if `message >= 2^251`;
/// - [`VerifyError::InvalidR`] if r is 0 or `>= 2^251`;
/// - [`VerifyError::InvalidS`] if s is 0 or `>= 2^251`;
/// - [`VerifyError::InvalidPublicKey`] if no curve point has x = `public_key`;
/// - [`VerifyError::InvalidS`] if w = s⁻¹ mod n is `>= 2^251`.
pub fn verify(public_key: &Felt, message: &Felt, r: &Felt, s: &Felt) -> Result<bool, VerifyError> {
    if *message >= ELEMENT_UPPER_BOUND {
        return Err(VerifyError::InvalidMessageHash);
    }
    if r.is_zero() || *r >= ELEMENT_UPPER_BOUND {
        return Err(VerifyError::InvalidR);
    }
    if s.is_zero() || *s >= ELEMENT_UPPER_BOUND {
        return Err(VerifyError::InvalidS);
    }
    let x = *public_key;
    let y = (x.square() * x + x + BETA)
        .sqrt()
        .ok_or(VerifyError::InvalidPublicKey)?;
    let q = AffinePoint::new_unchecked(x, y);

    // s < 2^251 < n and s ≠ 0, so s is invertible modulo n.
    let w = Scalar::from_felt_reduced(s).inverse_vartime();
    let w_felt = w.to_felt();
    if w_felt >= ELEMENT_UPPER_BOUND {
        return Err(VerifyError::InvalidS);
    }
    let u1 = Scalar::from_felt_reduced(message) * w;
    let u2 = Scalar::from_felt_reduced(r) * w;

    let a = mul_generator_vartime(&u1.to_raw_limbs());
    let b = q.mul_vartime(&u2.to_raw_limbs());
    Ok(x_equals(&a.add(&b), r) || x_equals(&a.add(&b.neg()), r))
}
