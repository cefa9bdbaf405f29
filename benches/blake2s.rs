//! Blake2s over felts: 1,024 messages of 256 random felts (every felt large, eight words),
//! starkbatch's batch kernels on every backend of this CPU beside starknet-types-core's
//! `Blake2Felt252` called per message (the `blake2` crate underneath), starkbatch's scalar
//! function per message (`blake2s_simd`, one message), and `blake2s_simd::many::hash_many`
//! over the pre-encoded messages (its own eight-way AVX2 kernel).
//!
//! `cargo bench --bench blake2s -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use starkbatch::{Backend, Felt, blake2s_hash_many};
use starknet_types_core::felt::Felt as CoreFelt;
use starknet_types_core::hash::Blake2Felt252;
use std::hint::black_box;

fn random_felts(n: usize, seed: u64) -> Vec<Felt> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            let mut b = [0u8; 32];
            for chunk in b.chunks_exact_mut(8) {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                chunk.copy_from_slice(&s.to_le_bytes());
            }
            b[0] &= 0x07;
            Felt::from_bytes_be_reduced(&b)
        })
        .collect()
}

/// The word encoding as bytes (what `blake2s_simd::many` is given).
fn encode(msg: &[Felt]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * msg.len());
    for x in msg {
        let l = x.to_raw_limbs();
        if l[1] == 0 && l[2] == 0 && l[3] == 0 && l[0] < 1 << 63 {
            out.extend_from_slice(&((l[0] >> 32) as u32).to_le_bytes());
            out.extend_from_slice(&(l[0] as u32).to_le_bytes());
        } else {
            for (k, limb) in l.iter().rev().enumerate() {
                let hi = (limb >> 32) as u32 | if k == 0 { 1 << 31 } else { 0 };
                out.extend_from_slice(&hi.to_le_bytes());
                out.extend_from_slice(&(*limb as u32).to_le_bytes());
            }
        }
    }
    out
}

fn bench_blake2s(c: &mut Criterion) {
    const N: usize = 1024;
    const LEN: usize = 256;
    let felts = random_felts(N * LEN, 0x5eed);
    let msgs: Vec<&[Felt]> = felts.chunks(LEN).collect();
    let core: Vec<Vec<CoreFelt>> = msgs
        .iter()
        .map(|m| {
            m.iter()
                .map(|x| CoreFelt::from_bytes_be(&x.to_bytes_be()))
                .collect()
        })
        .collect();

    // Same results before timing anything.
    let mut out = vec![Felt::ZERO; N];
    for backend in Backend::available() {
        backend.blake2s_hash_many_batch(&msgs, &mut out);
        for (h, m) in out.iter().zip(&core) {
            let r = Blake2Felt252::encode_felt252_data_and_calc_blake_hash(m);
            assert_eq!(h.to_bytes_be(), r.to_bytes_be());
        }
    }

    let mut g = c.benchmark_group("blake2s_1024x256");
    g.throughput(Throughput::Elements(N as u64));
    g.sample_size(20);
    g.bench_function("types_core_per_message", |b| {
        b.iter(|| {
            for m in &core {
                black_box(Blake2Felt252::encode_felt252_data_and_calc_blake_hash(
                    black_box(m),
                ));
            }
        })
    });
    g.bench_function("starkbatch_scalar_per_message", |b| {
        b.iter(|| {
            for m in &msgs {
                black_box(blake2s_hash_many(black_box(m)));
            }
        })
    });
    g.bench_function("blake2s_simd_hash_many_encoded", |b| {
        let params = blake2s_simd::Params::new();
        b.iter(|| {
            let encoded: Vec<Vec<u8>> = msgs.iter().map(|m| encode(m)).collect();
            let mut jobs: Vec<blake2s_simd::many::HashManyJob> = encoded
                .iter()
                .map(|e| blake2s_simd::many::HashManyJob::new(&params, e))
                .collect();
            blake2s_simd::many::hash_many(jobs.iter_mut());
            for j in &jobs {
                let mut le = [0u8; 32];
                le.copy_from_slice(j.to_hash().as_bytes());
                black_box(Felt::from_bytes_le_reduced(&le));
            }
        })
    });
    for backend in Backend::available() {
        g.bench_function(format!("starkbatch_batch_{}", backend.name()), |b| {
            b.iter(|| backend.blake2s_hash_many_batch(black_box(&msgs), &mut out))
        });
    }
    g.bench_function("starkbatch_batch_par_detected", |b| {
        let backend = Backend::detect();
        b.iter(|| backend.blake2s_hash_many_batch_par(black_box(&msgs), &mut out))
    });
    g.finish();
}

criterion_group!(benches, bench_blake2s);
criterion_main!(benches);
