//! Bulk hashing of explicit trie nodes: [`Node`] and [`hash_nodes`].
//!
//! For callers that keep their own trie storage (a node database) and only need many node
//! hashes at once: every node of the slice is hashed in one batch.

use crate::Felt;
use crate::hash::PairHash;
use alloc::vec;
use alloc::vec::Vec;

/// A Patricia-Merkle trie node whose children's hashes are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A binary node: `H(left, right)`.
    Binary {
        /// The left child's hash (key bit 0).
        left: Felt,
        /// The right child's hash (key bit 1).
        right: Felt,
    },
    /// An edge node: `H(child, path) + length`.
    Edge {
        /// The hash of the node at the bottom of the edge.
        child: Felt,
        /// The edge's path bits, most significant first, as an integer.
        path: Felt,
        /// The number of bits in the path (1..=251 in a valid trie).
        length: u8,
    },
}

impl Node {
    /// The pair this node hashes.
    #[inline]
    fn pair(&self) -> [Felt; 2] {
        match *self {
            Node::Binary { left, right } => [left, right],
            Node::Edge { child, path, .. } => [child, path],
        }
    }

    /// This node's hash, computed alone.
    ///
    /// ```
    /// use starkbatch::state::Node;
    /// use starkbatch::{pedersen_hash, Felt, Pedersen};
    /// // The storage trie holding only key 5 → 100: one edge of 251 bits, the root.
    /// let edge = Node::Edge { child: Felt::from(100u64), path: Felt::from(5u64), length: 251 };
    /// let want = "0x7f3b8d51706346def299eedb577ebb2a5648cd9efd6b8747678da66c4428ba8";
    /// assert_eq!(edge.hash::<Pedersen>().to_string(), want);
    /// let bin = Node::Binary { left: Felt::ONE, right: Felt::TWO };
    /// assert_eq!(bin.hash::<Pedersen>(), pedersen_hash(&Felt::ONE, &Felt::TWO));
    /// ```
    pub fn hash<H: PairHash>(&self) -> Felt {
        let [a, b] = self.pair();
        match self {
            Node::Binary { .. } => H::hash(&a, &b),
            Node::Edge { length, .. } => H::hash(&a, &b) + Felt::from(*length),
        }
    }
}

/// `out[i]` = the hash of `nodes[i]`, all nodes hashed in one batch
/// ([`PairHash::hash_batch_par`]). The formulas are applied as given (a path wider than its
/// length is not rejected here).
///
/// ```
/// use starkbatch::state::{hash_nodes, Node};
/// use starkbatch::{Felt, Pedersen};
/// let nodes = [
///     Node::Binary { left: Felt::ONE, right: Felt::TWO },
///     Node::Edge { child: Felt::from(100u64), path: Felt::from(5u64), length: 251 },
/// ];
/// let mut out = [Felt::ZERO; 2];
/// hash_nodes::<Pedersen>(&nodes, &mut out);
/// assert_eq!(out, [nodes[0].hash::<Pedersen>(), nodes[1].hash::<Pedersen>()]);
/// ```
///
/// # Panics
/// If `out.len() != nodes.len()`.
pub fn hash_nodes<H: PairHash>(nodes: &[Node], out: &mut [Felt]) {
    assert_eq!(
        nodes.len(),
        out.len(),
        "hash_nodes: nodes and out lengths differ"
    );
    let pairs: Vec<[Felt; 2]> = nodes.iter().map(Node::pair).collect();
    crate::hash::hash_batch_auto::<H>(&pairs, out);
    for (o, node) in out.iter_mut().zip(nodes) {
        if let Node::Edge { length, .. } = node {
            *o += Felt::from(*length);
        }
    }
}

/// As [`hash_nodes`], returning a new vector.
///
/// ```
/// use starkbatch::state::{hash_nodes_vec, trie_root, Node};
/// use starkbatch::{Felt, Poseidon};
/// // A trie of height 1 holding both keys is one binary node over the two leaves.
/// let root = trie_root::<Poseidon>(&[(Felt::ZERO, Felt::TWO), (Felt::ONE, Felt::THREE)], 1);
/// let node = Node::Binary { left: Felt::TWO, right: Felt::THREE };
/// assert_eq!(hash_nodes_vec::<Poseidon>(&[node]), [root.unwrap()]);
/// ```
pub fn hash_nodes_vec<H: PairHash>(nodes: &[Node]) -> Vec<Felt> {
    let mut out = vec![Felt::ZERO; nodes.len()];
    hash_nodes::<H>(nodes, &mut out);
    out
}
