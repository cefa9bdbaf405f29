//! ECDSA benchmarks: starkbatch beside starknet-crypto 0.8 and pathfinder-crypto 0.24 (where it
//! has the function) in one criterion group per operation, so that ratios come from one run.
//!
//! `cargo bench --bench ecdsa -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use starkbatch::Felt;
type SnFelt = starknet_crypto::Felt;
type PfFelt = pathfinder_crypto::Felt;

fn felt(s: &str) -> Felt {
    Felt::from_hex(s).unwrap()
}
fn sn(f: &Felt) -> SnFelt {
    SnFelt::from_bytes_be(&f.to_bytes_be())
}
fn pf(f: &Felt) -> PfFelt {
    PfFelt::from_be_bytes(f.to_bytes_be()).unwrap()
}

/// A private key, message, nonce and seed (from the spec's RFC 6979 vector).
struct Inputs {
    d: Felt,
    m: Felt,
    k: Felt,
    seed: Felt,
}

fn inputs() -> Inputs {
    let m = felt("0x10b559a3b4dc1b7137d90521cb413b397ff07963214d128a92d65aec7182f68");
    let d = felt("0x7e3184f4bef18f371bc53fc412dff1b30dbc94f758490fb8e2349bae647a642");
    let seed = felt("0x3fe27199aaad4e700559e2436a919f4de70def585a6deb2f4c087fdf6a27c1b");
    let k = starkbatch::rfc6979_generate_k(&m, &d, Some(&seed));
    Inputs { d, m, k, seed }
}

fn bench_get_public_key(c: &mut Criterion) {
    let i = inputs();
    let (sd, pd) = (sn(&i.d), pf(&i.d));
    let mut g = c.benchmark_group("ecdsa_get_public_key");
    g.bench_function("starkbatch", |b| {
        b.iter(|| starkbatch::get_public_key(black_box(&i.d)))
    });
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| starknet_crypto::get_public_key(black_box(&sd)))
    });
    g.bench_function("pathfinder-crypto", |b| {
        b.iter(|| pathfinder_crypto::signature::get_pk(black_box(pd)))
    });
    g.finish();
}

fn bench_sign(c: &mut Criterion) {
    let i = inputs();
    let (sd, sm, sk) = (sn(&i.d), sn(&i.m), sn(&i.k));
    let (pd, pm, pk) = (pf(&i.d), pf(&i.m), pf(&i.k));
    let mut g = c.benchmark_group("ecdsa_sign");
    g.bench_function("starkbatch", |b| {
        b.iter(|| starkbatch::sign(black_box(&i.d), black_box(&i.m), black_box(&i.k)))
    });
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| starknet_crypto::sign(black_box(&sd), black_box(&sm), black_box(&sk)))
    });
    g.bench_function("pathfinder-crypto", |b| {
        b.iter(|| {
            pathfinder_crypto::signature::ecdsa_sign_k(black_box(pd), black_box(pm), black_box(pk))
        })
    });
    g.finish();
}

fn bench_verify(c: &mut Criterion) {
    let i = inputs();
    let q = starkbatch::get_public_key(&i.d);
    let sig = starkbatch::sign(&i.d, &i.m, &i.k).unwrap();
    assert_eq!(starkbatch::verify(&q, &i.m, &sig.r, &sig.s), Ok(true));
    let (sq, sm, sr, ss) = (sn(&q), sn(&i.m), sn(&sig.r), sn(&sig.s));
    let (pq, pm, pr, ps) = (pf(&q), pf(&i.m), pf(&sig.r), pf(&sig.s));
    let mut g = c.benchmark_group("ecdsa_verify");
    g.bench_function("starkbatch", |b| {
        b.iter(|| {
            starkbatch::verify(
                black_box(&q),
                black_box(&i.m),
                black_box(&sig.r),
                black_box(&sig.s),
            )
        })
    });
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| {
            starknet_crypto::verify(
                black_box(&sq),
                black_box(&sm),
                black_box(&sr),
                black_box(&ss),
            )
        })
    });
    g.bench_function("pathfinder-crypto", |b| {
        b.iter(|| {
            pathfinder_crypto::signature::ecdsa_verify_partial(
                black_box(pq),
                black_box(pm),
                black_box(pr),
                black_box(ps),
            )
        })
    });
    g.finish();
}

fn bench_recover(c: &mut Criterion) {
    let i = inputs();
    let sig = starkbatch::sign(&i.d, &i.m, &i.k).unwrap();
    let (sm, sr, ss, sv) = (sn(&i.m), sn(&sig.r), sn(&sig.s), sn(&sig.v));
    let mut g = c.benchmark_group("ecdsa_recover");
    g.bench_function("starkbatch", |b| {
        b.iter(|| {
            starkbatch::recover(
                black_box(&i.m),
                black_box(&sig.r),
                black_box(&sig.s),
                black_box(&sig.v),
            )
        })
    });
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| {
            starknet_crypto::recover(
                black_box(&sm),
                black_box(&sr),
                black_box(&ss),
                black_box(&sv),
            )
        })
    });
    g.finish();
}

fn bench_rfc6979(c: &mut Criterion) {
    let i = inputs();
    let (sm, sd, ss) = (sn(&i.m), sn(&i.d), sn(&i.seed));
    let mut g = c.benchmark_group("rfc6979_generate_k");
    g.bench_function("starkbatch", |b| {
        b.iter(|| {
            starkbatch::rfc6979_generate_k(
                black_box(&i.m),
                black_box(&i.d),
                Some(black_box(&i.seed)),
            )
        })
    });
    g.bench_function("starknet-crypto", |b| {
        b.iter(|| {
            starknet_crypto::rfc6979_generate_k(
                black_box(&sm),
                black_box(&sd),
                Some(black_box(&ss)),
            )
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_get_public_key,
    bench_recover,
    bench_sign,
    bench_verify,
    bench_rfc6979
);
criterion_main!(benches);
