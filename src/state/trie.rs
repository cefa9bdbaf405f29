//! The batched Patricia-Merkle trie builder.
//!
//! # Algorithm
//! Keys are sorted (as 256-bit integers) and the trie is built bottom-up. The builder keeps the
//! list of subtrie roots "at level `d`" (level 0 = leaves, level `height` = the root), sorted by
//! key, each either
//! - *ready*: its node hash `h` at level `b <= d` is known, with a pending edge from level `d`
//!   down to `b` (no edge if `b == d`); the edge's path is the bits `b..d` of any key below it, so
//!   it is never stored, only its bottom level; or
//! - *binary*: two children at level `d - 1` with known hashes, `H(l, r)` still to be computed.
//!
//! Two nodes at level `d` are siblings when their keys' highest differing bit is `d`. One step at
//! level `d` hashes, **in one [`PairHash::hash_batch_par`] call**, every node of level `d` that is
//! needed: each pending binary `H(l, r)` and each pending edge of a node that has a sibling,
//! `H(bottom, path) + length` (the edge must end at `d` because its parent is a binary node).
//! Then siblings merge into pending binaries of level `d + 1` and lone nodes go up unchanged
//! (their edge grows by one, for free). When no binary is pending the builder jumps straight to
//! the next level where two nodes are siblings, so a trie of `n` random keys takes about
//! `log2(n)` + a few steps, not 251. At level `height` the single remaining node's edge, if any,
//! is hashed: that is the root. Edges are maximal by construction.
//!
//! Several tries are built together ([`trie_roots`]): each round, the current step of every
//! unfinished trie goes into the same batch, so tries of different shapes still share batches.
//!
//! # Bounds
//! Keys must be below `2^height` (`height <= 251`, so below p); an edge path is at most 251 bits
//! and an edge length at most 251, both far below p.

use super::bits::{self, U256};
use super::error::TrieError;
use crate::Felt;
use crate::hash::PairHash;
use alloc::vec::Vec;

/// The largest supported trie height (Starknet's state tries).
pub const MAX_HEIGHT: u32 = 251;
/// The height of Starknet's contract, class and contract-storage tries.
pub const STATE_HEIGHT: u32 = 251;
/// The height of Starknet's block commitment tries (transactions, events, receipts).
pub const COMMITMENT_HEIGHT: u32 = 64;

/// The top of a trie whose root edge (if any) is left unhashed, for composing subtries.
///
/// The trie's root hash is `node` if `length == 0`, else `H(node, path) + length`: an edge of
/// `length` bits (`path`, most significant bit first) from the root down to the node `node`.
/// Keeping the edge open lets [`compose_tops`] extend it into the level above the subtrie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrieTop {
    /// The hash of the node at the bottom of the root edge (the root itself if `length == 0`).
    pub node: Felt,
    /// The root edge's path (below `2^length`).
    pub path: Felt,
    /// The root edge's length in bits (0: no edge).
    pub length: u32,
}

impl TrieTop {
    /// The root hash of the trie: `node`, or `H(node, path) + length` when there is an edge.
    ///
    /// ```
    /// use starkbatch::state::{trie_root, trie_top};
    /// use starkbatch::{Felt, Pedersen};
    /// let entries = [(Felt::from(5u64), Felt::from(100u64))];
    /// let top = trie_top::<Pedersen>(&entries, 251).unwrap().unwrap();
    /// // One leaf: the root edge runs all 251 levels down to it.
    /// assert_eq!((top.node, top.path, top.length), (Felt::from(100u64), Felt::from(5u64), 251));
    /// assert_eq!(top.hash::<Pedersen>(), trie_root::<Pedersen>(&entries, 251).unwrap());
    /// ```
    pub fn hash<H: PairHash>(&self) -> Felt {
        if self.length == 0 {
            self.node
        } else {
            H::hash(&self.node, &self.path) + Felt::from(self.length)
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Hash known at the node's `bottom` level.
    Ready(Felt),
    /// `H(l, r)` to compute; the node sits at the current level.
    Binary(Felt, Felt),
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// A key of some leaf below this node (only bits >= `bottom` matter).
    key: U256,
    /// The level of the hashed node at the bottom of the pending edge.
    bottom: u32,
    kind: Kind,
}

/// An integer below 2^251 as a field element.
fn felt_of(x: U256) -> Felt {
    match Felt::from_raw_limbs(x) {
        Some(f) => f,
        None => unreachable!("edge paths are below 2^251 < p"),
    }
}

/// The path of the edge from level `d` down to `node.bottom`: key bits `bottom..d`.
fn edge_path(node: &Node, d: u32) -> Felt {
    felt_of(bits::low_bits(
        &bits::shr(&node.key, node.bottom),
        d - node.bottom,
    ))
}

/// Whether nodes with keys `a` and `b` are siblings at level `d`.
#[inline]
fn siblings(a: &U256, b: &U256, d: u32) -> bool {
    bits::highest_bit(&bits::xor(a, b)) == Some(d)
}

fn has_sibling(nodes: &[Node], i: usize, d: u32) -> bool {
    (i > 0 && siblings(&nodes[i - 1].key, &nodes[i].key, d))
        || (i + 1 < nodes.len() && siblings(&nodes[i].key, &nodes[i + 1].key, d))
}

/// One trie being built.
pub(crate) struct Run {
    level: u32,
    height: u32,
    /// Hash the root edge at the end (a root) or leave it open (a [`TrieTop`]).
    finalize: bool,
    nodes: Vec<Node>,
    spare: Vec<Node>,
    result: Option<Option<TrieTop>>,
}

impl Run {
    /// A run from `nodes` (sorted, distinct prefixes at `start`, all ready) at level `start`.
    fn new(nodes: Vec<Node>, start: u32, height: u32, finalize: bool) -> Run {
        let mut run = Run {
            level: start,
            height,
            finalize,
            nodes,
            spare: Vec::new(),
            result: None,
        };
        if run.nodes.is_empty() {
            run.result = Some(None);
        } else {
            run.level = run.next_level(start, false);
        }
        run
    }

    /// The next level with work: `from` if binaries are pending, else the lowest level where two
    /// nodes are siblings (or the root level).
    fn next_level(&self, from: u32, pending_binary: bool) -> u32 {
        if pending_binary {
            return from;
        }
        self.nodes
            .windows(2)
            .filter_map(|w| bits::highest_bit(&bits::xor(&w[0].key, &w[1].key)))
            .min()
            .map_or(self.height, |s| s.clamp(from, self.height))
    }

    fn is_done(&self) -> bool {
        self.result.is_some()
    }

    /// Appends this step's pairs to hash.
    fn collect(&self, pairs: &mut Vec<[Felt; 2]>) {
        let d = self.level;
        if d == self.height {
            let node = &self.nodes[0];
            match node.kind {
                Kind::Binary(l, r) => pairs.push([l, r]),
                Kind::Ready(h) if self.finalize && node.bottom < d => {
                    pairs.push([h, edge_path(node, d)])
                }
                Kind::Ready(_) => {}
            }
            return;
        }
        for (i, node) in self.nodes.iter().enumerate() {
            match node.kind {
                Kind::Binary(l, r) => pairs.push([l, r]),
                Kind::Ready(h) if node.bottom < d && has_sibling(&self.nodes, i, d) => {
                    pairs.push([h, edge_path(node, d)])
                }
                Kind::Ready(_) => {}
            }
        }
    }

    /// Consumes this step's hashes (in [`Run::collect`]'s order) and moves to the next level.
    fn apply(&mut self, hashes: &[Felt]) {
        let d = self.level;
        let mut it = hashes.iter().copied();
        let mut next = || {
            it.next()
                .expect("collect and apply agree on the number of pairs")
        };
        if d == self.height {
            let node = self.nodes[0];
            let top = match node.kind {
                Kind::Binary(..) => TrieTop {
                    node: next(),
                    path: Felt::ZERO,
                    length: 0,
                },
                Kind::Ready(h) if node.bottom < d => {
                    let length = d - node.bottom;
                    if self.finalize {
                        TrieTop {
                            node: next() + Felt::from(length),
                            path: Felt::ZERO,
                            length: 0,
                        }
                    } else {
                        TrieTop {
                            node: h,
                            path: edge_path(&node, d),
                            length,
                        }
                    }
                }
                Kind::Ready(h) => TrieTop {
                    node: h,
                    path: Felt::ZERO,
                    length: 0,
                },
            };
            self.result = Some(Some(top));
            return;
        }
        // Finish every node of level d that was hashed in this step.
        for i in 0..self.nodes.len() {
            let node = self.nodes[i];
            match node.kind {
                Kind::Binary(..) => {
                    self.nodes[i] = Node {
                        kind: Kind::Ready(next()),
                        bottom: d,
                        ..node
                    };
                }
                Kind::Ready(_) if node.bottom < d && has_sibling(&self.nodes, i, d) => {
                    let h = next() + Felt::from(d - node.bottom);
                    self.nodes[i] = Node {
                        kind: Kind::Ready(h),
                        bottom: d,
                        ..node
                    };
                }
                Kind::Ready(_) => {}
            }
        }
        // Merge siblings into binaries of level d + 1; lone nodes go up as they are.
        let mut merged = core::mem::take(&mut self.spare);
        merged.clear();
        let mut pending = false;
        let mut i = 0;
        let n = self.nodes.len();
        while i < n {
            let a = self.nodes[i];
            if i + 1 < n && siblings(&a.key, &self.nodes[i + 1].key, d) {
                let (Kind::Ready(l), Kind::Ready(r)) = (a.kind, self.nodes[i + 1].kind) else {
                    unreachable!("both siblings were finished above")
                };
                merged.push(Node {
                    key: a.key,
                    bottom: d + 1,
                    kind: Kind::Binary(l, r),
                });
                pending = true;
                i += 2;
            } else {
                merged.push(a);
                i += 1;
            }
        }
        self.spare = core::mem::replace(&mut self.nodes, merged);
        self.level = self.next_level(d + 1, pending);
    }
}

/// Builds every run to completion, one shared batch per round.
fn run_all<H: PairHash>(runs: &mut [Run]) {
    let mut pairs = Vec::new();
    let mut out = Vec::new();
    let mut counts = Vec::new();
    loop {
        pairs.clear();
        counts.clear();
        for run in runs.iter().filter(|r| !r.is_done()) {
            let start = pairs.len();
            run.collect(&mut pairs);
            counts.push(pairs.len() - start);
        }
        if counts.is_empty() {
            return;
        }
        out.clear();
        out.resize(pairs.len(), Felt::ZERO);
        crate::hash::hash_batch_auto::<H>(&pairs, &mut out);
        let mut offset = 0;
        for (run, &count) in runs.iter_mut().filter(|r| !r.is_done()).zip(&counts) {
            run.apply(&out[offset..offset + count]);
            offset += count;
        }
    }
}

fn check_height(height: u32) -> Result<(), TrieError> {
    if (1..=MAX_HEIGHT).contains(&height) {
        Ok(())
    } else {
        Err(TrieError::InvalidHeight(height))
    }
}

/// Sorted leaves: keys checked against the height, duplicates resolved (last wins), zero values
/// dropped.
fn leaves(entries: &[(Felt, Felt)], height: u32) -> Result<Vec<Node>, TrieError> {
    check_height(height)?;
    let mut kv = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let raw = key.to_raw_limbs();
        if bits::bit_len(&raw) > height {
            return Err(TrieError::KeyOutOfRange { key: *key, height });
        }
        kv.push((raw, *value));
    }
    // Stable: among equal keys the input order is kept, so the last one is the last written.
    kv.sort_by(|a, b| bits::cmp(&a.0, &b.0));
    let mut nodes = Vec::with_capacity(kv.len());
    for (i, (key, value)) in kv.iter().enumerate() {
        let overwritten = i + 1 < kv.len() && kv[i + 1].0 == *key;
        if !overwritten && !value.is_zero() {
            nodes.push(Node {
                key: *key,
                bottom: 0,
                kind: Kind::Ready(*value),
            });
        }
    }
    Ok(nodes)
}

/// The root of the Patricia-Merkle trie of height `height` holding `entries` (key, value).
///
/// Node rules (cairo-lang `patricia_tree/nodes.py`): a leaf's hash is its value; a binary node
/// is `H(left, right)`; an edge of path `p` and length `L >= 1` down to `bottom` is
/// `H(bottom, p) + L`; edges are maximal; the empty trie's root is `0`.
/// - A value of `0` deletes the key (it is not a leaf).
/// - Duplicate keys: **the last entry wins** (entries are writes applied in order), so a later
///   `(k, 0)` deletes an earlier `(k, v)`.
/// - Without duplicate keys the root does not depend on the order of `entries`.
///
/// ```
/// use starkbatch::state::{trie_root, TrieError};
/// use starkbatch::{Felt, Pedersen};
/// let (k, v) = (Felt::from(5u64), Felt::from(100u64));
/// let root = trie_root::<Pedersen>(&[(k, v)], 251).unwrap();
/// let want = "0x7f3b8d51706346def299eedb577ebb2a5648cd9efd6b8747678da66c4428ba8";
/// assert_eq!(root.to_string(), want);
/// // The last write to a key wins; a value of 0 deletes.
/// assert_eq!(trie_root::<Pedersen>(&[(k, Felt::ONE), (k, v)], 251).unwrap(), root);
/// assert_eq!(trie_root::<Pedersen>(&[(k, v), (k, Felt::ZERO)], 251).unwrap(), Felt::ZERO);
/// let err = trie_root::<Pedersen>(&[(Felt::from(4u64), v)], 2).unwrap_err();
/// assert_eq!(err, TrieError::KeyOutOfRange { key: Felt::from(4u64), height: 2 });
/// ```
///
/// # Errors
/// [`TrieError::InvalidHeight`] unless `1 <= height <= 251`; [`TrieError::KeyOutOfRange`] for a
/// key not below `2^height` (never a wrong root).
pub fn trie_root<H: PairHash>(entries: &[(Felt, Felt)], height: u32) -> Result<Felt, TrieError> {
    Ok(trie_roots::<H>(&[entries], height)?[0])
}

/// The roots of several tries of the same height, built together: each round hashes the
/// current level of every trie in one batch (split across rayon's threads when large).
///
/// Same rules and errors as [`trie_root`] (the first error found is returned).
///
/// ```
/// use starkbatch::state::{trie_root, trie_roots};
/// use starkbatch::{Felt, Pedersen};
/// let a = [(Felt::from(5u64), Felt::from(100u64))];
/// let b: Vec<(Felt, Felt)> = (1..50u64).map(|k| (Felt::from(k), Felt::from(k * k))).collect();
/// let roots = trie_roots::<Pedersen>(&[&a[..], &b[..], &[]], 251).unwrap();
/// assert_eq!(roots[0], trie_root::<Pedersen>(&a, 251).unwrap());
/// assert_eq!(roots[1], trie_root::<Pedersen>(&b, 251).unwrap());
/// assert_eq!(roots[2], Felt::ZERO);
/// ```
pub fn trie_roots<H: PairHash>(
    tries: &[&[(Felt, Felt)]],
    height: u32,
) -> Result<Vec<Felt>, TrieError> {
    let mut runs = Vec::with_capacity(tries.len());
    for entries in tries {
        runs.push(Run::new(leaves(entries, height)?, 0, height, true));
    }
    run_all::<H>(&mut runs);
    Ok(runs
        .into_iter()
        .map(|r| r.result.flatten().map_or(Felt::ZERO, |t| t.node))
        .collect())
}

/// The top of the trie holding `entries`, with its root edge left open (`None` when empty).
///
/// `trie_top(e, h)?.map_or(Felt::ZERO, |t| t.hash::<H>()) == trie_root(e, h)?`. Used to build a
/// trie from subtries with [`compose_tops`].
///
/// ```
/// use starkbatch::state::{trie_root, trie_top};
/// use starkbatch::{Felt, Pedersen};
/// let entries: Vec<_> = (1..20u64).map(|k| (Felt::from(k), Felt::ONE)).collect();
/// let top = trie_top::<Pedersen>(&entries, 251).unwrap().unwrap();
/// assert_eq!((top.path, top.length), (Felt::ZERO, 251 - 5)); // all keys are below 2^5
/// assert_eq!(top.hash::<Pedersen>(), trie_root::<Pedersen>(&entries, 251).unwrap());
/// assert_eq!(trie_top::<Pedersen>(&[], 251).unwrap(), None);
/// ```
///
/// # Errors
/// As [`trie_root`].
pub fn trie_top<H: PairHash>(
    entries: &[(Felt, Felt)],
    height: u32,
) -> Result<Option<TrieTop>, TrieError> {
    Ok(trie_tops::<H>(&[entries], height)?.pop().flatten())
}

/// The tops of several tries of the same height, built together as [`trie_roots`] builds
/// roots (one batch per round across every trie): `trie_tops(t, h)?[i] == trie_top(t[i], h)?`.
///
/// ```
/// use starkbatch::state::{trie_top, trie_tops};
/// use starkbatch::{Felt, Pedersen};
/// let a: Vec<_> = (1..20u64).map(|k| (Felt::from(k), Felt::ONE)).collect();
/// let b = [(Felt::from(7u64), Felt::TWO)];
/// let tops = trie_tops::<Pedersen>(&[&a[..], &[], &b[..]], 251).unwrap();
/// assert_eq!(tops[0], trie_top::<Pedersen>(&a, 251).unwrap());
/// assert_eq!(tops[1], None);
/// assert_eq!(tops[2], trie_top::<Pedersen>(&b, 251).unwrap());
/// ```
///
/// # Errors
/// As [`trie_root`] (the first error found is returned).
pub fn trie_tops<H: PairHash>(
    tries: &[&[(Felt, Felt)]],
    height: u32,
) -> Result<Vec<Option<TrieTop>>, TrieError> {
    let mut runs = Vec::with_capacity(tries.len());
    for entries in tries {
        runs.push(Run::new(leaves(entries, height)?, 0, height, false));
    }
    run_all::<H>(&mut runs);
    Ok(runs.into_iter().map(|r| r.result.flatten()).collect())
}

/// The root of a trie of height `split_bits + sub_height` from the tops of its `2^split_bits`
/// subtries of height `sub_height`.
///
/// `tops[i]` is [`trie_top`] of the entries whose key's top `split_bits` bits equal `i`, with
/// those keys reduced to their low `sub_height` bits (`None` for an empty range). The result
/// equals [`trie_root`] of all the entries. See `docs/scaling.md`.
///
/// ```
/// use starkbatch::state::{compose_tops, trie_root, trie_top};
/// use starkbatch::{Felt, Pedersen};
/// let f = |x: u64| Felt::from(x);
/// // Height 8 = 2 split bits + subtries of height 6; key 200 = 0b11_001000 is in subtrie 3.
/// let low = trie_top::<Pedersen>(&[(f(5), f(100))], 6).unwrap();
/// let high = trie_top::<Pedersen>(&[(f(0b001000), f(7))], 6).unwrap();
/// let root = compose_tops::<Pedersen>(&[low, None, None, high], 2, 6).unwrap();
/// assert_eq!(root, trie_root::<Pedersen>(&[(f(5), f(100)), (f(200), f(7))], 8).unwrap());
/// assert!(compose_tops::<Pedersen>(&[low, high], 2, 6).is_err()); // 2^2 tops are needed
/// ```
///
/// # Errors
/// [`TrieError::InvalidHeight`] unless `1 <= sub_height` and `split_bits + sub_height <= 251`;
/// [`TrieError::TopCount`] unless `tops.len() == 2^split_bits` with `split_bits <= 32`;
/// [`TrieError::InvalidTop`] for a top whose edge is longer than `sub_height` or whose path does
/// not fit in its length.
pub fn compose_tops<H: PairHash>(
    tops: &[Option<TrieTop>],
    split_bits: u32,
    sub_height: u32,
) -> Result<Felt, TrieError> {
    let height = split_bits.saturating_add(sub_height);
    check_height(height)?;
    check_height(sub_height)?;
    if split_bits > 32 || tops.len() as u64 != 1u64 << split_bits {
        return Err(TrieError::TopCount {
            split_bits,
            got: tops.len(),
        });
    }
    let mut nodes = Vec::new();
    for (index, top) in tops.iter().enumerate() {
        let Some(top) = top else { continue };
        let path = top.path.to_raw_limbs();
        if top.length > sub_height || bits::bit_len(&path) > top.length {
            return Err(TrieError::InvalidTop { index });
        }
        let bottom = sub_height - top.length;
        let prefix = bits::shl(&[index as u64, 0, 0, 0], sub_height);
        let key = bits::or(&prefix, &bits::shl(&path, bottom));
        nodes.push(Node {
            key,
            bottom,
            kind: Kind::Ready(top.node),
        });
    }
    let mut runs = [Run::new(nodes, sub_height, height, true)];
    run_all::<H>(&mut runs);
    let [run] = runs;
    Ok(run.result.flatten().map_or(Felt::ZERO, |t| t.node))
}
