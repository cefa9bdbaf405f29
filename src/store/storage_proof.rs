//! Storage proofs in the shape of the JSON-RPC `starknet_getStorageProof` result, and their
//! verification against a state root.
//!
//! A [`ProofRequest`] names class hashes, contract addresses and, per contract, storage keys.
//! The [`StorageProof`] holds, as the JSON-RPC result does:
//! - `classes_proof`: the class-trie nodes (Poseidon) on the paths to the class hashes;
//! - `contracts_proof`: the contract-trie nodes (Pedersen) on the paths to the addresses, and
//!   `contract_leaves_data`, each contract's `(nonce, class_hash, storage_root)` in request order;
//! - `contracts_storage_proofs`: per requested contract, its storage-trie nodes on the paths to
//!   its keys;
//! - `global_roots`: the contract-trie and class-trie roots.
//!
//! Each node list holds every node once (several keys share the nodes near the root), root-side
//! nodes first. [`StorageProof::verify`] recomputes everything from the proof alone: the state
//! root from the two trie roots, each contract leaf `H(H(H(class_hash, storage_root), nonce), 0)`
//! from its leaf data and the contract trie's nodes, each storage value from the storage trie's
//! nodes under the storage root it has just proven.

use super::codec::TrieId;
use super::diff::trie_key;
use super::error::StoreError;
use super::kv::StoreReader;
use super::proof::{self, ProofError, ProofNode, ProofNodeKind, verify};
use crate::Felt;
use crate::hash::{Pedersen, Poseidon};
use crate::state::{StateRootRule, contract_state_hash, global_state_root};
use std::collections::HashSet;

/// What to prove (the parameters of `starknet_getStorageProof` after `block_id`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofRequest {
    /// Class hashes to prove in the class trie.
    pub class_hashes: Vec<Felt>,
    /// Contract addresses to prove in the contract trie.
    pub contract_addresses: Vec<Felt>,
    /// Storage keys to prove, per contract.
    pub contracts_storage_keys: Vec<ContractStorageKeys>,
}

/// The storage keys of one contract to prove.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContractStorageKeys {
    /// The contract.
    pub contract_address: Felt,
    /// Its keys.
    pub storage_keys: Vec<Felt>,
}

/// A contract-trie leaf's preimage (all 0 for an address without a contract).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContractLeafData {
    /// The contract's nonce.
    pub nonce: Felt,
    /// Its class hash.
    pub class_hash: Felt,
    /// Its storage root.
    pub storage_root: Felt,
}

/// The two trie roots the state root is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GlobalRoots {
    /// The contract-trie root.
    pub contracts_tree_root: Felt,
    /// The class-trie root.
    pub classes_tree_root: Felt,
}

/// A storage proof (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StorageProof {
    /// Class-trie nodes.
    pub classes_proof: Vec<ProofNode>,
    /// Contract-trie nodes.
    pub contracts_proof: Vec<ProofNode>,
    /// The leaf data of each requested contract, in request order.
    pub contract_leaves_data: Vec<ContractLeafData>,
    /// Per entry of [`ProofRequest::contracts_storage_keys`], that contract's storage-trie nodes.
    pub contracts_storage_proofs: Vec<Vec<ProofNode>>,
    /// The trie roots.
    pub global_roots: GlobalRoots,
}

/// The values a [`StorageProof`] proves, in request order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProvenValues {
    /// Per requested class hash, its class-trie leaf (`class_leaf_hash(compiled_class_hash)`;
    /// 0: not declared).
    pub class_leaves: Vec<Felt>,
    /// Per requested contract, its leaf data (all 0: no contract at that address).
    pub contracts: Vec<ContractLeafData>,
    /// Per requested contract and key, the storage value (0: unset).
    pub storage: Vec<Vec<Felt>>,
}

/// Nodes gathered from several walks, each once, in first-seen order.
#[derive(Default)]
struct NodeList {
    nodes: Vec<ProofNode>,
    seen: HashSet<[u8; 32]>,
}

impl NodeList {
    fn extend(&mut self, walked: Vec<ProofNode>) {
        for n in walked {
            if self.seen.insert(n.hash.to_bytes_be()) {
                self.nodes.push(n);
            }
        }
    }
}

/// Builds the proof of `req` from `reader` at roots `roots` (the contract root, the class root).
pub(crate) fn prove<R: StoreReader>(
    reader: &R,
    roots: GlobalRoots,
    req: &ProofRequest,
    leaf: impl Fn(&Felt) -> Result<ContractLeafData, StoreError>,
) -> Result<StorageProof, StoreError> {
    let mut classes = NodeList::default();
    for (i, c) in req.class_hashes.iter().enumerate() {
        let k = trie_key(c, || format!("class_hashes[{i}]"))?;
        let mut walked = Vec::new();
        proof::walk(
            reader,
            TrieId::Classes,
            roots.classes_tree_root,
            &k,
            Some(&mut walked),
        )?;
        classes.extend(walked);
    }
    let mut contracts = NodeList::default();
    let mut leaves = Vec::with_capacity(req.contract_addresses.len());
    for (i, a) in req.contract_addresses.iter().enumerate() {
        let k = trie_key(a, || format!("contract_addresses[{i}]"))?;
        let mut walked = Vec::new();
        proof::walk(
            reader,
            TrieId::Contracts,
            roots.contracts_tree_root,
            &k,
            Some(&mut walked),
        )?;
        contracts.extend(walked);
        leaves.push(leaf(a)?);
    }
    let mut storage = Vec::with_capacity(req.contracts_storage_keys.len());
    for (i, c) in req.contracts_storage_keys.iter().enumerate() {
        trie_key(&c.contract_address, || {
            format!("contracts_storage_keys[{i}].contract_address")
        })?;
        let root = leaf(&c.contract_address)?.storage_root;
        let mut list = NodeList::default();
        for (j, key) in c.storage_keys.iter().enumerate() {
            let k = trie_key(key, || {
                format!("contracts_storage_keys[{i}].storage_keys[{j}]")
            })?;
            let mut walked = Vec::new();
            proof::walk(
                reader,
                TrieId::Storage(c.contract_address),
                root,
                &k,
                Some(&mut walked),
            )?;
            list.extend(walked);
        }
        storage.push(list.nodes);
    }
    Ok(StorageProof {
        classes_proof: classes.nodes,
        contracts_proof: contracts.nodes,
        contract_leaves_data: leaves,
        contracts_storage_proofs: storage,
        global_roots: roots,
    })
}

impl StorageProof {
    /// Checks the proof of `req` against `state_root` (computed with `rule`) and returns the
    /// values it proves. Uses nothing but the proof: every node's hash is recomputed.
    ///
    /// ```
    /// use starkbatch::store::{parse_state_update, ContractStorageKeys, ProofRequest, Store};
    /// use starkbatch::{state::StateRootRule, store::ProofError, Felt};
    /// let (store, rule) = (Store::in_memory(), StateRootRule::From0_14_0);
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// let root = store.commit(0, &u.state_diff, rule).unwrap().roots.state_root;
    /// let (c, k) = (Felt::from(0x10u64), Felt::from(5u64));
    /// let keys = ContractStorageKeys { contract_address: c, storage_keys: vec![k] };
    /// let mut req = ProofRequest { contract_addresses: vec![c], ..Default::default() };
    /// req.contracts_storage_keys.push(keys);
    /// let proof = store.view().unwrap().storage_proof(&req).unwrap();
    /// assert_eq!(proof.verify(&req, &root, rule).unwrap().storage[0][0], Felt::from(100u64));
    /// assert_eq!(proof.verify(&req, &Felt::ONE, rule), Err(ProofError::RootMismatch));
    /// ```
    ///
    /// # Errors
    /// [`ProofError::RootMismatch`] if the global roots do not give `state_root`;
    /// [`ProofError::LeafMismatch`] if a contract's leaf data is not its proven leaf;
    /// [`ProofError::UnprovenContract`] if storage keys are asked of a contract that is not
    /// among the proven addresses; [`ProofError::Shape`] if the lists do not match the request;
    /// otherwise as [`verify`].
    pub fn verify(
        &self,
        req: &ProofRequest,
        state_root: &Felt,
        rule: StateRootRule,
    ) -> Result<ProvenValues, ProofError> {
        let g = self.global_roots;
        if global_state_root(&g.contracts_tree_root, &g.classes_tree_root, rule) != *state_root {
            return Err(ProofError::RootMismatch);
        }
        if self.contract_leaves_data.len() != req.contract_addresses.len()
            || self.contracts_storage_proofs.len() != req.contracts_storage_keys.len()
        {
            return Err(ProofError::Shape);
        }
        let mut out = ProvenValues::default();
        for c in &req.class_hashes {
            out.class_leaves.push(verify::<Poseidon>(
                g.classes_tree_root,
                c,
                &self.classes_proof,
            )?);
        }
        for (a, d) in req
            .contract_addresses
            .iter()
            .zip(&self.contract_leaves_data)
        {
            let leaf = verify::<Pedersen>(g.contracts_tree_root, a, &self.contracts_proof)?;
            let expect = if leaf.is_zero() {
                ContractLeafData::default()
            } else {
                *d
            };
            if *d != expect
                || (!leaf.is_zero()
                    && contract_state_hash(&d.class_hash, &d.storage_root, &d.nonce) != leaf)
            {
                return Err(ProofError::LeafMismatch(*a));
            }
            out.contracts.push(*d);
        }
        for (c, nodes) in req
            .contracts_storage_keys
            .iter()
            .zip(&self.contracts_storage_proofs)
        {
            let i = req
                .contract_addresses
                .iter()
                .position(|a| *a == c.contract_address)
                .ok_or(ProofError::UnprovenContract(c.contract_address))?;
            let root = out.contracts[i].storage_root;
            let values = c
                .storage_keys
                .iter()
                .map(|k| verify::<Pedersen>(root, k, nodes))
                .collect::<Result<Vec<_>, _>>()?;
            out.storage.push(values);
        }
        Ok(out)
    }

    /// The proof as the JSON-RPC `starknet_getStorageProof` result: node lists of
    /// `{"node_hash", "node"}` with binary nodes `{"left", "right"}` and edges
    /// `{"path", "length", "child"}`, felts as `0x` hex (no block hash: the store does not know
    /// it).
    ///
    /// ```
    /// use starkbatch::store::{parse_state_update, ContractStorageKeys, ProofRequest, Store};
    /// use starkbatch::{state::StateRootRule, Felt};
    /// let store = Store::in_memory();
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {
    ///     "storage_diffs": {"0x10": [{"key": "0x5", "value": "0x64"}]}}})).unwrap();
    /// store.commit(0, &u.state_diff, StateRootRule::From0_14_0).unwrap();
    /// let (c, k) = (Felt::from(0x10u64), Felt::from(5u64));
    /// let keys = ContractStorageKeys { contract_address: c, storage_keys: vec![k] };
    /// let req = ProofRequest { contracts_storage_keys: vec![keys], ..Default::default() };
    /// let json = store.view().unwrap().storage_proof(&req).unwrap().to_json();
    /// let node = &json["contracts_storage_proofs"][0][0]["node"]; // one edge: 5 → 0x64
    /// assert_eq!(node, &serde_json::json!({"path": "0x5", "length": 251, "child": "0x64"}));
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        fn hex(f: &Felt) -> String {
            format!("{f:#x}")
        }
        fn nodes(list: &[ProofNode]) -> serde_json::Value {
            list.iter()
                .map(|n| {
                    let node = match n.node {
                        ProofNodeKind::Binary { left, right } => {
                            json!({"left": hex(&left), "right": hex(&right)})
                        }
                        ProofNodeKind::Edge {
                            child,
                            path,
                            length,
                        } => json!({"path": hex(&path), "length": length, "child": hex(&child)}),
                    };
                    json!({"node_hash": hex(&n.hash), "node": node})
                })
                .collect()
        }
        json!({
            "classes_proof": nodes(&self.classes_proof),
            "contracts_proof": {
                "nodes": nodes(&self.contracts_proof),
                "contract_leaves_data": self.contract_leaves_data.iter().map(|d| json!({
                    "nonce": hex(&d.nonce),
                    "class_hash": hex(&d.class_hash),
                    "storage_root": hex(&d.storage_root),
                })).collect::<Vec<_>>(),
            },
            "contracts_storage_proofs": self.contracts_storage_proofs.iter()
                .map(|l| nodes(l)).collect::<Vec<_>>(),
            "global_roots": {
                "contracts_tree_root": hex(&self.global_roots.contracts_tree_root),
                "classes_tree_root": hex(&self.global_roots.classes_tree_root),
            },
        })
    }
}
