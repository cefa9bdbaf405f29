//! Prover benchmarks: stwo's lifted Poseidon252 Merkle commitment and proof-of-work grinding,
//! starkbatch beside the same work done as stwo's SIMD backend does it today, one
//! starknet-crypto call per leaf sponge, inner node and nonce, in the same criterion group.
//!
//! - `prover_commit_2^20x16`: leaves of 2^20 rows × 16 M31 columns and every layer to the root
//!   (1 thread, 2 threads) vs per-row `starknet_crypto::poseidon_hash_many` and per-node
//!   `poseidon_hash`.
//! - `prover_grind_20`: the smallest nonce with 20 trailing zero bits (1 thread, 2 threads) vs
//!   one `starknet_crypto::poseidon_hash` per nonce from 0.
//!
//! Before the benchmarks, the peak extra heap memory of the 2^20 × 16 commitment is printed.
//!
//! Run: `cargo bench --bench prover -- --warm-up-time 1 --measurement-time 20`.

#[path = "common/peak.rs"]
mod peak;

use criterion::{Criterion, criterion_group, criterion_main};
use starkbatch::Felt;
use starkbatch::prover::{commit, commit_par, grind, grind_par};
use starknet_crypto::Felt as SnFelt;
use std::hint::black_box;

const LOG_ROWS: u32 = 20;
const COLUMNS: usize = 16;
const POW_BITS: u32 = 20;

fn trace() -> Vec<Vec<u32>> {
    let mut s = 0x5eed_u64;
    (0..COLUMNS)
        .map(|_| {
            (0..1usize << LOG_ROWS)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    (s % ((1 << 31) - 1)) as u32
                })
                .collect()
        })
        .collect()
}

/// stwo's packing of 8 M31 values per felt (full chunks: no length tag).
fn pack8(v: &[u32]) -> SnFelt {
    let (mut hi, mut lo) = (0u128, 0u128);
    for &x in v {
        hi = (hi << 31) | (lo >> 97);
        lo = (lo << 31) | x as u128;
    }
    let mut be = [0u8; 32];
    be[..16].copy_from_slice(&hi.to_be_bytes());
    be[16..].copy_from_slice(&lo.to_be_bytes());
    SnFelt::from_bytes_be(&be)
}

/// The commitment as stwo's SIMD backend computes it: one starknet-crypto sponge per row, one
/// `poseidon_hash` per inner node.
fn scalar_root(cols: &[Vec<u32>]) -> SnFelt {
    let rows = cols[0].len();
    let mut layer: Vec<SnFelt> = (0..rows)
        .map(|i| {
            let row: Vec<u32> = cols.iter().map(|c| c[i]).collect();
            let felts: Vec<SnFelt> = row.chunks(8).map(pack8).collect();
            starknet_crypto::poseidon_hash_many(&felts)
        })
        .collect();
    while layer.len() > 1 {
        layer = layer
            .chunks(2)
            .map(|p| starknet_crypto::poseidon_hash(p[0], p[1]))
            .collect();
    }
    layer[0]
}

fn scalar_grind(digest: SnFelt, n_bits: u32) -> u64 {
    let prefixed = starknet_crypto::poseidon_hash_many(&[
        SnFelt::from(0x1234_5678u64),
        digest,
        SnFelt::from(n_bits as u64),
    ]);
    (0u64..)
        .find(|&n| {
            let h = starknet_crypto::poseidon_hash(prefixed, SnFelt::from(n)).to_bytes_be();
            u128::from_be_bytes(h[16..].try_into().unwrap()).trailing_zeros() >= n_bits
        })
        .unwrap()
}

fn commitment(c: &mut Criterion) {
    let cols = trace();
    let refs: Vec<&[u32]> = cols.iter().map(|c| c.as_slice()).collect();
    let (root, extra) = peak::peak_extra(|| commit(&refs, LOG_ROWS).unwrap().root());
    let trace_bytes = (COLUMNS * 4) << LOG_ROWS;
    let leaf_bytes = 32usize << LOG_ROWS;
    println!(
        "commitment 2^{LOG_ROWS} x {COLUMNS}: peak extra heap {:.1} MiB (trace {:.1} MiB, leaf layer {:.1} MiB)",
        extra as f64 / 1048576.0,
        trace_bytes as f64 / 1048576.0,
        leaf_bytes as f64 / 1048576.0
    );
    assert_eq!(root.to_bytes_be(), scalar_root(&cols).to_bytes_be());
    let mut g = c.benchmark_group(format!("prover_commit_2^{LOG_ROWS}x{COLUMNS}"));
    g.sample_size(10);
    g.bench_function("starknet-crypto per leaf and node", |b| {
        b.iter(|| black_box(scalar_root(black_box(&cols))))
    });
    g.bench_function("starkbatch 1 thread", |b| {
        b.iter(|| black_box(commit(black_box(&refs), LOG_ROWS).unwrap().root()))
    });
    g.bench_function("starkbatch 2 threads", |b| {
        b.iter(|| black_box(commit_par(black_box(&refs), LOG_ROWS).unwrap().root()))
    });
    g.finish();
}

fn grinding(c: &mut Criterion) {
    let digest = Felt::from(0xC0FFEEu64);
    let sn = SnFelt::from_bytes_be(&digest.to_bytes_be());
    let nonce = grind(digest, POW_BITS).unwrap();
    assert_eq!(nonce, scalar_grind(sn, POW_BITS));
    println!(
        "grind {POW_BITS} bits: nonce {nonce} ({} hashes)",
        nonce + 1
    );
    let mut g = c.benchmark_group(format!("prover_grind_{POW_BITS}"));
    g.sample_size(10);
    g.bench_function("starknet-crypto per nonce", |b| {
        b.iter(|| black_box(scalar_grind(black_box(sn), POW_BITS)))
    });
    g.bench_function("starkbatch 1 thread", |b| {
        b.iter(|| black_box(grind(black_box(digest), POW_BITS).unwrap()))
    });
    g.bench_function("starkbatch 2 threads", |b| {
        b.iter(|| black_box(grind_par(black_box(digest), POW_BITS).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, commitment, grinding);
criterion_main!(benches);
