//! The hashes that tie Starknet's tries together: contract leaves, class leaves and the global
//! state root (cairo-lang `fact_state/state.py`; Starknet docs, "state").

use crate::hash::{PairHash, Pedersen, Poseidon};
use crate::Felt;
use alloc::vec::Vec;

/// `"CONTRACT_CLASS_LEAF_V0"` as a short string: the class trie's leaf prefix.
pub const CONTRACT_CLASS_LEAF_V0: Felt =
    Felt::from_hex_unchecked("0x434f4e54524143545f434c4153535f4c4541465f5630");

/// `"STARKNET_STATE_V0"` as a short string: the global state root's prefix.
pub const STARKNET_STATE_V0: Felt =
    Felt::from_hex_unchecked("0x535441524b4e45545f53544154455f5630");

/// A contract's leaf in the contract trie:
/// `Ped(Ped(Ped(class_hash, storage_root), nonce), 0)` (three Pedersen hashes; this is *not* the
/// Pedersen array hash).
pub fn contract_state_hash(class_hash: &Felt, storage_root: &Felt, nonce: &Felt) -> Felt {
    let h = Pedersen::hash(class_hash, storage_root);
    let h = Pedersen::hash(&h, nonce);
    Pedersen::hash(&h, &Felt::ZERO)
}

/// [`contract_state_hash`] of many contracts, each of the three Pedersen layers as one batch.
/// `out[i]` is the hash of `(class_hashes[i], storage_roots[i], nonces[i])`.
///
/// # Panics
/// If the four slices do not have the same length.
pub fn contract_state_hashes(
    class_hashes: &[Felt],
    storage_roots: &[Felt],
    nonces: &[Felt],
    out: &mut [Felt],
) {
    let n = out.len();
    assert!(
        class_hashes.len() == n && storage_roots.len() == n && nonces.len() == n,
        "contract_state_hashes: slice lengths differ"
    );
    let mut pairs: Vec<[Felt; 2]> = class_hashes
        .iter()
        .zip(storage_roots)
        .map(|(c, r)| [*c, *r])
        .collect();
    crate::hash::hash_batch_auto::<Pedersen>(&pairs, out);
    for ((p, h), nonce) in pairs.iter_mut().zip(out.iter()).zip(nonces) {
        *p = [*h, *nonce];
    }
    crate::hash::hash_batch_auto::<Pedersen>(&pairs, out);
    for (p, h) in pairs.iter_mut().zip(out.iter()) {
        *p = [*h, Felt::ZERO];
    }
    crate::hash::hash_batch_auto::<Pedersen>(&pairs, out);
}

/// A declared class's leaf in the class trie: `Poseidon("CONTRACT_CLASS_LEAF_V0", compiled_class_hash)`.
pub fn class_leaf_hash(compiled_class_hash: &Felt) -> Felt {
    Poseidon::hash(&CONTRACT_CLASS_LEAF_V0, compiled_class_hash)
}

/// Which rule combines the contract-trie and class-trie roots into the state root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateRootRule {
    /// Before Starknet 0.14.0: when the class trie is empty the state root is the contract-trie
    /// root alone.
    Before0_14_0,
    /// From Starknet 0.14.0 on: the Poseidon form is used whenever either root is non-zero.
    From0_14_0,
}

/// The global state root from the contract-trie and class-trie roots:
/// - `0` if both roots are `0`;
/// - with [`StateRootRule::Before0_14_0`], `contract_root` alone when `class_root` is `0`;
/// - otherwise `poseidon_hash_many(["STARKNET_STATE_V0", contract_root, class_root])`.
pub fn global_state_root(contract_root: &Felt, class_root: &Felt, rule: StateRootRule) -> Felt {
    if contract_root.is_zero() && class_root.is_zero() {
        return Felt::ZERO;
    }
    if rule == StateRootRule::Before0_14_0 && class_root.is_zero() {
        return *contract_root;
    }
    crate::poseidon_hash_many(&[STARKNET_STATE_V0, *contract_root, *class_root])
}

/// [`class_leaf_hash`] of many compiled class hashes in one batch.
///
/// # Panics
/// If `out.len() != compiled_class_hashes.len()`.
pub fn class_leaf_hash_batch(compiled_class_hashes: &[Felt], out: &mut [Felt]) {
    let pairs: Vec<[Felt; 2]> = compiled_class_hashes
        .iter()
        .map(|c| [CONTRACT_CLASS_LEAF_V0, *c])
        .collect();
    crate::hash::hash_batch_auto::<Poseidon>(&pairs, out);
}
