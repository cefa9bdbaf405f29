//! The prover module against references written from stwo's definitions over starknet-crypto
//! 0.8's Poseidon and num-bigint packing: leaf layers for 1..=40 columns of mixed log sizes,
//! roots, decommitments and their verification, grinding, and bad input.

use num_bigint::BigUint;
use proptest::prelude::*;
use starkbatch::Felt;
use starkbatch::prover::{
    M31_MODULUS, ProverError, commit, commit_par, grind, grind_par, leaf_hash, leaf_layer,
    leaf_layer_par, next_layer, pack_m31, verify_decommitment, verify_pow_nonce,
};
use starknet_crypto::Felt as SnFelt;

fn sn(x: &BigUint) -> SnFelt {
    let b = x.to_bytes_be();
    let mut be = [0u8; 32];
    be[32 - b.len()..].copy_from_slice(&b);
    SnFelt::from_bytes_be(&be)
}

fn ours(x: &SnFelt) -> Felt {
    Felt::from_bytes_be(&x.to_bytes_be()).unwrap()
}

/// stwo's packing: `Σ v_i · 2^(31·(k-1-i))`, plus `k · 2^248` for a chunk of `k < 8`.
fn ref_pack(chunk: &[u32]) -> SnFelt {
    let mut x = BigUint::from(0u32);
    for &v in chunk {
        x = (x << 31u32) + BigUint::from(v);
    }
    if chunk.len() < 8 {
        x += BigUint::from(chunk.len()) << 248u32;
    }
    sn(&x)
}

/// Column `c` lifted to `2^log` rows by the formula in stwo's `build_leaves`.
fn ref_lift(c: &[u32], log: u32) -> Vec<u32> {
    let s = log - c.len().trailing_zeros();
    (0..1usize << log)
        .map(|i| c[((i >> (s + 1)) << 1) | (i & 1)])
        .collect()
}

fn ref_leaves(columns: &[Vec<u32>], log: u32) -> Vec<SnFelt> {
    let mut sorted: Vec<&Vec<u32>> = columns.iter().collect();
    sorted.sort_by_key(|c| c.len()); // stable, as stwo's commit
    let lifted: Vec<Vec<u32>> = sorted.iter().map(|c| ref_lift(c, log)).collect();
    (0..1usize << log)
        .map(|i| {
            let row: Vec<u32> = lifted.iter().map(|c| c[i]).collect();
            let felts: Vec<SnFelt> = row.chunks(8).map(ref_pack).collect();
            starknet_crypto::poseidon_hash_many(&felts)
        })
        .collect()
}

fn ref_root(mut layer: Vec<SnFelt>) -> SnFelt {
    while layer.len() > 1 {
        layer = layer
            .chunks(2)
            .map(|p| starknet_crypto::poseidon_hash(p[0], p[1]))
            .collect();
    }
    layer[0]
}

fn refs(cols: &[Vec<u32>]) -> Vec<&[u32]> {
    cols.iter().map(|c| c.as_slice()).collect()
}

/// Deterministic columns: `n` columns of log sizes in `1..=log`, values spread over the M31
/// range with the edges 0 and 2^31 - 2 included.
fn columns(n: usize, log: u32, seed: u64) -> Vec<Vec<u32>> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let l = 1 + (next() % log as u64) as u32;
            (0..1usize << l)
                .map(|_| match next() % 5 {
                    0 => 0,
                    1 => M31_MODULUS - 1,
                    _ => (next() % M31_MODULUS as u64) as u32,
                })
                .collect()
        })
        .collect()
}

#[test]
fn pack_matches_the_definition_for_every_chunk_length() {
    let vals = [
        M31_MODULUS - 1,
        0,
        1,
        12345,
        M31_MODULUS - 2,
        7,
        1 << 30,
        99,
    ];
    for k in 1..=8 {
        assert_eq!(pack_m31(&vals[..k]), ours(&ref_pack(&vals[..k])), "k = {k}");
    }
}

/// stwo's doc example of lifting: `[a e c g b f d h]` (log size 3) lifted to log size 4 is
/// `[a e a e c g c g b f b f d h d h]`.
#[test]
fn lifting_follows_stwos_example() {
    let col = [1u32, 5, 3, 7, 2, 6, 4, 8];
    let lifted = [1u32, 5, 1, 5, 3, 7, 3, 7, 2, 6, 2, 6, 4, 8, 4, 8];
    assert_eq!(ref_lift(&col, 4), lifted);
    // The leaves of the lifted column equal those of the column given at full size.
    assert_eq!(
        leaf_layer(&[&col], 4).unwrap(),
        leaf_layer(&[&lifted], 4).unwrap()
    );
}

#[test]
fn leaf_layers_match_the_reference_for_1_to_40_columns() {
    for n in 1..=40usize {
        let log = 1 + (n as u32 % 9); // 2 to 512 rows: every tail of a 256-row block
        let cols = columns(n, log, n as u64 * 7919);
        let want: Vec<Felt> = ref_leaves(&cols, log).iter().map(ours).collect();
        let got = leaf_layer(&refs(&cols), log).unwrap();
        assert_eq!(got, want, "{n} columns, log size {log}");
        assert_eq!(leaf_layer_par(&refs(&cols), log).unwrap(), want);
        let row = (n * 31) % (1 << log);
        assert_eq!(leaf_hash(&refs(&cols), log, row).unwrap(), want[row]);
    }
}

#[test]
fn roots_match_the_reference() {
    for (n, log) in [(1usize, 1u32), (3, 5), (16, 10), (17, 11), (40, 7)] {
        let cols = columns(n, log, 1000 + n as u64);
        let want = ours(&ref_root(ref_leaves(&cols, log)));
        let c = commit(&refs(&cols), log).unwrap();
        assert_eq!(c.root(), want, "{n} columns, log size {log}");
        assert_eq!(commit_par(&refs(&cols), log).unwrap(), c);
        assert_eq!(c.layers().len(), log as usize + 1);
        assert_eq!(next_layer(&c.layers()[0]), c.layers()[1]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn decommitments_verify_and_tampering_fails(
        n in 1usize..12,
        log in 1u32..9,
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<usize>(), 1..12),
    ) {
        let cols = columns(n, log, seed);
        let c = commit(&refs(&cols), log).unwrap();
        let queries: Vec<usize> = picks.iter().map(|p| p % (1 << log)).collect();
        let (values, witness) = c.decommit(&refs(&cols), &queries).unwrap();
        let logs: Vec<u32> = cols.iter().map(|c| c.len().trailing_zeros()).collect();
        let v: Vec<&[u32]> = values.iter().map(|x| x.as_slice()).collect();
        for (col, vals) in cols.iter().zip(&values) {
            let lifted = ref_lift(col, log);
            prop_assert_eq!(vals.clone(), queries.iter().map(|&q| lifted[q]).collect::<Vec<_>>());
        }
        prop_assert!(verify_decommitment(c.root(), log, &logs, &queries, &v, &witness).unwrap());
        // A changed value, a changed or missing or extra witness hash, another root: rejected.
        let mut bad = values.clone();
        bad[0][0] = (bad[0][0] + 1) % M31_MODULUS;
        let b: Vec<&[u32]> = bad.iter().map(|x| x.as_slice()).collect();
        prop_assert!(!verify_decommitment(c.root(), log, &logs, &queries, &b, &witness).unwrap());
        if !witness.is_empty() {
            let mut w = witness.clone();
            w[0] += Felt::ONE;
            prop_assert!(!verify_decommitment(c.root(), log, &logs, &queries, &v, &w).unwrap());
            prop_assert!(!verify_decommitment(c.root(), log, &logs, &queries, &v, &witness[1..]).unwrap());
        }
        let mut longer = witness.clone();
        longer.push(Felt::ONE);
        prop_assert!(!verify_decommitment(c.root(), log, &logs, &queries, &v, &longer).unwrap());
        prop_assert!(!verify_decommitment(c.root() + Felt::ONE, log, &logs, &queries, &v, &witness).unwrap());
    }
}

/// The reference: nonces 0, 1, 2, ... through starknet-crypto until one passes.
fn ref_grind(digest: &SnFelt, n_bits: u32) -> u64 {
    let prefixed = starknet_crypto::poseidon_hash_many(&[
        SnFelt::from(0x1234_5678u64),
        *digest,
        SnFelt::from(n_bits as u64),
    ]);
    (0u64..)
        .find(|&n| {
            let h = starknet_crypto::poseidon_hash(prefixed, SnFelt::from(n)).to_bytes_be();
            u128::from_be_bytes(h[16..].try_into().unwrap()).trailing_zeros() >= n_bits
        })
        .unwrap()
}

#[test]
fn grinding_finds_the_smallest_nonce() {
    for (d, n_bits) in [(0u64, 0u32), (1, 1), (42, 6), (7, 10), (u64::MAX, 12)] {
        let digest = Felt::from(d) * Felt::from(0x9E37_79B9u64) + Felt::MAX;
        let want = ref_grind(&SnFelt::from_bytes_be(&digest.to_bytes_be()), n_bits);
        assert_eq!(
            grind(digest, n_bits).unwrap(),
            want,
            "digest {d}, {n_bits} bits"
        );
        assert_eq!(grind_par(digest, n_bits).unwrap(), want);
        assert!(verify_pow_nonce(digest, n_bits, want).unwrap());
        if want > 0 {
            assert!(!verify_pow_nonce(digest, n_bits, want - 1).unwrap());
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    let ok: Vec<u32> = (0..8).collect();
    let big = [0u32, M31_MODULUS];
    let odd = [1u32, 2, 3];
    let one = [1u32];
    assert_eq!(
        leaf_layer(&[&ok, &big], 3),
        Err(ProverError::NotM31 {
            column: 1,
            row: 1,
            value: M31_MODULUS
        })
    );
    assert_eq!(
        leaf_layer(&[&odd], 3),
        Err(ProverError::ColumnLength { column: 0, len: 3 })
    );
    assert_eq!(
        leaf_layer(&[&one], 3),
        Err(ProverError::ColumnLength { column: 0, len: 1 })
    );
    assert_eq!(
        leaf_layer(&[&ok], 2),
        Err(ProverError::ColumnTooLong {
            column: 0,
            log_size: 3,
            lifting_log_size: 2
        })
    );
    assert_eq!(leaf_layer(&[&ok], 0), Err(ProverError::LiftingLogSize(0)));
    assert_eq!(leaf_layer(&[&ok], 41), Err(ProverError::LiftingLogSize(41)));
    assert_eq!(grind(Felt::ONE, 129), Err(ProverError::PowBits(129)));
    assert_eq!(
        verify_pow_nonce(Felt::ONE, 129, 0),
        Err(ProverError::PowBits(129))
    );
    let c = commit(&[&ok], 3).unwrap();
    assert_eq!(
        c.decommit(&[&ok], &[8]),
        Err(ProverError::Position {
            position: 8,
            rows: 8
        })
    );
    assert!(verify_decommitment(c.root(), 3, &[3], &[0], &[], &[]).is_err());
    assert!(verify_decommitment(c.root(), 3, &[3], &[9], &[&[0]], &[]).is_err());
    for e in [ProverError::PowBits(129), ProverError::LiftingLogSize(0)] {
        assert!(!e.to_string().is_empty());
    }
}
