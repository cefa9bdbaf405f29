//! A deterministic, mainnet-shaped state and its blocks, for benchmarks (`benches/store.rs`,
//! `starkbatch bench`) and for sizing a deployment.
//!
//! A [`Workload`] describes a pre-state of one contract with `fee_token_keys` storage keys (a
//! fee token), `contracts` contracts with `keys_per_contract` keys each and `classes` declared
//! classes; [`Workload::block`] gives block `i`'s diff: `writes` storage writes (a third new
//! keys, a tenth deletions, the rest overwrites) over `contracts_per_block` contracts, the fee
//! token taking a third of them, with a few deployments, class replacements, nonces and
//! declarations. Everything is a function of the parameters and the block index.

use super::diff::{ContractClass, NonceUpdate, StateDiff, StorageDiff, StorageEntry};
use crate::Felt;
use crate::state::{ContractState, DeclaredClass};

/// The shape of a benchmark state and its blocks (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workload {
    /// Storage keys of the fee token in the pre-state.
    pub fee_token_keys: u64,
    /// Other contracts in the pre-state.
    pub contracts: u64,
    /// Storage keys of each of them.
    pub keys_per_contract: u64,
    /// Declared classes in the pre-state.
    pub classes: u64,
    /// Storage writes per block.
    pub writes: u64,
    /// Contracts written per block (the fee token included).
    pub contracts_per_block: u64,
}

impl Workload {
    /// The mainnet-shaped workload of the store benchmarks: a fee token with 10^6 keys, 1,000
    /// contracts with 1,000 keys, 1,000 classes; blocks of 2,000 writes over 300 contracts.
    pub const MAINNET: Workload = Workload {
        fee_token_keys: 1_000_000,
        contracts: 1_000,
        keys_per_contract: 1_000,
        classes: 1_000,
        writes: 2_000,
        contracts_per_block: 300,
    };

    /// A small workload of the same shape (for quick runs and tests).
    pub const SMALL: Workload = Workload {
        fee_token_keys: 20_000,
        contracts: 200,
        keys_per_contract: 100,
        classes: 100,
        writes: 500,
        contracts_per_block: 60,
    };

    /// The fee token's address.
    ///
    /// ```
    /// use starkbatch::store::workload::Workload;
    /// let w = Workload::SMALL;
    /// assert_eq!(w.fee_token(), Workload::MAINNET.fee_token()); // the same in every workload
    /// assert_eq!(w.pre_state().0[0].address, w.fee_token());
    /// let block = w.block(0);
    /// assert_eq!(block.storage_diffs[0].address, w.fee_token());
    /// assert_eq!(block.storage_diffs[0].storage_entries.len() as u64, w.writes / 3);
    /// ```
    pub fn fee_token(&self) -> Felt {
        felt251(0xfee, 0)
    }

    /// Contract `i`'s address (`i < contracts`, or above for contracts deployed by blocks).
    ///
    /// ```
    /// use starkbatch::store::workload::Workload;
    /// let w = Workload::SMALL;
    /// let (contracts, _) = w.pre_state();
    /// assert_eq!(contracts.len() as u64, 1 + w.contracts); // the fee token first
    /// assert_eq!(contracts[1 + 7].address, w.contract(7));
    /// assert_ne!(w.contract(7), w.contract(8));
    /// ```
    pub fn contract(&self, i: u64) -> Felt {
        felt251(0xc0, i)
    }

    fn class(&self, i: u64) -> Felt {
        felt251(0xc1a55, i)
    }

    fn key(contract: u64, i: u64) -> Felt {
        felt251(contract.wrapping_mul(0x9e37_79b9) ^ 0x5, i)
    }

    /// The pre-state, in [`state_commitment`](crate::state::state_commitment)'s form.
    ///
    /// ```
    /// use starkbatch::store::workload::Workload;
    /// let w = Workload::SMALL;
    /// let (contracts, classes) = w.pre_state();
    /// assert_eq!(contracts[0].storage.len() as u64, w.fee_token_keys);
    /// assert_eq!(contracts[1].storage.len() as u64, w.keys_per_contract);
    /// assert_eq!(classes.len() as u64, w.classes);
    /// assert_eq!(w.pre_state(), (contracts, classes)); // deterministic
    /// ```
    pub fn pre_state(&self) -> (Vec<ContractState>, Vec<DeclaredClass>) {
        let mut contracts = Vec::with_capacity(self.contracts as usize + 1);
        let value = |c: u64, i: u64| Felt::from(mix(c ^ mix(i)) | 1);
        contracts.push(ContractState {
            address: self.fee_token(),
            class_hash: self.class(0),
            nonce: Felt::ZERO,
            storage: (0..self.fee_token_keys)
                .map(|i| (Self::key(u64::MAX, i), value(u64::MAX, i)))
                .collect(),
        });
        for c in 0..self.contracts {
            contracts.push(ContractState {
                address: self.contract(c),
                class_hash: self.class(c % self.classes.max(1)),
                nonce: Felt::from(c % 7),
                storage: (0..self.keys_per_contract)
                    .map(|i| (Self::key(c, i), value(c, i)))
                    .collect(),
            });
        }
        let classes = (0..self.classes)
            .map(|i| DeclaredClass {
                class_hash: self.class(i),
                compiled_class_hash: felt251(0xcc, i),
            })
            .collect();
        (contracts, classes)
    }

    /// Block `i`'s diff (`i = 0, 1, ...` after the pre-state). Blocks are meant to be applied in
    /// order; a block's new keys are indices no earlier block used.
    ///
    /// ```
    /// use starkbatch::store::workload::Workload;
    /// let w = Workload::SMALL;
    /// let b = w.block(0);
    /// assert_eq!(b.storage_writes() as u64, w.writes);
    /// assert!(b.check().is_ok()); // valid input for a commit
    /// assert_eq!(w.block(0), b); // deterministic
    /// assert_ne!(w.block(1), b);
    /// ```
    pub fn block(&self, i: u64) -> StateDiff {
        let mut r = mix(i ^ 0xb10c);
        let mut next = || {
            r = mix(r);
            r
        };
        let mut d = StateDiff::default();
        let fee_writes = self.writes / 3;
        let others = self.contracts_per_block.saturating_sub(1).max(1);
        let mut per: Vec<(Felt, u64, u64, Vec<StorageEntry>)> = Vec::new();
        per.push((self.fee_token(), u64::MAX, self.fee_token_keys, Vec::new()));
        for _ in 0..others.min(self.contracts) {
            let c = next() % self.contracts.max(1);
            per.push((self.contract(c), c, self.keys_per_contract, Vec::new()));
        }
        for w in 0..self.writes {
            let slot = if w < fee_writes || per.len() == 1 {
                0
            } else {
                1 + ((w - fee_writes) as usize % (per.len() - 1))
            };
            let (_, c, n, entries) = &mut per[slot];
            let kind = next() % 30;
            let (key, value) = if kind < 10 {
                // A new key: beyond the pre-state's, unique per block and write.
                (Self::key(*c, *n + (i << 20) + w), Felt::from(next() | 1))
            } else if kind < 13 {
                (Self::key(*c, next() % (*n).max(1)), Felt::ZERO)
            } else {
                (Self::key(*c, next() % (*n).max(1)), Felt::from(next() | 1))
            };
            entries.push(StorageEntry { key, value });
        }
        d.storage_diffs = per
            .into_iter()
            .filter(|p| !p.3.is_empty())
            .map(|(address, _, _, storage_entries)| StorageDiff {
                address,
                storage_entries,
            })
            .collect();
        for k in 0..3 {
            d.deployed_contracts.push(ContractClass {
                address: self.contract(self.contracts + 1 + i * 3 + k),
                class_hash: self.class(next() % self.classes.max(1)),
            });
        }
        d.replaced_classes.push(ContractClass {
            address: self.contract(next() % self.contracts.max(1)),
            class_hash: self.class(next() % self.classes.max(1)),
        });
        for _ in 0..40 {
            d.nonces.push(NonceUpdate {
                contract_address: self.contract(next() % self.contracts.max(1)),
                nonce: Felt::from(i + 1),
            });
        }
        for k in 0..2 {
            d.declared_classes.push(DeclaredClass {
                class_hash: self.class(self.classes + i * 2 + k),
                compiled_class_hash: felt251(0xcd, i * 2 + k),
            });
        }
        d
    }

    /// The pre-state as one diff (for [`Store::commit`](super::Store::commit) or
    /// [`Store::import`](super::Store::import) on an empty store).
    ///
    /// ```
    /// use starkbatch::state::{state_commitment, StateRootRule};
    /// use starkbatch::store::{workload::Workload, Store};
    /// let w = Workload {
    ///     fee_token_keys: 20, contracts: 5, keys_per_contract: 8, ..Workload::SMALL
    /// };
    /// let (contracts, classes) = w.pre_state();
    /// let rule = StateRootRule::From0_14_0;
    /// let r = Store::in_memory().commit(0, &w.pre_state_diff(), rule).unwrap();
    /// let full = state_commitment(&contracts, &classes, rule).unwrap();
    /// assert_eq!(r.roots.state_root, full.state_root);
    /// ```
    pub fn pre_state_diff(&self) -> StateDiff {
        let (contracts, classes) = self.pre_state();
        StateDiff::from_state(&contracts, &classes)
    }
}

/// splitmix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A pseudo-random 251-bit felt from a domain and an index.
fn felt251(domain: u64, i: u64) -> Felt {
    let a = mix(domain ^ mix(i));
    let limbs = [a, mix(a), mix(a ^ 1), mix(a ^ 2) >> 5];
    Felt::from_raw_limbs(limbs).unwrap_or_else(|| unreachable!("251 bits are below p"))
}
