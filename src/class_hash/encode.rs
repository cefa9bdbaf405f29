//! Small encodings used by class hashes: Starknet Keccak, Cairo short strings and
//! `normalize_address`.

use crate::Felt;
use sha3::{Digest, Keccak256};

/// Starknet Keccak: `keccak256(data) & (2^250 - 1)`, read big-endian.
///
/// Source: cairo-lang `starkware/starknet/public/abi.py` (`starknet_keccak`). The result is below
/// 2^250 < p, so it is always a field element.
///
/// ```
/// use starkbatch::class_hash::sn_keccak;
/// // Vector from cairo-lang / the Starknet docs (selector of `__execute__`).
/// assert_eq!(
///     sn_keccak(b"__execute__").to_string(),
///     "0x15d40a3d6ca2ac30f4031e42be28da9b056fef9bb7357ac5e85627ee876e5ad"
/// );
/// ```
pub fn sn_keccak(data: &[u8]) -> Felt {
    finish_keccak(Keccak256::new_with_prefix(data))
}

/// Masks a finished Keccak-256 state to 250 bits.
pub(crate) fn finish_keccak(hasher: Keccak256) -> Felt {
    let mut bytes: [u8; 32] = hasher.finalize().into();
    bytes[0] &= 0x03;
    // Below 2^250 < p: always accepted.
    Felt::from_bytes_be_reduced(&bytes)
}

/// Why a string is not a Cairo short string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShortStringError {
    TooLong(usize),
    NonAscii,
}

impl ShortStringError {
    pub(crate) fn describe(self) -> std::string::String {
        match self {
            ShortStringError::TooLong(n) => {
                format!("a Cairo short string has at most 31 characters, this one has {n}")
            }
            ShortStringError::NonAscii => "a Cairo short string must be ASCII".into(),
        }
    }
}

/// Cairo short string: the ASCII bytes of `s` (at most 31) read as a big-endian integer.
pub(crate) fn short_string(s: &str) -> Result<Felt, ShortStringError> {
    let b = s.as_bytes();
    if !s.is_ascii() {
        return Err(ShortStringError::NonAscii);
    }
    if b.len() > 31 {
        return Err(ShortStringError::TooLong(b.len()));
    }
    let mut bytes = [0u8; 32];
    bytes[32 - b.len()..].copy_from_slice(b);
    // At most 31 bytes: below 2^248 < p.
    Ok(Felt::from_bytes_be_reduced(&bytes))
}

/// 2^251 - 256 (cairo-lang `ADDR_BOUND`), as little-endian limbs.
const ADDR_BOUND: [u64; 4] = [
    0xffff_ffff_ffff_ff00,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0x07ff_ffff_ffff_ffff,
];

/// `normalize_address` (cairo-lang `starkware/starknet/common/storage.cairo`): `x mod (2^251 - 256)`.
/// Every felt is below 2·(2^251 - 256), so one conditional subtraction suffices.
pub(crate) fn normalize_address(x: Felt) -> Felt {
    let l = x.to_raw_limbs();
    // Compare l >= ADDR_BOUND, most significant limb first.
    let mut ge = true;
    for i in (0..4).rev() {
        if l[i] != ADDR_BOUND[i] {
            ge = l[i] > ADDR_BOUND[i];
            break;
        }
    }
    if ge {
        match Felt::from_raw_limbs(ADDR_BOUND) {
            Some(bound) => x - bound,
            None => x, // unreachable: ADDR_BOUND < p
        }
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_strings() {
        assert_eq!(short_string(""), Ok(Felt::ZERO));
        assert_eq!(short_string("A"), Ok(Felt::from(0x41u64)));
        assert_eq!(short_string("ab"), Ok(Felt::from(0x6162u64)));
        assert!(short_string(&"x".repeat(31)).is_ok());
        assert_eq!(
            short_string(&"x".repeat(32)),
            Err(ShortStringError::TooLong(32))
        );
        assert_eq!(short_string("é"), Err(ShortStringError::NonAscii));
    }

    #[test]
    fn normalize() {
        let bound = Felt::from_raw_limbs(ADDR_BOUND).unwrap();
        assert_eq!(normalize_address(Felt::ZERO), Felt::ZERO);
        assert_eq!(normalize_address(bound - Felt::ONE), bound - Felt::ONE);
        assert_eq!(normalize_address(bound), Felt::ZERO);
        assert_eq!(
            normalize_address(bound + Felt::from(5u64)),
            Felt::from(5u64)
        );
        // p - 1 = bound + 17·2^192 + 256.
        let pm1 = Felt::ZERO - Felt::ONE;
        assert_eq!(normalize_address(pm1), pm1 - bound);
    }
}
