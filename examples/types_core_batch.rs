//! Hashing `starknet_types_core::felt::Felt` values through starkbatch's batch API.
//!
//! A program that already holds its data as starknet-types-core felts converts each batch with
//! `starkbatch::interop` (a limb reversal per felt: both use Montgomery form with R = 2^256),
//! hashes it on SIMD lanes, and converts the results back. Here: Poseidon of 1000 pairs, checked
//! against starknet-types-core's own scalar Poseidon.
//!
//! Run: `cargo run --release --features starknet-types-core --example types_core_batch`

use starkbatch::interop::{from_core_pairs, to_core_vec};
use starkbatch::{Backend, Felt, poseidon_hash_batch};
use starknet_types_core::felt::Felt as CoreFelt;
use starknet_types_core::hash::{Poseidon, StarkHash};

fn main() {
    // Data as the rest of the program has it: starknet-types-core felts.
    let pairs: Vec<[CoreFelt; 2]> = (0..1000u64)
        .map(|i| [CoreFelt::from(i), CoreFelt::from(i * i + 7)])
        .collect();

    // 1. Convert the batch (no allocation beyond the output buffers).
    let mut ours = vec![[Felt::ZERO; 2]; pairs.len()];
    from_core_pairs(&pairs, &mut ours);

    // 2. Hash it on SIMD lanes (the best backend of this CPU, or STARKBATCH_BACKEND).
    let mut hashes = vec![Felt::ZERO; pairs.len()];
    poseidon_hash_batch(&ours, &mut hashes);

    // 3. Back to starknet-types-core felts.
    let hashes: Vec<CoreFelt> = to_core_vec(&hashes);

    // The same values as starknet-types-core's scalar Poseidon.
    for ([a, b], h) in pairs.iter().zip(&hashes) {
        assert_eq!(*h, Poseidon::hash(a, b));
    }
    println!(
        "{} Poseidon hashes on the {} backend match starknet-types-core; first: {:#x}",
        hashes.len(),
        Backend::current().name(),
        hashes[0]
    );
}
