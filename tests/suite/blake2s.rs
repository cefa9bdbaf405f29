//! Blake2s over felts: starkbatch against starknet-types-core 1.0's `Blake2Felt252`
//! (the definition the sequencer uses), scalar and batch, on every backend of this CPU,
//! in every lane position and tail length.

use proptest::prelude::*;
use starkbatch::{Backend, Felt, blake2s_hash_many, blake2s_hash_many_batch};
use starknet_types_core::felt::Felt as CoreFelt;
use starknet_types_core::hash::Blake2Felt252;

fn core(x: &Felt) -> CoreFelt {
    CoreFelt::from_bytes_be(&x.to_bytes_be())
}

fn reference(msg: &[Felt]) -> Felt {
    let c: Vec<CoreFelt> = msg.iter().map(core).collect();
    let h = Blake2Felt252::encode_felt252_data_and_calc_blake_hash(&c);
    Felt::from_bytes_be(&h.to_bytes_be()).unwrap()
}

/// Felts at the encoding's edges: 0, 1, around 2^63, around 2^64, high bits, p - 1.
fn edges() -> Vec<Felt> {
    let two63 = Felt::from(1u64 << 63);
    vec![
        Felt::ZERO,
        Felt::ONE,
        two63 - Felt::ONE,
        two63,
        two63 + Felt::ONE,
        Felt::from(u64::MAX),
        Felt::from(u64::MAX) + Felt::ONE,
        Felt::from_hex("0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff").unwrap(),
        Felt::from_hex("0x800000000000011000000000000000000000000000000000000000000000000")
            .unwrap(),
        Felt::from_hex("0x400000000000000000000000000000000000000000000000000000000000000")
            .unwrap(),
        Felt::MAX,
    ]
}

#[test]
fn edge_felts_alone_and_together() {
    let e = edges();
    for x in &e {
        assert_eq!(blake2s_hash_many(&[*x]), reference(&[*x]), "{x}");
    }
    for len in 0..=e.len() {
        assert_eq!(
            blake2s_hash_many(&e[..len]),
            reference(&e[..len]),
            "prefix {len}"
        );
    }
}

/// Every backend, every lane position and tail length: batches of 0..=40 messages whose
/// lengths (0..=70 felts, small and large felts mixed) differ per position, so messages end in
/// every lane and lanes are refilled mid-batch.
#[test]
fn every_backend_every_lane_and_tail() {
    let e = edges();
    let pool: Vec<Felt> = (0..400u64)
        .map(|i| match i % 4 {
            0 => Felt::from(i * 0x0123_4567_89ab),
            1 => e[(i as usize / 4) % e.len()],
            _ => Felt::MAX - Felt::from(i * i * 0xfeed),
        })
        .collect();
    for backend in Backend::available() {
        for n in 0..=40usize {
            let msgs: Vec<&[Felt]> = (0..n)
                .map(|i| {
                    let len = (i * 13 + n * 5) % 71;
                    &pool[i * 3..i * 3 + len]
                })
                .collect();
            let mut out = vec![Felt::ZERO; n];
            backend.blake2s_hash_many_batch(&msgs, &mut out);
            let mut par = vec![Felt::ZERO; n];
            backend.blake2s_hash_many_batch_par(&msgs, &mut par);
            for (i, m) in msgs.iter().enumerate() {
                let want = blake2s_hash_many(m);
                assert_eq!(out[i], want, "{backend:?}, batch {n}, message {i}");
                assert_eq!(par[i], want, "{backend:?} (par), batch {n}, message {i}");
            }
        }
    }
}

fn felt() -> impl Strategy<Value = Felt> {
    prop_oneof![
        any::<u64>().prop_map(Felt::from),
        (0u64..1 << 63).prop_map(Felt::from),
        any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn scalar_matches_types_core(msg in prop::collection::vec(felt(), 0..=64)) {
        prop_assert_eq!(blake2s_hash_many(&msg), reference(&msg));
    }

    #[test]
    fn long_messages_match_types_core(msg in prop::collection::vec(felt(), 65..600)) {
        prop_assert_eq!(blake2s_hash_many(&msg), reference(&msg));
    }

    #[test]
    fn batch_matches_types_core(msgs in prop::collection::vec(prop::collection::vec(felt(), 0..=80), 0..40)) {
        let refs: Vec<&[Felt]> = msgs.iter().map(|m| m.as_slice()).collect();
        for backend in Backend::available() {
            let mut out = vec![Felt::ZERO; refs.len()];
            backend.blake2s_hash_many_batch(&refs, &mut out);
            for (m, h) in refs.iter().zip(&out) {
                prop_assert_eq!(*h, reference(m));
            }
        }
        let mut out = vec![Felt::ZERO; refs.len()];
        blake2s_hash_many_batch(&refs, &mut out);
        for (m, h) in refs.iter().zip(&out) {
            prop_assert_eq!(*h, reference(m));
        }
    }
}
