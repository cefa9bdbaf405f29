//! Block commits on the persistent store: the built-in mainnet-shaped workload
//! (`store::workload::Workload::MAINNET`: a fee token with 10^6 keys, 1,000 contracts with
//! 1,000 keys, 1,000 classes; blocks of 2,000 writes over 300 contracts) imported into redb in
//! a temporary directory, then one block committed per iteration, durable (the default
//! options: each block journaled and synced, the database checkpointed every 64 blocks).
//!
//! `cargo bench --bench store -- --warm-up-time 2 --measurement-time 10`
//! (`STARKBATCH_BENCH_SMALL=1`: `Workload::SMALL`, for a quick look)
//!
//! Group `block_commit`, throughput in node hashes:
//! - `starkbatch/batch/{1,2}t`: the commit, every rank of dirty nodes in one batch, on a rayon
//!   pool of 1 and 2 threads;
//! - `starkbatch/scalar/1t`: the same commit with one scalar hash call per node;
//! - `pathfinder-crypto/hashes-only`: as many pathfinder-crypto hash calls (Pedersen and
//!   Poseidon, in the block's proportions) as a commit makes, and nothing else: the baseline
//!   of a node that hashes node by node, counted without any database cost.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use starkbatch::Felt;
use starkbatch::state::StateRootRule;
use starkbatch::store::workload::Workload;
use starkbatch::store::{Hashing, Store, StoreOptions};
use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;

fn pf_felt(f: &Felt) -> pathfinder_crypto::Felt {
    pathfinder_crypto::Felt::from_be_bytes(f.to_bytes_be()).expect("below p")
}

fn pf(f: &Felt) -> pathfinder_crypto::MontFelt {
    pathfinder_crypto::MontFelt::from(pf_felt(f))
}

fn bench_block_commit(c: &mut Criterion) {
    let work = if std::env::var_os("STARKBATCH_BENCH_SMALL").is_some() {
        Workload::SMALL
    } else {
        Workload::MAINNET
    };
    let rule = StateRootRule::From0_14_0;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut store = Store::open(dir.path()).expect("the store opens");
    let (contracts, classes) = work.pre_state();
    let t = Instant::now();
    store
        .import(0, &contracts, &classes, rule)
        .expect("the import");
    eprintln!(
        "block_commit: imported {} leaves in {:.1} s",
        contracts.iter().map(|c| c.storage.len() + 1).sum::<usize>() + classes.len(),
        t.elapsed().as_secs_f64()
    );
    drop((contracts, classes));
    let mut next = 1u64;
    // One block first, for the hash counts of a block.
    let first = store
        .commit(next, &work.block(next - 1), rule)
        .expect("the commit");
    next += 1;
    let (pedersen, poseidon) = (first.stats.pedersen_hashes, first.stats.poseidon_hashes);
    eprintln!("block_commit: {pedersen} Pedersen and {poseidon} Poseidon hashes per block");

    let mut g = c.benchmark_group("block_commit");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(15));
    g.throughput(Throughput::Elements((pedersen + poseidon) as u64));
    let pools: Vec<rayon::ThreadPool> = (1..=2)
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("a thread pool")
        })
        .collect();
    let mut commit = |store: &Store, pool: &rayon::ThreadPool, iters: u64| -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let diff = work.block(next - 1);
            let t = Instant::now();
            pool.install(|| store.commit(next, &diff, rule))
                .expect("the commit");
            total += t.elapsed();
            next += 1;
        }
        total
    };
    for (i, pool) in pools.iter().enumerate() {
        g.bench_function(format!("starkbatch/batch/{}t", i + 1), |b| {
            b.iter_custom(|iters| commit(&store, pool, iters))
        });
    }
    let scalar = StoreOptions {
        hashing: Hashing::Scalar,
        ..store.options()
    };
    store = store.with_options(scalar);
    g.bench_function("starkbatch/scalar/1t", |b| {
        b.iter_custom(|iters| commit(&store, &pools[0], iters))
    });
    // Full-size inputs, as the nodes' hashes are (pathfinder's Pedersen is faster on small
    // felts: fewer nonzero windows).
    let r = common::random_felts(2 * (pedersen + poseidon), 0x5eed);
    let inputs: Vec<(pathfinder_crypto::Felt, pathfinder_crypto::Felt)> = r[..2 * pedersen]
        .chunks(2)
        .map(|p| (pf_felt(&p[0]), pf_felt(&p[1])))
        .collect();
    let pos_inputs: Vec<_> = r[2 * pedersen..]
        .chunks(2)
        .map(|p| (pf(&p[0]), pf(&p[1])))
        .collect();
    g.bench_function("pathfinder-crypto/hashes-only", |b| {
        b.iter(|| {
            let mut acc = 0u8;
            for (x, y) in &inputs {
                acc ^= pathfinder_crypto::hash::pedersen_hash(black_box(*x), black_box(*y))
                    .as_be_bytes()[31];
            }
            for (x, y) in &pos_inputs {
                let h = pathfinder_crypto::hash::poseidon_hash(black_box(*x), black_box(*y));
                acc ^= pathfinder_crypto::Felt::from(h).as_be_bytes()[31];
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, bench_block_commit);
criterion_main!(benches);
