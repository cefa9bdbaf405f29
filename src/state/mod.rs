//! Starknet's state commitment: Patricia-Merkle tries and the hashes built on them.
//!
//! # Tries
//! A trie of height `h` maps keys below `2^h` to non-zero values. A key's bits are read most
//! significant first (0 = left, 1 = right). Node hashes (cairo-lang `patricia_tree/nodes.py`):
//! leaf = its value; binary = `H(left, right)`; edge with path `p` of `L >= 1` bits down to
//! `bottom` = `H(bottom, p) + L` (field addition); edges are maximal; the empty trie's root is 0.
//! `H` is any [`PairHash`](crate::hash::PairHash): Pedersen for contract-storage tries and the
//! contract trie, Poseidon for the class trie, at height 251; block commitments (transactions,
//! events, receipts) use height 64.
//!
//! [`trie_root`] builds a trie level by level with one batched hash call per level (module
//! `trie` documents the algorithm); [`trie_roots`] builds many tries with shared batches;
//! [`hash_nodes`] hashes explicit nodes in bulk; [`trie_top`] and [`compose_tops`] build a trie
//! from subtries over key ranges (`docs/scaling.md`).

mod bits;
mod error;
mod nodes;
mod trie;

pub use error::TrieError;
pub use nodes::{hash_nodes, hash_nodes_vec, Node};
pub use trie::{
    compose_tops, trie_root, trie_roots, trie_top, TrieTop, COMMITMENT_HEIGHT, MAX_HEIGHT,
    STATE_HEIGHT,
};
