//! [`Signature`] and [`ExtendedSignature`], as in starknet-crypto 0.8.

use crate::Felt;

/// A Stark ECDSA signature (r, s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    /// The `r` value of a signature.
    pub r: Felt,
    /// The `s` value of a signature.
    pub s: Felt,
}

/// A Stark ECDSA signature with `v` (the parity of y(k·G)), which lets
/// [`recover`](crate::recover) find the public key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtendedSignature {
    /// The `r` value of a signature.
    pub r: Felt,
    /// The `s` value of a signature.
    pub s: Felt,
    /// The `v` value of a signature: 0 or 1.
    pub v: Felt,
}

impl From<ExtendedSignature> for Signature {
    fn from(value: ExtendedSignature) -> Self {
        Self {
            r: value.r,
            s: value.s,
        }
    }
}
