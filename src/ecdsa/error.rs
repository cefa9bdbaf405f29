//! Errors of [`sign`](crate::sign), [`verify`](crate::verify) and [`recover`](crate::recover),
//! with the same variants (and messages) as starknet-crypto 0.8.

use core::fmt;

/// Why [`sign`](crate::sign) refused to produce a signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignError {
    /// The message hash is not below 2^251.
    InvalidMessageHash,
    /// k is 0 (or a multiple of n), or gives r or s equal to 0 or not below 2^251: pick
    /// another k.
    InvalidK,
}

impl fmt::Display for SignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidMessageHash => write!(f, "Invalid message hash"),
            Self::InvalidK => write!(f, "Invalid k"),
        }
    }
}

impl core::error::Error for SignError {}

/// Why [`verify`](crate::verify) could not check a signature (a well-formed but wrong
/// signature is `Ok(false)`, not an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyError {
    /// The public key is not the x-coordinate of a curve point.
    InvalidPublicKey,
    /// The message hash is not below 2^251.
    InvalidMessageHash,
    /// r is 0 or not below 2^251.
    InvalidR,
    /// s is 0 or not below 2^251, or s^-1 mod n is not below 2^251.
    InvalidS,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidMessageHash => write!(f, "Invalid message hash"),
            Self::InvalidPublicKey => write!(f, "Invalid public key"),
            Self::InvalidR => write!(f, "Invalid r"),
            Self::InvalidS => write!(f, "Invalid s"),
        }
    }
}

impl core::error::Error for VerifyError {}

/// Why [`recover`](crate::recover) could not recover a public key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoverError {
    /// The message hash is not below 2^251.
    InvalidMessageHash,
    /// r is 0, not below 2^251, or not the x-coordinate of a curve point.
    InvalidR,
    /// s is 0 or not below n (or s·R = m·G, for which no public key exists).
    InvalidS,
    /// v is neither 0 nor 1.
    InvalidV,
}

impl fmt::Display for RecoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidMessageHash => write!(f, "Invalid message hash"),
            Self::InvalidR => write!(f, "Invalid r"),
            Self::InvalidS => write!(f, "Invalid s"),
            Self::InvalidV => write!(f, "Invalid v"),
        }
    }
}

impl core::error::Error for RecoverError {}
