//! Batch Poseidon throughput: `poseidon_hash_batch` on every available backend, beside
//! pathfinder-crypto's `poseidon_hash` in a loop (the baseline) and our own scalar
//! `poseidon_hash` in a loop, all in one criterion group per size so ratios come from one run.
//!
//! `cargo bench --bench batch -- --warm-up-time 1 --measurement-time 3`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use pathfinder_crypto::MontFelt;
use starkbatch::{Backend, Felt, poseidon_hash};
use std::hint::black_box;

fn inputs(n: usize) -> Vec<[Felt; 2]> {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..n)
        .map(|_| {
            let mut b = [0u8; 32];
            for c in b.chunks_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            let x = Felt::from_bytes_le_reduced(&b);
            for c in b.chunks_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            [x, Felt::from_bytes_le_reduced(&b)]
        })
        .collect()
}

fn to_pathfinder(x: &Felt) -> MontFelt {
    MontFelt::from(pathfinder_crypto::Felt::from_be_bytes(x.to_bytes_be()).unwrap())
}

fn batch(c: &mut Criterion) {
    let pool2 = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for n in [4usize, 64, 1024, 65536] {
        let data = inputs(n);
        let pf: Vec<(MontFelt, MontFelt)> = data
            .iter()
            .map(|[x, y]| (to_pathfinder(x), to_pathfinder(y)))
            .collect();
        let mut out = vec![Felt::ZERO; n];
        let mut g = c.benchmark_group(format!("poseidon_hash_batch/{n}"));
        g.throughput(Throughput::Elements(n as u64));
        if n >= 1024 {
            g.sample_size(10);
        }
        g.bench_function("pathfinder_loop", |b| {
            b.iter(|| {
                for (x, y) in &pf {
                    black_box(pathfinder_crypto::hash::poseidon_hash(*x, *y));
                }
            })
        });
        g.bench_function("scalar_loop", |b| {
            b.iter(|| {
                for (o, [x, y]) in out.iter_mut().zip(&data) {
                    *o = poseidon_hash(*x, *y);
                }
                black_box(&out);
            })
        });
        for backend in Backend::available() {
            g.bench_function(BenchmarkId::new("batch", backend.name()), |b| {
                b.iter(|| {
                    backend.poseidon_hash_batch(black_box(&data), &mut out);
                    black_box(&out);
                })
            });
        }
        if n >= 1024 {
            let best = Backend::detect();
            g.bench_function(BenchmarkId::new("batch_par_2threads", best.name()), |b| {
                b.iter(|| {
                    pool2.install(|| best.poseidon_hash_batch_par(black_box(&data), &mut out));
                    black_box(&out);
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, batch);
criterion_main!(benches);
