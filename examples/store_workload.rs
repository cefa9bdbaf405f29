//! Commits the built-in mainnet-shaped workload (`store::workload`) to a store and prints what
//! each block cost: for sizing a deployment and measuring peak memory
//! (`/usr/bin/time -v`), beside `benches/store.rs`.
//!
//! ```text
//! cargo run --release --example store_workload -- [mainnet|small] [BLOCKS]
//!     [--scalar] [--threads N] [--checkpoint N] [--memory] [--dir DIR] [--import-only]
//! ```
//! - the pre-state is imported (`Store::import`) into a new store in a temporary directory
//!   (`--dir`: that directory, kept; if it already holds a store, blocks commit on it without
//!   an import; `--memory`: in memory);
//! - then `BLOCKS` blocks (default 20) are committed, one line each;
//! - `--scalar`: one scalar hash call per node instead of batches; `--threads N`: rayon's pool;
//!   `--checkpoint N`: `StoreOptions::checkpoint_every`.

use starkbatch::state::StateRootRule;
use starkbatch::store::workload::Workload;
use starkbatch::store::{CommitResult, Hashing, NodeStore, Store, StoreOptions};
use std::time::Instant;

fn main() {
    let mut work = Workload::MAINNET;
    let mut blocks = 20u64;
    let mut hashing = Hashing::Batch;
    let mut memory = false;
    let mut import_only = false;
    let mut dir = None;
    let mut checkpoint = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "mainnet" => work = Workload::MAINNET,
            "small" => work = Workload::SMALL,
            "--scalar" => hashing = Hashing::Scalar,
            "--memory" => memory = true,
            "--import-only" => import_only = true,
            "--dir" => dir = args.next(),
            "--checkpoint" => {
                checkpoint = args.next().and_then(|n| n.parse().ok());
            }
            "--threads" => {
                let n = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build_global()
                    .expect("the global pool is built once");
            }
            n => blocks = n.parse().unwrap_or_else(|_| panic!("unknown argument {n}")),
        }
    }
    let mut options = StoreOptions {
        hashing,
        ..StoreOptions::default()
    };
    if let Some(n) = checkpoint {
        options.checkpoint_every = n;
    }
    let tmp = tempfile::tempdir().expect("a temporary directory");
    if memory {
        run(
            Store::in_memory().with_options(options),
            &work,
            blocks,
            import_only,
        );
    } else {
        let path = dir.map_or_else(|| tmp.path().to_path_buf(), Into::into);
        let store = Store::open_with(&path, options).expect("the store opens");
        run(store, &work, blocks, import_only);
    }
}

fn line(label: &str, r: &CommitResult, ms: f64) {
    let s = &r.stats;
    println!(
        "{label:>8} {ms:8.1} ms  walk {:6.1}  hash {:6.1}  plan {:6.1}  write {:6.1}  \
         pedersen {:7}  poseidon {:5}  batches {:3}  records r/w {:6}/{:6}",
        s.storage_walk_time.as_secs_f64() * 1e3,
        s.storage_hash_time.as_secs_f64() * 1e3,
        s.plan_time.as_secs_f64() * 1e3,
        s.write_time.as_secs_f64() * 1e3,
        s.pedersen_hashes,
        s.poseidon_hashes,
        s.batches,
        s.records_read,
        s.records_written,
    );
}

fn run<S: NodeStore>(store: Store<S>, work: &Workload, blocks: u64, import_only: bool) {
    let rule = StateRootRule::From0_14_0;
    let latest = store.latest().expect("the store reads");
    let first = match latest {
        Some(l) => l.block_number + 1,
        None => {
            let t = Instant::now();
            let (contracts, classes) = work.pre_state();
            let r = store
                .import(0, &contracts, &classes, rule)
                .expect("the import");
            drop((contracts, classes));
            line("import", &r, t.elapsed().as_secs_f64() * 1e3);
            1
        }
    };
    if import_only {
        return;
    }
    let mut times = Vec::new();
    let mut hashes = 0;
    for b in first..first + blocks {
        let diff = work.block(b - 1);
        let t = Instant::now();
        let r = store.commit(b, &diff, rule).expect("the commit");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        line(&format!("block {b}"), &r, ms);
        times.push(ms);
        hashes += r.stats.hashes();
    }
    if times.is_empty() {
        return;
    }
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    println!(
        "{} blocks: median {:.1} ms, mean {:.1} ms, {:.2} commits/s, {:.0} hashes/s",
        times.len(),
        times[times.len() / 2],
        total / times.len() as f64,
        times.len() as f64 / total * 1e3,
        hashes as f64 / total * 1e3,
    );
}
