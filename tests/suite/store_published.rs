//! Published state updates replayed from an empty store: every block's `old_root` must be the
//! store's root before it and its `new_root` the root after (data: `tests/data/state-updates`).

use starkbatch::Felt;
use starkbatch::state::StateRootRule;
use starkbatch::store::{StateUpdate, Store, parse_state_update, parse_state_updates};
use std::path::PathBuf;

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/state-updates")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn one(name: &str) -> StateUpdate {
    let v: serde_json::Value = serde_json::from_str(&data(name)).unwrap();
    parse_state_update(&v).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Replays `updates` (blocks 0, 1, ...) checking both roots of each.
fn replay(net: &str, updates: &[StateUpdate]) {
    let store = Store::in_memory();
    for (b, u) in updates.iter().enumerate() {
        let before = store
            .latest()
            .unwrap()
            .map_or(Felt::ZERO, |i| i.roots.state_root);
        assert_eq!(Some(before), u.old_root, "{net} block {b}: old_root");
        let r = store
            .commit(b as u64, &u.state_diff, StateRootRule::Before0_14_0)
            .unwrap();
        assert_eq!(
            Some(r.roots.state_root),
            u.new_root,
            "{net} block {b}: new_root"
        );
    }
}

const GENESIS_ROOT: &str = "0x021870ba80540e7831fb21c591ee93481f5ae1bb71ff85a86ddd465be4eddee6";

#[test]
fn mainnet_genesis_gives_the_published_root() {
    let u = one("mainnet-fgw-0.json");
    let store = Store::in_memory();
    let r = store
        .commit(0, &u.state_diff, StateRootRule::Before0_14_0)
        .unwrap();
    assert_eq!(r.roots.state_root, Felt::from_hex(GENESIS_ROOT).unwrap());
    // The same block in the feeder gateway's {"block", "state_update"} form carries its number.
    let w = one("mainnet-fgw-with-block-0.json");
    assert_eq!(w.block_number, Some(0));
    assert_eq!(w.new_root, Some(Felt::from_hex(GENESIS_ROOT).unwrap()));
    assert_eq!(w.state_diff.storage_writes(), u.state_diff.storage_writes());
}

#[test]
fn mainnet_0_to_9() {
    let updates = parse_state_updates(&data("mainnet-0-9.jsonl")).unwrap();
    assert_eq!(updates.len(), 10);
    for (b, u) in updates.iter().enumerate() {
        assert_eq!(u.block_number, Some(b as u64));
    }
    replay("mainnet", &updates);
    // Juno's copies of blocks 0-3 (roots without 0x) are the same updates.
    let juno: Vec<StateUpdate> = (0..4)
        .map(|i| one(&format!("mainnet-fgw-{i}.json")))
        .collect();
    replay("mainnet (juno)", &juno);
    for (a, b) in juno.iter().zip(&updates) {
        assert_eq!(a.new_root, b.new_root);
        assert_eq!(a.state_diff.storage_writes(), b.state_diff.storage_writes());
    }
}

#[test]
fn sepolia_0_to_7_with_nonces_and_declarations() {
    let updates: Vec<StateUpdate> = (0..8)
        .map(|i| one(&format!("sepolia-fgw-{i}.json")))
        .collect();
    assert!(!updates[7].state_diff.declared_classes.is_empty());
    assert!(!updates[0].state_diff.nonces.is_empty());
    replay("sepolia", &updates);
}

#[test]
fn goerli2_and_integration() {
    let g: Vec<StateUpdate> = (0..7)
        .map(|i| one(&format!("goerli2-fgw-{i}.json")))
        .collect();
    replay("goerli2", &g);
    let i: Vec<StateUpdate> = (0..2)
        .map(|i| one(&format!("integration-fgw-{i}.json")))
        .collect();
    replay("integration", &i);
}

#[test]
fn json_rpc_and_recent_forms_parse() {
    let rpc = one("rpc-mainnet-631861.json");
    assert!(rpc.state_diff.storage_writes() > 100);
    assert!(!rpc.state_diff.nonces.is_empty());
    assert!(rpc.block_hash.is_some() && rpc.new_root.is_some());
    let v10 = one("rpc-v0.10-cut-down.json");
    assert_eq!(v10.state_diff.migrated_compiled_classes.len(), 1);
    let fgw = one("mainnet-fgw-4130000.json");
    assert_eq!(fgw.state_diff.migrated_compiled_classes.len(), 1);
    // Both forms of the same migration entry agree.
    assert_eq!(
        v10.state_diff.migrated_compiled_classes,
        fgw.state_diff.migrated_compiled_classes
    );
    // Committing a parsed real block works on an empty store (its roots cannot match: the
    // pre-state is not here).
    Store::in_memory()
        .commit(0, &fgw.state_diff, StateRootRule::From0_14_0)
        .unwrap();
}
