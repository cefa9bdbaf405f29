//! The bytecode hash of a compiled (CASM) class, with or without `bytecode_segment_lengths`.
//!
//! Rule (cairo-lang `compiled_class_hash.py` / `compiled_class_hash_objects.py`, v0.13.1+; for
//! v2 the sequencer's `starknet_api::contract_class::compiled_class_hash`), with `H` the
//! version's hash (`poseidon_hash_many` for v1, `blake2s_hash_many` for v2):
//!
//! - no `bytecode_segment_lengths` (absent or `null`): `H(bytecode)`;
//! - a number `n` at the top: a single leaf; `n` must equal the bytecode length, and the hash
//!   is again `H(bytecode)`;
//! - a list: a node. The bytecode is cut, in order, into consecutive segments whose lengths are
//!   given by the list items. A number item is a leaf of that many felts, hashed as
//!   `H(felts)`; a list item is a nested node over the next felts, its length
//!   being the sum of its items. A node hashes to
//!   `1 + H([len_0, hash_0, len_1, hash_1, ...])` over its items.
//!   Every item of a node must have a positive length (cairo-lang asserts this), and the
//!   top-level lengths must add up to exactly the bytecode length.
//!
//! (starknet-core 0.16 agrees for flat lists but advances its offset twice after a nested list;
//! we follow cairo-lang, whose offset is passed by value.)
//!
//! The tree is validated first (in document order, so the first bad item is the one reported),
//! then hashed; the segments of a node are independent messages, so the leaves of a node are
//! hashed together by the batch function of `H` (one leaf per SIMD lane; on the rayon pool when
//! the node covers at least [`PAR_MIN_FELTS`] felts), and nested nodes in parallel. The result
//! does not depend on the scheduling. Nesting depth is bounded by serde_json's limit of 128, so the recursion is
//! bounded.

use super::Flavor;
use super::error::ClassHashError;
use super::parse::{Lengths, Path};
use crate::Felt;
use rayon::prelude::*;
use std::vec;
use std::vec::Vec;

/// Nodes covering fewer felts than this are hashed on the calling thread.
const PAR_MIN_FELTS: u64 = 512;

/// The bytecode hash for `bytecode` cut by `lengths`.
pub(crate) fn bytecode_hash(
    h: Flavor,
    bytecode: &[Felt],
    lengths: Option<&Lengths>,
) -> Result<Felt, ClassHashError> {
    let root = Path::Root;
    let path = Path::Key(&root, "bytecode_segment_lengths");
    match lengths {
        None => Ok(h.hash(bytecode)),
        Some(Lengths::Leaf(n)) => {
            if *n != bytecode.len() as u64 {
                return Err(mismatch(u128::from(*n), bytecode.len()));
            }
            Ok(h.hash(bytecode))
        }
        Some(node) => {
            let total = validate(node, &path)?;
            if total != bytecode.len() as u128 {
                return Err(mismatch(total, bytecode.len()));
            }
            // Every offset and length now lies within the bytecode.
            Ok(hash_segment(h, bytecode, node, 0).0)
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
fn hash_segment(h: Flavor, bytecode: &[Felt], l: &Lengths, offset: usize) -> (Felt, usize) {
    match l {
        Lengths::Leaf(n) => {
            let n = *n as usize;
            (h.hash(&bytecode[offset..offset + n]), n)
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
            let par = total as u64 >= PAR_MIN_FELTS && items.len() > 1;
            let mut hashes = vec![Felt::ZERO; items.len()];
            // The leaves, side by side in lanes.
            let leaves: Vec<usize> = (0..items.len())
                .filter(|&i| matches!(items[i], Lengths::Leaf(_)))
                .collect();
            let msgs: Vec<&[Felt]> = leaves
                .iter()
                .map(|&i| &bytecode[starts[i]..starts[i] + lens[i]])
                .collect();
            let mut leaf_hashes = vec![Felt::ZERO; msgs.len()];
            h.hash_batch(&msgs, &mut leaf_hashes, par);
            for (&i, lh) in leaves.iter().zip(leaf_hashes) {
                hashes[i] = lh;
            }
            // The nested nodes.
            let nodes: Vec<usize> = (0..items.len())
                .filter(|&i| matches!(items[i], Lengths::Node(_)))
                .collect();
            let node_hashes: Vec<Felt> = if par {
                nodes
                    .par_iter()
                    .map(|&i| hash_segment(h, bytecode, &items[i], starts[i]).0)
                    .collect()
            } else {
                nodes
                    .iter()
                    .map(|&i| hash_segment(h, bytecode, &items[i], starts[i]).0)
                    .collect()
            };
            for (&i, nh) in nodes.iter().zip(node_hashes) {
                hashes[i] = nh;
            }
            let mut flat = Vec::with_capacity(2 * items.len());
            for (hash, n) in hashes.into_iter().zip(lens) {
                flat.push(Felt::from(n as u64));
                flat.push(hash);
            }
            (h.hash(&flat) + Felt::ONE, total)
        }
    }
}
