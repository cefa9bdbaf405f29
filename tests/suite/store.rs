//! The persistent store against the from-scratch state commitment.
//!
//! Random blocks (storage inserts, overwrites and deletions, tries emptied, deployments, class
//! replacements, nonces, declarations and re-declarations) are committed one by one; after every
//! block the roots must equal `state_commitment` of the accumulated state, and the store's
//! tables (nodes, storage, contracts, classes) must equal, byte for byte, those of a fresh store
//! that committed the whole accumulated state as one block (the trie layout is canonical).
//! Reverts are compared with the tables recorded when the target block was committed.

use proptest::prelude::*;
use starkbatch::Felt;
use starkbatch::state::{
    ContractState, DeclaredClass, StateRootRule, class_leaf_hash, state_commitment,
};
use starkbatch::store::{
    Column, ContractClass, ContractLeafData, ContractStorageKeys, MemoryStore, NodeStore,
    NonceUpdate, ProofError, ProofNodeKind, ProofRequest, RedbStore, StateDiff, StorageDiff,
    StorageEntry, Store, StoreError, StoreOptions, StoreReader, View,
};
use std::collections::BTreeMap;

// ---- pools of keys and addresses with the shapes that exercise edges ----

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A 251-bit integer from four words.
fn key_of(w: [u64; 4]) -> Felt {
    let mut b = [0u8; 32];
    for (i, x) in w.iter().rev().enumerate() {
        b[8 * i..8 * i + 8].copy_from_slice(&x.to_be_bytes());
    }
    b[0] &= 0x07; // below 2^251
    Felt::from_bytes_be(&b).unwrap()
}

/// `n` distinct keys below 2^251: the extremes, a random base and keys near it (adjacent,
/// sharing long prefixes, differing in one high bit), and uniform keys.
fn pool(seed: u64, n: usize) -> Vec<Felt> {
    let mut r = Rng(seed | 1);
    let base = [r.next(), r.next(), r.next(), r.next()];
    let mut out: Vec<Felt> = vec![key_of([0; 4]), key_of([u64::MAX; 4])];
    while out.len() < n {
        let k = match r.below(5) {
            0 => key_of([base[0] ^ r.below(8), base[1], base[2], base[3]]),
            1 => {
                // Same top bits as the base, random low `w` bits.
                let w = r.below(251) as u32;
                let mut k = base;
                for (i, limb) in k.iter_mut().enumerate() {
                    let lo = 64 * i as u32;
                    if w >= lo + 64 {
                        *limb = r.next();
                    } else if w > lo {
                        let m = (1u64 << (w - lo)) - 1;
                        *limb = (*limb & !m) | (r.next() & m);
                    }
                }
                key_of(k)
            }
            2 => key_of([base[0], base[1], base[2], base[3] ^ (1 << r.below(59))]),
            _ => key_of([r.next(), r.next(), r.next(), r.next()]),
        };
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

const CONTRACTS: usize = 10;
const KEYS: usize = 48;
const CLASSES: usize = 8;

struct Pools {
    addresses: Vec<Felt>,
    keys: Vec<Vec<Felt>>,
    classes: Vec<Felt>,
}

impl Pools {
    fn new() -> Self {
        Pools {
            addresses: pool(11, CONTRACTS),
            keys: (0..CONTRACTS).map(|c| pool(100 + c as u64, KEYS)).collect(),
            classes: pool(7, CLASSES),
        }
    }
}

/// One change of a block, by pool indices (so proptest shrinks them).
#[derive(Clone, Copy, Debug)]
enum Op {
    /// Storage write (value 0: delete).
    Write {
        c: u8,
        k: u8,
        v: u8,
    },
    /// Delete every key a contract holds.
    Clear {
        c: u8,
    },
    Deploy {
        c: u8,
        class: u8,
    },
    Replace {
        c: u8,
        class: u8,
    },
    Nonce {
        c: u8,
        n: u8,
    },
    Declare {
        class: u8,
        cch: u8,
    },
    Migrate {
        class: u8,
        cch: u8,
    },
}

fn felt(v: u64) -> Felt {
    Felt::from(v)
}

/// The accumulated state.
#[derive(Clone, Debug, Default)]
struct Model {
    /// address index → (class, nonce, key index → value)
    contracts: BTreeMap<usize, (u64, u64, BTreeMap<usize, u64>)>,
    classes: BTreeMap<usize, u64>,
}

impl Model {
    fn diff(&mut self, pools: &Pools, ops: &[Op]) -> StateDiff {
        let mut d = StateDiff::default();
        let mut writes: BTreeMap<usize, Vec<StorageEntry>> = BTreeMap::new();
        for op in ops {
            match *op {
                Op::Write { c, k, v } => {
                    let (c, k) = (c as usize % CONTRACTS, k as usize % KEYS);
                    writes.entry(c).or_default().push(StorageEntry {
                        key: pools.keys[c][k],
                        value: felt(v as u64),
                    });
                }
                Op::Clear { c } => {
                    let c = c as usize % CONTRACTS;
                    if let Some((_, _, s)) = self.contracts.get(&c) {
                        let e = writes.entry(c).or_default();
                        for k in s.keys() {
                            e.push(StorageEntry {
                                key: pools.keys[c][*k],
                                value: Felt::ZERO,
                            });
                        }
                    }
                }
                Op::Deploy { c, class } => d.deployed_contracts.push(ContractClass {
                    address: pools.addresses[c as usize % CONTRACTS],
                    class_hash: felt(1000 + class as u64),
                }),
                Op::Replace { c, class } => d.replaced_classes.push(ContractClass {
                    address: pools.addresses[c as usize % CONTRACTS],
                    class_hash: felt(2000 + class as u64),
                }),
                Op::Nonce { c, n } => d.nonces.push(NonceUpdate {
                    contract_address: pools.addresses[c as usize % CONTRACTS],
                    nonce: felt(n as u64),
                }),
                Op::Declare { class, cch } => d.declared_classes.push(DeclaredClass {
                    class_hash: pools.classes[class as usize % CLASSES],
                    compiled_class_hash: felt(1 + cch as u64),
                }),
                Op::Migrate { class, cch } => d.migrated_compiled_classes.push(DeclaredClass {
                    class_hash: pools.classes[class as usize % CLASSES],
                    compiled_class_hash: felt(500 + cch as u64),
                }),
            }
        }
        d.storage_diffs = writes
            .into_iter()
            .map(|(c, storage_entries)| StorageDiff {
                address: pools.addresses[c],
                storage_entries,
            })
            .collect();
        self.apply(pools, &d);
        d
    }

    fn index(list: &[Felt], f: &Felt) -> usize {
        list.iter().position(|x| x == f).unwrap()
    }

    fn u(f: &Felt) -> u64 {
        let b = f.to_bytes_be();
        u64::from_be_bytes(b[24..].try_into().unwrap())
    }

    /// The diff's semantics, written independently of the store.
    fn apply(&mut self, pools: &Pools, d: &StateDiff) {
        for x in &d.deployed_contracts {
            let c = Self::index(&pools.addresses, &x.address);
            self.contracts.entry(c).or_default().0 = Self::u(&x.class_hash);
        }
        for x in &d.replaced_classes {
            let c = Self::index(&pools.addresses, &x.address);
            self.contracts.entry(c).or_default().0 = Self::u(&x.class_hash);
        }
        for x in &d.nonces {
            let c = Self::index(&pools.addresses, &x.contract_address);
            self.contracts.entry(c).or_default().1 = Self::u(&x.nonce);
        }
        for s in &d.storage_diffs {
            let c = Self::index(&pools.addresses, &s.address);
            let st = &mut self.contracts.entry(c).or_default().2;
            for e in &s.storage_entries {
                let k = Self::index(&pools.keys[c], &e.key);
                if e.value.is_zero() {
                    st.remove(&k);
                } else {
                    st.insert(k, Self::u(&e.value));
                }
            }
        }
        for x in d
            .declared_classes
            .iter()
            .chain(&d.migrated_compiled_classes)
        {
            let k = Self::index(&pools.classes, &x.class_hash);
            self.classes.insert(k, Self::u(&x.compiled_class_hash));
        }
    }

    /// The accumulated state in `state_commitment`'s form, without the contracts that have no
    /// leaf (class hash, nonce and storage all empty).
    fn full(&self, pools: &Pools) -> (Vec<ContractState>, Vec<DeclaredClass>) {
        let contracts = self
            .contracts
            .iter()
            .filter(|(_, (cl, n, s))| *cl != 0 || *n != 0 || !s.is_empty())
            .map(|(c, (cl, n, s))| ContractState {
                address: pools.addresses[*c],
                class_hash: felt(*cl),
                nonce: felt(*n),
                storage: s
                    .iter()
                    .map(|(k, v)| (pools.keys[*c][*k], felt(*v)))
                    .collect(),
            })
            .collect();
        let classes = self
            .classes
            .iter()
            .map(|(k, v)| DeclaredClass {
                class_hash: pools.classes[*k],
                compiled_class_hash: felt(*v),
            })
            .collect();
        (contracts, classes)
    }

    /// The whole state as one diff (every contract the model knows, even an empty one, so that
    /// a fresh store creates the same records).
    fn as_diff(&self, pools: &Pools) -> StateDiff {
        let mut d = StateDiff::default();
        for (c, (cl, n, s)) in &self.contracts {
            let address = pools.addresses[*c];
            if *cl != 0 {
                d.deployed_contracts.push(ContractClass {
                    address,
                    class_hash: felt(*cl),
                });
            }
            if *n != 0 {
                d.nonces.push(NonceUpdate {
                    contract_address: address,
                    nonce: felt(*n),
                });
            }
            d.storage_diffs.push(StorageDiff {
                address,
                storage_entries: s
                    .iter()
                    .map(|(k, v)| StorageEntry {
                        key: pools.keys[*c][*k],
                        value: felt(*v),
                    })
                    .collect(),
            });
        }
        d.declared_classes = self.full(pools).1;
        d
    }
}

type Tables = Vec<BTreeMap<Vec<u8>, Vec<u8>>>;

/// The state-bearing tables (not the history or the latest-block record).
fn tables<S: NodeStore>(s: &Store<S>) -> Tables {
    let view = s.view().unwrap();
    let r = view.reader();
    [Column::Nodes, Column::Contracts, Column::Classes]
        .into_iter()
        .map(|c| {
            let mut m = BTreeMap::new();
            r.scan(c, &[], &mut |k, v| {
                m.insert(k.to_vec(), v.to_vec());
                true
            })
            .unwrap();
            m
        })
        .collect()
}

/// Checks the store against the model: roots against `state_commitment`, tables against a
/// fresh store holding the same state, and a few reads.
fn check<S: NodeStore>(
    store: &Store<S>,
    model: &Model,
    pools: &Pools,
    rule: StateRootRule,
    ctx: &str,
) {
    let (contracts, classes) = model.full(pools);
    let want = state_commitment(&contracts, &classes, rule).unwrap();
    let info = store.latest().unwrap().unwrap();
    assert_eq!(info.roots.state_root, want.state_root, "{ctx}: state root");
    assert_eq!(
        info.roots.contract_root, want.contract_root,
        "{ctx}: contract root"
    );
    assert_eq!(info.roots.class_root, want.class_root, "{ctx}: class root");
    let fresh = Store::in_memory();
    fresh.commit(0, &model.as_diff(pools), rule).unwrap();
    assert_eq!(
        tables(store),
        tables(&fresh),
        "{ctx}: tables differ from a fresh build"
    );
    let view = store.view().unwrap();
    for (c, root) in contracts.iter().zip(&want.storage_roots) {
        assert_eq!(view.storage_root(&c.address).unwrap(), *root, "{ctx}");
        assert_eq!(view.nonce(&c.address).unwrap(), c.nonce, "{ctx}");
        assert_eq!(view.class_hash(&c.address).unwrap(), c.class_hash, "{ctx}");
        for (k, v) in c.storage.iter().take(3) {
            assert_eq!(view.storage(&c.address, k).unwrap(), *v, "{ctx}");
        }
    }
    for cl in &classes {
        assert_eq!(
            view.compiled_class_hash(&cl.class_hash).unwrap(),
            cl.compiled_class_hash,
            "{ctx}"
        );
    }
    check_proof(
        &view,
        &contracts,
        &want.storage_roots,
        &classes,
        pools,
        rule,
        ctx,
    );
}

/// A storage proof of every pool class and address (present or not) and of a third of each
/// pool contract's keys verifies against the state root and proves the model's values.
fn check_proof<R: StoreReader>(
    view: &View<R>,
    contracts: &[ContractState],
    storage_roots: &[Felt],
    classes: &[DeclaredClass],
    pools: &Pools,
    rule: StateRootRule,
    ctx: &str,
) {
    let Some(info) = view.block() else { return };
    let req = ProofRequest {
        class_hashes: pools.classes.clone(),
        contract_addresses: pools.addresses.clone(),
        contracts_storage_keys: pools
            .addresses
            .iter()
            .zip(&pools.keys)
            .enumerate()
            .map(|(c, (a, keys))| ContractStorageKeys {
                contract_address: *a,
                storage_keys: keys.iter().skip(c % 3).step_by(3).copied().collect(),
            })
            .collect(),
    };
    let proof = view.storage_proof(&req).unwrap();
    let proven = proof
        .verify(&req, &info.roots.state_root, rule)
        .unwrap_or_else(|e| panic!("{ctx}: proof does not verify: {e}"));
    for (c, leaf) in pools.classes.iter().zip(&proven.class_leaves) {
        let want = classes
            .iter()
            .find(|d| d.class_hash == *c)
            .map_or(Felt::ZERO, |d| class_leaf_hash(&d.compiled_class_hash));
        assert_eq!(*leaf, want, "{ctx}: class leaf of {c:#x}");
    }
    for (i, a) in pools.addresses.iter().enumerate() {
        let (data, storage) = match contracts.iter().position(|c| c.address == *a) {
            Some(j) => (
                ContractLeafData {
                    nonce: contracts[j].nonce,
                    class_hash: contracts[j].class_hash,
                    storage_root: storage_roots[j],
                },
                contracts[j].storage.as_slice(),
            ),
            None => (ContractLeafData::default(), &[][..]),
        };
        assert_eq!(proven.contracts[i], data, "{ctx}: contract {a:#x}");
        for (k, v) in req.contracts_storage_keys[i]
            .storage_keys
            .iter()
            .zip(&proven.storage[i])
        {
            let want = storage
                .iter()
                .find(|(sk, _)| sk == k)
                .map_or(Felt::ZERO, |e| e.1);
            assert_eq!(*v, want, "{ctx}: storage of {a:#x} at {k:#x}");
        }
    }
}

fn random_ops(r: &mut Rng) -> Vec<Op> {
    let n = 1 + r.below(24) as usize;
    let mut ops = Vec::with_capacity(n);
    // A block usually touches a few contracts.
    let hot: Vec<u8> = (0..1 + r.below(4))
        .map(|_| r.below(CONTRACTS as u64) as u8)
        .collect();
    for _ in 0..n {
        let c = hot[r.below(hot.len() as u64) as usize];
        let op = match r.below(100) {
            0..=59 => Op::Write {
                c,
                k: r.below(KEYS as u64) as u8,
                v: if r.below(4) == 0 {
                    0
                } else {
                    r.below(255) as u8 + 1
                },
            },
            60..=61 => Op::Clear { c },
            62..=69 => Op::Deploy {
                c,
                class: r.below(6) as u8,
            },
            70..=74 => Op::Replace {
                c,
                class: r.below(6) as u8,
            },
            75..=84 => Op::Nonce {
                c,
                n: r.below(20) as u8,
            },
            85..=94 => Op::Declare {
                class: r.below(CLASSES as u64) as u8,
                cch: r.below(9) as u8,
            },
            _ => Op::Migrate {
                class: r.below(CLASSES as u64) as u8,
                cch: r.below(9) as u8,
            },
        };
        ops.push(op);
    }
    ops
}

/// `blocks` random blocks with random reverts, checked after every block.
fn run_random<S: NodeStore>(store: Store<S>, seed: u64, blocks: usize) {
    let pools = Pools::new();
    let mut r = Rng(seed);
    let mut model = Model::default();
    let history = store.options().history as usize;
    // (block, model, tables) of the blocks still revertible.
    let mut past: Vec<(u64, Model, Tables)> = Vec::new();
    let mut block = 0u64;
    for i in 0..blocks {
        let rule = if (block / 7).is_multiple_of(2) {
            StateRootRule::From0_14_0
        } else {
            StateRootRule::Before0_14_0
        };
        let ops = random_ops(&mut r);
        let diff = model.diff(&pools, &ops);
        let res = store.commit(block, &diff, rule).unwrap();
        assert_eq!(res.block_number, block);
        check(
            &store,
            &model,
            &pools,
            rule,
            &format!("seed {seed} block {block} ops {ops:?}"),
        );
        past.push((block, model.clone(), tables(&store)));
        if past.len() > history + 1 {
            past.remove(0);
        }
        // Now and then, revert some blocks.
        if i % 9 == 8 && past.len() > 1 {
            let back = 1 + r.below(past.len() as u64 - 1) as usize;
            let (target, m, t) = past[past.len() - 1 - back].clone();
            let info = store.revert_to(target).unwrap();
            assert_eq!(info.block_number, target);
            assert_eq!(tables(&store), t, "seed {seed}: revert to {target}");
            model = m;
            past.truncate(past.len() - back);
            let rule = store.latest().unwrap().unwrap().rule;
            check(
                &store,
                &model,
                &pools,
                rule,
                &format!("seed {seed} after revert to {target}"),
            );
            block = target;
        }
        block += 1;
    }
}

#[test]
fn random_blocks_memory() {
    run_random(Store::in_memory(), 0x5eed, 700);
}

#[test]
fn random_blocks_redb() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap().with_options(StoreOptions {
        history: 6,
        ..Default::default()
    });
    run_random(store, 0xfeed, 350);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Shrinkable sequences of blocks (pool indices), on the in-memory store.
    #[test]
    fn block_sequences(blocks in prop::collection::vec(prop::collection::vec(op_strategy(), 1..12), 1..10)) {
        let pools = Pools::new();
        let store = Store::in_memory();
        let mut model = Model::default();
        for (b, ops) in blocks.iter().enumerate() {
            let diff = model.diff(&pools, ops);
            store.commit(b as u64, &diff, StateRootRule::From0_14_0).unwrap();
            check(&store, &model, &pools, StateRootRule::From0_14_0, &format!("block {b}"));
        }
    }
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let c = 0u8..4;
    prop_oneof![
        8 => (c.clone(), 0u8..KEYS as u8, 0u8..4).prop_map(|(c, k, v)| Op::Write { c, k, v }),
        1 => c.clone().prop_map(|c| Op::Clear { c }),
        1 => (c.clone(), 0u8..3).prop_map(|(c, class)| Op::Deploy { c, class }),
        1 => (c.clone(), 0u8..3).prop_map(|(c, class)| Op::Replace { c, class }),
        1 => (c, 0u8..3).prop_map(|(c, n)| Op::Nonce { c, n }),
        1 => (0u8..4, 0u8..3).prop_map(|(class, cch)| Op::Declare { class, cch }),
        1 => (0u8..4, 0u8..3).prop_map(|(class, cch)| Op::Migrate { class, cch }),
    ]
}

#[test]
fn block_numbers_and_revert_bounds() {
    let store = Store::with_store(MemoryStore::new()).with_options(StoreOptions {
        history: 3,
        ..Default::default()
    });
    let d = StateDiff::default();
    let rule = StateRootRule::From0_14_0;
    assert!(matches!(
        store.revert_to(0),
        Err(StoreError::RevertOutOfRange { latest: None, .. })
    ));
    store.commit(5, &d, rule).unwrap();
    assert!(matches!(
        store.commit(7, &d, rule),
        Err(StoreError::BlockNumber {
            expected: 6,
            got: 7
        })
    ));
    assert!(matches!(
        store.commit(5, &d, rule),
        Err(StoreError::BlockNumber { .. })
    ));
    for b in 6..=10 {
        store.commit(b, &d, rule).unwrap();
    }
    let info = store.latest().unwrap().unwrap();
    assert_eq!((info.block_number, info.oldest_revertible), (10, 7));
    assert!(matches!(
        store.revert_to(6),
        Err(StoreError::RevertOutOfRange {
            oldest: Some(7),
            ..
        })
    ));
    assert!(store.revert_to(11).is_err());
    assert_eq!(store.revert_to(7).unwrap().block_number, 7);
    // Pruned history is gone from the table: blocks 7..=7 remain.
    let view = store.view().unwrap();
    let r = view.reader();
    let mut n = 0;
    r.scan(Column::History, &[], &mut |_, _| {
        n += 1;
        true
    })
    .unwrap();
    assert_eq!(n, 1, "only block 7's roots remain");
}

#[test]
fn bad_diffs_change_nothing() {
    let pools = Pools::new();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::with_store(RedbStore::open(dir.path().join("s.redb")).unwrap());
    let mut model = Model::default();
    let diff = model.diff(
        &pools,
        &[
            Op::Write { c: 0, k: 1, v: 5 },
            Op::Deploy { c: 1, class: 0 },
        ],
    );
    store.commit(0, &diff, StateRootRule::From0_14_0).unwrap();
    let before = tables(&store);
    let latest = store.latest().unwrap();
    let too_big =
        Felt::from_hex("0x800000000000000000000000000000000000000000000000000000000000000")
            .unwrap();
    let cases: Vec<(StateDiff, &str)> = vec![
        (
            StateDiff {
                storage_diffs: vec![
                    StorageDiff {
                        address: pools.addresses[0],
                        storage_entries: vec![StorageEntry {
                            key: Felt::ONE,
                            value: Felt::ONE,
                        }],
                    },
                    StorageDiff {
                        address: pools.addresses[0],
                        storage_entries: vec![
                            StorageEntry {
                                key: Felt::TWO,
                                value: Felt::ONE,
                            },
                            StorageEntry {
                                key: too_big,
                                value: Felt::ONE,
                            },
                        ],
                    },
                ],
                ..Default::default()
            },
            "storage_diffs[1].storage_entries[1].key",
        ),
        (
            StateDiff {
                storage_diffs: vec![StorageDiff {
                    address: Felt::MAX,
                    storage_entries: vec![],
                }],
                ..Default::default()
            },
            "storage_diffs[0].address",
        ),
        (
            StateDiff {
                deployed_contracts: vec![ContractClass {
                    address: too_big,
                    class_hash: Felt::ONE,
                }],
                ..Default::default()
            },
            "deployed_contracts[0].address",
        ),
        (
            StateDiff {
                nonces: vec![
                    NonceUpdate {
                        contract_address: Felt::ONE,
                        nonce: Felt::ONE,
                    },
                    NonceUpdate {
                        contract_address: too_big,
                        nonce: Felt::ONE,
                    },
                ],
                ..Default::default()
            },
            "nonces[1].contract_address",
        ),
        (
            StateDiff {
                declared_classes: vec![DeclaredClass {
                    class_hash: too_big,
                    compiled_class_hash: Felt::ONE,
                }],
                ..Default::default()
            },
            "declared_classes[0].class_hash",
        ),
        (
            StateDiff {
                migrated_compiled_classes: vec![DeclaredClass {
                    class_hash: Felt::ONE,
                    compiled_class_hash: Felt::ZERO,
                }],
                ..Default::default()
            },
            "migrated_compiled_classes[0].compiled_class_hash",
        ),
    ];
    for (d, item) in cases {
        let e = store.commit(1, &d, StateRootRule::From0_14_0).unwrap_err();
        assert!(e.is_input_error());
        assert!(e.to_string().starts_with(item), "{e} should name {item}");
        assert_eq!(tables(&store), before);
        assert_eq!(store.latest().unwrap(), latest);
    }
}

/// A proof altered anywhere no longer verifies: each node's fields changed in turn, a wrong
/// state root, altered leaf data, storage keys of a contract whose leaf is not proven, a
/// request of another shape.
#[test]
fn altered_proofs_fail() {
    let pools = Pools::new();
    let mut r = Rng(0xa17e);
    let mut model = Model::default();
    let store = Store::in_memory();
    let rule = StateRootRule::From0_14_0;
    for b in 0..30 {
        let ops = random_ops(&mut r);
        let diff = model.diff(&pools, &ops);
        store.commit(b, &diff, rule).unwrap();
    }
    let view = store.view().unwrap();
    let root = view.block().unwrap().roots.state_root;
    let req = ProofRequest {
        class_hashes: pools.classes[..4].to_vec(),
        contract_addresses: pools.addresses[..4].to_vec(),
        contracts_storage_keys: (0..4)
            .map(|c| ContractStorageKeys {
                contract_address: pools.addresses[c],
                storage_keys: pools.keys[c][..16].to_vec(),
            })
            .collect(),
    };
    let proof = view.storage_proof(&req).unwrap();
    proof.verify(&req, &root, rule).unwrap();
    assert_eq!(
        proof.verify(&req, &(root + Felt::ONE), rule),
        Err(ProofError::RootMismatch)
    );
    let bump = |k: &mut ProofNodeKind| match k {
        ProofNodeKind::Binary { left, .. } => *left += Felt::ONE,
        ProofNodeKind::Edge { child, .. } => *child += Felt::ONE,
    };
    let mut altered = 0;
    for list in 0..2 + proof.contracts_storage_proofs.len() {
        let len = match list {
            0 => proof.classes_proof.len(),
            1 => proof.contracts_proof.len(),
            l => proof.contracts_storage_proofs[l - 2].len(),
        };
        for i in 0..len {
            let mut p = proof.clone();
            let node = match list {
                0 => &mut p.classes_proof[i],
                1 => &mut p.contracts_proof[i],
                l => &mut p.contracts_storage_proofs[l - 2][i],
            };
            bump(&mut node.node);
            assert!(p.verify(&req, &root, rule).is_err(), "list {list} node {i}");
            altered += 1;
        }
    }
    assert!(altered > 20, "{altered} nodes");
    let present = (0..4)
        .find(|&i| proof.contract_leaves_data[i] != ContractLeafData::default())
        .expect("a proven contract");
    let mut p = proof.clone();
    p.contract_leaves_data[present].nonce += Felt::ONE;
    assert_eq!(
        p.verify(&req, &root, rule),
        Err(ProofError::LeafMismatch(pools.addresses[present]))
    );
    let mut fewer = req.clone();
    fewer.contract_addresses.remove(0);
    assert_eq!(proof.verify(&fewer, &root, rule), Err(ProofError::Shape));
    let mut p = proof.clone();
    p.contract_leaves_data.remove(0);
    assert_eq!(
        p.verify(&fewer, &root, rule),
        Err(ProofError::UnprovenContract(pools.addresses[0]))
    );
    // A key of 2^251 or more names the request item.
    let mut bad = req.clone();
    bad.contracts_storage_keys[2].storage_keys[5] =
        Felt::from_hex("0x800000000000000000000000000000000000000000000000000000000000000")
            .unwrap();
    match view.storage_proof(&bad) {
        Err(StoreError::InvalidDiff { item, .. }) => {
            assert_eq!(item, "contracts_storage_keys[2].storage_keys[5]")
        }
        other => panic!("{other:?}"),
    }
}

/// Readers in other threads, during commits, see whole blocks: every read of one view (values,
/// nonce, storage root, roots, a storage proof) belongs to the same block, the one before or
/// after a commit in flight, never a mix.
#[test]
fn readers_see_whole_blocks() {
    const BLOCKS: u64 = 40;
    const KEYS: u64 = 24;
    let contract = felt(0xc0ffee);
    let keys: Vec<Felt> = (0..KEYS).map(|i| felt(1 + 7 * i)).collect();
    // Block b: key i holds b * 1000 + i + 1; the key `flip` exists only in odd blocks (its
    // insertion and deletion change the trie's shape); the nonce is b.
    let flip = felt(0x1_0000);
    let value = |b: u64, i: u64| felt(b * 1000 + i + 1);
    let diff = |b: u64| StateDiff {
        storage_diffs: vec![StorageDiff {
            address: contract,
            storage_entries: keys
                .iter()
                .enumerate()
                .map(|(i, k)| StorageEntry {
                    key: *k,
                    value: value(b, i as u64),
                })
                .chain([StorageEntry {
                    key: flip,
                    value: felt(b % 2),
                }])
                .collect(),
        }],
        deployed_contracts: if b == 0 {
            vec![ContractClass {
                address: contract,
                class_hash: felt(0xc1a55),
            }]
        } else {
            vec![]
        },
        nonces: vec![NonceUpdate {
            contract_address: contract,
            nonce: felt(b),
        }],
        ..StateDiff::default()
    };
    let rule = StateRootRule::From0_14_0;
    // The expected roots of every block, from scratch.
    let expected: Vec<(Felt, Felt)> = (0..BLOCKS)
        .map(|b| {
            let mut storage: Vec<(Felt, Felt)> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (*k, value(b, i as u64)))
                .collect();
            if b % 2 == 1 {
                storage.push((flip, felt(1)));
            }
            let c = ContractState {
                address: contract,
                class_hash: felt(0xc1a55),
                nonce: felt(b),
                storage,
            };
            let s = state_commitment(&[c], &[], rule).unwrap();
            (s.state_root, s.storage_roots[0])
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let done = std::sync::atomic::AtomicBool::new(false);
    let req = ProofRequest {
        contract_addresses: vec![contract],
        contracts_storage_keys: vec![ContractStorageKeys {
            contract_address: contract,
            storage_keys: vec![keys[0], keys[KEYS as usize - 1], flip],
        }],
        ..ProofRequest::default()
    };
    let seen = std::thread::scope(|s| {
        let readers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut seen = std::collections::BTreeSet::new();
                    while !done.load(std::sync::atomic::Ordering::Acquire) {
                        let view = store.view().unwrap();
                        let Some(info) = view.block() else { continue };
                        let b = info.block_number;
                        seen.insert(b);
                        let ctx = format!("a reader of block {b}");
                        assert_eq!(info.roots.state_root, expected[b as usize].0, "{ctx}");
                        for (i, k) in keys.iter().enumerate() {
                            assert_eq!(view.storage(&contract, k).unwrap(), value(b, i as u64));
                        }
                        assert_eq!(
                            view.storage(&contract, &flip).unwrap(),
                            felt(b % 2),
                            "{ctx}"
                        );
                        assert_eq!(view.nonce(&contract).unwrap(), felt(b), "{ctx}");
                        let root = view.storage_root(&contract).unwrap();
                        assert_eq!(root, expected[b as usize].1, "{ctx}");
                        let proven = view
                            .storage_proof(&req)
                            .unwrap()
                            .verify(&req, &info.roots.state_root, rule)
                            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                        assert_eq!(proven.contracts[0].nonce, felt(b), "{ctx}");
                        let want = [value(b, 0), value(b, KEYS - 1), felt(b % 2)];
                        assert_eq!(proven.storage[0], want, "{ctx}");
                    }
                    seen
                })
            })
            .collect();
        for b in 0..BLOCKS {
            let r = store.commit(b, &diff(b), rule).unwrap();
            assert_eq!(r.roots.state_root, expected[b as usize].0);
        }
        done.store(true, std::sync::atomic::Ordering::Release);
        let mut all = std::collections::BTreeSet::new();
        for r in readers {
            all.extend(r.join().unwrap());
        }
        all
    });
    // The readers overlapped the commits (not all of them ran after the last block).
    assert!(seen.len() >= 2, "readers saw only blocks {seen:?}");
}

/// `import` of a whole state gives `state_commitment`'s roots and the tables of the same state
/// committed as one block; blocks commit on it; a second import is refused and changes nothing.
#[test]
fn import_whole_state() {
    use starkbatch::store::workload::Workload;
    let work = Workload {
        fee_token_keys: 3_000,
        contracts: 40,
        keys_per_contract: 30,
        classes: 20,
        writes: 200,
        contracts_per_block: 12,
    };
    let (contracts, classes) = work.pre_state();
    let rule = StateRootRule::Before0_14_0;
    let want = state_commitment(&contracts, &classes, rule).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let imported = Store::open(dir.path()).unwrap();
    let r = imported.import(500, &contracts, &classes, rule).unwrap();
    assert_eq!(r.roots.state_root, want.state_root);
    assert_eq!(r.roots.contract_root, want.contract_root);
    assert_eq!(r.roots.class_root, want.class_root);
    let committed = Store::in_memory();
    committed.commit(500, &work.pre_state_diff(), rule).unwrap();
    assert!(
        tables(&imported) == tables(&committed),
        "import and commit differ"
    );
    let before = tables(&imported);
    assert!(matches!(
        imported.import(501, &contracts, &classes, rule),
        Err(StoreError::NotEmpty)
    ));
    assert!(tables(&imported) == before);
    for b in 0..3 {
        let x = imported.commit(501 + b, &work.block(b), rule).unwrap();
        let y = committed.commit(501 + b, &work.block(b), rule).unwrap();
        assert_eq!(x.roots, y.roots);
    }
    // Reopened: the import is durable.
    drop(imported);
    let reopened = Store::open(dir.path()).unwrap();
    assert_eq!(reopened.latest().unwrap().unwrap().block_number, 503);
    assert!(tables(&reopened) == tables(&committed));
    assert!(matches!(
        reopened.revert_to(499),
        Err(StoreError::RevertOutOfRange { .. })
    ));
    assert_eq!(
        reopened.revert_to(500).unwrap().roots.state_root,
        want.state_root
    );
}
