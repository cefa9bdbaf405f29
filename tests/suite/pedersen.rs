//! Pedersen hash: published vectors (spec and official.json) and differential tests against
//! starknet-crypto 0.8 and pathfinder-crypto 0.24 on random and edge inputs.

use crate::common;

use proptest::prelude::*;
use starkbatch::{
    Felt, PairHash, Pedersen, PedersenHasher, pedersen_hash, pedersen_hash_array,
    pedersen_hash_array_batch, pedersen_hash_array_batch_par, pedersen_hash_batch,
    pedersen_hash_batch_par,
};

fn official() -> serde_json::Value {
    common::official()
}

fn hex(s: &str) -> Felt {
    Felt::from_hex(s).unwrap()
}

fn sc(f: &Felt) -> starknet_crypto::Felt {
    starknet_crypto::Felt::from_bytes_be(&f.to_bytes_be())
}

fn pf(f: &Felt) -> pathfinder_crypto::Felt {
    pathfinder_crypto::Felt::from_be_bytes(f.to_bytes_be()).unwrap()
}

fn reference_starknet_crypto(x: &Felt, y: &Felt) -> Felt {
    let h = starknet_crypto::pedersen_hash(&sc(x), &sc(y));
    Felt::from_bytes_be(&h.to_bytes_be()).unwrap()
}

fn reference_pathfinder(x: &Felt, y: &Felt) -> Felt {
    let h = pathfinder_crypto::hash::pedersen_hash(pf(x), pf(y));
    Felt::from_bytes_be(&h.to_be_bytes()).unwrap()
}

#[test]
fn spec_vectors() {
    // shared/spec/starknet.md, "Pedersen" (cairo-lang / crypto-cpp / starkex test data).
    let cases = [
        (
            "0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cb",
            "0x208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31a",
            "0x30e480bed5fe53fa909cc0f8c4d99b8f9f2c016be4c41e13a4848797979c662",
        ),
        (
            "0x58f580910a6ca59b28927c08fe6c43e2e303ca384badc365795fc645d479d45",
            "0x78734f65a067be9bdb39de18434d71e79f7b6466a4b66bbd979ab9e7515fe0b",
            "0x68cc0b76cddd1dd4ed2301ada9b7c872b23875d5ff837b3a87993e0d9996b87",
        ),
        (
            "0x1",
            "0x2",
            "0x5bb9440e27889a364bcb678b1f679ecd1347acdedcbf36e83494f857cc58026",
        ),
    ];
    for (x, y, out) in cases {
        assert_eq!(pedersen_hash(&hex(x), &hex(y)), hex(out), "H({x}, {y})");
    }
    let a: Vec<Felt> = (1u64..=4).map(Felt::from).collect();
    assert_eq!(
        pedersen_hash_array(&a),
        hex("0x66bd4335902683054d08a0572747ea78ebd9e531536fb43125424ca9f902084")
    );
}

#[test]
fn official_json_vectors() {
    let v = official();
    let cases = v["pedersen"].as_array().unwrap();
    assert!(!cases.is_empty());
    for c in cases {
        let (x, y, out) = (
            c["x"].as_str().unwrap(),
            c["y"].as_str().unwrap(),
            c["out"].as_str().unwrap(),
        );
        assert_eq!(pedersen_hash(&hex(x), &hex(y)), hex(out), "H({x}, {y})");
    }
    let arrays = v["pedersen_array"]["cases"].as_array().unwrap();
    assert!(!arrays.is_empty());
    for c in arrays {
        let input: Vec<Felt> = c["input"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| hex(s.as_str().unwrap()))
            .collect();
        let out = hex(c["out"].as_str().unwrap());
        assert_eq!(pedersen_hash_array(&input), out);
        let mut h = PedersenHasher::new();
        for e in &input {
            h.update(*e);
        }
        assert_eq!(h.finalize(), out);
    }
}

/// Edge values: 0, 1, p − 1, values with the top 4 bits set, 2^248 − 1, 2^248, around 2^251,
/// limb boundaries and values whose 10-bit windows all sit at the signed-digit boundary.
fn edge_values() -> Vec<Felt> {
    let mut v = vec![
        Felt::ZERO,
        Felt::ONE,
        Felt::TWO,
        Felt::MAX,
        Felt::MAX - Felt::ONE,
        hex("0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), // 2^248 - 1
        hex("0x100000000000000000000000000000000000000000000000000000000000000"), // 2^248
        hex("0x100000000000000000000000000000000000000000000000000000000000001"),
        hex("0x800000000000000000000000000000000000000000000000000000000000000"), // 2^251
        hex("0x7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), // 2^251 - 1
        hex("0x800000000000010ffffffffffffffffffffffffffffffffffffffffffffffff"),
        Felt::MAX - hex("0xffffffffffffffffffffffffffffffff"),
        hex("0xffffffffffffffff"),
        hex("0x10000000000000000"),
        hex("0xffffffffffffffffffffffffffffffff"),
        hex("0x100000000000000000000000000000000"),
        hex("0xffffffffffffffffffffffffffffffffffffffffffffffff"),
        hex("0x1000000000000000000000000000000000000000000000000"),
        // Every 10-bit window equal to 512 (0b10_0000_0000) or 513: the recoding boundary.
        hex("0x80200802008020080200802008020080200802008020080200802008020080"),
        hex("0x80600806008060080600806008060080600806008060080600806008060080"),
        hex("0x7f0000000000000000000000000000000000000000000000000000000000000"),
        hex("0x7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff7ff"),
    ];
    // Each single bit of the high part (x_high = 8 is the largest possible as x < p), ±1.
    for k in 248..252 {
        let mut b = [0u8; 32];
        b[31 - k / 8] = 1 << (k % 8);
        let f = Felt::from_bytes_be(&b).unwrap();
        v.push(f);
        v.push(f + Felt::ONE);
        v.push(f - Felt::ONE);
    }
    v
}

#[test]
fn edge_inputs_match_both_references() {
    let edges = edge_values();
    for x in &edges {
        for y in &edges {
            let ours = pedersen_hash(x, y);
            assert_eq!(ours, reference_starknet_crypto(x, y), "H({x}, {y})");
            assert_eq!(ours, reference_pathfinder(x, y), "H({x}, {y})");
        }
    }
}

fn felt_from_limbs_reduced(l: [u64; 4]) -> Felt {
    let mut b = [0u8; 32];
    for i in 0..4 {
        b[24 - 8 * i..32 - 8 * i].copy_from_slice(&l[i].to_be_bytes());
    }
    Felt::from_bytes_be_reduced(&b)
}

fn felt_strategy() -> impl Strategy<Value = Felt> {
    prop_oneof![
        6 => any::<[u64; 4]>().prop_map(felt_from_limbs_reduced),
        // Values with the top 4 bits set or below 2^248.
        2 => any::<[u64; 4]>().prop_map(|mut l| { l[3] &= (1 << 56) - 1; felt_from_limbs_reduced(l) }),
        // Non-zero high part: x_high in 1..=8 (the largest possible, as x < p < 2^252).
        2 => (any::<[u64; 4]>(), 1u64..=8).prop_map(|(mut l, h)| { l[3] = (l[3] & ((1 << 56) - 1)) | (h << 56); felt_from_limbs_reduced(l) }),
        1 => any::<u64>().prop_map(Felt::from),
        1 => proptest::sample::select(edge_values()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn matches_starknet_crypto_and_pathfinder(x in felt_strategy(), y in felt_strategy()) {
        let ours = pedersen_hash(&x, &y);
        prop_assert_eq!(ours, reference_starknet_crypto(&x, &y));
        prop_assert_eq!(ours, reference_pathfinder(&x, &y));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn array_hash_and_hasher_agree(v in proptest::collection::vec(felt_strategy(), 0..12)) {
        let mut h = PedersenHasher::new();
        let mut sh = starknet_crypto::PedersenHasher::new();
        for e in &v {
            h.update(*e);
            sh.update(sc(e));
        }
        let out = pedersen_hash_array(&v);
        prop_assert_eq!(h.finalize(), out);
        prop_assert_eq!(out, Felt::from_bytes_be(&sh.finalize().to_bytes_be()).unwrap());
        // The explicit compute_hash_on_elements definition.
        let mut acc = Felt::ZERO;
        for e in &v {
            acc = reference_pathfinder(&acc, e);
        }
        prop_assert_eq!(out, reference_pathfinder(&acc, &Felt::from(v.len() as u64)));
    }
}

/// Deterministic pseudo-random pairs (xorshift64*, reduced mod p), mixed with edge values.
fn batch_pairs(n: usize, seed: u64) -> Vec<[Felt; 2]> {
    let mut s = seed | 1;
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let edges = edge_values();
    (0..n)
        .map(|i| {
            let mut f = || {
                let r = next();
                if r % 4 == 0 {
                    edges[(r >> 8) as usize % edges.len()]
                } else {
                    felt_from_limbs_reduced([next(), next(), next(), next()])
                }
            };
            let a = f();
            let b = if i % 7 == 3 { Felt::ZERO } else { f() };
            [a, b]
        })
        .collect()
}

/// The batch of `pairs` by all four entry points, each checked against `pedersen_hash`.
fn check_batch(pairs: &[[Felt; 2]]) {
    let expected: Vec<Felt> = pairs.iter().map(|[a, b]| pedersen_hash(a, b)).collect();
    let mut out = vec![Felt::MAX; pairs.len()];
    pedersen_hash_batch(pairs, &mut out);
    assert_eq!(out, expected, "pedersen_hash_batch, n = {}", pairs.len());
    let mut out = vec![Felt::MAX; pairs.len()];
    pedersen_hash_batch_par(pairs, &mut out);
    assert_eq!(
        out,
        expected,
        "pedersen_hash_batch_par, n = {}",
        pairs.len()
    );
    for backend in starkbatch::Backend::available() {
        let mut out = vec![Felt::MAX; pairs.len()];
        backend.pedersen_hash_batch(pairs, &mut out);
        assert_eq!(out, expected, "{backend:?}, n = {}", pairs.len());
    }
    let mut out = vec![Felt::MAX; pairs.len()];
    Pedersen::hash_batch(pairs, &mut out);
    assert_eq!(out, expected, "Pedersen::hash_batch, n = {}", pairs.len());
    let mut out = vec![Felt::MAX; pairs.len()];
    Pedersen::hash_batch_par(pairs, &mut out);
    assert_eq!(
        out,
        expected,
        "Pedersen::hash_batch_par, n = {}",
        pairs.len()
    );
}

#[test]
fn batch_matches_scalar_on_every_edge_pair() {
    let edges = edge_values();
    let pairs: Vec<[Felt; 2]> = edges
        .iter()
        .flat_map(|x| edges.iter().map(move |y| [*x, *y]))
        .collect();
    // Several chunks (256) and a partial one.
    assert!(pairs.len() > 512);
    check_batch(&pairs);
    // The references too, for the whole batch.
    let mut out = vec![Felt::ZERO; pairs.len()];
    pedersen_hash_batch(&pairs, &mut out);
    for ([x, y], h) in pairs.iter().zip(&out) {
        assert_eq!(*h, reference_pathfinder(x, y), "H({x}, {y})");
    }
}

#[test]
fn batch_matches_scalar_for_lengths_0_to_40_and_large() {
    for n in 0..=40 {
        check_batch(&batch_pairs(n, 0x1000 + n as u64));
    }
    // Around the lock-step chunk (4096) and the parallel split.
    for n in [255, 256, 257, 1000, 1025, 4095, 4096, 4097, 9000] {
        check_batch(&batch_pairs(n, 0x2000 + n as u64));
    }
}

#[test]
fn batch_par_on_a_multi_thread_pool() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let pairs = batch_pairs(3000, 0x3000);
    pool.install(|| check_batch(&pairs));
}

#[test]
#[should_panic(expected = "lengths differ")]
fn batch_panics_on_mismatched_lengths() {
    let pairs = batch_pairs(3, 1);
    let mut out = vec![Felt::ZERO; 2];
    pedersen_hash_batch(&pairs, &mut out);
}

#[test]
#[should_panic(expected = "lengths differ")]
fn batch_par_panics_on_mismatched_lengths() {
    let pairs = batch_pairs(100, 1);
    let mut out = vec![Felt::ZERO; 101];
    pedersen_hash_batch_par(&pairs, &mut out);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn batch_matches_scalar_proptest(
        v in proptest::collection::vec((felt_strategy(), felt_strategy()), 0..40)
    ) {
        let pairs: Vec<[Felt; 2]> = v.into_iter().map(|(a, b)| [a, b]).collect();
        let mut out = vec![Felt::MAX; pairs.len()];
        pedersen_hash_batch(&pairs, &mut out);
        for ([a, b], h) in pairs.iter().zip(&out) {
            prop_assert_eq!(*h, pedersen_hash(a, b));
            prop_assert_eq!(*h, reference_starknet_crypto(a, b));
        }
    }
}

/// Every array-batch entry point (free functions, each backend's methods, sequential and
/// parallel) against `pedersen_hash_array` per message.
fn check_array_batch(messages: &[&[Felt]]) {
    let want: Vec<Felt> = messages.iter().map(|m| pedersen_hash_array(m)).collect();
    let mut out = vec![Felt::MAX; messages.len()];
    pedersen_hash_array_batch(messages, &mut out);
    assert_eq!(
        out,
        want,
        "pedersen_hash_array_batch, {} messages",
        messages.len()
    );
    let mut out = vec![Felt::MAX; messages.len()];
    pedersen_hash_array_batch_par(messages, &mut out);
    assert_eq!(out, want, "pedersen_hash_array_batch_par");
    for backend in starkbatch::Backend::available() {
        let mut out = vec![Felt::MAX; messages.len()];
        backend.pedersen_hash_array_batch(messages, &mut out);
        assert_eq!(out, want, "{backend:?}");
        let mut out = vec![Felt::MAX; messages.len()];
        backend.pedersen_hash_array_batch_par(messages, &mut out);
        assert_eq!(out, want, "{backend:?} par");
    }
}

#[test]
fn array_batch_matches_scalar_on_ragged_messages() {
    // Lengths 0..=40 in a scrambled order, so the lock-step reorders them; repeated so that
    // the steps are long enough for the batch-affine lanes.
    let felts: Vec<Felt> = batch_pairs(41 * 4, 0x4000).into_iter().flatten().collect();
    let lens: Vec<usize> = (0..41 * 3).map(|i| (i * 17) % 41).collect();
    let messages: Vec<&[Felt]> = lens
        .iter()
        .enumerate()
        .map(|(i, &n)| &felts[i..i + n])
        .collect();
    for count in [0, 1, 2, 23, 24, 25, 60, messages.len()] {
        check_array_batch(&messages[..count]);
    }
    // Equal lengths and an empty message among long ones.
    let mut same: Vec<&[Felt]> = (0..50).map(|i| &felts[i..i + 8]).collect();
    same[7] = &[];
    check_array_batch(&same);
}

#[test]
#[should_panic(expected = "differ in length")]
fn array_batch_panics_on_mismatched_lengths() {
    let a = [Felt::ONE];
    let mut out = vec![Felt::ZERO; 2];
    pedersen_hash_array_batch(&[&a], &mut out);
}
