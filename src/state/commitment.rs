//! The hashes that tie Starknet's tries together: contract leaves, class leaves and the global
//! state root (cairo-lang `fact_state/state.py`; Starknet docs, "state").

use crate::Felt;
use crate::hash::{PairHash, Pedersen, Poseidon};
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
///
/// ```
/// use starkbatch::state::contract_state_hash;
/// use starkbatch::{pedersen_hash, Felt};
/// let (class, root, nonce) = (Felt::from(7u64), Felt::from(9u64), Felt::ONE);
/// let h = pedersen_hash(&pedersen_hash(&pedersen_hash(&class, &root), &nonce), &Felt::ZERO);
/// assert_eq!(contract_state_hash(&class, &root, &nonce), h);
/// ```
pub fn contract_state_hash(class_hash: &Felt, storage_root: &Felt, nonce: &Felt) -> Felt {
    let h = Pedersen::hash(class_hash, storage_root);
    let h = Pedersen::hash(&h, nonce);
    Pedersen::hash(&h, &Felt::ZERO)
}

/// [`contract_state_hash`] of many contracts, each of the three Pedersen layers as one batch.
/// `out[i]` is the hash of `(class_hashes[i], storage_roots[i], nonces[i])`.
///
/// ```
/// use starkbatch::state::{contract_state_hash, contract_state_hashes};
/// use starkbatch::Felt;
/// let classes = [Felt::ONE, Felt::TWO];
/// let (roots, nonces) = ([Felt::THREE; 2], [Felt::ZERO, Felt::ONE]);
/// let mut out = [Felt::ZERO; 2];
/// contract_state_hashes(&classes, &roots, &nonces, &mut out);
/// for i in 0..2 {
///     assert_eq!(out[i], contract_state_hash(&classes[i], &roots[i], &nonces[i]));
/// }
/// ```
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
///
/// ```
/// use starkbatch::state::{class_leaf_hash, CONTRACT_CLASS_LEAF_V0};
/// use starkbatch::{poseidon_hash, Felt};
/// let compiled = Felt::from(0xcafeu64);
/// assert_eq!(class_leaf_hash(&compiled), poseidon_hash(CONTRACT_CLASS_LEAF_V0, compiled));
/// assert_ne!(class_leaf_hash(&compiled), class_leaf_hash(&Felt::ONE));
/// ```
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
///
/// ```
/// use starkbatch::state::{global_state_root, StateRootRule, STARKNET_STATE_V0};
/// use starkbatch::{poseidon_hash_many, Felt};
/// let (contracts, classes) = (Felt::from(0xc0u64), Felt::from(0xc1u64));
/// let (before, from) = (StateRootRule::Before0_14_0, StateRootRule::From0_14_0);
/// let both = poseidon_hash_many(&[STARKNET_STATE_V0, contracts, classes]);
/// assert_eq!(global_state_root(&contracts, &classes, before), both);
/// // Without classes the two rules differ.
/// assert_eq!(global_state_root(&contracts, &Felt::ZERO, before), contracts);
/// let from_root = global_state_root(&contracts, &Felt::ZERO, from);
/// assert_eq!(from_root, poseidon_hash_many(&[STARKNET_STATE_V0, contracts, Felt::ZERO]));
/// assert_eq!(global_state_root(&Felt::ZERO, &Felt::ZERO, from), Felt::ZERO);
/// ```
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
/// ```
/// use starkbatch::state::{class_leaf_hash, class_leaf_hash_batch};
/// use starkbatch::Felt;
/// let compiled: Vec<Felt> = (1..=5u64).map(Felt::from).collect();
/// let mut out = vec![Felt::ZERO; compiled.len()];
/// class_leaf_hash_batch(&compiled, &mut out);
/// assert!(compiled.iter().zip(&out).all(|(c, leaf)| *leaf == class_leaf_hash(c)));
/// ```
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
