//! The main job on a built-in, deterministic workload, with its throughput.
//!
//! PLACEHOLDER: until batch Poseidon hashing lands, the workload is plain `Felt` arithmetic:
//! every element of a vector goes through `ROUNDS` rounds of `x = x² · c + x`. Replace the body
//! of `workload` with batch hashing of the same vector when it exists; keep the output format
//! (count, time, ns per operation, checksum).
//!
//! Run: `cargo run --release --example hash_workload [ELEMENTS]` (default 1 048 576).

use starkbatch::Felt;
use std::hint::black_box;
use std::time::Instant;

const ROUNDS: usize = 8;

/// `x = x² · c + x`, `ROUNDS` times, for every element; returns the sum of the results.
fn workload(xs: &mut [Felt], c: Felt) -> Felt {
    for x in xs.iter_mut() {
        let mut v = *x;
        for _ in 0..ROUNDS {
            v = v.square() * c + v;
        }
        *x = v;
    }
    xs.iter().sum()
}

fn main() {
    let n: usize = match std::env::args().nth(1) {
        None => 1 << 20,
        Some(a) => match a.parse() {
            Ok(n) => n,
            Err(e) => {
                eprintln!("hash_workload: ELEMENTS must be a count, got {a:?}: {e}");
                std::process::exit(2);
            }
        },
    };
    // Deterministic input: x_i = (i + 1) · 2^200 + i (spreads values over all limbs).
    let shift = Felt::TWO.pow(200);
    let mut xs: Vec<Felt> = (0..n as u64)
        .map(|i| Felt::from(i + 1) * shift + Felt::from(i))
        .collect();
    let c = Felt::from_hex_unchecked("0x5ba1ab1e5eed");

    let start = Instant::now();
    let checksum = workload(black_box(&mut xs), black_box(c));
    let secs = start.elapsed().as_secs_f64();

    // One round = one square, one multiplication, one addition.
    let ops = (n * ROUNDS * 3) as f64;
    println!("starkbatch hash_workload (placeholder: Felt arithmetic until batch Poseidon lands)");
    println!("elements: {n}, rounds: {ROUNDS} of x = x^2 * c + x");
    println!(
        "time: {:.3} s, {:.2} ns per field op, {:.1} ns per element-round",
        secs,
        secs * 1e9 / ops,
        secs * 1e9 / (n * ROUNDS) as f64
    );
    println!("checksum: {checksum}");
}
