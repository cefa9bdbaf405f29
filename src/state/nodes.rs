//! Bulk hashing of explicit trie nodes: [`Node`] and [`hash_nodes`].
//!
//! For callers that keep their own trie storage (a node database) and only need many node
//! hashes at once: every node of the slice is hashed in one batch.

use crate::hash::PairHash;
use crate::Felt;
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
pub fn hash_nodes_vec<H: PairHash>(nodes: &[Node]) -> Vec<Felt> {
    let mut out = vec![Felt::ZERO; nodes.len()];
    hash_nodes::<H>(nodes, &mut out);
    out
}
