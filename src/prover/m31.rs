//! M31 values packed into felts as stwo's Poseidon252 Merkle hasher packs them.

use crate::field::Felt;

/// The M31 modulus, `2^31 - 1`; values are `0..M31_MODULUS`.
pub const M31_MODULUS: u32 = (1 << 31) - 1;

/// The felt of up to 8 M31 values, the first most significant:
/// `Σ v_i · 2^(31·(k-1-i))`, plus `k · 2^248` when `k < 8`.
///
/// ```
/// use starkbatch::prover::pack_m31;
/// use starkbatch::Felt;
/// assert_eq!(pack_m31(&[1, 2]), Felt::from((1u64 << 31) + 2) + Felt::TWO * Felt::TWO.pow(248));
/// ```
///
/// # Panics
/// If more than 8 values are given (a caller's bug: chunks are cut by this module).
pub fn pack_m31(values: &[u32]) -> Felt {
    assert!(values.len() <= 8, "pack_m31: at most 8 values");
    let mut it = values.iter().copied();
    pack_with(values.len(), || it.next().unwrap_or(0))
}

/// [`pack_m31`] of `k` values read in order from `next` (the leaf loops read columns directly).
#[inline]
pub(crate) fn pack_with(k: usize, mut next: impl FnMut() -> u32) -> Felt {
    // 8 · 31 = 248 bits in a (hi, lo) pair of u128, shifted in 31 bits at a time.
    let (mut hi, mut lo) = (0u128, 0u128);
    for _ in 0..k {
        hi = (hi << 31) | (lo >> 97);
        lo = (lo << 31) | next() as u128;
    }
    if k < 8 {
        hi |= (k as u128) << (248 - 128);
    }
    let limbs = [lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64];
    // Below 2^251 < p: always a felt.
    Felt::from_raw_limbs(limbs).unwrap_or(Felt::ZERO)
}
