//! Pedersen hash and STARK-curve operations, starkbatch beside starknet-crypto 0.8
//! (starknet-types-core's curve, which starknet-crypto uses) and pathfinder-crypto 0.24.
//!
//! `cargo bench --bench pedersen -- --warm-up-time 1 --measurement-time 3`
//! (`-- pedersen_hash_batch ...` for the batch group alone)

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use starkbatch::Felt;
use starkbatch::curve::{GENERATOR, ProjectivePoint, double_scalar_mul_vartime, mul_generator_ct};

mod common;

/// Deterministic pseudo-random field elements (see `common::random_felts`).
fn inputs(n: usize, seed: u64) -> Vec<Felt> {
    common::random_felts(n, seed)
}

fn sc(f: &Felt) -> starknet_crypto::Felt {
    starknet_crypto::Felt::from_bytes_be(&f.to_bytes_be())
}

fn tc(f: &Felt) -> starknet_types_core::felt::Felt {
    starknet_types_core::felt::Felt::from_bytes_be(&f.to_bytes_be())
}

fn pf(f: &Felt) -> pathfinder_crypto::Felt {
    pathfinder_crypto::Felt::from_be_bytes(f.to_bytes_be()).unwrap()
}

const N: usize = 256;

fn bench_pedersen(c: &mut Criterion) {
    let xs = inputs(N, 0x1234_5678);
    let ys = inputs(N, 0x9abc_def0);
    // Warm the lazily built tables outside the measurement.
    black_box(starkbatch::pedersen_hash(&xs[0], &ys[0]));
    let sxs: Vec<_> = xs.iter().map(sc).collect();
    let sys: Vec<_> = ys.iter().map(sc).collect();
    let pxs: Vec<_> = xs.iter().map(pf).collect();
    let pys: Vec<_> = ys.iter().map(pf).collect();

    let mut g = c.benchmark_group("pedersen_hash");
    let mut i = 0;
    g.bench_function("starkbatch", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            starkbatch::pedersen_hash(black_box(&xs[i]), black_box(&ys[i]))
        })
    });
    let mut i = 0;
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            starknet_crypto::pedersen_hash(black_box(&sxs[i]), black_box(&sys[i]))
        })
    });
    let mut i = 0;
    g.bench_function("pathfinder-crypto", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            pathfinder_crypto::hash::pedersen_hash(black_box(pxs[i]), black_box(pys[i]))
        })
    });
    g.finish();
}

/// Batch size of the `pedersen_hash_batch` group.
const BATCH: usize = 4096;

/// A batch of 4096 hashes: `pedersen_hash_batch` (shared inversions) beside a loop of our scalar
/// `pedersen_hash` and a loop of pathfinder-crypto's `pedersen_hash`.
fn bench_pedersen_batch(c: &mut Criterion) {
    let xs = inputs(BATCH, 0x0bad_cafe);
    let ys = inputs(BATCH, 0xfeed_f00d);
    let pairs: Vec<[Felt; 2]> = xs.iter().zip(&ys).map(|(x, y)| [*x, *y]).collect();
    let pxs: Vec<_> = xs.iter().map(pf).collect();
    let pys: Vec<_> = ys.iter().map(pf).collect();
    black_box(starkbatch::pedersen_hash(&xs[0], &ys[0]));
    let mut out = vec![Felt::ZERO; BATCH];
    let mut pout = vec![pathfinder_crypto::Felt::ZERO; BATCH];

    let mut g = c.benchmark_group("pedersen_hash_batch");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("starkbatch/batch", |b| {
        b.iter(|| starkbatch::pedersen_hash_batch(black_box(&pairs), black_box(&mut out)))
    });
    for be in starkbatch::Backend::available() {
        g.bench_function(format!("starkbatch/batch-{}", be.name()), |b| {
            b.iter(|| be.pedersen_hash_batch(black_box(&pairs), black_box(&mut out)))
        });
    }
    g.bench_function("starkbatch/scalar-loop", |b| {
        b.iter(|| {
            for (o, [x, y]) in out.iter_mut().zip(black_box(&pairs)) {
                *o = starkbatch::pedersen_hash(x, y);
            }
        })
    });
    g.bench_function("pathfinder-crypto/loop", |b| {
        b.iter(|| {
            for ((o, x), y) in pout.iter_mut().zip(black_box(&pxs)).zip(&pys) {
                *o = pathfinder_crypto::hash::pedersen_hash(*x, *y);
            }
        })
    });
    g.finish();
    black_box((&out, &pout));
}

/// The batches a block commit makes (one per rank of dirty trie nodes: tens to a few thousand
/// pairs): `pedersen_hash_batch` of 16 to 1024 pairs beside a loop of pathfinder-crypto's
/// `pedersen_hash` on the same pairs, so that the fixed cost of a batch call shows.
fn bench_pedersen_batch_small(c: &mut Criterion) {
    for n in [16usize, 64, 256, 1024] {
        let xs = inputs(n, 0x5a11 + n as u64);
        let ys = inputs(n, 0xba7c + n as u64);
        let pairs: Vec<[Felt; 2]> = xs.iter().zip(&ys).map(|(x, y)| [*x, *y]).collect();
        let pxs: Vec<_> = xs.iter().map(pf).collect();
        let pys: Vec<_> = ys.iter().map(pf).collect();
        let mut out = vec![Felt::ZERO; n];
        let mut pout = vec![pathfinder_crypto::Felt::ZERO; n];
        let mut g = c.benchmark_group(format!("pedersen_hash_batch_small/{n}"));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function("starkbatch/batch", |b| {
            b.iter(|| starkbatch::pedersen_hash_batch(black_box(&pairs), black_box(&mut out)))
        });
        g.bench_function("pathfinder-crypto/loop", |b| {
            b.iter(|| {
                for ((o, x), y) in pout.iter_mut().zip(black_box(&pxs)).zip(&pys) {
                    *o = pathfinder_crypto::hash::pedersen_hash(*x, *y);
                }
            })
        });
        g.finish();
        black_box((&out, &pout));
    }
}

/// 1024 messages of 8 elements: `pedersen_hash_array_batch` (lock-step batches) beside a loop
/// of our `pedersen_hash_array` and the same chain with pathfinder-crypto's `pedersen_hash`.
fn bench_pedersen_array_batch(c: &mut Criterion) {
    const MESSAGES: usize = 1024;
    const LEN: usize = 8;
    let xs = inputs(MESSAGES * LEN, 0x0a11_a7a7);
    let msgs: Vec<&[Felt]> = xs.chunks(LEN).collect();
    let pxs: Vec<_> = xs.iter().map(pf).collect();
    let mut out = vec![Felt::ZERO; MESSAGES];
    let mut pout = vec![pathfinder_crypto::Felt::ZERO; MESSAGES];
    let mut g = c.benchmark_group("pedersen_hash_array_batch");
    g.throughput(Throughput::Elements(MESSAGES as u64));
    g.bench_function("starkbatch/batch", |b| {
        b.iter(|| starkbatch::pedersen_hash_array_batch(black_box(&msgs), black_box(&mut out)))
    });
    g.bench_function("starkbatch/scalar-loop", |b| {
        b.iter(|| {
            for (o, m) in out.iter_mut().zip(black_box(&msgs)) {
                *o = starkbatch::pedersen_hash_array(m);
            }
        })
    });
    g.bench_function("pathfinder-crypto/loop", |b| {
        let len = pathfinder_crypto::Felt::from_u64(LEN as u64);
        b.iter(|| {
            for (o, m) in pout.iter_mut().zip(black_box(&pxs).chunks(LEN)) {
                let h = m.iter().fold(pathfinder_crypto::Felt::ZERO, |h, a| {
                    pathfinder_crypto::hash::pedersen_hash(h, *a)
                });
                *o = pathfinder_crypto::hash::pedersen_hash(h, len);
            }
        })
    });
    g.finish();
    black_box((&out, &pout));
}

fn bench_curve(c: &mut Criterion) {
    use starknet_types_core::curve::ProjectivePoint as RefPoint;
    let ks = inputs(N, 0x5555_aaaa);
    let g_ours = ProjectivePoint::from_affine(&GENERATOR);
    let g_ref = RefPoint::from_affine(tc(&GENERATOR.x), tc(&GENERATOR.y)).unwrap();
    // Non-normalised points (Z != 1) to add and double.
    let p_ours = g_ours.mul_vartime(&ks[0].to_raw_limbs());
    let q_ours = g_ours.mul_vartime(&ks[1].to_raw_limbs());
    let p_ref = &g_ref * tc(&ks[0]);
    let q_ref = &g_ref * tc(&ks[1]);
    let q_aff = q_ours.to_affine();
    black_box(mul_generator_ct(&ks[0].to_raw_limbs()));
    black_box(double_scalar_mul_vartime(
        &[1, 0, 0, 0],
        &[1, 0, 0, 0],
        &q_aff,
    ));

    let mut g = c.benchmark_group("curve");
    g.bench_function("double/starkbatch", |b| {
        b.iter(|| black_box(&p_ours).double())
    });
    g.bench_function("double/starknet-crypto", |b| {
        b.iter(|| black_box(&p_ref).double())
    });
    g.bench_function("add/starkbatch", |b| {
        b.iter(|| black_box(&p_ours).add(black_box(&q_ours)))
    });
    g.bench_function("add/starknet-crypto", |b| {
        b.iter(|| black_box(&p_ref) + black_box(&q_ref))
    });
    g.bench_function("add_affine/starkbatch", |b| {
        b.iter(|| black_box(&p_ours).add_affine(black_box(&q_aff)))
    });
    let mut i = 0;
    g.bench_function("mul_vartime/starkbatch", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            black_box(&p_ours).mul_vartime(&ks[i].to_raw_limbs())
        })
    });
    let mut i = 0;
    g.bench_function("mul_vartime/starknet-crypto", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            black_box(&p_ref) * tc(&ks[i])
        })
    });
    let mut i = 0;
    g.bench_function("mul_generator_ct/starkbatch", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            mul_generator_ct(&ks[i].to_raw_limbs())
        })
    });
    let mut i = 0;
    g.bench_function("mul_generator/starknet-crypto", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            black_box(&g_ref) * tc(&ks[i])
        })
    });
    let mut i = 0;
    g.bench_function("double_scalar_mul_vartime/starkbatch", |b| {
        b.iter(|| {
            i = (i + 1) % N;
            double_scalar_mul_vartime(
                &ks[i].to_raw_limbs(),
                &ks[(i + 7) % N].to_raw_limbs(),
                &q_aff,
            )
        })
    });
    g.bench_function("to_affine/starkbatch", |b| {
        b.iter_batched(|| p_ours, |p| p.to_affine(), BatchSize::SmallInput)
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_pedersen,
    bench_pedersen_batch,
    bench_pedersen_batch_small,
    bench_pedersen_array_batch,
    bench_curve
);
criterion_main!(benches);
