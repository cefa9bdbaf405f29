//! Conversions between [`Felt`] and strings, bytes and integers.

use super::{Felt, FeltError, mont};
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;
use core::str::FromStr;

/// Why `parse_hex_limbs` failed, without allocation (so it can run in `const` context).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RawHexError {
    Empty,
    InvalidCharacter(usize),
    TooLong(usize),
    NotBelowModulus,
}

/// Parses hex digits (with or without `0x`) into the integer's little-endian limbs, requiring
/// a value below p.
pub(crate) const fn parse_hex_limbs(s: &[u8]) -> Result<[u64; 4], RawHexError> {
    let start = if s.len() >= 2 && s[0] == b'0' && (s[1] == b'x' || s[1] == b'X') {
        2
    } else {
        0
    };
    let digits = s.len() - start;
    if digits == 0 {
        return Err(RawHexError::Empty);
    }
    // Report the first bad character before the length, as it is the more specific error.
    let mut i = start;
    while i < s.len() {
        if hex_value(s[i]) > 15 {
            return Err(RawHexError::InvalidCharacter(i));
        }
        i += 1;
    }
    if digits > 64 {
        return Err(RawHexError::TooLong(digits));
    }
    let mut limbs = [0u64; 4];
    let mut k = 0; // digit index from the least significant end
    while k < digits {
        let d = hex_value(s[s.len() - 1 - k]) as u64;
        limbs[k / 16] |= d << (4 * (k % 16));
        k += 1;
    }
    if mont::lt(limbs, mont::P) == 1 {
        Ok(limbs)
    } else {
        Err(RawHexError::NotBelowModulus)
    }
}

const fn hex_value(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 255,
    }
}

fn char_at(s: &str, byte_pos: usize) -> char {
    s[byte_pos..].chars().next().unwrap_or('\u{fffd}')
}

/// Big-endian bytes to little-endian limbs.
fn limbs_from_be(bytes: &[u8; 32]) -> [u64; 4] {
    let mut l = [0u64; 4];
    for (i, limb) in l.iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[32 - 8 * (i + 1)..32 - 8 * i]);
        *limb = u64::from_be_bytes(b);
    }
    l
}

fn limbs_from_le(bytes: &[u8; 32]) -> [u64; 4] {
    let mut l = [0u64; 4];
    for (i, limb) in l.iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[8 * i..8 * i + 8]);
        *limb = u64::from_le_bytes(b);
    }
    l
}

fn hex_of_bytes_be(bytes: &[u8; 32]) -> String {
    let mut s = String::with_capacity(66);
    s.push_str("0x");
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

impl Felt {
    /// Parses a hexadecimal string, with or without a `0x` prefix, of at most 64 digits.
    ///
    /// # Errors
    /// [`FeltError`] naming the input when it is empty, has a non-hex character (with its
    /// position), has more than 64 digits, or is not below p.
    ///
    /// ```
    /// use starkbatch::Felt;
    /// assert_eq!(Felt::from_hex("0x1f").unwrap(), Felt::from(31u64));
    /// assert!(Felt::from_hex("0x1g").is_err());
    /// ```
    pub fn from_hex(s: &str) -> Result<Felt, FeltError> {
        match parse_hex_limbs(s.as_bytes()) {
            Ok(l) => Ok(Felt(mont::to_mont(l))),
            Err(RawHexError::Empty) => Err(FeltError::Empty { input: s.into() }),
            Err(RawHexError::InvalidCharacter(position)) => Err(FeltError::InvalidCharacter {
                input: s.into(),
                character: char_at(s, position),
                position,
            }),
            Err(RawHexError::TooLong(digits)) => Err(FeltError::TooLong {
                input: s.into(),
                digits,
                max: 64,
            }),
            Err(RawHexError::NotBelowModulus) => {
                Err(FeltError::NotBelowModulus { input: s.into() })
            }
        }
    }

    /// Parses a decimal string of digits `0-9` (no sign, leading zeros allowed).
    ///
    /// # Errors
    /// [`FeltError`] naming the input when it is empty, has a non-digit (with its position),
    /// or is not below p.
    pub fn from_dec_str(s: &str) -> Result<Felt, FeltError> {
        if s.is_empty() {
            return Err(FeltError::Empty { input: s.into() });
        }
        if let Some((position, character)) = s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            return Err(FeltError::InvalidCharacter {
                input: s.into(),
                character,
                position,
            });
        }
        let mut l = [0u64; 4];
        for b in s.bytes() {
            // l = l·10 + digit, tracking any carry out of 256 bits.
            let mut carry = (b - b'0') as u64;
            for limb in l.iter_mut() {
                let t = (*limb as u128) * 10 + carry as u128;
                *limb = t as u64;
                carry = (t >> 64) as u64;
            }
            if carry != 0 {
                return Err(FeltError::NotBelowModulus { input: s.into() });
            }
        }
        if mont::lt(l, mont::P) == 1 {
            Ok(Felt(mont::to_mont(l)))
        } else {
            Err(FeltError::NotBelowModulus { input: s.into() })
        }
    }

    /// From 32 big-endian bytes, which must encode a value below p (the canonical encoding).
    ///
    /// # Errors
    /// [`FeltError::NotBelowModulus`] when the value is `>= p`.
    pub fn from_bytes_be(bytes: &[u8; 32]) -> Result<Felt, FeltError> {
        Felt::from_raw_limbs(limbs_from_be(bytes)).ok_or_else(|| FeltError::NotBelowModulus {
            input: hex_of_bytes_be(bytes),
        })
    }

    /// From 32 little-endian bytes, which must encode a value below p.
    ///
    /// # Errors
    /// [`FeltError::NotBelowModulus`] when the value is `>= p`.
    pub fn from_bytes_le(bytes: &[u8; 32]) -> Result<Felt, FeltError> {
        Felt::from_raw_limbs(limbs_from_le(bytes)).ok_or_else(|| {
            let mut be = *bytes;
            be.reverse();
            FeltError::NotBelowModulus {
                input: hex_of_bytes_be(&be),
            }
        })
    }

    /// From 32 big-endian bytes, reduced modulo p (any 256-bit value is accepted).
    pub fn from_bytes_be_reduced(bytes: &[u8; 32]) -> Felt {
        // mont::mul(a, R²) is valid for any a < 2^256: the result is below 2p before the
        // final conditional subtraction (see mont's bounds).
        Felt(mont::mul(limbs_from_be(bytes), mont::R2))
    }

    /// From 32 little-endian bytes, reduced modulo p.
    pub fn from_bytes_le_reduced(bytes: &[u8; 32]) -> Felt {
        Felt(mont::mul(limbs_from_le(bytes), mont::R2))
    }

    /// The canonical 32-byte big-endian encoding.
    pub fn to_bytes_be(&self) -> [u8; 32] {
        let l = self.to_raw_limbs();
        let mut out = [0u8; 32];
        for i in 0..4 {
            out[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&l[i].to_be_bytes());
        }
        out
    }

    /// The canonical 32-byte little-endian encoding.
    pub fn to_bytes_le(&self) -> [u8; 32] {
        let l = self.to_raw_limbs();
        let mut out = [0u8; 32];
        for i in 0..4 {
            out[8 * i..8 * i + 8].copy_from_slice(&l[i].to_le_bytes());
        }
        out
    }

    /// `0x` followed by exactly 64 lowercase hex digits (66 characters).
    pub fn to_fixed_hex_string(&self) -> String {
        let l = self.to_raw_limbs();
        format!("0x{:016x}{:016x}{:016x}{:016x}", l[3], l[2], l[1], l[0])
    }

    /// Minimal lowercase hex digits, no prefix ("0" for zero).
    fn minimal_hex(&self) -> String {
        let l = self.to_raw_limbs();
        let mut i = 3;
        while i > 0 && l[i] == 0 {
            i -= 1;
        }
        let mut s = format!("{:x}", l[i]);
        for j in (0..i).rev() {
            s.push_str(&format!("{:016x}", l[j]));
        }
        s
    }
}

impl FromStr for Felt {
    type Err = FeltError;

    /// `0x` (or `0X`) means hexadecimal, anything else decimal.
    fn from_str(s: &str) -> Result<Felt, FeltError> {
        if s.starts_with("0x") || s.starts_with("0X") {
            Felt::from_hex(s)
        } else {
            Felt::from_dec_str(s)
        }
    }
}

impl From<u64> for Felt {
    fn from(v: u64) -> Felt {
        Felt(mont::to_mont([v, 0, 0, 0]))
    }
}

impl From<u128> for Felt {
    fn from(v: u128) -> Felt {
        Felt(mont::to_mont([v as u64, (v >> 64) as u64, 0, 0]))
    }
}

impl From<u32> for Felt {
    fn from(v: u32) -> Felt {
        Felt::from(v as u64)
    }
}

impl From<u16> for Felt {
    fn from(v: u16) -> Felt {
        Felt::from(v as u64)
    }
}

impl From<u8> for Felt {
    fn from(v: u8) -> Felt {
        Felt::from(v as u64)
    }
}

impl From<usize> for Felt {
    fn from(v: usize) -> Felt {
        Felt::from(v as u64)
    }
}

impl From<bool> for Felt {
    fn from(v: bool) -> Felt {
        Felt::from(v as u64)
    }
}

impl TryFrom<Felt> for u64 {
    type Error = FeltError;
    fn try_from(f: Felt) -> Result<u64, FeltError> {
        let l = f.to_raw_limbs();
        if l[1] | l[2] | l[3] == 0 {
            Ok(l[0])
        } else {
            Err(FeltError::DoesNotFit {
                value: f.to_string(),
                target: "u64",
            })
        }
    }
}

impl TryFrom<Felt> for u128 {
    type Error = FeltError;
    fn try_from(f: Felt) -> Result<u128, FeltError> {
        let l = f.to_raw_limbs();
        if l[2] | l[3] == 0 {
            Ok(l[0] as u128 | (l[1] as u128) << 64)
        } else {
            Err(FeltError::DoesNotFit {
                value: f.to_string(),
                target: "u128",
            })
        }
    }
}

/// `0x` followed by the minimal lowercase hex digits, e.g. `0x0`, `0x1f`. Width, fill and
/// alignment apply as for a string (`{:>66}`).
impl fmt::Display for Felt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("0x{}", self.minimal_hex()))
    }
}

/// Minimal lowercase hex digits; `{:#x}` adds `0x`. Padding and width work as for integers,
/// as in starknet-types-core.
impl fmt::LowerHex for Felt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.minimal_hex())
    }
}

/// Minimal uppercase hex digits; `{:#X}` adds `0x`.
impl fmt::UpperHex for Felt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.minimal_hex().to_uppercase())
    }
}

/// `Felt(0x…)` with the integer value in minimal hex.
impl fmt::Debug for Felt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Felt(0x{})", self.minimal_hex())
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::Felt;
    use core::fmt;
    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Serialised as a `0x`-prefixed minimal hex string.
    impl Serialize for Felt {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    /// Deserialised from a hex (`0x…`) or decimal string.
    impl<'de> Deserialize<'de> for Felt {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Felt, D::Error> {
            struct V;
            impl Visitor<'_> for V {
                type Value = Felt;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a field element as a hex (0x…) or decimal string")
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Felt, E> {
                    v.parse().map_err(E::custom)
                }
            }
            d.deserialize_str(V)
        }
    }
}
