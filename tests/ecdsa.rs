//! ECDSA, RFC 6979 and curve-order scalars: published vectors (official.json, the spec) and
//! differential tests against starknet-crypto 0.8, pathfinder-crypto 0.24 and num-bigint.
#![allow(dead_code)]

use num_bigint::BigUint;
use proptest::prelude::*;
use serde_json::Value;
use starkbatch::{rfc6979_generate_k, Felt, Scalar};
use std::path::PathBuf;

type SnFelt = starknet_crypto::Felt;

const N_HEX: &str = "800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2f";
const P_HEX: &str = "800000000000011000000000000000000000000000000000000000000000001";

fn n_big() -> BigUint {
    BigUint::parse_bytes(N_HEX.as_bytes(), 16).unwrap()
}
fn p_big() -> BigUint {
    BigUint::parse_bytes(P_HEX.as_bytes(), 16).unwrap()
}

fn felt(s: &str) -> Felt {
    Felt::from_hex(s).unwrap()
}
fn to_sn(f: &Felt) -> SnFelt {
    SnFelt::from_bytes_be(&f.to_bytes_be())
}
fn from_sn(f: &SnFelt) -> Felt {
    Felt::from_bytes_be(&f.to_bytes_be()).unwrap()
}
fn to_pf(f: &Felt) -> pathfinder_crypto::Felt {
    pathfinder_crypto::Felt::from_be_bytes(f.to_bytes_be()).unwrap()
}
fn from_pf(f: &pathfinder_crypto::Felt) -> Felt {
    Felt::from_bytes_be(&f.to_be_bytes()).unwrap()
}
fn big(f: &Felt) -> BigUint {
    BigUint::from_bytes_be(&f.to_bytes_be())
}
fn from_big(b: &BigUint) -> Felt {
    let bytes = b.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(&bytes);
    Felt::from_bytes_be(&out).unwrap()
}

/// official.json, found beside the checkout (CI) or in /work/shared (worktrees).
fn official() -> Value {
    let candidates = [
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/vectors/official.json"
        )),
        PathBuf::from("/work/shared/data/vectors/official.json"),
    ];
    for c in candidates {
        if let Ok(text) = std::fs::read_to_string(&c) {
            return serde_json::from_str(&text).unwrap();
        }
    }
    panic!("official.json not found beside the checkout nor in /work/shared");
}

fn field_of(v: &Value, key: &str) -> Felt {
    felt(v[key].as_str().unwrap_or_else(|| panic!("missing {key}")))
}

// ---------- strategies ----------

/// Any field element, with the edges weighted in: 0, 1, small, p-1, around 2^251 and n.
fn any_felt() -> impl Strategy<Value = Felt> {
    prop_oneof![
        4 => any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)),
        2 => any::<[u8; 32]>().prop_map(|mut b| {
            b[0] &= 0x07; // below 2^251
            Felt::from_bytes_be_reduced(&b)
        }),
        1 => (0u64..4).prop_map(Felt::from),
        1 => (0u64..4).prop_map(|d| Felt::MAX - Felt::from(d)),
        1 => (0u64..4).prop_map(|d| felt("0x800000000000000000000000000000000000000000000000000000000000000") + Felt::from(d) - Felt::TWO),
        1 => (0u64..4).prop_map(|d| felt(N_HEX) + Felt::from(d) - Felt::TWO),
    ]
}

/// A field element below 2^251 (a valid message, r or s), edges included.
fn felt_251() -> impl Strategy<Value = Felt> {
    prop_oneof![
        6 => any::<[u8; 32]>().prop_map(|mut b| {
            b[0] &= 0x07;
            Felt::from_bytes_be_reduced(&b)
        }),
        1 => (0u64..4).prop_map(Felt::from),
        1 => (1u64..4).prop_map(|d| felt("0x800000000000000000000000000000000000000000000000000000000000000") - Felt::from(d)),
    ]
}

// ---------- Scalar ----------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn scalar_ops_match_bigint(a in any_felt(), b in any_felt()) {
        let n = n_big();
        let (ab, bb) = (big(&a) % &n, big(&b) % &n);
        let (sa, sb) = (Scalar::from_felt_reduced(&a), Scalar::from_felt_reduced(&b));
        prop_assert_eq!(big(&sa.to_felt()), ab.clone());
        prop_assert_eq!(Scalar::from_felt(&a).is_some(), big(&a) < n);
        prop_assert_eq!(big(&(sa + sb).to_felt()), (&ab + &bb) % &n);
        prop_assert_eq!(big(&(sa - sb).to_felt()), (&ab + &n - &bb) % &n);
        prop_assert_eq!(big(&(sa * sb).to_felt()), (&ab * &bb) % &n);
        prop_assert_eq!(big(&(-sa).to_felt()), (&n - &ab) % &n);
        let inv = sa.inverse();
        prop_assert_eq!(inv, sa.inverse_vartime());
        if ab == BigUint::from(0u32) {
            prop_assert_eq!(inv, Scalar::ZERO);
        } else {
            prop_assert_eq!(big(&inv.to_felt()), ab.modpow(&(&n - 2u32), &n));
        }
    }
}

// ---------- RFC 6979 ----------

#[test]
fn rfc6979_spec_vector() {
    // /work/shared/spec/starknet.md (from starknet-rs rfc6979 test data).
    let k = rfc6979_generate_k(
        &felt("0x10b559a3b4dc1b7137d90521cb413b397ff07963214d128a92d65aec7182f68"),
        &felt("0x7e3184f4bef18f371bc53fc412dff1b30dbc94f758490fb8e2349bae647a642"),
        Some(&felt(
            "0x3fe27199aaad4e700559e2436a919f4de70def585a6deb2f4c087fdf6a27c1b",
        )),
    );
    assert_eq!(
        k,
        felt("0x514de5048c11bf01f3dc98a131e0a3fde03d6269cdfab69d944c8281149184")
    );
}

#[test]
fn rfc6979_official_vectors() {
    let all = official();
    let list = all["rfc6979"].as_array().unwrap();
    assert!(!list.is_empty());
    for v in list {
        let m = field_of(v, "message_hash");
        let d = field_of(v, "private_key");
        let seed = field_of(v, "seed");
        let k = rfc6979_generate_k(&m, &d, Some(&seed));
        assert_eq!(k, field_of(v, "k"), "{v}");
    }
}

fn sn_k(m: &Felt, d: &Felt, seed: Option<&Felt>) -> Felt {
    let s = seed.map(to_sn);
    from_sn(&starknet_crypto::rfc6979_generate_k(
        &to_sn(m),
        &to_sn(d),
        s.as_ref(),
    ))
}

#[test]
fn rfc6979_message_at_or_above_n_follows_cairo_lang() {
    // cairo-lang (python-ecdsa bits2octets) reduces a message in [n, p) modulo n before HMAC;
    // starknet-crypto 0.8 hashes it unreduced. So ours(m) == starknet-crypto(m - n).
    let n = felt(N_HEX);
    let d = felt("0x7e3184f4bef18f371bc53fc412dff1b30dbc94f758490fb8e2349bae647a642");
    for off in [0u64, 1, 2, 12345] {
        let m = n + Felt::from(off);
        assert_eq!(
            rfc6979_generate_k(&m, &d, None),
            sn_k(&Felt::from(off), &d, None)
        );
    }
    let m = Felt::MAX;
    assert_eq!(rfc6979_generate_k(&m, &d, None), sn_k(&(m - n), &d, None));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn rfc6979_matches_starknet_crypto(
        m in any_felt(), d in any_felt(), seed in proptest::option::of(any_felt())
    ) {
        prop_assume!(big(&m) < n_big());
        let ours = rfc6979_generate_k(&m, &d, seed.as_ref());
        prop_assert_eq!(ours, sn_k(&m, &d, seed.as_ref()));
        prop_assert!(!ours.is_zero() && big(&ours) < n_big());
    }
}

#[test]
fn rfc6979_edges_match_starknet_crypto() {
    let edges = [
        Felt::ZERO,
        Felt::ONE,
        felt("0xff"),
        felt("0x100"),
        // bit lengths 248..=252 around the padding rule
        felt("0x80000000000000000000000000000000000000000000000000000000000000"),
        felt("0x100000000000000000000000000000000000000000000000000000000000000"),
        felt("0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
        felt("0x400000000000000000000000000000000000000000000000000000000000000"),
        felt("0x7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
        felt("0x800000000000000000000000000000000000000000000000000000000000000"),
        felt(N_HEX) - Felt::ONE,
    ];
    for m in edges {
        for d in edges {
            for seed in [
                None,
                Some(Felt::ZERO),
                Some(Felt::ONE),
                Some(felt("0x1234")),
            ] {
                assert_eq!(
                    rfc6979_generate_k(&m, &d, seed.as_ref()),
                    sn_k(&m, &d, seed.as_ref()),
                    "m {m} d {d} seed {seed:?}"
                );
            }
        }
    }
    let _ = p_big();
}
