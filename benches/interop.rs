//! The cost of moving batches between starknet-types-core's `Felt` and starkbatch's `Felt`
//! (feature `starknet-types-core`), beside the batch hash it feeds, in one criterion group so
//! that the ratio conversion : hash comes from one run.
//!
//! Run: `cargo bench --features starknet-types-core --bench interop -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use starkbatch::interop::{from_core_pairs, from_core_slice, to_core_slice};
use starkbatch::{Felt, poseidon_hash_batch};
use starknet_types_core::felt::Felt as CoreFelt;
use std::hint::black_box;

const N: usize = 1024;

fn inputs() -> Vec<CoreFelt> {
    let seed = Felt::from_hex_unchecked(
        "0x05a1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0fedcba9876543",
    );
    (0..2 * N as u128)
        .map(|i| CoreFelt::from(seed.pow(i + 3)))
        .collect()
}

fn conversion(c: &mut Criterion) {
    let core = inputs();
    let core_pairs: Vec<[CoreFelt; 2]> = core.chunks_exact(2).map(|c| [c[0], c[1]]).collect();
    let mut felts = vec![Felt::ZERO; core.len()];
    let mut pairs = vec![[Felt::ZERO; 2]; N];
    let mut back = vec![CoreFelt::ZERO; N];
    let mut out = vec![Felt::ZERO; N];

    let mut g = c.benchmark_group("interop");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("from_core_slice (2 felts per hash)", |b| {
        b.iter(|| from_core_slice(black_box(&core), black_box(&mut felts)))
    });
    g.bench_function("to_core_slice (1 felt per hash)", |b| {
        b.iter(|| to_core_slice(black_box(&felts[..N]), black_box(&mut back)))
    });
    g.bench_function(
        "via bytes: from_bytes_be(to_bytes_be) (2 felts per hash)",
        |b| {
            b.iter(|| {
                for (d, s) in felts.iter_mut().zip(black_box(&core)) {
                    *d = Felt::from_bytes_be_reduced(&s.to_bytes_be());
                }
            })
        },
    );
    g.bench_function("poseidon_hash_batch", |b| {
        from_core_pairs(&core_pairs, &mut pairs);
        b.iter(|| poseidon_hash_batch(black_box(&pairs), black_box(&mut out)))
    });
    g.bench_function("convert + poseidon_hash_batch + convert back", |b| {
        b.iter(|| {
            from_core_pairs(black_box(&core_pairs), &mut pairs);
            poseidon_hash_batch(&pairs, &mut out);
            to_core_slice(&out, black_box(&mut back));
        })
    });
    g.finish();
}

criterion_group!(benches, conversion);
criterion_main!(benches);
