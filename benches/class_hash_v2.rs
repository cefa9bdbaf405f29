//! v2 compiled class hashes (Blake2s) of 200 CASM classes held in memory (the seven published
//! classes of tests/data/casm, cycled; JSON parsing included), starkbatch beside a
//! starknet-types-core-based implementation (serde into `Felt`, `Blake2Felt252` per hash) on
//! one core, and starkbatch with one and two rayon threads across the classes.
//!
//! `cargo bench --bench class_hash_v2 -- --warm-up-time 1 --measurement-time 5`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use serde::Deserialize;
use starknet_types_core::felt::Felt;
use starknet_types_core::hash::Blake2Felt252;
use std::hint::black_box;

/// The fields of a CASM class the hash reads (serde skips the rest, `hints` included).
#[derive(Deserialize)]
struct Casm {
    bytecode: Vec<Felt>,
    #[serde(default)]
    bytecode_segment_lengths: Option<Lengths>,
    entry_points_by_type: EntryPoints,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Lengths {
    Leaf(u64),
    Node(Vec<Lengths>),
}

#[derive(Deserialize)]
struct EntryPoints {
    #[serde(rename = "EXTERNAL")]
    external: Vec<EntryPoint>,
    #[serde(rename = "L1_HANDLER")]
    l1_handler: Vec<EntryPoint>,
    #[serde(rename = "CONSTRUCTOR")]
    constructor: Vec<EntryPoint>,
}

#[derive(Deserialize)]
struct EntryPoint {
    selector: Felt,
    offset: u64,
    builtins: Vec<String>,
}

fn h(felts: &[Felt]) -> Felt {
    Blake2Felt252::encode_felt252_data_and_calc_blake_hash(felts)
}

fn short_string(s: &str) -> Felt {
    Felt::from_bytes_be_slice(s.as_bytes())
}

fn entries(eps: &[EntryPoint]) -> Felt {
    let mut flat = Vec::new();
    for e in eps {
        let b: Vec<Felt> = e.builtins.iter().map(|s| short_string(s)).collect();
        flat.extend([e.selector, Felt::from(e.offset), h(&b)]);
    }
    h(&flat)
}

fn segment(code: &[Felt], l: &Lengths, at: &mut usize) -> Felt {
    match l {
        Lengths::Leaf(n) => {
            let s = &code[*at..*at + *n as usize];
            *at += *n as usize;
            h(s)
        }
        Lengths::Node(items) => {
            let mut flat = Vec::new();
            for item in items {
                let start = *at;
                let x = segment(code, item, at);
                flat.extend([Felt::from((*at - start) as u64), x]);
            }
            h(&flat) + Felt::ONE
        }
    }
}

/// The sequencer's v2 definition, written directly over starknet-types-core.
fn reference_v2(json: &str) -> Felt {
    let c: Casm = serde_json::from_str(json).unwrap();
    let bytecode = match &c.bytecode_segment_lengths {
        None | Some(Lengths::Leaf(_)) => h(&c.bytecode),
        Some(l) => segment(&c.bytecode, l, &mut 0),
    };
    let e = &c.entry_points_by_type;
    h(&[
        short_string("COMPILED_CLASS_V1"),
        entries(&e.external),
        entries(&e.l1_handler),
        entries(&e.constructor),
        bytecode,
    ])
}

fn classes() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/casm");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    let texts: Vec<String> = names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    (0..200).map(|i| texts[i % texts.len()].clone()).collect()
}

fn bench_v2(c: &mut Criterion) {
    let files = classes();
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    for f in files.iter().take(7) {
        let ours = starkbatch::class_hash::compiled_class_hash_v2(f).unwrap();
        assert_eq!(ours.to_bytes_be(), reference_v2(f).to_bytes_be());
    }
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();

    let mut g = c.benchmark_group("casm_v2_200_classes");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("types_core_serde_per_file", |b| {
        b.iter(|| {
            for f in &files {
                black_box(reference_v2(black_box(f)));
            }
        })
    });
    g.bench_function("starkbatch_1_thread", |b| {
        b.iter(|| {
            one.install(|| {
                for f in &files {
                    black_box(
                        starkbatch::class_hash::compiled_class_hash_v2(black_box(f)).unwrap(),
                    );
                }
            })
        })
    });
    g.bench_function("starkbatch_2_threads", |b| {
        b.iter(|| {
            two.install(|| {
                files.par_iter().for_each(|f| {
                    black_box(
                        starkbatch::class_hash::compiled_class_hash_v2(black_box(f)).unwrap(),
                    );
                })
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench_v2);
criterion_main!(benches);
