//! The bytecode hash of a compiled (CASM) class, with or without `bytecode_segment_lengths`.
//!
//! Rule (cairo-lang `compiled_class_hash.py` / `compiled_class_hash_objects.py`, v0.13.1+):
//!
//! - no `bytecode_segment_lengths` (absent or `null`): `poseidon_hash_many(bytecode)`;
//! - a number `n` at the top: a single leaf; `n` must equal the bytecode length, and the hash
//!   is again `poseidon_hash_many(bytecode)`;
//! - a list: a node. The bytecode is cut, in order, into consecutive segments whose lengths are
//!   given by the list items. A number item is a leaf of that many felts, hashed as
//!   `poseidon_hash_many(felts)`; a list item is a nested node over the next felts, its length
//!   being the sum of its items. A node hashes to
//!   `1 + poseidon_hash_many([len_0, hash_0, len_1, hash_1, ...])` over its items.
//!   Every item of a node must have a positive length (cairo-lang asserts this), and the
//!   top-level lengths must add up to exactly the bytecode length.
//!
//! Nesting depth is bounded by serde_json's limit of 128, so the recursion is bounded.

use super::error::ClassHashError;
use super::parse::{Lengths, Path};
use crate::poseidon_hash_many;
use crate::Felt;
use std::vec::Vec;

/// The bytecode hash for `bytecode` cut by `lengths`.
pub(crate) fn bytecode_hash(
    bytecode: &[Felt],
    lengths: Option<&Lengths>,
) -> Result<Felt, ClassHashError> {
    let root = Path::Root;
    let path = Path::Key(&root, "bytecode_segment_lengths");
    match lengths {
        None => Ok(poseidon_hash_many(bytecode)),
        Some(Lengths::Leaf(n)) => {
            if *n != bytecode.len() as u64 {
                return Err(mismatch(*n as u128, bytecode.len()));
            }
            Ok(poseidon_hash_many(bytecode))
        }
        Some(node) => {
            let mut offset = 0usize;
            let (h, total) = segment(bytecode, node, &mut offset, &path)?;
            if total != bytecode.len() as u64 {
                return Err(mismatch(total as u128, bytecode.len()));
            }
            Ok(h)
        }
    }
}

fn mismatch(total: u128, len: usize) -> ClassHashError {
    ClassHashError::InvalidSegmentLengths {
        reason: format!("the segment lengths add up to {total}, but the bytecode has {len} felts"),
    }
}

/// Hashes the segment described by `l` starting at `*offset`; returns its hash and length and
/// advances `*offset`.
fn segment(
    bytecode: &[Felt],
    l: &Lengths,
    offset: &mut usize,
    path: &Path<'_>,
) -> Result<(Felt, u64), ClassHashError> {
    match l {
        Lengths::Leaf(n) => {
            let end = usize::try_from(*n)
                .ok()
                .and_then(|n| offset.checked_add(n))
                .filter(|end| *end <= bytecode.len())
                .ok_or_else(|| ClassHashError::InvalidSegmentLengths {
                    reason: format!(
                        "the segment `{path}` of length {n} at offset {} runs past the end of \
                         the bytecode ({} felts)",
                        *offset,
                        bytecode.len()
                    ),
                })?;
            let h = poseidon_hash_many(&bytecode[*offset..end]);
            *offset = end;
            Ok((h, *n))
        }
        Lengths::Node(items) => {
            let start = *offset;
            let mut flat = Vec::with_capacity(2 * items.len());
            for (i, item) in items.iter().enumerate() {
                let p = Path::Index(path, i);
                let (h, n) = segment(bytecode, item, offset, &p)?;
                if n == 0 {
                    return Err(ClassHashError::InvalidSegmentLengths {
                        reason: format!("the segment `{p}` is empty (lengths must be positive)"),
                    });
                }
                flat.push(Felt::from(n));
                flat.push(h);
            }
            Ok((
                poseidon_hash_many(&flat) + Felt::ONE,
                (*offset - start) as u64,
            ))
        }
    }
}
