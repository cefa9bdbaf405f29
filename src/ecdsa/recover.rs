//! [`recover`]: the public key of a signature with its `v`.

use super::{ELEMENT_UPPER_BOUND, RecoverError, Scalar};
use crate::Felt;
use crate::curve::{AffinePoint, BETA, double_scalar_mul_vartime};

/// Recovers the public key from a message and the (r, s, v) of its signature:
/// R = the curve point with x = r and y of parity v, and Q = r⁻¹·(s·R − message·G), computed
/// as one interleaved double-scalar product (s·r⁻¹)·R + (−message·r⁻¹)·G. Returns x(Q).
///
/// Variable time (all inputs are public).
///
/// # Errors
/// Checked in this order, as starknet-crypto 0.8:
/// - [`RecoverError::InvalidMessageHash`] if `message >= 2^251`;
/// - [`RecoverError::InvalidR`] if r is 0 or `>= 2^251`;
/// - [`RecoverError::InvalidS`] if s is 0 or `>= n`;
/// - [`RecoverError::InvalidV`] if v is not 0 or 1;
/// - [`RecoverError::InvalidR`] if no curve point has x = r;
/// - [`RecoverError::InvalidS`] if s·R = message·G, where no public key exists
///   (starknet-crypto 0.8 panics there).
pub fn recover(message: &Felt, r: &Felt, s: &Felt, v: &Felt) -> Result<Felt, RecoverError> {
    if *message >= ELEMENT_UPPER_BOUND {
        return Err(RecoverError::InvalidMessageHash);
    }
    if r.is_zero() || *r >= ELEMENT_UPPER_BOUND {
        return Err(RecoverError::InvalidR);
    }
    let s = Scalar::from_felt(s)
        .filter(|s| !s.is_zero())
        .ok_or(RecoverError::InvalidS)?;
    if *v > Felt::ONE {
        return Err(RecoverError::InvalidV);
    }
    let y = (r.square() * r + r + BETA)
        .sqrt()
        .ok_or(RecoverError::InvalidR)?;
    let y = if (y.to_raw_limbs()[0] & 1) != v.to_raw_limbs()[0] {
        -y
    } else {
        y
    };
    let big_r = AffinePoint::new_unchecked(*r, y);

    // r < 2^251 < n and r ≠ 0, so r is invertible modulo n.
    let r_inv = Scalar::from_felt_reduced(r).inverse_vartime();
    let u_r = s * r_inv;
    let u_g = -(Scalar::from_felt_reduced(message) * r_inv);
    let q = double_scalar_mul_vartime(&u_g.to_raw_limbs(), &u_r.to_raw_limbs(), &big_r);
    if q.is_infinity() {
        return Err(RecoverError::InvalidS);
    }
    // Z ≠ 0 here; x = X/Z².
    let zinv = q.z.inverse_vartime().unwrap_or(Felt::ZERO);
    Ok(q.x * zinv.square())
}
