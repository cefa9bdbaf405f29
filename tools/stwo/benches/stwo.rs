//! starkbatch beside stwo 2.3.0's own `SimdBackend` Poseidon252 operations, in the same criterion
//! groups (docs/provers.md, docs/benchmarks.md):
//!
//! - `stwo_commit_2^20x16`: `MerkleProverLifted::<SimdBackend, Poseidon252MerkleHasher>::commit`
//!   of 2^20 rows × 16 M31 columns vs `starkbatch::prover::commit` (1 thread) and
//!   `commit_par` (2 threads);
//! - `stwo_grind_20`: `SimdBackend::grind(channel, 20)` for 4 channels vs
//!   `starkbatch::prover::grind` / `grind_par`. The two return different valid nonces (stwo the
//!   smallest of the form `(a << 32) | b`, `b < 2^14`; starkbatch the smallest), so the number
//!   of hashes each tried is printed to compare rates as well as times.
//!
//! Built without this crate's `parallel` feature, stwo runs on one thread.
//!
//! Run: `cargo +nightly bench --manifest-path tools/stwo/Cargo.toml --bench stwo -- --warm-up-time 1 --measurement-time 20`.

#[path = "../../../benches/common/peak.rs"]
mod peak;

use criterion::{Criterion, criterion_group, criterion_main};
use starkbatch::Felt;
use starkbatch::interop::from_foreign;
use starkbatch_stwo::column_u32s;
use starknet_ff::FieldElement as FieldElement252;
use std::hint::black_box;
use stwo::core::channel::{Channel, Poseidon252Channel};
use stwo::core::fields::m31::M31;
use stwo::core::proof_of_work::GrindOps;
use stwo::core::vcs_lifted::poseidon252_merkle::Poseidon252MerkleHasher;
use stwo::prover::backend::simd::SimdBackend;
use stwo::prover::backend::simd::column::BaseColumn;
use stwo::prover::vcs_lifted::prover::MerkleProverLifted;

const LOG_ROWS: u32 = 20;
const COLUMNS: usize = 16;
const POW_BITS: u32 = 20;

fn trace() -> Vec<BaseColumn> {
    let mut s = 0x5eed_u64;
    (0..COLUMNS)
        .map(|_| {
            let values: Vec<M31> = (0..1usize << LOG_ROWS)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    M31((s % ((1 << 31) - 1)) as u32)
                })
                .collect();
            BaseColumn::from_cpu(&values)
        })
        .collect()
}

fn stwo_root(cols: &[BaseColumn]) -> FieldElement252 {
    MerkleProverLifted::<SimdBackend, Poseidon252MerkleHasher>::commit(
        cols.iter().collect(),
        LOG_ROWS,
        0,
    )
    .root()
}

fn commitment(c: &mut Criterion) {
    let cols = trace();
    let u32_cols: Vec<&[u32]> = cols.iter().map(column_u32s).collect();
    let (theirs, their_peak) = peak::peak_extra(|| stwo_root(&cols));
    let (ours, our_peak) = peak::peak_extra(|| {
        starkbatch::prover::commit(&u32_cols, LOG_ROWS)
            .unwrap()
            .root()
    });
    assert_eq!(from_foreign(&theirs), ours);
    println!(
        "commitment 2^{LOG_ROWS} x {COLUMNS}: peak extra heap stwo {:.1} MiB, starkbatch {:.1} MiB",
        their_peak as f64 / 1048576.0,
        our_peak as f64 / 1048576.0
    );
    let mut g = c.benchmark_group(format!("stwo_commit_2^{LOG_ROWS}x{COLUMNS}"));
    g.sample_size(10);
    g.bench_function("stwo SimdBackend", |b| {
        b.iter(|| black_box(stwo_root(black_box(&cols))))
    });
    g.bench_function("starkbatch 1 thread", |b| {
        b.iter(|| {
            black_box(
                starkbatch::prover::commit(black_box(&u32_cols), LOG_ROWS)
                    .unwrap()
                    .root(),
            )
        })
    });
    g.bench_function("starkbatch 2 threads", |b| {
        b.iter(|| {
            black_box(
                starkbatch::prover::commit_par(black_box(&u32_cols), LOG_ROWS)
                    .unwrap()
                    .root(),
            )
        })
    });
    g.finish();
}

fn grinding(c: &mut Criterion) {
    let channels: Vec<Poseidon252Channel> = (0..4u64)
        .map(|i| {
            let mut ch = Poseidon252Channel::default();
            ch.mix_u64(0x1111_2222_3333_4344 + i);
            ch
        })
        .collect();
    let digests: Vec<Felt> = channels
        .iter()
        .map(|ch| from_foreign(&ch.digest()))
        .collect();
    let (mut their_hashes, mut our_hashes) = (0u64, 0u64);
    for (ch, &d) in channels.iter().zip(&digests) {
        let theirs = <SimdBackend as GrindOps<Poseidon252Channel>>::grind(ch, POW_BITS);
        let ours = starkbatch::prover::grind(d, POW_BITS).unwrap();
        assert!(ch.verify_pow_nonce(POW_BITS, ours));
        their_hashes += (theirs >> 32) * (1 << 14) + (theirs & 0xffff_ffff) + 1;
        our_hashes += (ours / 512 + 1) * 512;
    }
    println!(
        "grind {POW_BITS} bits, 4 channels: stwo tries {their_hashes} nonces, starkbatch {our_hashes}"
    );
    let mut g = c.benchmark_group(format!("stwo_grind_{POW_BITS}"));
    g.sample_size(10);
    g.bench_function("stwo SimdBackend", |b| {
        b.iter(|| {
            for ch in &channels {
                black_box(<SimdBackend as GrindOps<Poseidon252Channel>>::grind(
                    black_box(ch),
                    POW_BITS,
                ));
            }
        })
    });
    g.bench_function("starkbatch 1 thread", |b| {
        b.iter(|| {
            for &d in &digests {
                black_box(starkbatch::prover::grind(black_box(d), POW_BITS).unwrap());
            }
        })
    });
    g.bench_function("starkbatch 2 threads", |b| {
        b.iter(|| {
            for &d in &digests {
                black_box(starkbatch::prover::grind_par(black_box(d), POW_BITS).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, commitment, grinding);
criterion_main!(benches);
