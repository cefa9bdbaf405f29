//! The state-update parser (`store::parse_state_updates`) on arbitrary text never panics; and
//! on documents generated from a diff, in the JSON-RPC or the feeder-gateway form with hex,
//! decimal or integer felts, it gives back exactly that diff (or an error naming a field, for
//! a value that is not a felt).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use starkbatch::state::DeclaredClass;
use starkbatch::store::{
    parse_state_updates, ContractClass, NonceUpdate, StateDiff, StorageDiff, StorageEntry,
};
use starkbatch::Felt;
use starkbatch_fuzz::Bytes;

/// A felt spelled as the fuzzer picks: hex, decimal, a JSON integer (small values only).
fn spell(b: &mut Bytes, f: &Felt) -> Value {
    let small = f.to_bytes_be()[..24].iter().all(|x| *x == 0);
    match b.u8() % 3 {
        0 => Value::String(format!("{f:#x}")),
        1 if small => json!(u64::from_be_bytes(
            f.to_bytes_be()[24..].try_into().unwrap()
        )),
        _ => Value::String(num_bigint::BigUint::from_bytes_be(&f.to_bytes_be()).to_string()),
    }
}

/// Keeps the first item of each key (a JSON map holds one entry per key).
fn first_per_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> Felt) {
    let mut seen = std::collections::BTreeSet::new();
    items.retain(|x| seen.insert(key(x).to_bytes_be()));
}

/// A contract's storage entries as `[{key, value}]`.
fn entries_json(b: &mut Bytes, s: &StorageDiff) -> Value {
    Value::Array(
        s.storage_entries
            .iter()
            .map(|e| json!({"key": spell(b, &e.key), "value": spell(b, &e.value)}))
            .collect(),
    )
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    if b.u8() % 2 == 0 {
        // Arbitrary text: any result, no panic; an accepted diff can be checked.
        if let Ok(text) = std::str::from_utf8(&data[1.min(data.len())..]) {
            if let Ok(updates) = parse_state_updates(text) {
                for u in updates {
                    let _ = u.state_diff.check();
                }
            }
        }
        return;
    }
    let rpc = b.u8() % 2 == 0;
    let mut d = StateDiff::default();
    for _ in 0..b.u8() % 4 {
        let address = b.felt();
        let entries: Vec<StorageEntry> = (0..b.u8() % 4)
            .map(|_| StorageEntry {
                key: b.felt(),
                value: b.felt(),
            })
            .collect();
        d.storage_diffs.push(StorageDiff {
            address,
            storage_entries: entries,
        });
    }
    if !rpc {
        // A map keyed by address: one diff per address.
        first_per_key(&mut d.storage_diffs, |s| s.address);
    }
    for _ in 0..b.u8() % 3 {
        d.nonces.push(NonceUpdate {
            contract_address: b.felt(),
            nonce: b.felt(),
        });
    }
    if !rpc {
        first_per_key(&mut d.nonces, |n| n.contract_address);
    }
    for _ in 0..b.u8() % 3 {
        d.deployed_contracts.push(ContractClass {
            address: b.felt(),
            class_hash: b.felt(),
        });
    }
    for _ in 0..b.u8() % 3 {
        d.replaced_classes.push(ContractClass {
            address: b.felt(),
            class_hash: b.felt(),
        });
    }
    for _ in 0..b.u8() % 3 {
        d.declared_classes.push(DeclaredClass {
            class_hash: b.felt(),
            compiled_class_hash: b.felt(),
        });
    }
    // The document.
    let storage = if rpc {
        Value::Array(
            d.storage_diffs
                .iter()
                .map(|s| {
                    let entries = entries_json(&mut b, s);
                    json!({"address": spell(&mut b, &s.address), "storage_entries": entries})
                })
                .collect(),
        )
    } else {
        Value::Object(
            d.storage_diffs
                .iter()
                .map(|s| {
                    let entries = entries_json(&mut b, s);
                    (format!("{:#x}", s.address), entries)
                })
                .collect(),
        )
    };
    let nonces = if rpc {
        Value::Array(
            d.nonces
                .iter()
                .map(|n| json!({"contract_address": spell(&mut b, &n.contract_address), "nonce": spell(&mut b, &n.nonce)}))
                .collect(),
        )
    } else {
        Value::Object(
            d.nonces
                .iter()
                .map(|n| {
                    (
                        format!("{:#x}", n.contract_address),
                        spell(&mut b, &n.nonce),
                    )
                })
                .collect(),
        )
    };
    let pair = |b: &mut Bytes, k1: &str, v1: &Felt, k2: &str, v2: &Felt| json!({k1: spell(b, v1), k2: spell(b, v2)});
    let deployed: Vec<Value> = d
        .deployed_contracts
        .iter()
        .map(|x| pair(&mut b, "address", &x.address, "class_hash", &x.class_hash))
        .collect();
    let replaced_key = if rpc { "contract_address" } else { "address" };
    let replaced: Vec<Value> = d
        .replaced_classes
        .iter()
        .map(|x| {
            pair(
                &mut b,
                replaced_key,
                &x.address,
                "class_hash",
                &x.class_hash,
            )
        })
        .collect();
    let declared: Vec<Value> = d
        .declared_classes
        .iter()
        .map(|x| {
            pair(
                &mut b,
                "class_hash",
                &x.class_hash,
                "compiled_class_hash",
                &x.compiled_class_hash,
            )
        })
        .collect();
    let doc = json!({
        "old_root": "0x0",
        "state_diff": {
            "storage_diffs": storage,
            "nonces": nonces,
            "deployed_contracts": deployed,
            "replaced_classes": replaced,
            "declared_classes": declared,
        }
    });
    let text = doc.to_string();
    let parsed = parse_state_updates(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(parsed.len(), 1);
    let got = &parsed[0].state_diff;
    assert_eq!(got.storage_diffs.len(), d.storage_diffs.len(), "{text}");
    for (g, w) in got.storage_diffs.iter().zip(&d.storage_diffs) {
        // The feeder-gateway map is read in its key order; compare per address.
        let w = if rpc {
            w
        } else {
            d.storage_diffs
                .iter()
                .find(|x| x.address == g.address)
                .expect("an address of the document")
        };
        assert_eq!(g, w, "{text}");
    }
    let mut gn = got.nonces.clone();
    let mut wn = d.nonces.clone();
    if !rpc {
        gn.sort_by_key(|n| n.contract_address.to_bytes_be());
        wn.sort_by_key(|n| n.contract_address.to_bytes_be());
    }
    assert_eq!(gn, wn, "{text}");
    assert_eq!(got.deployed_contracts, d.deployed_contracts, "{text}");
    assert_eq!(got.replaced_classes, d.replaced_classes, "{text}");
    assert_eq!(got.declared_classes, d.declared_classes, "{text}");
});
