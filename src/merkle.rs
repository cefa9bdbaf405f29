//! Binary Merkle trees over [`Felt`] leaves, generic over the node hash [`PairHash`].
//!
//! # Shape
//! Level 0 holds the leaves in order. Level `k + 1` has `⌈n_k / 2⌉` nodes: node `i` is
//! `H(node[2i], node[2i+1])`, except that when a level has an odd number of nodes its **last node
//! is carried up unchanged** (it is not hashed with itself or with zero). The root is the single
//! node of the last level. So:
//! - the root of **no leaves is `0`** ([`Felt::ZERO`]);
//! - the root of one leaf is that leaf;
//! - for a power-of-two leaf count the tree is the usual perfect binary tree.
//!
//! # Batching and memory
//! Every level is hashed with the batched [`PairHash::hash_batch`], never one call per node.
//! [`root`] needs at most `⌈N / 2⌉` extra felts for `N` leaves: the first level is hashed from
//! the leaves into one half-size buffer (one batch), and every higher level is reduced in place in
//! that buffer. In place, a level of `m` nodes is hashed in batches of doubling size
//! (pairs `[0,1)`, `[1,2)`, `[2,4)`, …, `[m/4, m/2)`): batch `[s, 2s)` reads nodes `[2s, 4s)` and
//! writes nodes `[s, 2s)`, which the earlier batches have already consumed, so no second buffer is
//! needed; the last batch holds half of the level.
//!
//! # Parallelism
//! A large tree (at least [`PAR_MIN_LEAVES`] leaves, with more than one rayon thread) is cut into
//! aligned subtrees of `2^k` leaves, whose roots are computed on different threads in disjoint
//! parts of the half-size buffer, then combined. This is exact because of the subtree
//! composition property below.
//!
//! # Subtree composition
//! Cut the leaves into consecutive chunks of `2^k` leaves (the last chunk may be shorter). The
//! root of the whole tree equals the root of the tree whose leaves are the chunks' roots:
//! `root(leaves) == root_from_subtree_roots(&[root(chunk_0), root(chunk_1), …])`, because node
//! `j` of level `k` is exactly the root of chunk `j` (pairing at levels below `k` never crosses a
//! chunk boundary, and the carry rule only applies to the last node of a level, which lies in the
//! last chunk). See `docs/scaling.md`.

use crate::Felt;
use crate::hash::PairHash;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
#[cfg(feature = "std")]
use rayon::prelude::*;

/// [`root`] splits trees with at least this many leaves across rayon's threads.
pub const PAR_MIN_LEAVES: usize = 1 << 12;

/// The Merkle root of `leaves` (see the module documentation for the shape; `0` for no leaves).
///
/// Uses the current rayon thread pool for large trees and at most `⌈N/2⌉` felts of extra memory.
/// Without the `std` feature: [`root_seq`].
///
/// ```
/// use starkbatch::{merkle, Felt, Poseidon};
/// let leaves: Vec<Felt> = (1..=5u64).map(Felt::from).collect();
/// let expected = Felt::from_hex("0x28a9ce321d9112d7196f0d6f5058cc39802058296cfb0f236d77afe94ab77cd");
/// assert_eq!(merkle::root::<Poseidon>(&leaves), expected.unwrap());
/// assert_eq!(merkle::root::<Poseidon>(&[]), Felt::ZERO);
/// ```
pub fn root<H: PairHash>(leaves: &[Felt]) -> Felt {
    #[cfg(not(feature = "std"))]
    return root_seq::<H>(leaves);
    #[cfg(feature = "std")]
    root_par::<H>(leaves)
}

#[cfg(feature = "std")]
fn root_par<H: PairHash>(leaves: &[Felt]) -> Felt {
    let n = leaves.len();
    if n <= 1 {
        return leaves.first().copied().unwrap_or(Felt::ZERO);
    }
    let threads = rayon::current_num_threads();
    if n < PAR_MIN_LEAVES || threads < 2 {
        return root_seq::<H>(leaves);
    }
    // Aligned chunks: a power of two, about four per thread for load balance.
    let chunk = n.div_ceil(4 * threads).next_power_of_two().max(2);
    let mut buf = vec![Felt::ZERO; n.div_ceil(2)];
    let roots: Vec<Felt> = leaves
        .par_chunks(chunk)
        .zip(buf.par_chunks_mut(chunk / 2))
        .map(|(l, b)| reduce_into::<H>(l, b))
        .collect();
    drop(buf);
    root_seq::<H>(&roots)
}

/// As [`root`], always on the calling thread.
///
/// ```
/// use starkbatch::{merkle, poseidon_hash, Felt, Poseidon};
/// let l: Vec<Felt> = (1..=3u64).map(Felt::from).collect();
/// // Three leaves: the odd last node is carried up unchanged.
/// let by_hand = poseidon_hash(poseidon_hash(l[0], l[1]), l[2]);
/// assert_eq!(merkle::root_seq::<Poseidon>(&l), by_hand);
/// assert_eq!(merkle::root_seq::<Poseidon>(&l), merkle::root::<Poseidon>(&l));
/// ```
pub fn root_seq<H: PairHash>(leaves: &[Felt]) -> Felt {
    let n = leaves.len();
    if n <= 1 {
        return leaves.first().copied().unwrap_or(Felt::ZERO);
    }
    let mut buf = vec![Felt::ZERO; n.div_ceil(2)];
    reduce_into::<H>(leaves, &mut buf)
}

/// The root of the tree whose leaves are the roots of consecutive aligned subtrees.
///
/// If `leaves` is cut into chunks of `2^k` leaves (every chunk full except possibly the last),
/// then `root_from_subtree_roots::<H>(&[root(chunk_0), …])` equals `root::<H>(leaves)`: the
/// subtree roots are exactly the nodes of level `k`. This is how a tree too large for one
/// machine is built from independently computed parts (`docs/scaling.md`).
///
/// ```
/// use starkbatch::{merkle, Felt, Pedersen};
/// let leaves: Vec<Felt> = (0..11u64).map(Felt::from).collect();
/// let tops: Vec<Felt> = leaves.chunks(4).map(merkle::root::<Pedersen>).collect();
/// let whole = merkle::root::<Pedersen>(&leaves);
/// assert_eq!(merkle::root_from_subtree_roots::<Pedersen>(&tops), whole);
/// ```
pub fn root_from_subtree_roots<H: PairHash>(subtree_roots: &[Felt]) -> Felt {
    root::<H>(subtree_roots)
}

/// Root of `leaves` (length >= 2) using `buf` (length >= ⌈len/2⌉) as the only scratch space.
fn reduce_into<H: PairHash>(leaves: &[Felt], buf: &mut [Felt]) -> Felt {
    let n = leaves.len();
    if n == 1 {
        return leaves[0];
    }
    debug_assert!(buf.len() >= n.div_ceil(2));
    // Level 1: one batch from the leaves into the buffer.
    let half = n / 2;
    let pairs: &[[Felt; 2]] = bytemuck::cast_slice(&leaves[..2 * half]);
    H::hash_batch(pairs, &mut buf[..half]);
    if n % 2 == 1 {
        buf[half] = leaves[n - 1];
    }
    let mut m = n.div_ceil(2);
    // Higher levels in place: batches of doubling size, [0,1), [1,2), [2,4), ...
    while m > 1 {
        let half = m / 2;
        let mut s = 0;
        while s < half {
            let e = if s == 0 { 1 } else { (2 * s).min(half) };
            if s == 0 {
                let [a, b] = [buf[0], buf[1]];
                let mut out = [Felt::ZERO];
                H::hash_batch(&[[a, b]], &mut out);
                buf[0] = out[0];
            } else {
                // Outputs [s, e) lie below inputs [2s, 2e) because e <= 2s.
                let (lo, hi) = buf.split_at_mut(2 * s);
                let pairs: &[[Felt; 2]] = bytemuck::cast_slice(&hi[..2 * (e - s)]);
                H::hash_batch(pairs, &mut lo[s..e]);
            }
            s = e;
        }
        if m % 2 == 1 {
            buf[half] = buf[m - 1];
        }
        m = m.div_ceil(2);
    }
    buf[0]
}

/// Why a Merkle proof could not be produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MerkleError {
    /// The leaf index is not below the number of leaves.
    IndexOutOfRange {
        /// The index asked for.
        index: usize,
        /// The number of leaves in the tree.
        leaf_count: usize,
    },
}

impl fmt::Display for MerkleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MerkleError::IndexOutOfRange { index, leaf_count } => {
                write!(
                    f,
                    "leaf index {index} is out of range for a tree of {leaf_count} leaves"
                )
            }
        }
    }
}

impl core::error::Error for MerkleError {}

/// An inclusion proof: the sibling of each node on the path from a leaf to the root, bottom up.
///
/// Levels where the path node is the carried-up last node of an odd level have no sibling and
/// contribute no element, so the verifier needs the tree's leaf count, which is part of the
/// proof. A verifier must take `leaf_count` from a trusted source (or check it), since the root
/// alone does not commit to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleProof {
    /// The number of leaves of the tree the proof was made for.
    pub leaf_count: usize,
    /// The siblings from the leaf's level upwards.
    pub siblings: Vec<Felt>,
}

/// A binary Merkle tree that keeps every level, for proofs.
///
/// Memory: about `2N` felts for `N` leaves. Use [`root`] when only the root is needed.
pub struct MerkleTree<H: PairHash> {
    levels: Vec<Vec<Felt>>,
    _hash: PhantomData<fn() -> H>,
}

impl<H: PairHash> Clone for MerkleTree<H> {
    fn clone(&self) -> Self {
        MerkleTree {
            levels: self.levels.clone(),
            _hash: PhantomData,
        }
    }
}

impl<H: PairHash> fmt::Debug for MerkleTree<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MerkleTree")
            .field("hash", &H::NAME)
            .field("leaf_count", &self.leaf_count())
            .field("root", &self.root())
            .finish()
    }
}

impl<H: PairHash> MerkleTree<H> {
    /// Builds the tree; each level is hashed as one batch ([`PairHash::hash_batch_par`]).
    ///
    /// ```
    /// use starkbatch::merkle::{self, MerkleTree};
    /// use starkbatch::{Felt, Poseidon};
    /// let leaves: Vec<Felt> = (1..=5u64).map(Felt::from).collect();
    /// let tree = MerkleTree::<Poseidon>::new(leaves.clone());
    /// assert_eq!(tree.root(), merkle::root::<Poseidon>(&leaves));
    /// assert_eq!((tree.leaf_count(), tree.leaves()), (5, &leaves[..]));
    /// ```
    pub fn new(leaves: Vec<Felt>) -> Self {
        let mut levels = vec![leaves];
        while levels.last().map_or(0, Vec::len) > 1 {
            let prev = levels.last().expect("non-empty");
            let half = prev.len() / 2;
            let mut next = vec![Felt::ZERO; prev.len().div_ceil(2)];
            let pairs: &[[Felt; 2]] = bytemuck::cast_slice(&prev[..2 * half]);
            crate::hash::hash_batch_auto::<H>(pairs, &mut next[..half]);
            if prev.len() % 2 == 1 {
                next[half] = prev[prev.len() - 1];
            }
            levels.push(next);
        }
        MerkleTree {
            levels,
            _hash: PhantomData,
        }
    }

    /// The number of leaves.
    ///
    /// ```
    /// use starkbatch::merkle::MerkleTree;
    /// use starkbatch::{Felt, Poseidon};
    /// assert_eq!(MerkleTree::<Poseidon>::new(vec![Felt::ONE; 3]).leaf_count(), 3);
    /// ```
    pub fn leaf_count(&self) -> usize {
        self.levels[0].len()
    }

    /// The leaves.
    ///
    /// ```
    /// use starkbatch::merkle::MerkleTree;
    /// use starkbatch::{Felt, Poseidon};
    /// assert_eq!(MerkleTree::<Poseidon>::new(vec![Felt::TWO]).leaves(), &[Felt::TWO]);
    /// ```
    pub fn leaves(&self) -> &[Felt] {
        &self.levels[0]
    }

    /// The root (`0` for an empty tree, the leaf for a one-leaf tree).
    ///
    /// ```
    /// use starkbatch::merkle::MerkleTree;
    /// use starkbatch::{Felt, Poseidon};
    /// assert_eq!(MerkleTree::<Poseidon>::new(vec![]).root(), Felt::ZERO);
    /// assert_eq!(MerkleTree::<Poseidon>::new(vec![Felt::TWO]).root(), Felt::TWO);
    /// ```
    pub fn root(&self) -> Felt {
        match self.levels.last() {
            Some(top) if top.len() == 1 => top[0],
            _ => Felt::ZERO,
        }
    }

    /// The inclusion proof of leaf `index`.
    ///
    /// ```
    /// use starkbatch::merkle::{verify_proof, MerkleTree};
    /// use starkbatch::{Felt, Poseidon};
    /// let leaves: Vec<Felt> = (1..=5u64).map(Felt::from).collect();
    /// let tree = MerkleTree::<Poseidon>::new(leaves.clone());
    /// let proof = tree.proof(2).unwrap();
    /// assert!(verify_proof::<Poseidon>(&tree.root(), &leaves[2], 2, &proof));
    /// assert!(tree.proof(5).is_err());
    /// ```
    pub fn proof(&self, index: usize) -> Result<MerkleProof, MerkleError> {
        let leaf_count = self.leaf_count();
        if index >= leaf_count {
            return Err(MerkleError::IndexOutOfRange { index, leaf_count });
        }
        let mut siblings = Vec::new();
        let mut i = index;
        for level in &self.levels[..self.levels.len() - 1] {
            let sib = i ^ 1;
            if sib < level.len() {
                siblings.push(level[sib]);
            }
            i /= 2;
        }
        Ok(MerkleProof {
            leaf_count,
            siblings,
        })
    }
}

/// Whether `proof` shows that `leaf` is leaf number `index` of a tree of `proof.leaf_count`
/// leaves with root `root`. Never panics; a malformed proof (wrong length, index out of range)
/// gives `false`.
///
/// ```
/// use starkbatch::merkle::{verify_proof, MerkleTree};
/// use starkbatch::{Felt, Pedersen};
/// let leaves: Vec<Felt> = (10..17u64).map(Felt::from).collect();
/// let tree = MerkleTree::<Pedersen>::new(leaves.clone());
/// let proof = tree.proof(6).unwrap();
/// assert!(verify_proof::<Pedersen>(&tree.root(), &leaves[6], 6, &proof));
/// assert!(!verify_proof::<Pedersen>(&tree.root(), &leaves[5], 6, &proof));
/// assert!(!verify_proof::<Pedersen>(&tree.root(), &leaves[6], 5, &proof));
/// ```
pub fn verify_proof<H: PairHash>(
    root: &Felt,
    leaf: &Felt,
    index: usize,
    proof: &MerkleProof,
) -> bool {
    let mut n = proof.leaf_count;
    if index >= n {
        return false;
    }
    let mut i = index;
    let mut node = *leaf;
    let mut sibs = proof.siblings.iter();
    while n > 1 {
        if i ^ 1 < n {
            let Some(s) = sibs.next() else { return false };
            node = if i.is_multiple_of(2) {
                H::hash(&node, s)
            } else {
                H::hash(s, &node)
            };
        }
        i /= 2;
        n = n.div_ceil(2);
    }
    sibs.next().is_none() && node == *root
}
