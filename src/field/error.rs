//! [`FeltError`]: why a value could not become a [`Felt`](super::Felt).

use alloc::format;
use alloc::string::String;
use core::fmt;

/// Why an input could not be turned into a field element. The message names the offending input
/// (shortened when very long) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeltError {
    /// The input has no digits (empty, or only a `0x` prefix).
    Empty {
        /// The input as given.
        input: String,
    },
    /// A character that is not a digit of the expected base.
    InvalidCharacter {
        /// The input as given.
        input: String,
        /// The offending character.
        character: char,
        /// Its byte position in the input (counting any `0x` prefix).
        position: usize,
    },
    /// More hexadecimal digits than a 256-bit value can have (64).
    TooLong {
        /// The input as given.
        input: String,
        /// How many digits it has.
        digits: usize,
        /// The most allowed.
        max: usize,
    },
    /// The value is not below the modulus p.
    NotBelowModulus {
        /// The input as given (for bytes: their hex form).
        input: String,
    },
    /// The value does not fit the requested integer type.
    DoesNotFit {
        /// The value, in hex.
        value: String,
        /// The target type.
        target: &'static str,
    },
}

/// Shortens long inputs in messages so that an error never prints megabytes.
fn shown(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.into()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}…")
    }
}

impl fmt::Display for FeltError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FeltError::Empty { input } => {
                write!(f, "invalid field element {:?}: no digits", shown(input))
            }
            FeltError::InvalidCharacter {
                input,
                character,
                position,
            } => write!(
                f,
                "invalid field element {:?}: bad character {:?} at position {}",
                shown(input),
                character,
                position
            ),
            FeltError::TooLong { input, digits, max } => write!(
                f,
                "invalid field element {:?}: too long ({} digits, at most {})",
                shown(input),
                digits,
                max
            ),
            FeltError::NotBelowModulus { input } => write!(
                f,
                "invalid field element {:?}: value is not below p = 2^251 + 17·2^192 + 1",
                shown(input)
            ),
            FeltError::DoesNotFit { value, target } => {
                write!(f, "field element {value} does not fit in {target}")
            }
        }
    }
}

impl core::error::Error for FeltError {}
