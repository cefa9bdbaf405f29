//! Scalar Poseidon against starknet-crypto 0.8 and pathfinder-crypto 0.24, side by side in each
//! criterion group (compare ratios within a group, not absolute times: the machine is shared).
//!
//! Groups: `poseidon_hash` (two elements), `poseidon_hash_single` (one element: pathfinder has
//! no such function, so its permutation is called on `[x, 0, 1]`, which is the definition),
//! `poseidon_hash_many` (10 elements, i.e. 6 permutations).
//!
//! Run: `cargo bench --bench poseidon -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

use pathfinder_crypto::MontFelt as PfFelt;
use starkbatch::Felt;
use starknet_crypto::Felt as SnFelt;

/// Number of elements hashed in the `poseidon_hash_many` group.
const MANY: usize = 10;

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

fn ours(b: &[u8; 32]) -> Felt {
    Felt::from_bytes_be(b).unwrap()
}
fn sn(b: &[u8; 32]) -> SnFelt {
    SnFelt::from_bytes_be(b)
}
fn pf(b: &[u8; 32]) -> PfFelt {
    PfFelt::from_be_bytes(*b)
}

fn bench_hash(c: &mut Criterion) {
    let v = inputs(2);
    let mut g = c.benchmark_group("poseidon_hash");
    let (x, y) = (ours(&v[0]), ours(&v[1]));
    g.bench_function("starkbatch", |b| {
        b.iter(|| starkbatch::poseidon_hash(black_box(x), black_box(y)))
    });
    let (x, y) = (sn(&v[0]), sn(&v[1]));
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| starknet_crypto::poseidon_hash(black_box(x), black_box(y)))
    });
    let (x, y) = (pf(&v[0]), pf(&v[1]));
    g.bench_function("pathfinder-crypto", |b| {
        b.iter(|| pathfinder_crypto::hash::poseidon_hash(black_box(x), black_box(y)))
    });
    g.finish();
}

fn bench_single(c: &mut Criterion) {
    let v = inputs(1);
    let mut g = c.benchmark_group("poseidon_hash_single");
    let x = ours(&v[0]);
    g.bench_function("starkbatch", |b| {
        b.iter(|| starkbatch::poseidon_hash_single(black_box(x)))
    });
    let x = sn(&v[0]);
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| starknet_crypto::poseidon_hash_single(black_box(x)))
    });
    let x = pf(&v[0]);
    g.bench_function("pathfinder-crypto", |b| {
        b.iter(|| {
            let mut s = [black_box(x), PfFelt::ZERO, PfFelt::ONE];
            pathfinder_crypto::hash::poseidon::permute(&mut s);
            s[0]
        })
    });
    g.finish();
}

fn bench_many(c: &mut Criterion) {
    let v = inputs(MANY);
    let mut g = c.benchmark_group("poseidon_hash_many");
    let xs: Vec<Felt> = v.iter().map(ours).collect();
    g.bench_function("starkbatch", |b| {
        b.iter(|| starkbatch::poseidon_hash_many(black_box(&xs)))
    });
    let xs: Vec<SnFelt> = v.iter().map(sn).collect();
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| starknet_crypto::poseidon_hash_many(black_box(&xs)))
    });
    let xs: Vec<PfFelt> = v.iter().map(pf).collect();
    g.bench_function("pathfinder-crypto", |b| {
        b.iter(|| pathfinder_crypto::hash::poseidon_hash_many(black_box(&xs)))
    });
    g.finish();
}

criterion_group!(benches, bench_hash, bench_single, bench_many);
criterion_main!(benches);
