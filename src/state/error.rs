//! [`TrieError`]: why a trie root could not be computed.

use crate::Felt;
use core::fmt;

/// Why a Patricia-Merkle trie (or a composition of subtries) could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrieError {
    /// The trie height is not in `1..=251`.
    InvalidHeight(u32),
    /// A key does not fit the trie: it is not below `2^height`.
    KeyOutOfRange {
        /// The offending key.
        key: Felt,
        /// The trie's height.
        height: u32,
    },
    /// [`compose_tops`](super::compose_tops) was given a number of subtrie tops other than
    /// `2^split_bits` (or `split_bits` is above 32).
    TopCount {
        /// `split_bits` as given.
        split_bits: u32,
        /// How many tops were given.
        got: usize,
    },
    /// A subtrie top is malformed: its edge is longer than the subtrie's height, or its path
    /// does not fit in `length` bits.
    InvalidTop {
        /// The index of the top in the slice given.
        index: usize,
    },
}

impl fmt::Display for TrieError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrieError::InvalidHeight(h) => write!(f, "trie height {h} is not in 1..=251"),
            TrieError::KeyOutOfRange { key, height } => {
                write!(
                    f,
                    "key {key} does not fit a trie of height {height} (must be below 2^{height})"
                )
            }
            TrieError::TopCount { split_bits, got } => {
                write!(
                    f,
                    "expected 2^{split_bits} subtrie tops (split_bits at most 32), got {got}"
                )
            }
            TrieError::InvalidTop { index } => write!(
                f,
                "subtrie top {index} is malformed: edge longer than the subtrie height or path wider than its length"
            ),
        }
    }
}

impl core::error::Error for TrieError {}
