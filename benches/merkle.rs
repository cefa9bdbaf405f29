//! Tree benchmarks: starkbatch's level-batched trees beside the same trees hashed one node at a
//! time with pathfinder-crypto, in the same criterion group.
//!
//! - `merkle_root_2^20_poseidon`: binary Merkle root of 2^20 leaves (1 thread, 2 threads) vs one
//!   `pathfinder_crypto::hash::poseidon_hash` per node.
//! - `storage_trie_100k_pedersen`: a Patricia storage trie (height 251) of 100,000 random keys vs
//!   the same trie built recursively with one `pathfinder_crypto::hash::pedersen_hash` per node.
//!
//! Before the benchmarks, the peak extra heap memory of `merkle::root` on 2^20 leaves is printed
//! (a counting global allocator), next to the leaves' own size.
//!
//! Run: `cargo bench --bench merkle -- --warm-up-time 1 --measurement-time 3`.

#[path = "common/peak.rs"]
mod peak;

use criterion::{Criterion, criterion_group, criterion_main};
use pathfinder_crypto::{Felt as PfFelt, MontFelt};
use starkbatch::merkle;
use starkbatch::state::{STATE_HEIGHT, trie_root};
use starkbatch::{Felt, Pedersen, Poseidon};
use std::hint::black_box;

// ---- inputs ----

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn random_felt(s: &mut u64, top_mask: u8) -> Felt {
    let mut b = [0u8; 32];
    for c in b.chunks_mut(8) {
        c.copy_from_slice(&xorshift(s).to_be_bytes());
    }
    b[0] &= top_mask;
    Felt::from_bytes_be(&b).expect("below 2^251")
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn to_pf(f: &Felt) -> PfFelt {
    PfFelt::from_be_bytes(f.to_bytes_be()).expect("canonical")
}

// ---- references: one pathfinder-crypto hash per node ----

/// Merkle root (odd last node carried up), one `poseidon_hash` per node.
fn pf_merkle_root(leaves: &[MontFelt]) -> MontFelt {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        let next: Vec<MontFelt> = level
            .chunks(2)
            .map(|c| {
                if c.len() == 2 {
                    pathfinder_crypto::hash::poseidon_hash(c[0], c[1])
                } else {
                    c[0]
                }
            })
            .collect();
        level = next;
    }
    level.first().copied().unwrap_or(MontFelt::ZERO)
}

type Key = [u64; 4];

fn highest_bit(x: &Key) -> Option<u32> {
    (0..4)
        .rev()
        .find(|&i| x[i] != 0)
        .map(|i| 64 * i as u32 + 63 - x[i].leading_zeros())
}

fn bit(k: &Key, i: u32) -> bool {
    (k[(i / 64) as usize] >> (i % 64)) & 1 == 1
}

/// Bits `lo..hi` of `k` as a felt.
fn bits_felt(k: &Key, lo: u32, hi: u32) -> PfFelt {
    let mut out = [0u8; 32];
    for i in lo..hi {
        if bit(k, i) {
            let j = i - lo;
            out[31 - (j / 8) as usize] |= 1 << (j % 8);
        }
    }
    PfFelt::from_be_bytes(out).expect("below 2^251")
}

/// Patricia node over sorted distinct keys that agree above bit `h`: one `pedersen_hash` per node.
fn pf_trie_node(items: &[(Key, PfFelt)], h: u32) -> PfFelt {
    let (first, last) = (&items[0].0, &items[items.len() - 1].0);
    let x = [
        first[0] ^ last[0],
        first[1] ^ last[1],
        first[2] ^ last[2],
        first[3] ^ last[3],
    ];
    let split = highest_bit(&x).map_or(0, |b| b + 1);
    let bottom = if split == 0 {
        items[0].1
    } else {
        let mid = items.partition_point(|(k, _)| !bit(k, split - 1));
        let l = pf_trie_node(&items[..mid], split - 1);
        let r = pf_trie_node(&items[mid..], split - 1);
        pathfinder_crypto::hash::pedersen_hash(l, r)
    };
    if split == h {
        bottom
    } else {
        pathfinder_crypto::hash::pedersen_hash(bottom, bits_felt(first, split, h))
            + PfFelt::from_u64(u64::from(h - split))
    }
}

fn pf_trie_root(items: &[(Key, PfFelt)]) -> PfFelt {
    if items.is_empty() {
        PfFelt::ZERO
    } else {
        pf_trie_node(items, STATE_HEIGHT)
    }
}

// ---- benchmarks ----

fn merkle_bench(c: &mut Criterion) {
    let n = 1usize << 20;
    let mut s = 0x1234_5678_9abc_def1u64;
    let leaves: Vec<Felt> = (0..n).map(|_| random_felt(&mut s, 0x07)).collect();
    let pf_leaves: Vec<MontFelt> = leaves.iter().map(|f| MontFelt::from(to_pf(f))).collect();

    let one = pool(1);
    let two = pool(2);
    let (r1, peak1) = peak::peak_extra(|| one.install(|| merkle::root::<Poseidon>(&leaves)));
    let (r2, peak2) = peak::peak_extra(|| two.install(|| merkle::root::<Poseidon>(&leaves)));
    let pf = pf_merkle_root(&pf_leaves);
    assert_eq!(r1, r2);
    assert_eq!(
        to_pf(&r1),
        PfFelt::from(pf),
        "root differs from the pathfinder-crypto reference"
    );
    let leaf_bytes = n * std::mem::size_of::<Felt>();
    println!(
        "memory: merkle::root of 2^20 leaves: peak extra heap {peak1} bytes (1 thread), {peak2} bytes (2 threads); \
         leaves {leaf_bytes} bytes; ratio {:.3} / {:.3}",
        peak1 as f64 / leaf_bytes as f64,
        peak2 as f64 / leaf_bytes as f64
    );

    let mut g = c.benchmark_group("merkle_root_2^20_poseidon");
    g.sample_size(10);
    g.bench_function("starkbatch_1_thread", |b| {
        b.iter(|| one.install(|| merkle::root::<Poseidon>(black_box(&leaves))))
    });
    g.bench_function("pathfinder_per_node", |b| {
        b.iter(|| pf_merkle_root(black_box(&pf_leaves)))
    });
    g.bench_function("starkbatch_2_threads", |b| {
        b.iter(|| two.install(|| merkle::root::<Poseidon>(black_box(&leaves))))
    });
    g.finish();
}

fn trie_bench(c: &mut Criterion) {
    let n = 100_000usize;
    let mut s = 0x0fed_cba9_8765_4321u64;
    let entries: Vec<(Felt, Felt)> = (0..n)
        .map(|_| {
            (
                random_felt(&mut s, 0x07),
                random_felt(&mut s, 0x07) + Felt::ONE,
            )
        })
        .collect();
    let mut pf_items: Vec<(Key, PfFelt)> = entries
        .iter()
        .map(|(k, v)| (k.to_raw_limbs(), to_pf(v)))
        .collect();
    pf_items.sort_by(|a, b| a.0.iter().rev().cmp(b.0.iter().rev()));
    pf_items.dedup_by(|a, b| a.0 == b.0);

    let one = pool(1);
    let two = pool(2);
    let ours = one.install(|| trie_root::<Pedersen>(&entries, STATE_HEIGHT).unwrap());
    assert_eq!(
        to_pf(&ours),
        pf_trie_root(&pf_items),
        "trie root differs from the pathfinder-crypto reference"
    );

    let mut g = c.benchmark_group("storage_trie_100k_pedersen");
    g.sample_size(10);
    g.bench_function("starkbatch_1_thread", |b| {
        b.iter(|| one.install(|| trie_root::<Pedersen>(black_box(&entries), STATE_HEIGHT).unwrap()))
    });
    g.bench_function("pathfinder_per_node", |b| {
        b.iter(|| pf_trie_root(black_box(&pf_items)))
    });
    g.bench_function("starkbatch_2_threads", |b| {
        b.iter(|| two.install(|| trie_root::<Pedersen>(black_box(&entries), STATE_HEIGHT).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, merkle_bench, trie_bench);
criterion_main!(benches);
