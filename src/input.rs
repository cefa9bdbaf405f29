//! The line syntax of the `starkbatch` command-line tool, as a pure function.
//!
//! [`parse_line`] turns one input line into the field elements it holds. It is the whole of the
//! tool's per-line parsing (the binary only adds reading, line numbers and file names), kept in
//! the library so that it can be tested and fuzzed directly.
//!
//! Syntax:
//! - felts are separated by spaces or tabs (ASCII whitespace);
//! - a felt is `0x`-prefixed hexadecimal (at most 64 digits) or decimal, below p
//!   (see [`Felt`]'s `FromStr`);
//! - `#` starts a comment that runs to the end of the line;
//! - a blank or comment-only line is no item ([`LineItem::Skip`]);
//! - a line holding only `-` is an item with no felts;
//! - a trailing `\n` or `\r\n` is ignored; bytes that are not UTF-8 are an error.

use crate::field::{Felt, FeltError};
use alloc::vec::Vec;
use core::fmt;

/// What a line held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineItem {
    /// A blank or comment-only line: no item.
    Skip,
    /// An item: its felts (possibly none, for `-`) were appended to the output.
    Item,
}

/// Why a line could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The line is not UTF-8; `byte` is the 1-based position of the first invalid byte.
    NotUtf8 {
        /// 1-based byte position in the line.
        byte: usize,
    },
    /// A token is not a field element.
    Felt(FeltError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotUtf8 { byte } => write!(f, "not valid UTF-8 (byte {byte} of the line)"),
            LineError::Felt(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl core::error::Error for LineError {}

/// Parses one line (with or without its line end), appending its felts to `out`.
///
/// # Errors
/// [`LineError::NotUtf8`] for bytes that are not UTF-8, [`LineError::Felt`] for the first token
/// that is not a field element (the felts before it on the line are left in `out`).
///
/// ```
/// use starkbatch::input::{parse_line, LineItem};
/// use starkbatch::Felt;
/// let mut out = Vec::new();
/// assert_eq!(parse_line(b"0x1 2 # comment\n", &mut out), Ok(LineItem::Item));
/// assert_eq!(out, [Felt::ONE, Felt::from(2u64)]);
/// assert_eq!(parse_line(b"  # only a comment\r\n", &mut out), Ok(LineItem::Skip));
/// assert_eq!(parse_line(b"-", &mut out), Ok(LineItem::Item));
/// assert_eq!(out.len(), 2);
/// assert!(parse_line(b"0x1 0xg", &mut out).is_err());
/// ```
pub fn parse_line(line: &[u8], out: &mut Vec<Felt>) -> Result<LineItem, LineError> {
    let text = core::str::from_utf8(line).map_err(|e| LineError::NotUtf8 {
        byte: e.valid_up_to() + 1,
    })?;
    let data = match text.find('#') {
        Some(i) => &text[..i],
        None => text,
    };
    let data = data.trim();
    if data.is_empty() {
        return Ok(LineItem::Skip);
    }
    if data == "-" {
        return Ok(LineItem::Item);
    }
    for token in data.split_ascii_whitespace() {
        out.push(token.parse::<Felt>().map_err(LineError::Felt)?);
    }
    Ok(LineItem::Item)
}
