//! Differential tests against the stwo crate itself (2.3.0): leaf layers, roots, decommitments
//! (checked by stwo's verifier) and proof-of-work nonces, for random columns of mixed log sizes,
//! 1 to 40 columns. `scripts/stwo-test.sh` runs them on every starkbatch backend this CPU has
//! (`STARKBATCH_BACKEND`).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use starkbatch::Felt;
use starkbatch::interop::{from_foreign, to_foreign_vec};
use starkbatch_stwo::{build_leaves, build_next_layer, column_u32s, grind};
use starknet_ff::FieldElement as FieldElement252;
use stwo::core::channel::{Channel, Poseidon252Channel};
use stwo::core::fields::m31::{BaseField, M31};
use stwo::core::proof_of_work::GrindOps;
use stwo::core::vcs_lifted::poseidon252_merkle::Poseidon252MerkleHasher;
use stwo::core::vcs_lifted::verifier::{MerkleDecommitmentLifted, MerkleVerifierLifted};
use stwo::prover::backend::Column;
use stwo::prover::backend::simd::SimdBackend;
use stwo::prover::backend::simd::column::BaseColumn;
use stwo::prover::vcs_lifted::ops::MerkleOpsLifted;
use stwo::prover::vcs_lifted::prover::MerkleProverLifted;

const P: u32 = (1 << 31) - 1;

/// `count` columns of random log sizes in `min_log..=max_log`, with values that include the
/// edges 0 and P - 1.
fn columns(rng: &mut StdRng, count: usize, min_log: u32, max_log: u32) -> Vec<BaseColumn> {
    (0..count)
        .map(|_| {
            let log = rng.random_range(min_log..=max_log);
            let values: Vec<BaseField> = (0..1usize << log)
                .map(|_| match rng.random_range(0..8) {
                    0 => M31(0),
                    1 => M31(P - 1),
                    _ => M31(rng.random_range(0..P)),
                })
                .collect();
            BaseColumn::from_cpu(&values)
        })
        .collect()
}

fn sorted(cols: &[BaseColumn]) -> Vec<&BaseColumn> {
    let mut refs: Vec<&BaseColumn> = cols.iter().collect();
    refs.sort_by_key(|c| c.len());
    refs
}

fn max_log(cols: &[BaseColumn]) -> u32 {
    cols.iter().map(|c| c.len().ilog2()).max().unwrap()
}

fn stwo_leaves(cols: &[&BaseColumn], lifting_log_size: u32) -> Vec<FieldElement252> {
    <SimdBackend as MerkleOpsLifted<Poseidon252MerkleHasher>>::build_leaves(cols, lifting_log_size)
}

#[test]
fn leaf_layers_and_next_layers_equal_stwo() {
    let mut rng = StdRng::seed_from_u64(31);
    for count in 1..=40 {
        // stwo's SIMD path (columns of at least 16 rows) and its CPU fallback (shorter ones).
        for (min_log, top_log) in [(4, 8), (1, 3)] {
            let cols = columns(&mut rng, count, min_log, top_log);
            let refs = sorted(&cols);
            let lifting = max_log(&cols) + rng.random_range(0..=1);
            let ours = build_leaves(&refs, lifting);
            assert_eq!(
                ours,
                stwo_leaves(&refs, lifting),
                "{count} columns, logs {min_log}..={top_log}"
            );
            assert_eq!(
                build_next_layer(&ours),
                <SimdBackend as MerkleOpsLifted<Poseidon252MerkleHasher>>::build_next_layer(&ours),
            );
        }
    }
}

#[test]
fn roots_and_decommitments_equal_stwo_and_verify() {
    let mut rng = StdRng::seed_from_u64(252);
    for count in 1..=40 {
        let cols = columns(&mut rng, count, 2, 9);
        let lifting = max_log(&cols) + rng.random_range(0..=2);
        // Caller's order (unsorted): stwo sorts for the leaves and keeps this order for values.
        let refs: Vec<&BaseColumn> = cols.iter().collect();
        let theirs = MerkleProverLifted::<SimdBackend, Poseidon252MerkleHasher>::commit(
            refs.clone(),
            lifting,
            0,
        );
        let u32_cols: Vec<&[u32]> = cols.iter().map(column_u32s).collect();
        let ours = starkbatch::prover::commit(&u32_cols, lifting).unwrap();
        assert_eq!(
            FieldElement252::from(ours.root()),
            theirs.root(),
            "{count} columns"
        );
        for (layer, their_layer) in ours.layers().iter().rev().zip(&theirs.layers) {
            assert_eq!(&to_foreign_vec::<FieldElement252>(layer), their_layer);
        }

        let mut queries: Vec<usize> = (0..rng.random_range(1..=12))
            .map(|_| rng.random_range(0..1usize << lifting))
            .collect();
        queries.sort_unstable();
        let (their_values, their_witness) = theirs.decommit(&queries, refs);
        let (values, witness) = ours.decommit(&u32_cols, &queries).unwrap();
        let values_m31: Vec<Vec<BaseField>> = values
            .iter()
            .map(|v| v.iter().map(|&x| M31(x)).collect())
            .collect();
        assert_eq!(values_m31, their_values, "{count} columns: queried values");
        let witness: Vec<FieldElement252> = to_foreign_vec(&witness);
        assert_eq!(
            witness, their_witness.decommitment.hash_witness,
            "{count} columns: witness"
        );

        // stwo's verifier accepts starkbatch's decommitment, and rejects it tampered.
        let log_sizes: Vec<u32> = cols.iter().map(|c| c.len().ilog2()).collect();
        let verifier = MerkleVerifierLifted::<Poseidon252MerkleHasher>::new(
            FieldElement252::from(ours.root()),
            log_sizes,
            Some(lifting),
        );
        let decommitment =
            |hash_witness| MerkleDecommitmentLifted::<Poseidon252MerkleHasher> { hash_witness };
        verifier
            .verify(&queries, values_m31.clone(), decommitment(witness.clone()))
            .expect("stwo's verifier rejects starkbatch's decommitment");
        if !witness.is_empty() {
            let mut bad = witness.clone();
            bad[0] += FieldElement252::ONE;
            assert!(
                verifier
                    .verify(&queries, values_m31, decommitment(bad))
                    .is_err()
            );
        }
    }
}

#[test]
fn nonces_are_accepted_both_ways() {
    let mut rng = StdRng::seed_from_u64(0x12345678);
    for round in 0..24 {
        let mut channel = Poseidon252Channel::default();
        channel.mix_u64(rng.random());
        let bits = 1 + round % 13;
        let digest: Felt = from_foreign(&channel.digest());

        let ours = grind(&channel, bits);
        assert!(
            channel.verify_pow_nonce(bits, ours),
            "stwo rejects nonce {ours} for {bits} bits"
        );
        // Smallest: no nonce below it passes stwo's check.
        assert!((0..ours).all(|n| !channel.verify_pow_nonce(bits, n)));

        let theirs = <SimdBackend as GrindOps<Poseidon252Channel>>::grind(&channel, bits);
        assert!(starkbatch::prover::verify_pow_nonce(digest, bits, theirs).unwrap());
        assert!(ours <= theirs);
        for n in [ours + 1, theirs ^ 1, u64::MAX] {
            assert_eq!(
                starkbatch::prover::verify_pow_nonce(digest, bits, n).unwrap(),
                channel.verify_pow_nonce(bits, n),
                "nonce {n}"
            );
        }
    }
}

#[test]
fn runs_on_the_requested_backend() {
    let current = starkbatch::Backend::current();
    match std::env::var(starkbatch::BACKEND_ENV) {
        Ok(name) => assert_eq!(current.name(), name),
        Err(_) => assert!(current == starkbatch::Backend::detect()),
    }
    eprintln!("starkbatch backend: {}", current.name());
}
