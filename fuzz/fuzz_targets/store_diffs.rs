//! Random block sequences on the in-memory store against the from-scratch
//! `state::state_commitment` of a model kept beside it: after every block all three roots must
//! agree; reverts to a random earlier block must give the roots recorded when it committed; a
//! diff the store rejects (a key or address of 2^251 or more, a compiled class hash of 0)
//! must change nothing. Keys come from a small pool with shared prefixes, so inserts, edge
//! splits, deletions that merge edges and deletions that empty a trie all occur.
#![no_main]

use libfuzzer_sys::fuzz_target;
use starkbatch::state::{state_commitment, ContractState, DeclaredClass, StateRootRule};
use starkbatch::store::{
    ContractClass, NonceUpdate, StateDiff, StorageDiff, StorageEntry, Store, StoreError,
};
use starkbatch::Felt;
use starkbatch_fuzz::Bytes;
use std::collections::BTreeMap;

/// Keys sharing long prefixes (differing in low bits, one high bit, or not at all in the top
/// 200 bits), the extremes 0 and 2^251 - 1, and one out-of-range key.
fn key(i: u8) -> Felt {
    let top = Felt::TWO.pow(251) - Felt::ONE;
    match i % 16 {
        0 => Felt::ZERO,
        1 => top,
        2 => Felt::TWO.pow(251), // out of range
        3..=8 => Felt::from(0x1234_5600u64 + u64::from(i % 16)),
        9..=12 => Felt::TWO.pow(200) + Felt::from(u64::from(i % 16)),
        _ => Felt::TWO.pow(250) + Felt::from(u64::from(i % 16) << 40),
    }
}

const CONTRACTS: u8 = 4;

#[derive(Clone, Default)]
struct Model {
    contracts: BTreeMap<u8, (Felt, Felt, BTreeMap<[u8; 32], (Felt, Felt)>)>,
    classes: BTreeMap<[u8; 32], (Felt, Felt)>,
}

impl Model {
    fn full(&self) -> (Vec<ContractState>, Vec<DeclaredClass>) {
        let contracts = self
            .contracts
            .iter()
            .filter(|(_, (cl, n, s))| !cl.is_zero() || !n.is_zero() || !s.is_empty())
            .map(|(c, (cl, n, s))| ContractState {
                address: key(*c + 3),
                class_hash: *cl,
                nonce: *n,
                storage: s.values().copied().collect(),
            })
            .collect();
        let classes = self
            .classes
            .values()
            .map(|(c, cc)| DeclaredClass {
                class_hash: *c,
                compiled_class_hash: *cc,
            })
            .collect();
        (contracts, classes)
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let rule = if b.u8() & 1 == 0 {
        StateRootRule::From0_14_0
    } else {
        StateRootRule::Before0_14_0
    };
    let store = Store::in_memory();
    let mut model = Model::default();
    let mut history: Vec<(starkbatch::store::Roots, Model)> = Vec::new();
    for _ in 0..8 {
        if b.is_empty() {
            break;
        }
        let op = b.u8();
        if op % 8 == 7 && !history.is_empty() {
            // A revert to an earlier block.
            let to = u64::from(b.u8()) % history.len() as u64;
            let info = store.revert_to(to).expect("within the history");
            assert_eq!(info.roots, history[to as usize].0, "revert to {to}");
            history.truncate(to as usize + 1);
            model = history[to as usize].1.clone();
            continue;
        }
        let next = history.len() as u64;
        let mut d = StateDiff::default();
        let mut classes = model.classes.clone();
        let mut valid = true;
        for _ in 0..(b.u8() % 12) {
            let c = b.u8() % CONTRACTS;
            let address = key(c + 3);
            match b.u8() % 6 {
                0 | 1 | 2 => {
                    let k = key(b.u8());
                    let value = match b.u8() % 3 {
                        0 => Felt::ZERO,
                        1 => Felt::from(u64::from(b.u8()) + 1),
                        _ => b.felt(),
                    };
                    valid &= k != Felt::TWO.pow(251);
                    d.storage_diffs.push(StorageDiff {
                        address,
                        storage_entries: vec![StorageEntry { key: k, value }],
                    });
                }
                3 => {
                    let class_hash = Felt::from(u64::from(b.u8()));
                    d.deployed_contracts.push(ContractClass {
                        address,
                        class_hash,
                    });
                }
                4 => {
                    let nonce = Felt::from(u64::from(b.u8()));
                    d.nonces.push(NonceUpdate {
                        contract_address: address,
                        nonce,
                    });
                }
                _ => {
                    let class_hash = key(b.u8());
                    let compiled = Felt::from(u64::from(b.u8()));
                    valid &= class_hash != Felt::TWO.pow(251) && !compiled.is_zero();
                    d.declared_classes.push(DeclaredClass {
                        class_hash,
                        compiled_class_hash: compiled,
                    });
                    classes.insert(class_hash.to_bytes_be(), (class_hash, compiled));
                }
            }
        }
        // The diff's semantics: deployments, then nonces, then storage writes in order.
        let mut m2 = model.clone();
        for x in &d.deployed_contracts {
            let c = (0..CONTRACTS).find(|c| key(c + 3) == x.address).unwrap();
            m2.contracts.entry(c).or_default().0 = x.class_hash;
        }
        for x in &d.nonces {
            let c = (0..CONTRACTS)
                .find(|c| key(c + 3) == x.contract_address)
                .unwrap();
            m2.contracts.entry(c).or_default().1 = x.nonce;
        }
        for s in &d.storage_diffs {
            let c = (0..CONTRACTS).find(|c| key(c + 3) == s.address).unwrap();
            let st = &mut m2.contracts.entry(c).or_default().2;
            for e in &s.storage_entries {
                if e.value.is_zero() {
                    st.remove(&e.key.to_bytes_be());
                } else {
                    st.insert(e.key.to_bytes_be(), (e.key, e.value));
                }
            }
        }
        m2.classes = classes;
        match store.commit(next, &d, rule) {
            Ok(r) => {
                assert!(valid, "an invalid diff was accepted");
                model = m2;
                let (contracts, classes) = model.full();
                let want = state_commitment(&contracts, &classes, rule).expect("valid keys");
                assert_eq!(r.roots.state_root, want.state_root, "block {next}");
                assert_eq!(r.roots.contract_root, want.contract_root, "block {next}");
                assert_eq!(r.roots.class_root, want.class_root, "block {next}");
                history.push((r.roots, model.clone()));
            }
            Err(StoreError::InvalidDiff { .. }) => {
                assert!(!valid, "a valid diff was rejected");
                let latest = store.latest().unwrap().map(|l| l.roots);
                assert_eq!(latest, history.last().map(|h| h.0), "a rejected diff wrote");
            }
            Err(e) => panic!("commit: {e}"),
        }
    }
});
