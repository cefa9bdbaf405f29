//! Proof-of-work grinding for stwo's Poseidon252 channel, consecutive nonces side by side.

use super::error::ProverError;
use crate::Backend;
use crate::field::Felt;
use crate::poseidon::{poseidon_hash, poseidon_hash_many};
use alloc::vec;

/// stwo's `POW_PREFIX` (`core/channel/poseidon252.rs`).
pub const POW_PREFIX: u32 = 0x1234_5678;

/// Nonces per batch of permutations.
const BLOCK: usize = 512;

fn prefixed(digest: Felt, n_bits: u32) -> Felt {
    poseidon_hash_many(&[
        Felt::from(POW_PREFIX as u64),
        digest,
        Felt::from(n_bits as u64),
    ])
}

/// The trailing zero bits of the low 128 bits of `h` (128 for zero).
fn low_trailing_zeros(h: &Felt) -> u32 {
    let l = h.to_raw_limbs();
    (((l[1] as u128) << 64) | l[0] as u128).trailing_zeros()
}

/// Whether `nonce` passes stwo's `verify_pow_nonce` for the channel `digest`:
/// `poseidon_hash(poseidon_hash_many([POW_PREFIX, digest, n_bits]), nonce)` has at least
/// `n_bits` trailing zero bits in its low 128 bits.
///
/// ```
/// use starkbatch::prover::{grind, verify_pow_nonce};
/// use starkbatch::Felt;
/// let digest = Felt::from(42u64);
/// let nonce = grind(digest, 8).unwrap();
/// assert!(verify_pow_nonce(digest, 8, nonce).unwrap());
/// assert!((0..nonce).all(|n| !verify_pow_nonce(digest, 8, n).unwrap()));
/// ```
///
/// # Errors
/// [`ProverError::PowBits`] for `n_bits > 128`.
pub fn verify_pow_nonce(digest: Felt, n_bits: u32, nonce: u64) -> Result<bool, ProverError> {
    if n_bits > 128 {
        return Err(ProverError::PowBits(n_bits));
    }
    let h = poseidon_hash(prefixed(digest, n_bits), Felt::from(nonce));
    Ok(low_trailing_zeros(&h) >= n_bits)
}

/// The first valid nonce of block `b` (nonces `b * BLOCK ..`), if any.
fn search_block(backend: Backend, first: Felt, n_bits: u32, b: u64) -> Option<u64> {
    let start = b * BLOCK as u64;
    let mut s0 = vec![first; BLOCK];
    let mut s1: alloc::vec::Vec<Felt> = (0..BLOCK as u64).map(|i| Felt::from(start + i)).collect();
    let mut s2 = vec![Felt::TWO; BLOCK];
    backend.poseidon_permute_columns(&mut s0, &mut s1, &mut s2);
    s0.iter()
        .position(|h| low_trailing_zeros(h) >= n_bits)
        .map(|i| start + i as u64)
}

/// The smallest nonce that passes [`verify_pow_nonce`], searched in blocks of consecutive
/// nonces hashed side by side on the detected backend (the prefixed digest computed once).
/// stwo's CPU grinder returns the same nonce; its SIMD grinder searches another order, and
/// any valid nonce is accepted by the verifier.
///
/// # Errors
/// [`ProverError::PowBits`] for `n_bits > 128`.
pub fn grind(digest: Felt, n_bits: u32) -> Result<u64, ProverError> {
    if n_bits > 128 {
        return Err(ProverError::PowBits(n_bits));
    }
    let first = prefixed(digest, n_bits);
    let backend = Backend::current();
    // A valid nonce exists with overwhelming probability long before u64 runs out.
    Ok((0..u64::MAX / BLOCK as u64)
        .find_map(|b| search_block(backend, first, n_bits, b))
        .unwrap_or(u64::MAX))
}

/// [`grind`] on rayon's threads: each takes the next block of nonces; once a nonce is found,
/// blocks above it are not started, and the smallest found is returned (the same nonce as
/// [`grind`]).
///
/// # Errors
/// [`ProverError::PowBits`] for `n_bits > 128`.
#[cfg(feature = "std")]
pub fn grind_par(digest: Felt, n_bits: u32) -> Result<u64, ProverError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    if n_bits > 128 {
        return Err(ProverError::PowBits(n_bits));
    }
    let first = prefixed(digest, n_bits);
    let backend = Backend::current();
    let next = AtomicU64::new(0);
    let best = AtomicU64::new(u64::MAX);
    rayon::broadcast(|_| {
        loop {
            let b = next.fetch_add(1, Ordering::Relaxed);
            if b >= u64::MAX / BLOCK as u64 || b * (BLOCK as u64) > best.load(Ordering::Relaxed) {
                break;
            }
            if let Some(n) = search_block(backend, first, n_bits, b) {
                best.fetch_min(n, Ordering::Relaxed);
            }
        }
    });
    Ok(best.into_inner())
}
