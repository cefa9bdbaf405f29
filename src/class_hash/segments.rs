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
//! (starknet-core 0.16 agrees for flat lists but advances its offset twice after a nested list;
//! we follow cairo-lang, whose offset is passed by value.)
//!
//! The tree is validated first (in document order, so the first bad item is the one reported),
//! then hashed; the segments of a node are independent sponges, so nodes covering at least
//! [`PAR_MIN_FELTS`] felts hash their items in parallel with rayon. The result does not depend
//! on the scheduling. Nesting depth is bounded by serde_json's limit of 128, so the recursion is
//! bounded.

use super::error::ClassHashError;
use super::parse::{Lengths, Path};
use crate::poseidon_hash_many;
use crate::Felt;
use rayon::prelude::*;
use std::vec::Vec;

/// Nodes covering fewer felts than this are hashed on the calling thread.
const PAR_MIN_FELTS: u64 = 512;

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
                return Err(mismatch(u128::from(*n), bytecode.len()));
            }
            Ok(poseidon_hash_many(bytecode))
        }
        Some(node) => {
            let total = validate(node, &path)?;
            if total != bytecode.len() as u128 {
                return Err(mismatch(total, bytecode.len()));
            }
            // Every offset and length now lies within the bytecode.
            Ok(hash_segment(bytecode, node, 0).0)
        }
    }
}

fn mismatch(total: u128, len: usize) -> ClassHashError {
    ClassHashError::InvalidSegmentLengths {
        reason: format!("the segment lengths add up to {total}, but the bytecode has {len} felts"),
    }
}

/// Total length of the segment `l`, or an error for an empty item inside a node. The total is
/// a sum of leaf lengths (each below 2^64, fewer than 2^64 of them), so u128 cannot overflow.
fn validate(l: &Lengths, path: &Path<'_>) -> Result<u128, ClassHashError> {
    match l {
        Lengths::Leaf(n) => Ok(u128::from(*n)),
        Lengths::Node(items) => {
            let mut total: u128 = 0;
            for (i, item) in items.iter().enumerate() {
                let p = Path::Index(path, i);
                let n = validate(item, &p)?;
                if n == 0 {
                    return Err(ClassHashError::InvalidSegmentLengths {
                        reason: format!("the segment `{p}` is empty (lengths must be positive)"),
                    });
                }
                total += n;
            }
            Ok(total)
        }
    }
}

/// Length of a validated segment (fits: it is within the bytecode).
fn seg_len(l: &Lengths) -> usize {
    match l {
        Lengths::Leaf(n) => *n as usize,
        Lengths::Node(items) => items.iter().map(seg_len).sum(),
    }
}

/// Hash and length of the validated segment `l` starting at `offset`.
fn hash_segment(bytecode: &[Felt], l: &Lengths, offset: usize) -> (Felt, usize) {
    match l {
        Lengths::Leaf(n) => {
            let n = *n as usize;
            (poseidon_hash_many(&bytecode[offset..offset + n]), n)
        }
        Lengths::Node(items) => {
            let lens: Vec<usize> = items.iter().map(seg_len).collect();
            let total: usize = lens.iter().sum();
            let mut starts = Vec::with_capacity(items.len());
            let mut at = offset;
            for n in &lens {
                starts.push(at);
                at += n;
            }
            let hashes: Vec<Felt> = if total as u64 >= PAR_MIN_FELTS && items.len() > 1 {
                items
                    .par_iter()
                    .zip(starts.par_iter())
                    .map(|(item, &start)| hash_segment(bytecode, item, start).0)
                    .collect()
            } else {
                items
                    .iter()
                    .zip(&starts)
                    .map(|(item, &start)| hash_segment(bytecode, item, start).0)
                    .collect()
            };
            let mut flat = Vec::with_capacity(2 * items.len());
            for (h, n) in hashes.into_iter().zip(lens) {
                flat.push(Felt::from(n as u64));
                flat.push(h);
            }
            (poseidon_hash_many(&flat) + Felt::ONE, total)
        }
    }
}
