//! [`sign`]: an ECDSA signature with a caller-chosen k.

use super::{ELEMENT_UPPER_BOUND, ExtendedSignature, Scalar, SignError};
use crate::Felt;
use crate::curve::{inverse_ct, mul_generator_ct};

/// Signs `message` (a hash below 2^251) with `private_key` and the nonce `k`:
/// r = x(k·G), s = (message + r·private_key)/k mod n, v = the parity of y(k·G).
///
/// Use a fresh secret k for every signature (for example [`rfc6979_generate_k`]); reusing k
/// reveals the private key.
///
/// Constant time in `private_key` and `k`: k·G is the constant-time fixed-base multiplication
/// ([`mul_generator_ct`]), Z is inverted modulo p and k modulo n with the constant-time safegcd
/// ([`Scalar::inverse`]). Only the final checks on the public outputs r and s branch.
///
/// # Errors
/// - [`SignError::InvalidMessageHash`] if `message >= 2^251`;
/// - [`SignError::InvalidK`] if k is 0 (or n), or r or s is 0 or not below 2^251 (the bounds of
///   starknet-crypto 0.8; choose another k).
///
/// [`rfc6979_generate_k`]: crate::rfc6979_generate_k
pub fn sign(private_key: &Felt, message: &Felt, k: &Felt) -> Result<ExtendedSignature, SignError> {
    if *message >= ELEMENT_UPPER_BOUND {
        return Err(SignError::InvalidMessageHash);
    }
    let point = mul_generator_ct(&k.to_raw_limbs());
    // Z = 0 exactly when k ≡ 0 (mod n); the zero "inverse" then gives r = 0, rejected below.
    let zinv = inverse_ct(&point.z);
    let zinv2 = zinv.square();
    let r = point.x * zinv2;
    let y = point.y * zinv2 * zinv;

    let k_inv = Scalar::from_felt_reduced(k).inverse();
    let d = Scalar::from_felt_reduced(private_key);
    // r < p and message < 2^251 are used modulo n, as starknet-crypto's integer arithmetic does.
    let s = (Scalar::from_felt_reduced(&r) * d + Scalar::from_felt_reduced(message)) * k_inv;
    let s = s.to_felt();

    // Public outputs from here on.
    if r.is_zero() || r >= ELEMENT_UPPER_BOUND {
        return Err(SignError::InvalidK);
    }
    if s.is_zero() || s >= ELEMENT_UPPER_BOUND {
        return Err(SignError::InvalidK);
    }
    Ok(ExtendedSignature {
        r,
        s,
        v: Felt::from(y.to_raw_limbs()[0] & 1),
    })
}
