//! Class hashes of the ERC-20 test classes (JSON parsing included), starkbatch beside
//! starknet-core (`SierraClass::class_hash`, `CompiledClass::class_hash`) on the same input.
//!
//! `cargo bench --bench class_hash -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

/// `shared/data/classes/NAME`: beside the checkout (CI) or at /work/shared (worktrees).
fn class_file(name: &str) -> String {
    let manifest = env!("CARGO_MANIFEST_DIR");
    for base in [
        PathBuf::from(manifest).join("../shared/data/classes"),
        PathBuf::from("/work/shared/data/classes"),
    ] {
        if let Ok(s) = std::fs::read_to_string(base.join(name)) {
            return s;
        }
    }
    panic!("cannot find shared/data/classes/{name}");
}

fn bench_class_hash(c: &mut Criterion) {
    let sierra = class_file("erc20.contract_class.json");
    let casm = class_file("erc20.compiled_contract_class.json");

    // Same results before timing anything.
    let ours = starkbatch::class_hash::sierra_class_hash(&sierra).unwrap();
    let theirs = serde_json::from_str::<starknet_core::types::contract::SierraClass>(&sierra)
        .unwrap()
        .class_hash()
        .unwrap();
    assert_eq!(ours.to_string(), format!("{theirs:#x}"));
    let ours = starkbatch::class_hash::compiled_class_hash(&casm).unwrap();
    let theirs = serde_json::from_str::<starknet_core::types::contract::CompiledClass>(&casm)
        .unwrap()
        .class_hash()
        .unwrap();
    assert_eq!(ours.to_string(), format!("{theirs:#x}"));

    // The same CASM class with `bytecode_segment_lengths` cut at its entry-point offsets (a flat
    // list, as compilers since Sierra 1.5 emit; starknet-core handles flat lists correctly).
    let segmented = {
        let mut v: serde_json::Value = serde_json::from_str(&casm).unwrap();
        let n = v["bytecode"].as_array().unwrap().len() as u64;
        let mut cuts: Vec<u64> = ["EXTERNAL", "L1_HANDLER", "CONSTRUCTOR"]
            .iter()
            .flat_map(|k| v["entry_points_by_type"][*k].as_array().unwrap().clone())
            .map(|e| e["offset"].as_u64().unwrap())
            .chain([0, n])
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let lengths: Vec<u64> = cuts.windows(2).map(|w| w[1] - w[0]).collect();
        v["bytecode_segment_lengths"] = serde_json::json!(lengths);
        v.to_string()
    };
    let ours = starkbatch::class_hash::compiled_class_hash(&segmented).unwrap();
    let theirs = serde_json::from_str::<starknet_core::types::contract::CompiledClass>(&segmented)
        .unwrap()
        .class_hash()
        .unwrap();
    assert_eq!(ours.to_string(), format!("{theirs:#x}"));

    // The Sierra class in its declare-transaction / RPC form (ABI as a string).
    let flattened = serde_json::to_string(
        &serde_json::from_str::<starknet_core::types::contract::SierraClass>(&sierra)
            .unwrap()
            .flatten()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        starkbatch::class_hash::sierra_class_hash(&flattened).unwrap(),
        starkbatch::class_hash::sierra_class_hash(&sierra).unwrap()
    );

    let mut g = c.benchmark_group("class_hash");
    g.bench_function("sierra_erc20/starkbatch", |b| {
        b.iter(|| starkbatch::class_hash::sierra_class_hash(black_box(&sierra)).unwrap())
    });
    g.bench_function("sierra_erc20/starknet-core", |b| {
        b.iter(|| {
            serde_json::from_str::<starknet_core::types::contract::SierraClass>(black_box(&sierra))
                .unwrap()
                .class_hash()
                .unwrap()
        })
    });
    g.bench_function("sierra_erc20_flattened/starkbatch", |b| {
        b.iter(|| starkbatch::class_hash::sierra_class_hash(black_box(&flattened)).unwrap())
    });
    g.bench_function("sierra_erc20_flattened/starknet-core", |b| {
        b.iter(|| {
            serde_json::from_str::<starknet_core::types::FlattenedSierraClass>(black_box(
                &flattened,
            ))
            .unwrap()
            .class_hash()
        })
    });
    g.bench_function("compiled_erc20/starkbatch", |b| {
        b.iter(|| starkbatch::class_hash::compiled_class_hash(black_box(&casm)).unwrap())
    });
    g.bench_function("compiled_erc20/starknet-core", |b| {
        b.iter(|| {
            serde_json::from_str::<starknet_core::types::contract::CompiledClass>(black_box(&casm))
                .unwrap()
                .class_hash()
                .unwrap()
        })
    });
    g.bench_function("compiled_erc20_segmented/starkbatch", |b| {
        b.iter(|| starkbatch::class_hash::compiled_class_hash(black_box(&segmented)).unwrap())
    });
    g.bench_function("compiled_erc20_segmented/starknet-core", |b| {
        b.iter(|| {
            serde_json::from_str::<starknet_core::types::contract::CompiledClass>(black_box(
                &segmented,
            ))
            .unwrap()
            .class_hash()
            .unwrap()
        })
    });
    g.finish();
}

criterion_group!(class_hash, bench_class_hash);
criterion_main!(class_hash);
