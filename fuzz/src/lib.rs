//! Helpers shared by the fuzz targets: turning the fuzzer's bytes into field elements,
//! lengths and choices, biased towards edge values.

use starkbatch::Felt;

/// Reads values from the fuzzer's bytes; past the end every read returns zeros.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// Wraps the fuzzer input.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    /// No bytes left.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((b, rest)) => {
                self.data = rest;
                *b
            }
            None => 0,
        }
    }

    /// The next 16-bit little-endian value.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | (u16::from(self.u8()) << 8)
    }

    /// The next `N` bytes (zero-padded past the end).
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let n = N.min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        out
    }

    /// A field element: one tag byte picks an edge value or 32 bytes reduced mod p.
    pub fn felt(&mut self) -> Felt {
        let tag = self.u8();
        match tag % 16 {
            0..=EDGE_LAST => edge(tag % 16),
            _ => Felt::from_bytes_be_reduced(&self.array::<32>()),
        }
    }

    /// A field element taken from 32 bytes reduced mod p, no tag.
    pub fn felt_raw(&mut self) -> Felt {
        Felt::from_bytes_be_reduced(&self.array::<32>())
    }
}

const EDGE_LAST: u8 = 9;

/// Edge values: 0, 1, 2, p-1, p-2, 2^251, 2^251 - 1, 2^192, 2^64 - 1, 2^128.
pub fn edge(i: u8) -> Felt {
    let two = Felt::TWO;
    match i {
        0 => Felt::ZERO,
        1 => Felt::ONE,
        2 => two,
        3 => Felt::MAX,
        4 => Felt::MAX - Felt::ONE,
        5 => two.pow(251),
        6 => two.pow(251) - Felt::ONE,
        7 => two.pow(192),
        8 => Felt::from(u64::MAX),
        _ => two.pow(128),
    }
}
