//! Scalar Poseidon against starknet-crypto 0.8 and pathfinder-crypto 0.24, side by side in each
//! criterion group (compare ratios within a group, not absolute times: the machine is shared).
//!
//! Groups: `poseidon_hash` (two elements), `poseidon_hash_single` (one element: pathfinder has
//! no such function, so its permutation is called on `[x, 0, 1]`, which is the definition),
//! `poseidon_hash_many` (10 elements, i.e. 6 permutations).
//!
//! Each call hashes a different input (a window into a pool of [`POOL`] pseudo-random values):
//! with one fixed input, implementations whose reductions branch on the data
//! (pathfinder-crypto's `if x >= p` steps, for one) have their whole branch sequence learned by
//! the predictor and look faster than they are on real data. starkbatch is branch-free.
//!
//! Every routine is timed with [`best_of_chunks`] (the same estimator for all three
//! implementations): the machine is shared, preemption only ever adds time, so the fastest of
//! many short chunks is the least disturbed estimate of the cost of one call.
//!
//! Run: `cargo bench --bench poseidon -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

use pathfinder_crypto::MontFelt as PfFelt;
use starkbatch::Felt;
use starknet_crypto::Felt as SnFelt;

/// Number of elements hashed in the `poseidon_hash_many` group.
const MANY: usize = 10;

/// Number of distinct inputs each routine cycles through.
const POOL: usize = 1024;

/// Deterministic pseudo-random 32-byte big-endian values below p (top byte < 0x08).
fn inputs(n: usize) -> Vec<[u8; 32]> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..n)
        .map(|_| {
            let mut b = [0u8; 32];
            for chunk in b.chunks_exact_mut(8) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                chunk.copy_from_slice(&x.to_be_bytes());
            }
            b[0] &= 0x07;
            b
        })
        .collect()
}

/// Calls per timed chunk.
const CHUNK: u64 = 32;

/// Runs `f` in chunks of [`CHUNK`] calls (at least `iters` calls in all) and returns the
/// fastest chunk's time scaled to `iters` calls.
fn best_of_chunks<O>(iters: u64, mut f: impl FnMut() -> O) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..iters.div_ceil(CHUNK).max(1) {
        let t = Instant::now();
        for _ in 0..CHUNK {
            black_box(f());
        }
        best = best.min(t.elapsed());
    }
    Duration::from_secs_f64(best.as_secs_f64() * iters as f64 / CHUNK as f64)
}

fn ours(b: &[u8; 32]) -> Felt {
    Felt::from_bytes_be(b).unwrap()
}
fn sn(b: &[u8; 32]) -> SnFelt {
    SnFelt::from_bytes_be(b)
}
fn pf(b: &[u8; 32]) -> PfFelt {
    PfFelt::from_be_bytes(*b)
}

/// A different input each call, cycling through [`POOL`] pseudo-random values.
struct Cycle<T> {
    items: Vec<T>,
    next: usize,
}

impl<T> Cycle<T> {
    fn new(items: Vec<T>) -> Self {
        Cycle { items, next: 0 }
    }
    /// The next `n` consecutive items (a window that wraps at [`POOL`]).
    fn take(&mut self, n: usize) -> &[T] {
        self.next = (self.next + 1) % POOL;
        &self.items[self.next..self.next + n]
    }
}

fn bench_hash(c: &mut Criterion) {
    let v = inputs(POOL + 1);
    let mut g = c.benchmark_group("poseidon_hash");
    let mut xs = Cycle::new(v.iter().map(ours).collect());
    g.bench_function("starkbatch", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                let w = black_box(xs.take(2));
                starkbatch::poseidon_hash(w[0], w[1])
            })
        })
    });
    let mut xs = Cycle::new(v.iter().map(sn).collect());
    g.bench_function("starknet-crypto", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                let w = black_box(xs.take(2));
                starknet_crypto::poseidon_hash(w[0], w[1])
            })
        })
    });
    let mut xs = Cycle::new(v.iter().map(pf).collect());
    g.bench_function("pathfinder-crypto", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                let w = black_box(xs.take(2));
                pathfinder_crypto::hash::poseidon_hash(w[0], w[1])
            })
        })
    });
    g.finish();
}

fn bench_single(c: &mut Criterion) {
    let v = inputs(POOL + 1);
    let mut g = c.benchmark_group("poseidon_hash_single");
    let mut xs = Cycle::new(v.iter().map(ours).collect());
    g.bench_function("starkbatch", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                starkbatch::poseidon_hash_single(black_box(xs.take(1))[0])
            })
        })
    });
    let mut xs = Cycle::new(v.iter().map(sn).collect());
    g.bench_function("starknet-crypto", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                starknet_crypto::poseidon_hash_single(black_box(xs.take(1))[0])
            })
        })
    });
    let mut xs = Cycle::new(v.iter().map(pf).collect());
    g.bench_function("pathfinder-crypto", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                let mut s = [black_box(xs.take(1))[0], PfFelt::ZERO, PfFelt::ONE];
                pathfinder_crypto::hash::poseidon::permute(&mut s);
                s[0]
            })
        })
    });
    g.finish();
}

fn bench_many(c: &mut Criterion) {
    let v = inputs(POOL + MANY);
    let mut g = c.benchmark_group("poseidon_hash_many");
    let mut xs = Cycle::new(v.iter().map(ours).collect());
    g.bench_function("starkbatch", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                starkbatch::poseidon_hash_many(black_box(xs.take(MANY)))
            })
        })
    });
    let mut xs = Cycle::new(v.iter().map(sn).collect());
    g.bench_function("starknet-crypto", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                starknet_crypto::poseidon_hash_many(black_box(xs.take(MANY)))
            })
        })
    });
    let mut xs = Cycle::new(v.iter().map(pf).collect());
    g.bench_function("pathfinder-crypto", |b| {
        b.iter_custom(|n| {
            best_of_chunks(n, || {
                pathfinder_crypto::hash::poseidon_hash_many(black_box(xs.take(MANY)))
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench_hash, bench_single, bench_many);
criterion_main!(benches);
