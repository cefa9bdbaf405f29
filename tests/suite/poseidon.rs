//! Poseidon: published vectors (spec/starknet.md, official.json) and differential tests
//! against starknet-crypto 0.8 and pathfinder-crypto 0.24 on random and edge inputs.

use crate::common;

use pathfinder_crypto::MontFelt as PfFelt;
use proptest::prelude::*;
use starkbatch::{
    Felt, PoseidonHasher, poseidon_hash, poseidon_hash_many, poseidon_hash_single,
    poseidon_permute_comp,
};
use starknet_crypto::Felt as SnFelt;

fn felt(s: &str) -> Felt {
    Felt::from_hex(s).unwrap()
}

fn to_sn(x: &Felt) -> SnFelt {
    SnFelt::from_bytes_be(&x.to_bytes_be())
}

fn from_sn(x: &SnFelt) -> Felt {
    Felt::from_bytes_be(&x.to_bytes_be()).unwrap()
}

fn to_pf(x: &Felt) -> PfFelt {
    PfFelt::from_be_bytes(x.to_bytes_be())
}

fn from_pf(x: &PfFelt) -> Felt {
    Felt::from_bytes_be(&x.to_be_bytes()).unwrap()
}

/// The path of a file under `shared/`: beside the crate (CI, main checkout) or /work/shared.
fn official() -> serde_json::Value {
    common::official()
}

fn hex_list(v: &serde_json::Value) -> Vec<Felt> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| felt(x.as_str().unwrap()))
        .collect()
}

// ---------------------------------------------------------------- published vectors

/// spec/starknet.md, "Poseidon" (cairo-lang, starkware-industries/poseidon).
#[test]
fn spec_vectors() {
    let mut s = [Felt::ZERO; 3];
    poseidon_permute_comp(&mut s);
    assert_eq!(
        s,
        [
            felt("0x79e8d1e78258000a28fc9d49e233bc6852357968577b1e386550ed6a9086133"),
            felt("0x3840d003d0f3f96dbb796ff6aa6a63be5b5404b91ccaabca256154cbb6fb984"),
            felt("0x1eb39da3f7d3b04142d0ac83d9da00c9325a61fb2ef326e50b70eaa8a3c7cc7"),
        ]
    );
    let mut s = [felt("0x9"), felt("0xb"), felt("0x2")];
    poseidon_permute_comp(&mut s);
    assert_eq!(
        s,
        [
            felt("0x510f3a3faf4084e3b1e95fd44c30746271b48723f7ea9c8be6a9b6b5408e7e6"),
            felt("0x4f511749bd4101266904288021211333fb0a514cb15381af087462fa46e6bd9"),
            felt("0x186f6dd1a6e79cb1b66d505574c349272cd35c07c223351a0990410798bb9d8"),
        ]
    );
    assert_eq!(
        poseidon_hash(felt("0x123456"), felt("0x789101")),
        felt("0x2fb6e1e8838d4b850877944f0a13340dd5810f01f5d4361c54b22b4abda3248")
    );
    assert_eq!(
        poseidon_hash_single(felt("0x9")),
        felt("0x3bb3b91c714cb47003947f36dadc98326176963c434cd0a10320b8146c948b3")
    );
    let many: [(&[u64], &str); 5] = [
        (
            &[],
            "0x2272be0f580fd156823304800919530eaa97430e972d7213ee13f4fbf7a5dbc",
        ),
        (
            &[1],
            "0x579e8877c7755365d5ec1ec7d3a94a457eff5d1f40482bbe9729c064cdead2",
        ),
        (
            &[1, 2],
            "0x371cb6995ea5e7effcd2e174de264b5b407027a75a231a70c2c8d196107f0e7",
        ),
        (
            &[1, 2, 3],
            "0x2f0d8840bcf3bc629598d8a6cc80cb7c0d9e52d93dab244bbf9cd0dca0ad082",
        ),
        (
            &[0, 1, 2, 3],
            "0x7b8f30ac298ea12d170c0873f1fa631a18c00756c6e7d1fd273b9a239d0d413",
        ),
    ];
    for (input, out) in many {
        let xs: Vec<Felt> = input.iter().map(|&v| Felt::from(v)).collect();
        assert_eq!(poseidon_hash_many(&xs), felt(out), "{input:?}");
    }
}

/// Every Poseidon entry of shared/data/vectors/official.json (each names its source).
#[test]
fn official_vectors() {
    let v = official();
    let mut count = 0;
    for e in v["poseidon_hash"].as_array().unwrap() {
        let (x, y) = (
            felt(e["x"].as_str().unwrap()),
            felt(e["y"].as_str().unwrap()),
        );
        assert_eq!(poseidon_hash(x, y), felt(e["out"].as_str().unwrap()), "{e}");
        count += 1;
    }
    for e in v["poseidon_single"].as_array().unwrap() {
        let x = felt(e["x"].as_str().unwrap());
        assert_eq!(
            poseidon_hash_single(x),
            felt(e["out"].as_str().unwrap()),
            "{e}"
        );
        count += 1;
    }
    for e in v["poseidon_many"].as_array().unwrap() {
        let xs = hex_list(&e["input"]);
        let out = felt(e["out"].as_str().unwrap());
        assert_eq!(poseidon_hash_many(&xs), out, "{e}");
        assert_eq!(poseidon_hash_many(xs.iter()), out, "{e}");
        let mut h = PoseidonHasher::new();
        for x in &xs {
            h.update(*x);
        }
        assert_eq!(h.finalize(), out, "{e}");
        count += 1;
    }
    for e in v["hades_permutation"].as_array().unwrap() {
        let mut s: [Felt; 3] = hex_list(&e["state"]).try_into().unwrap();
        poseidon_permute_comp(&mut s);
        assert_eq!(s.to_vec(), hex_list(&e["out"]), "{e}");
        count += 1;
    }
    assert!(
        count >= 22,
        "expected the 22 poseidon entries, found {count}"
    );
}

// ---------------------------------------------------------------- differential

/// Values that stress reductions: small, near p, near 2^251 and at limb boundaries.
fn edge_values() -> Vec<Felt> {
    let p_minus = |k: u64| Felt::ZERO - Felt::from(k);
    let pow2 = |e: u32| Felt::TWO.pow(e as u128);
    let mut v = vec![
        Felt::ZERO,
        Felt::ONE,
        Felt::TWO,
        Felt::THREE,
        p_minus(1),
        p_minus(2),
        p_minus(3),
        Felt::from(u64::MAX),
        Felt::from(u128::MAX),
    ];
    for e in [63, 64, 127, 128, 191, 192, 193, 250, 251] {
        v.push(pow2(e));
        v.push(pow2(e) - Felt::ONE);
        v.push(pow2(e) + Felt::ONE);
    }
    // The Montgomery forms at limb boundaries, too (the representation the code works on).
    for limbs in [
        [u64::MAX, u64::MAX, u64::MAX, 0],
        [0, 0, 0, 1 << 59],
        [0, 0, 0, (1 << 59) + 16],
        [u64::MAX, u64::MAX, u64::MAX, (1 << 59) + 16],
        [1, 0, 0, 0],
    ] {
        v.push(Felt::from_montgomery_limbs(limbs).unwrap());
    }
    v
}

fn felt_strategy() -> impl Strategy<Value = Felt> {
    let edges = edge_values();
    prop_oneof![
        3 => any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)),
        1 => (0..edges.len()).prop_map(move |i| edges[i]),
    ]
}

#[test]
fn edge_pairs_match_references() {
    let edges = edge_values();
    for x in &edges {
        for y in &edges {
            let ours = poseidon_hash(*x, *y);
            assert_eq!(
                ours,
                from_sn(&starknet_crypto::poseidon_hash(to_sn(x), to_sn(y)))
            );
            assert_eq!(
                ours,
                from_pf(&pathfinder_crypto::hash::poseidon_hash(to_pf(x), to_pf(y)))
            );
        }
        assert_eq!(
            poseidon_hash_single(*x),
            from_sn(&starknet_crypto::poseidon_hash_single(to_sn(x)))
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn hash_matches_references(x in felt_strategy(), y in felt_strategy()) {
        let ours = poseidon_hash(x, y);
        prop_assert_eq!(ours, from_sn(&starknet_crypto::poseidon_hash(to_sn(&x), to_sn(&y))));
        prop_assert_eq!(
            ours,
            from_pf(&pathfinder_crypto::hash::poseidon_hash(to_pf(&x), to_pf(&y)))
        );
    }

    #[test]
    fn single_matches_references(x in felt_strategy()) {
        let ours = poseidon_hash_single(x);
        prop_assert_eq!(ours, from_sn(&starknet_crypto::poseidon_hash_single(to_sn(&x))));
        // pathfinder has no hash_single: its permutation on the definition [x, 0, 1].
        let mut s = [to_pf(&x), PfFelt::ZERO, PfFelt::ONE];
        pathfinder_crypto::hash::poseidon::permute(&mut s);
        prop_assert_eq!(ours, from_pf(&s[0]));
    }

    #[test]
    fn permute_matches_references(a in felt_strategy(), b in felt_strategy(), c in felt_strategy()) {
        let mut ours = [a, b, c];
        poseidon_permute_comp(&mut ours);
        let mut sn = [a, b, c].map(|x| to_sn(&x));
        starknet_crypto::poseidon_permute_comp(&mut sn);
        prop_assert_eq!(ours, sn.map(|x| from_sn(&x)));
        let mut pf = [a, b, c].map(|x| to_pf(&x));
        pathfinder_crypto::hash::poseidon::permute(&mut pf);
        prop_assert_eq!(ours, pf.map(|x| from_pf(&x)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn many_matches_references(xs in prop::collection::vec(felt_strategy(), 0..40)) {
        let ours = poseidon_hash_many(&xs);
        let sn: Vec<SnFelt> = xs.iter().map(to_sn).collect();
        prop_assert_eq!(ours, from_sn(&starknet_crypto::poseidon_hash_many(&sn)));
        let pf: Vec<PfFelt> = xs.iter().map(to_pf).collect();
        prop_assert_eq!(ours, from_pf(&pathfinder_crypto::hash::poseidon_hash_many(&pf)));
    }

    /// Feeding a hasher element by element, cloning it at any point and finishing both
    /// copies gives poseidon_hash_many of what each copy saw.
    #[test]
    fn hasher_equals_many_for_any_split(
        xs in prop::collection::vec(felt_strategy(), 0..40),
        split in any::<prop::sample::Index>(),
        extra in prop::collection::vec(felt_strategy(), 0..5),
    ) {
        let cut = split.index(xs.len() + 1);
        let mut h = PoseidonHasher::default();
        for x in &xs[..cut] {
            h.update(*x);
        }
        let mut fork = h.clone();
        for x in &xs[cut..] {
            h.update(*x);
        }
        for x in &extra {
            fork.update(*x);
        }
        prop_assert_eq!(h.finalize(), poseidon_hash_many(&xs));
        let seen: Vec<Felt> = xs[..cut].iter().chain(&extra).copied().collect();
        prop_assert_eq!(fork.finalize(), poseidon_hash_many(seen.iter()));
    }
}

#[test]
fn hasher_is_debug_and_new_is_default() {
    let h = PoseidonHasher::new();
    assert!(!format!("{h:?}").is_empty());
    assert_eq!(h.finalize(), PoseidonHasher::default().finalize());
    assert_eq!(PoseidonHasher::new().finalize(), poseidon_hash_many(&[]));
}
