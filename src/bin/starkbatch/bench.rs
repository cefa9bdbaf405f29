//! `starkbatch bench`: a built-in deterministic workload measured on every backend and every
//! thread count from 1 to the number of cores, beside the scalar path, in one run.
//!
//! Workloads (inputs derived from the item index only, so every run hashes the same values):
//! - `poseidon_hash`: pairs hashed with `poseidon_hash(x, y)`; unit: hashes;
//! - `poseidon_single`: `poseidon_hash_single(x)`; unit: hashes;
//! - `poseidon_many8`: `poseidon_hash_many` of 8-felt messages; unit: messages;
//! - `pedersen_hash`: pairs hashed with `pedersen_hash(x, y)`; unit: hashes;
//! - `merkle_poseidon`: a binary Merkle root over Poseidon (`merkle::root`); unit: node
//!   hashes (leaves − 1);
//! - `state_commitment`: `state::state_commitment` of a full state (16 contracts with 8
//!   storage entries each and 16 declared classes; ×4 without `--quick`): storage tries and
//!   contract trie (Pedersen), class trie (Poseidon), state root; unit: leaves (storage
//!   entries + contracts + classes).
//! - `block_commit`: block commits on a durable redb store in a temporary directory holding the
//!   mainnet-shaped pre-state of `store::workload` (a fee token with 10^6 keys, 1,000 contracts
//!   with 1,000 keys, 1,000 classes; `--quick`: `Workload::SMALL`), blocks of 2,000 storage
//!   writes over 300 contracts; unit: blocks (the footnote gives node hashes per block and
//!   per second). The scalar row is the same commit hashing one node per scalar call. Every
//!   row's untimed first call restores the same block and commits the next one again, and the
//!   roots must agree.
//!
//! For each workload the **scalar** row is the per-element scalar library function in a plain
//! loop on one thread (for the Merkle tree: `merkle::root_seq` over the scalar
//! `poseidon_hash`; for `state_commitment`, the same tries and leaf hashes built from the
//! library's public parts with the scalar `pedersen_hash` and `poseidon_hash`, one call per
//! hash: [`state_root_scalar`]). The Poseidon hash workloads then run the SIMD batch API
//! (`Backend::*_batch_par`) on every backend the CPU supports; the others run the library's
//! default path (backend column `default`: Poseidon on the chosen backend,
//! `Backend::current()`, Pedersen scalar); each inside a rayon `ThreadPool` of 1, 2, …
//! threads.
//! Each row runs for a time slice (the total duration divided by the number of rows), after one
//! untimed warm-up call whose result is compared with the scalar path's: a mismatch is an
//! internal error (exit 1). Speed-up = rate / the scalar rate of the same workload.

use crate::args::BenchArgs;
use crate::backend;
use crate::engine::{self, Messages};
use crate::error::{CliError, CliResult};
use crate::info::{cores, join_or_none};
use crate::plot;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::ThreadPool;
use serde_json::json;
use starkbatch::hash::PairHash;
use starkbatch::state::{
    ContractState, DeclaredClass, STATE_HEIGHT, StateRootRule, TrieError, class_leaf_hash,
    contract_state_hash, global_state_root, state_commitment, trie_root,
};
use starkbatch::store::workload::Workload as StoreWorkload;
use starkbatch::store::{Hashing, Store, StoreOptions};
use starkbatch::{Backend, Felt, Poseidon};
use starkbatch::{merkle, pedersen_hash};
use starkbatch::{poseidon_hash, poseidon_hash_many, poseidon_hash_single};
use std::hint::black_box;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// One workload: a name, its unit, the items per call, and the two paths. Both return a
/// checksum (a sum of outputs, or a root) so the paths can be compared.
struct Workload {
    name: &'static str,
    unit: &'static str,
    items: usize,
    /// Whether the batch path takes an explicit backend (else it runs the library's default
    /// path once per thread count, reported as backend `default`).
    per_backend: bool,
    scalar: Box<dyn Fn() -> Felt + Sync>,
    batch: Box<dyn Fn(Backend) -> Felt + Sync>,
    /// For a stateful workload (`block_commit`): the untimed first call of each row, whose
    /// results must agree across rows (else the row's first timed call is used).
    warm_up: Option<Box<dyn Fn(Hashing) -> Felt + Sync>>,
    /// Node hashes per item, when the unit is not hashes (`block_commit`).
    hashes_per_item: Option<usize>,
}

/// One row of the results table.
pub struct Measurement {
    pub workload: &'static str,
    pub unit: &'static str,
    /// `scalar` or `batch`.
    pub path: &'static str,
    pub backend: String,
    pub threads: usize,
    pub items: u64,
    pub seconds: f64,
    pub per_second: f64,
    pub speedup: f64,
}

/// splitmix64: a deterministic stream of well-mixed words for the inputs.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A deterministic felt below 2^251 (so also a valid trie key) from `seed`.
fn felt(seed: u64) -> Felt {
    let l = [
        mix(4 * seed),
        mix(4 * seed + 1),
        mix(4 * seed + 2),
        mix(4 * seed + 3) >> 5,
    ];
    Felt::from_raw_limbs(l).expect("below 2^251 < p")
}

fn felts(n: usize, salt: u64) -> Vec<Felt> {
    (0..n as u64).map(|i| felt(i ^ (salt << 40))).collect()
}

/// The library's scalar `poseidon_hash` as a tree hash with `PairHash`'s default (one call
/// per pair) batch methods: the scalar reference for the Merkle workload, since the library's
/// own `Poseidon` tree hash batches on SIMD lanes.
struct ScalarPoseidon;

impl PairHash for ScalarPoseidon {
    const NAME: &'static str = "poseidon-scalar";

    fn hash(a: &Felt, b: &Felt) -> Felt {
        poseidon_hash(*a, *b)
    }
}

/// The library's scalar `pedersen_hash` as a tree hash, one call per pair (as
/// [`ScalarPoseidon`]).
struct ScalarPedersen;

impl PairHash for ScalarPedersen {
    const NAME: &'static str = "pedersen-scalar";

    fn hash(a: &Felt, b: &Felt) -> Felt {
        pedersen_hash(a, b)
    }
}

/// The state root of `state_commitment`, with every hash computed one at a time by the scalar
/// functions: each storage trie and the contract trie over [`ScalarPedersen`], the class trie
/// over [`ScalarPoseidon`], the leaves with the scalar `contract_state_hash` and
/// `class_leaf_hash`. The scalar reference for the `state_commitment` workload: what a
/// caller of a one-hash-at-a-time library computes.
fn state_root_scalar(contracts: &[ContractState], classes: &[DeclaredClass]) -> Felt {
    let root = |r: Result<Felt, TrieError>| r.expect("keys below 2^251");
    let contract_leaves: Vec<(Felt, Felt)> = contracts
        .iter()
        .map(|c| {
            let storage_root = root(trie_root::<ScalarPedersen>(&c.storage, STATE_HEIGHT));
            let leaf = contract_state_hash(&c.class_hash, &storage_root, &c.nonce);
            (c.address, leaf)
        })
        .collect();
    let class_leaves: Vec<(Felt, Felt)> = classes
        .iter()
        .map(|c| (c.class_hash, class_leaf_hash(&c.compiled_class_hash)))
        .collect();
    let contract_root = root(trie_root::<ScalarPedersen>(&contract_leaves, STATE_HEIGHT));
    let class_root = root(trie_root::<ScalarPoseidon>(&class_leaves, STATE_HEIGHT));
    global_state_root(&contract_root, &class_root, StateRootRule::From0_14_0)
}

fn sum_of(out: &[Felt]) -> Felt {
    out.iter().sum()
}

fn workloads(quick: bool) -> CliResult<Vec<Workload>> {
    let scale = if quick { 1 } else { 4 };
    let mut w = Vec::new();

    let n = 1024 * scale;
    let xs = felts(2 * n, 1);
    let xs2 = xs.clone();
    w.push(Workload {
        name: "poseidon_hash",
        unit: "hashes",
        items: n,
        per_backend: true,
        warm_up: None,
        hashes_per_item: None,
        scalar: Box::new(move || xs.chunks(2).map(|p| poseidon_hash(p[0], p[1])).sum()),
        batch: Box::new(move |b| {
            let pairs: &[[Felt; 2]] = bytemuck::cast_slice(&xs2);
            let mut out = vec![Felt::ZERO; pairs.len()];
            engine::poseidon_pairs(b, pairs, &mut out);
            sum_of(&out)
        }),
    });

    let n = 1024 * scale;
    let xs = felts(n, 2);
    let xs2 = xs.clone();
    w.push(Workload {
        name: "poseidon_single",
        unit: "hashes",
        items: n,
        per_backend: true,
        warm_up: None,
        hashes_per_item: None,
        scalar: Box::new(move || xs.iter().map(|x| poseidon_hash_single(*x)).sum()),
        batch: Box::new(move |b| {
            let mut out = vec![Felt::ZERO; xs2.len()];
            engine::poseidon_singles(b, &xs2, &mut out);
            sum_of(&out)
        }),
    });

    let n = 256 * scale;
    let msgs = Messages {
        felts: felts(8 * n, 3),
        ends: (1..=n).map(|i| 8 * i).collect(),
    };
    let flat = msgs.felts.clone();
    w.push(Workload {
        name: "poseidon_many8",
        unit: "messages",
        items: n,
        per_backend: true,
        warm_up: None,
        hashes_per_item: None,
        scalar: Box::new(move || flat.chunks(8).map(poseidon_hash_many).sum()),
        batch: Box::new(move |b| {
            let mut out = vec![Felt::ZERO; msgs.len()];
            engine::poseidon_many(b, &msgs, &mut out);
            sum_of(&out)
        }),
    });

    let n = 1024 * scale;
    let xs = felts(2 * n, 4);
    let xs2 = xs.clone();
    w.push(Workload {
        name: "pedersen_hash",
        unit: "hashes",
        items: n,
        per_backend: true,
        warm_up: None,
        hashes_per_item: None,
        scalar: Box::new(move || xs.chunks(2).map(|p| pedersen_hash(&p[0], &p[1])).sum()),
        batch: Box::new(move |b| {
            let pairs: &[[Felt; 2]] = bytemuck::cast_slice(&xs2);
            let mut out = vec![Felt::ZERO; pairs.len()];
            engine::pedersen_pairs(b, pairs, &mut out);
            sum_of(&out)
        }),
    });

    let n = 2048 * scale;
    let leaves = felts(n, 5);
    let leaves2 = leaves.clone();
    w.push(Workload {
        name: "merkle_poseidon",
        unit: "hashes",
        items: n - 1,
        per_backend: false,
        warm_up: None,
        hashes_per_item: None,
        scalar: Box::new(move || merkle::root_seq::<ScalarPoseidon>(&leaves)),
        batch: Box::new(move |_| merkle::root::<Poseidon>(&leaves2)),
    });

    // A full state: `n` contracts with 8 storage entries each, `n` declared classes.
    let n = 16 * scale;
    let contracts: Vec<ContractState> = (0..n)
        .map(|i| {
            let s = felts(17, 100 + i as u64);
            ContractState {
                address: s[0],
                class_hash: s[1],
                nonce: Felt::from(i as u64),
                storage: s[1..].chunks(2).map(|kv| (kv[0], kv[1])).collect(),
            }
        })
        .collect();
    let classes: Vec<DeclaredClass> = felts(2 * n, 8)
        .chunks(2)
        .map(|c| DeclaredClass {
            class_hash: c[0],
            compiled_class_hash: c[1],
        })
        .collect();
    let items = contracts.iter().map(|c| c.storage.len() + 1).sum::<usize>() + classes.len();
    let (contracts2, classes2) = (contracts.clone(), classes.clone());
    w.push(Workload {
        name: "state_commitment",
        unit: "leaves",
        items,
        per_backend: false,
        warm_up: None,
        hashes_per_item: None,
        scalar: Box::new(move || state_root_scalar(&contracts2, &classes2)),
        batch: Box::new(move |_| {
            state_commitment(&contracts, &classes, StateRootRule::From0_14_0)
                .expect("keys below 2^251")
                .state_root
        }),
    });
    w.push(block_commit(quick)?);
    Ok(w)
}

/// The store the `block_commit` rows share: each commits the next blocks of the workload.
struct Commits {
    store: Option<Store>,
    /// The block every row's warm-up restores and commits again.
    base: u64,
    next: u64,
    _dir: tempfile::TempDir,
}

impl Commits {
    fn set_hashing(&mut self, hashing: Hashing) {
        if let Some(s) = self.store.take() {
            let o = s.options();
            self.store = Some(s.with_options(StoreOptions { hashing, ..o }));
        }
    }

    /// Commits the next block with `hashing`; its state root.
    fn commit_next(&mut self, work: &StoreWorkload, hashing: Hashing) -> Felt {
        self.set_hashing(hashing);
        let b = self.next;
        let diff = work.block(b - 1);
        let store = self.store.as_ref().expect("the store is present");
        let r = store
            .commit(b, &diff, StateRootRule::From0_14_0)
            .expect("the workload's blocks are valid");
        self.next += 1;
        r.roots.state_root
    }

    /// Restores the base block and commits the one after it again: the same root on every row.
    fn warm_up(&mut self, work: &StoreWorkload, hashing: Hashing) -> Felt {
        let store = self.store.as_ref().expect("the store is present");
        store
            .revert_to(self.base)
            .expect("the base block is within the history");
        self.next = self.base + 1;
        self.commit_next(work, hashing)
    }
}

/// The shared store (a panic in another row ends the run anyway).
fn lock(c: &std::sync::Mutex<Commits>) -> std::sync::MutexGuard<'_, Commits> {
    c.lock().unwrap_or_else(|e| e.into_inner())
}

/// `block_commit`: the mainnet-shaped store workload (`store::workload`; `Workload::SMALL`
/// with `--quick`) imported into a durable redb store in a temporary directory, one block
/// committed per call; the scalar row hashes one node per call (`Hashing::Scalar`).
fn block_commit(quick: bool) -> CliResult<Workload> {
    let work = if quick {
        StoreWorkload::SMALL
    } else {
        StoreWorkload::MAINNET
    };
    let dir = tempfile::tempdir()
        .map_err(|e| CliError::failure(format!("cannot create a temporary directory: {e}")))?;
    let fail = |e: starkbatch::store::StoreError| CliError::failure(format!("block_commit: {e}"));
    let options = StoreOptions {
        // Every row's warm-up goes back to the base block.
        history: u64::MAX / 2,
        ..StoreOptions::default()
    };
    let store = Store::open_with(dir.path(), options).map_err(fail)?;
    let (contracts, classes) = work.pre_state();
    if !quick {
        eprintln!(
            "block_commit: importing the pre-state ({} storage keys) ...",
            contracts.iter().map(|c| c.storage.len()).sum::<usize>()
        );
    }
    store
        .import(0, &contracts, &classes, StateRootRule::From0_14_0)
        .map_err(fail)?;
    drop((contracts, classes));
    let first = store
        .commit(1, &work.block(0), StateRootRule::From0_14_0)
        .map_err(fail)?;
    let commits = std::sync::Arc::new(std::sync::Mutex::new(Commits {
        store: Some(store),
        base: 1,
        next: 2,
        _dir: dir,
    }));
    let (c1, c2, c3) = (commits.clone(), commits.clone(), commits);
    Ok(Workload {
        name: "block_commit",
        unit: "blocks",
        items: 1,
        per_backend: false,
        warm_up: Some(Box::new(move |h| lock(&c3).warm_up(&work, h))),
        hashes_per_item: Some(first.stats.hashes()),
        scalar: Box::new(move || lock(&c1).commit_next(&work, Hashing::Scalar)),
        batch: Box::new(move |_| lock(&c2).commit_next(&work, Hashing::Batch)),
    })
}

/// Runs `warm` (or `f`) once untimed, then `f` repeatedly for at least `slice`; returns the
/// warm-up result, the number of timed calls and the time they took.
fn measure(
    f: &dyn Fn() -> Felt,
    warm: Option<&dyn Fn() -> Felt>,
    slice: Duration,
) -> (Felt, u64, f64) {
    let check = warm.unwrap_or(f)();
    let start = Instant::now();
    let mut calls = 0u64;
    loop {
        black_box(f());
        calls += 1;
        let t = start.elapsed();
        if t >= slice {
            return (check, calls, t.as_secs_f64());
        }
    }
}

fn pool(threads: usize) -> CliResult<ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::failure(format!("cannot start {threads} threads: {e}")))
}

pub fn run(a: &BenchArgs) -> CliResult {
    let total = match (a.quick, a.duration) {
        (_, Some(d)) if !(d.is_finite() && d > 0.0) => {
            return Err(CliError::input(format!(
                "--duration {d}: must be a positive number of seconds"
            )));
        }
        (_, Some(d)) => d,
        (true, None) => 2.0,
        (false, None) => 12.0,
    };
    let max_threads = match a.max_threads {
        Some(0) => return Err(CliError::input("--max-threads 0: must be at least 1")),
        Some(t) => t,
        None => cores(),
    };
    let choice = backend::choose()?;
    let features = backend::cpu_features();
    let work = workloads(a.quick)?;
    let pools = (1..=max_threads)
        .map(pool)
        .collect::<CliResult<Vec<ThreadPool>>>()?;
    let rows: usize = work
        .iter()
        .map(|w| {
            1 + max_threads
                * if w.per_backend {
                    choice.available.len()
                } else {
                    1
                }
        })
        .sum();
    let slice = Duration::from_secs_f64((total / rows as f64).max(0.01));

    eprintln!(
        "starkbatch bench: cpu {} ({}); backends {}; chosen {} ({}); threads 1..={}; {:.1} s",
        std::env::consts::ARCH,
        join_or_none(&features),
        names(&choice.available),
        choice.chosen.name(),
        choice.reason,
        max_threads,
        total
    );
    let bar = if total > 1.0 && std::io::stderr().is_terminal() {
        let b = ProgressBar::new(rows as u64);
        b.set_style(
            ProgressStyle::with_template("{msg:32} [{bar:30}] {pos}/{len} ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        Some(b)
    } else {
        None
    };

    let mut results: Vec<Measurement> = Vec::new();
    for w in &work {
        if let Some(b) = &bar {
            b.set_message(format!("{} scalar", w.name));
        }
        let warm_scalar = w.warm_up.as_ref().map(|g| move || g(Hashing::Scalar));
        let (reference, calls, secs) = pools[0].install(|| {
            measure(
                &*w.scalar,
                warm_scalar.as_ref().map(|g| g as &dyn Fn() -> Felt),
                slice,
            )
        });
        let scalar_rate = (calls as f64 * w.items as f64) / secs;
        results.push(Measurement {
            workload: w.name,
            unit: w.unit,
            path: "scalar",
            backend: "scalar".into(),
            threads: 1,
            items: calls * w.items as u64,
            seconds: secs,
            per_second: scalar_rate,
            speedup: 1.0,
        });
        if let Some(b) = &bar {
            b.inc(1);
        }
        let backends: Vec<(Backend, &str)> = if w.per_backend {
            choice.available.iter().map(|b| (*b, b.name())).collect()
        } else {
            vec![(choice.chosen, "default")]
        };
        for &(be, be_name) in &backends {
            for (i, p) in pools.iter().enumerate() {
                if let Some(b) = &bar {
                    b.set_message(format!("{} {} {}t", w.name, be_name, i + 1));
                }
                let f = || (w.batch)(be);
                let warm_batch = w.warm_up.as_ref().map(|g| move || g(Hashing::Batch));
                let (check, calls, secs) = p.install(|| {
                    measure(
                        &f,
                        warm_batch.as_ref().map(|g| g as &dyn Fn() -> Felt),
                        slice,
                    )
                });
                if check != reference {
                    return Err(CliError::failure(format!(
                        "internal error: {} on backend {be_name} with {} threads gave {check}, the scalar path {reference}",
                        w.name,
                        i + 1
                    )));
                }
                let rate = (calls as f64 * w.items as f64) / secs;
                results.push(Measurement {
                    workload: w.name,
                    unit: w.unit,
                    path: "batch",
                    backend: be_name.to_string(),
                    threads: i + 1,
                    items: calls * w.items as u64,
                    seconds: secs,
                    per_second: rate,
                    speedup: rate / scalar_rate,
                });
                if let Some(b) = &bar {
                    b.inc(1);
                }
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }

    let notes: Vec<(&str, usize)> = work
        .iter()
        .filter_map(|w| w.hashes_per_item.map(|h| (w.name, h)))
        .collect();
    print_table(&results, &notes).map_err(|e| CliError::write("<stdout>", e))?;
    if let Some(path) = &a.json {
        let doc = json!({
            "starkbatch": env!("CARGO_PKG_VERSION"),
            "arch": std::env::consts::ARCH,
            "cpu_features": features,
            "cores": cores(),
            "backends_available": choice.available.iter().map(|b| b.name()).collect::<Vec<_>>(),
            "backend_chosen": choice.chosen.name(),
            "backend_reason": choice.reason,
            "quick": a.quick,
            "duration_s": total,
            "slice_s": slice.as_secs_f64(),
            "hashes_per_item": notes.iter().map(|(n, h)| (n.to_string(), json!(h))).collect::<serde_json::Map<_, _>>(),
            "results": results.iter().map(|m| json!({
                "workload": m.workload,
                "unit": m.unit,
                "path": m.path,
                "backend": m.backend,
                "threads": m.threads,
                "items": m.items,
                "seconds": m.seconds,
                "per_second": m.per_second,
                "speedup_vs_scalar": m.speedup,
            })).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| CliError::failure(format!("cannot encode JSON: {e}")))?;
        write_file(path, &text)?;
    }
    if let Some(path) = &a.plot {
        write_file(path, &plot::svg(&results, choice.chosen.name(), &features))?;
    }
    Ok(())
}

fn names(b: &[Backend]) -> String {
    b.iter().map(|b| b.name()).collect::<Vec<_>>().join(", ")
}

fn write_file(path: &std::path::Path, text: &str) -> CliResult {
    let mut out = crate::output::Output::create(Some(path))?;
    out.line(text.trim_end())?;
    out.finish()
}

/// `12.3 M` style numbers.
pub fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.2} k", x / 1e3)
    } else {
        format!("{x:.1} ")
    }
}

fn print_table(results: &[Measurement], notes: &[(&str, usize)]) -> std::io::Result<()> {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    writeln!(
        o,
        "{:<18} {:<9} {:<10} {:>7} {:>16} {:>9}",
        "workload", "path", "backend", "threads", "per second", "speed-up"
    )?;
    for m in results {
        writeln!(
            o,
            "{:<18} {:<9} {:<10} {:>7} {:>16} {:>8.2}x",
            m.workload,
            m.path,
            m.backend,
            m.threads,
            format!("{}{}", si(m.per_second), m.unit),
            m.speedup
        )?;
    }
    for (name, hashes) in notes {
        let best = results
            .iter()
            .filter(|m| m.workload == *name)
            .map(|m| (m.per_second, m.path, m.threads))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((rate, path, threads)) = best {
            writeln!(
                o,
                "{name}: {hashes} node hashes per block; fastest row ({path}, {threads} threads): {}hashes/s",
                si(rate * *hashes as f64)
            )?;
        }
    }
    o.flush()
}
