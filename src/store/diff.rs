//! [`StateDiff`]: what one block changes, in the shape of the JSON-RPC `STATE_DIFF`; and its
//! normalisation into the sorted, checked writes a commit applies.

use super::codec::ContractRecord;
use super::error::StoreError;
use super::update::Change;
use crate::Felt;
use crate::state::bits::{self, U256};
use crate::state::{ContractState, DeclaredClass};
use std::collections::BTreeMap;

/// One storage write: `key` (below 2^251) gets `value`; a value of 0 deletes the key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StorageEntry {
    /// The storage key.
    pub key: Felt,
    /// The new value (0: delete).
    pub value: Felt,
}

/// The storage writes of one contract.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StorageDiff {
    /// The contract address (below 2^251).
    pub address: Felt,
    /// The writes, applied in order (the last write to a key wins).
    pub storage_entries: Vec<StorageEntry>,
}

/// A contract and a class hash: a deployment or a class replacement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContractClass {
    /// The contract address (below 2^251).
    pub address: Felt,
    /// The class hash the contract now has.
    pub class_hash: Felt,
}

/// A contract's new nonce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NonceUpdate {
    /// The contract address (below 2^251).
    pub contract_address: Felt,
    /// The new nonce.
    pub nonce: Felt,
}

/// Everything one block changes in the state, as the JSON-RPC `STATE_DIFF` lists it.
///
/// Applied in this order: deployments, class replacements, nonces, storage writes, then the
/// class trie's declarations and migrations. Within a list the last entry for a key wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateDiff {
    /// Storage writes per contract.
    pub storage_diffs: Vec<StorageDiff>,
    /// New contracts (nonce 0, empty storage unless written in the same block).
    pub deployed_contracts: Vec<ContractClass>,
    /// Contracts whose class changes.
    pub replaced_classes: Vec<ContractClass>,
    /// New nonces.
    pub nonces: Vec<NonceUpdate>,
    /// Declared Sierra classes: class hash → compiled class hash, a leaf of the class trie.
    pub declared_classes: Vec<DeclaredClass>,
    /// Classes whose compiled class hash changed (Starknet 0.14.1 and later: the v2 hash
    /// replaces the v1 hash); applied after `declared_classes`.
    pub migrated_compiled_classes: Vec<DeclaredClass>,
    /// Declared Cairo 0 classes: not in any trie (kept for completeness; ignored by a commit).
    pub deprecated_declared_classes: Vec<Felt>,
}

impl StateDiff {
    /// A whole state as the diff that creates it from the empty state: every contract
    /// deployed with its class, nonce and storage, every class declared.
    ///
    /// ```
    /// use starkbatch::state::{ContractState, DeclaredClass};
    /// use starkbatch::store::StateDiff;
    /// use starkbatch::Felt;
    /// let c = ContractState {
    ///     address: Felt::from(0x10u64),
    ///     class_hash: Felt::from(7u64),
    ///     nonce: Felt::ONE,
    ///     storage: vec![(Felt::from(5u64), Felt::from(100u64))],
    /// };
    /// let d = StateDiff::from_state(&[c], &[]);
    /// assert_eq!(d.deployed_contracts.len(), 1);
    /// assert_eq!(d.nonces.len(), 1);
    /// assert_eq!(d.storage_writes(), 1);
    /// ```
    pub fn from_state(contracts: &[ContractState], classes: &[DeclaredClass]) -> StateDiff {
        StateDiff {
            deployed_contracts: contracts
                .iter()
                .map(|c| ContractClass {
                    address: c.address,
                    class_hash: c.class_hash,
                })
                .collect(),
            nonces: contracts
                .iter()
                .filter(|c| !c.nonce.is_zero())
                .map(|c| NonceUpdate {
                    contract_address: c.address,
                    nonce: c.nonce,
                })
                .collect(),
            storage_diffs: contracts
                .iter()
                .filter(|c| !c.storage.is_empty())
                .map(|c| StorageDiff {
                    address: c.address,
                    storage_entries: c
                        .storage
                        .iter()
                        .map(|&(key, value)| StorageEntry { key, value })
                        .collect(),
                })
                .collect(),
            declared_classes: classes.to_vec(),
            ..Default::default()
        }
    }

    /// Checks the diff as [`Store::commit`](super::Store::commit) does, without a store:
    /// every key, address and class hash below 2^251, no compiled class hash of 0.
    ///
    /// ```
    /// use starkbatch::store::{StateDiff, StorageDiff, StorageEntry};
    /// use starkbatch::Felt;
    /// let mut d = StateDiff::default();
    /// assert!(d.check().is_ok());
    /// d.storage_diffs.push(StorageDiff {
    ///     address: Felt::ONE,
    ///     storage_entries: vec![StorageEntry { key: Felt::MAX, value: Felt::ONE }],
    /// });
    /// let e = d.check().unwrap_err();
    /// assert!(e.to_string().starts_with("storage_diffs[0].storage_entries[0].key"), "{e}");
    /// ```
    ///
    /// # Errors
    /// [`StoreError::InvalidDiff`] naming the first bad item.
    pub fn check(&self) -> Result<(), StoreError> {
        Changes::from_diff(self).map(|_| ())
    }

    /// The number of storage writes.
    ///
    /// ```
    /// use starkbatch::store::parse_state_update;
    /// let u = parse_state_update(&serde_json::json!({"state_diff": {"storage_diffs": {
    ///     "0x10": [{"key": "0x1", "value": "0x2"}, {"key": "0x1", "value": "0x3"}],
    ///     "0x11": [{"key": "0x1", "value": "0x0"}]}}})).unwrap();
    /// assert_eq!(u.state_diff.storage_writes(), 3); // overwrites and deletions included
    /// ```
    pub fn storage_writes(&self) -> usize {
        self.storage_diffs
            .iter()
            .map(|d| d.storage_entries.len())
            .sum()
    }
}

/// What happens to a contract's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ContractChange {
    /// A commit: the fields given change, the storage root follows the storage trie.
    Update {
        class_hash: Option<Felt>,
        nonce: Option<Felt>,
    },
    /// A revert: the record as it was (`None`: the contract did not exist).
    Restore(Option<ContractRecord>),
}

/// Storage writes being gathered: address → (address, key → write), both keyed by their
/// big-endian bytes (numeric order).
pub(crate) type StorageWrites = BTreeMap<[u8; 32], (Felt, BTreeMap<[u8; 32], Change>)>;

/// A diff checked and sorted for a commit.
#[derive(Clone, Debug, Default)]
pub(crate) struct Changes {
    /// Per contract (sorted by address): its writes, sorted by key, one per key.
    pub storage: Vec<(Felt, Vec<Change>)>,
    /// Contracts whose record changes other than through storage (sorted by address).
    pub contracts: BTreeMap<[u8; 32], (Felt, ContractChange)>,
    /// Class hash → compiled class hash (`None`: remove), sorted by class hash.
    pub classes: BTreeMap<[u8; 32], (Felt, Option<Felt>)>,
}

/// A felt that must be a trie key: below 2^251.
pub(crate) fn trie_key(f: &Felt, item: impl FnOnce() -> String) -> Result<U256, StoreError> {
    let raw = f.to_raw_limbs();
    if bits::bit_len(&raw) > 251 {
        return Err(StoreError::invalid(
            item(),
            format!("{f} is not below 2^251 (not a valid address or key)"),
        ));
    }
    Ok(raw)
}

impl Changes {
    /// Storage writes per address (any order; the last write to a key wins) into sorted,
    /// one-per-key lists.
    pub fn set_storage(&mut self, writes: StorageWrites) {
        self.storage = writes
            .into_values()
            .map(|(addr, m)| (addr, m.into_values().collect()))
            .collect();
    }

    /// Every address whose contract record may change, sorted.
    pub fn touched_contracts(&self) -> Vec<Felt> {
        let mut m: BTreeMap<[u8; 32], Felt> =
            self.contracts.iter().map(|(k, (a, _))| (*k, *a)).collect();
        for (a, _) in &self.storage {
            m.insert(a.to_bytes_be(), *a);
        }
        m.into_values().collect()
    }

    /// The checked, sorted writes of `diff`; errors name the item as in the JSON-RPC form.
    pub fn from_diff(diff: &StateDiff) -> Result<Changes, StoreError> {
        let mut c = Changes::default();
        let mut update = |addr: &Felt,
                          item: &dyn Fn() -> String,
                          f: &dyn Fn(&mut Option<Felt>, &mut Option<Felt>)|
         -> Result<(), StoreError> {
            trie_key(addr, item)?;
            let e = c.contracts.entry(addr.to_bytes_be()).or_insert((
                *addr,
                ContractChange::Update {
                    class_hash: None,
                    nonce: None,
                },
            ));
            if let ContractChange::Update { class_hash, nonce } = &mut e.1 {
                f(class_hash, nonce);
            }
            Ok(())
        };
        for (i, d) in diff.deployed_contracts.iter().enumerate() {
            update(
                &d.address,
                &|| format!("deployed_contracts[{i}].address"),
                &|class, _| *class = Some(d.class_hash),
            )?;
        }
        for (i, d) in diff.replaced_classes.iter().enumerate() {
            update(
                &d.address,
                &|| format!("replaced_classes[{i}].contract_address"),
                &|class, _| *class = Some(d.class_hash),
            )?;
        }
        for (i, n) in diff.nonces.iter().enumerate() {
            update(
                &n.contract_address,
                &|| format!("nonces[{i}].contract_address"),
                &|_, nonce| *nonce = Some(n.nonce),
            )?;
        }
        let mut writes = StorageWrites::new();
        for (i, d) in diff.storage_diffs.iter().enumerate() {
            trie_key(&d.address, || format!("storage_diffs[{i}].address"))?;
            let per = &mut writes
                .entry(d.address.to_bytes_be())
                .or_insert_with(|| (d.address, BTreeMap::new()))
                .1;
            for (j, e) in d.storage_entries.iter().enumerate() {
                let key = trie_key(&e.key, || {
                    format!("storage_diffs[{i}].storage_entries[{j}].key")
                })?;
                per.insert(e.key.to_bytes_be(), Change::new(key, e.value));
            }
        }
        c.set_storage(writes);
        for (list, name) in [
            (&diff.declared_classes, "declared_classes"),
            (&diff.migrated_compiled_classes, "migrated_compiled_classes"),
        ] {
            for (i, d) in list.iter().enumerate() {
                trie_key(&d.class_hash, || format!("{name}[{i}].class_hash"))?;
                if d.compiled_class_hash.is_zero() {
                    return Err(StoreError::invalid(
                        format!("{name}[{i}].compiled_class_hash"),
                        "a compiled class hash of 0 names no class",
                    ));
                }
                c.classes.insert(
                    d.class_hash.to_bytes_be(),
                    (d.class_hash, Some(d.compiled_class_hash)),
                );
            }
        }
        Ok(c)
    }
}
