//! Batch curve and ECDSA throughput: each batch function on every available backend beside the
//! scalar loop (and pathfinder-crypto's loop where it has the function), in one criterion group
//! per operation so that ratios come from one run.
//!
//! `cargo bench --bench curve_batch -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use starkbatch::curve::{AffinePoint, GENERATOR, ProjectivePoint};
use starkbatch::{Backend, Felt};
use std::hint::black_box;

/// xorshift64*.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn felt(&mut self) -> Felt {
        let mut b = [0u8; 32];
        for c in b.chunks_mut(8) {
            c.copy_from_slice(&self.next().to_le_bytes());
        }
        Felt::from_bytes_le_reduced(&b)
    }
}

fn points(n: usize) -> Vec<ProjectivePoint> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|_| {
            let k = [rng.next(), rng.next(), rng.next(), rng.next() >> 4];
            let p = GENERATOR.mul_vartime(&k).to_affine();
            let l = rng.felt();
            ProjectivePoint {
                x: p.x * l.square(),
                y: p.y * l.square() * l,
                z: l,
            }
        })
        .collect()
}

const N: usize = 1024;

fn bench_double(c: &mut Criterion) {
    let pts = points(N);
    let mut g = c.benchmark_group("double_batch/1024");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("scalar_loop", |b| {
        let mut v = pts.clone();
        b.iter(|| {
            for p in v.iter_mut() {
                *p = p.double();
            }
            black_box(&v);
        })
    });
    for backend in Backend::available() {
        g.bench_function(backend.name(), |b| {
            let mut v = pts.clone();
            b.iter(|| {
                backend.double_batch(black_box(&mut v));
            })
        });
    }
    g.finish();
}

fn bench_add(c: &mut Criterion) {
    let a = points(N);
    let other = points(N + 1)[1..].to_vec();
    let mut g = c.benchmark_group("add_batch/1024");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("scalar_loop", |b| {
        let mut v = a.clone();
        b.iter(|| {
            for (p, q) in v.iter_mut().zip(&other) {
                *p = p.add(q);
            }
            black_box(&v);
        })
    });
    for backend in Backend::available() {
        g.bench_function(backend.name(), |b| {
            let mut v = a.clone();
            b.iter(|| backend.add_batch(black_box(&mut v), &other))
        });
    }
    g.finish();
}

fn bench_to_affine(c: &mut Criterion) {
    let a = points(N);
    let mut out = vec![AffinePoint::INFINITY; N];
    let mut g = c.benchmark_group("to_affine_batch/1024");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("scalar_batch_to_affine", |b| {
        b.iter(|| black_box(ProjectivePoint::batch_to_affine(black_box(&a))))
    });
    for backend in Backend::available() {
        g.bench_function(backend.name(), |b| {
            b.iter(|| backend.to_affine_batch(black_box(&a), &mut out))
        });
    }
    g.finish();
}

/// 256 valid signatures by different keys (public inputs).
fn signatures(n: usize) -> Vec<starkbatch::VerifyItem> {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut small =
        || Felt::from_raw_limbs([rng.next(), rng.next(), rng.next(), rng.next() >> 5]).unwrap();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let (d, m, k) = (small(), small(), small());
        if let Ok(sig) = starkbatch::sign(&d, &m, &k) {
            out.push(starkbatch::VerifyItem {
                public_key: starkbatch::get_public_key(&d),
                message: m,
                r: sig.r,
                s: sig.s,
            });
        }
    }
    out
}

fn bench_verify(c: &mut Criterion) {
    const V: usize = 256;
    let items = signatures(V);
    let pf = |f: &Felt| pathfinder_crypto::Felt::from_be_bytes(f.to_bytes_be()).unwrap();
    let pf_items: Vec<_> = items
        .iter()
        .map(|i| (pf(&i.public_key), pf(&i.message), pf(&i.r), pf(&i.s)))
        .collect();
    let mut out = vec![Ok(false); V];
    starkbatch::verify_batch(&items, &mut out);
    assert!(out.iter().all(|o| *o == Ok(true)));
    let mut g = c.benchmark_group("verify_batch/256");
    g.throughput(Throughput::Elements(V as u64));
    g.sample_size(10);
    g.bench_function("pathfinder_loop", |b| {
        b.iter(|| {
            for (q, m, r, s) in &pf_items {
                let _ = black_box(pathfinder_crypto::signature::ecdsa_verify_partial(
                    *q, *m, *r, *s,
                ));
            }
        })
    });
    g.bench_function("scalar_verify_loop", |b| {
        b.iter(|| {
            for i in &items {
                let _ = black_box(starkbatch::verify(&i.public_key, &i.message, &i.r, &i.s));
            }
        })
    });
    g.bench_function("verify_batch", |b| {
        b.iter(|| starkbatch::verify_batch(black_box(&items), &mut out))
    });
    g.bench_function("verify_batch_par", |b| {
        b.iter(|| starkbatch::verify_batch_par(black_box(&items), &mut out))
    });
    g.finish();
}

fn bench_public_key(c: &mut Criterion) {
    const K: usize = 256;
    let mut rng = Rng(0x5555_aaaa_1234_9876);
    let keys: Vec<Felt> = (0..K).map(|_| rng.felt()).collect();
    let mut out = vec![Felt::ZERO; K];
    let mut g = c.benchmark_group("get_public_key_batch/256");
    g.throughput(Throughput::Elements(K as u64));
    g.sample_size(10);
    g.bench_function("scalar_get_public_key_loop", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(starkbatch::get_public_key(black_box(k)));
            }
        })
    });
    g.bench_function("get_public_key_batch", |b| {
        b.iter(|| starkbatch::get_public_key_batch(black_box(&keys), &mut out))
    });
    g.bench_function("get_public_key_batch_par", |b| {
        b.iter(|| starkbatch::get_public_key_batch_par(black_box(&keys), &mut out))
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_public_key,
    bench_double,
    bench_add,
    bench_to_affine,
    bench_verify
);
criterion_main!(benches);
