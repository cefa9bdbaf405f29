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
//!
//! # Starknet's state
//! [`contract_state_hash`] (contract-trie leaf), [`class_leaf_hash`] (class-trie leaf),
//! [`global_state_root`] (with [`StateRootRule`] for before / from Starknet 0.14.0) and the
//! whole-state [`state_commitment`]: every storage root, the contract-trie root, the class-trie
//! root and the state root in one call, all storage tries hashed together.

pub(crate) mod bits;
mod block;
mod commitment;
mod error;
mod nodes;
mod trie;

pub use block::{ContractState, DeclaredClass, StateCommitment, state_commitment};
pub use commitment::{
    CONTRACT_CLASS_LEAF_V0, STARKNET_STATE_V0, StateRootRule, class_leaf_hash,
    class_leaf_hash_batch, contract_state_hash, contract_state_hashes, global_state_root,
};
pub use error::TrieError;
pub use nodes::{Node, hash_nodes, hash_nodes_vec};
pub use trie::{
    COMMITMENT_HEIGHT, MAX_HEIGHT, STATE_HEIGHT, TrieTop, compose_tops, trie_root, trie_roots,
    trie_top, trie_tops,
};
