//! The whole state commitment of a block in one call: [`state_commitment`].
//!
//! Input: every contract (address, class hash, nonce, storage entries) and every declared Sierra
//! class (class hash, compiled class hash) of a state, in full. Output: every storage root, the
//! contract-trie root, the class-trie root and the global state root.
//!
//! Work plan: all storage tries are built together by [`trie_roots`] (each round hashes the
//! current level of every storage trie in one batch, split across rayon's threads), while the
//! class leaves and the class trie are built at the same time on the other side of a
//! `rayon::join`; then the contract leaves (three Pedersen layers, each one batch) and the
//! contract trie; then the state root.

use super::commitment::{
    StateRootRule, class_leaf_hash_batch, contract_state_hashes, global_state_root,
};
use super::error::TrieError;
use super::trie::{STATE_HEIGHT, trie_root, trie_roots};
use crate::Felt;
use crate::hash::{Pedersen, Poseidon};
use alloc::vec;
use alloc::vec::Vec;

/// One contract's full state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContractState {
    /// The contract address: its key in the contract trie (below 2^251).
    pub address: Felt,
    /// The hash of the contract's class.
    pub class_hash: Felt,
    /// The contract's nonce.
    pub nonce: Felt,
    /// Storage writes `(key, value)`: keys below 2^251; the last write to a key wins; a value of
    /// 0 deletes the key.
    pub storage: Vec<(Felt, Felt)>,
}

/// A declared Sierra class (Cairo 0 classes are not in the class trie and must not be given).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeclaredClass {
    /// The class hash: its key in the class trie (below 2^251).
    pub class_hash: Felt,
    /// The compiled (CASM) class hash; the leaf is `class_leaf_hash(compiled_class_hash)`.
    pub compiled_class_hash: Felt,
}

/// Everything [`state_commitment`] computes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateCommitment {
    /// `storage_roots[i]` is the storage-trie root of `contracts[i]` (Pedersen, height 251).
    pub storage_roots: Vec<Felt>,
    /// `contract_leaves[i]` is `contract_state_hash` of `contracts[i]`.
    pub contract_leaves: Vec<Felt>,
    /// The contract-trie root (Pedersen, height 251, keyed by address).
    pub contract_root: Felt,
    /// The class-trie root (Poseidon, height 251, keyed by class hash).
    pub class_root: Felt,
    /// The global state root under `rule`.
    pub state_root: Felt,
}

/// The state commitment of the full state made of `contracts` and `classes`.
///
/// Duplicate contract addresses or class hashes: the last one wins in its trie (each contract
/// still gets its own entry in `storage_roots` and `contract_leaves`).
///
/// ```
/// use starkbatch::state::{contract_state_hash, state_commitment, trie_root};
/// use starkbatch::state::{ContractState, StateRootRule};
/// use starkbatch::{Felt, Pedersen};
/// let storage = vec![(Felt::from(5u64), Felt::from(100u64))];
/// let c = ContractState { address: Felt::from(0x10u64), storage, ..Default::default() };
/// let s = state_commitment(&[c.clone()], &[], StateRootRule::Before0_14_0).unwrap();
/// assert_eq!(s.storage_roots, [trie_root::<Pedersen>(&c.storage, 251).unwrap()]);
/// let leaf = contract_state_hash(&c.class_hash, &s.storage_roots[0], &c.nonce);
/// assert_eq!(s.contract_root, trie_root::<Pedersen>(&[(c.address, leaf)], 251).unwrap());
/// assert_eq!(s.state_root, s.contract_root); // no class: the contract root alone
/// ```
///
/// # Errors
/// [`TrieError::KeyOutOfRange`] if a storage key, an address or a class hash is not below 2^251.
pub fn state_commitment(
    contracts: &[ContractState],
    classes: &[DeclaredClass],
    rule: StateRootRule,
) -> Result<StateCommitment, TrieError> {
    let (storage_roots, class_root) = crate::sync::join(
        || {
            let tries: Vec<&[(Felt, Felt)]> =
                contracts.iter().map(|c| c.storage.as_slice()).collect();
            trie_roots::<Pedersen>(&tries, STATE_HEIGHT)
        },
        || {
            let cch: Vec<Felt> = classes.iter().map(|c| c.compiled_class_hash).collect();
            let mut leaves = vec![Felt::ZERO; cch.len()];
            class_leaf_hash_batch(&cch, &mut leaves);
            let entries: Vec<(Felt, Felt)> =
                classes.iter().map(|c| c.class_hash).zip(leaves).collect();
            trie_root::<Poseidon>(&entries, STATE_HEIGHT)
        },
    );
    let storage_roots = storage_roots?;
    let class_root = class_root?;
    let class_hashes: Vec<Felt> = contracts.iter().map(|c| c.class_hash).collect();
    let nonces: Vec<Felt> = contracts.iter().map(|c| c.nonce).collect();
    let mut contract_leaves = vec![Felt::ZERO; contracts.len()];
    contract_state_hashes(&class_hashes, &storage_roots, &nonces, &mut contract_leaves);
    let entries: Vec<(Felt, Felt)> = contracts
        .iter()
        .map(|c| c.address)
        .zip(contract_leaves.iter().copied())
        .collect();
    let contract_root = trie_root::<Pedersen>(&entries, STATE_HEIGHT)?;
    let state_root = global_state_root(&contract_root, &class_root, rule);
    Ok(StateCommitment {
        storage_roots,
        contract_leaves,
        contract_root,
        class_root,
        state_root,
    })
}
