//! Differential tests of `Felt::inverse`, `Felt::batch_inverse` and `Felt::sqrt` against
//! num-bigint (and pathfinder-crypto for the square root's existence), on random and edge
//! inputs. (Inversion modulo the curve order n is tested inside `src/field/safegcd.rs`, as that
//! function is crate-private.)

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use starkbatch::Felt;

fn p() -> BigUint {
    (BigUint::one() << 251) + (BigUint::from(17u32) << 192) + BigUint::one()
}

fn to_big(f: Felt) -> BigUint {
    let l = f.to_raw_limbs();
    let mut bytes = Vec::with_capacity(32);
    for limb in l {
        bytes.extend_from_slice(&limb.to_le_bytes());
    }
    BigUint::from_bytes_le(&bytes)
}

fn from_big(b: &BigUint) -> Felt {
    let b = b % p();
    let mut digits = b.to_u64_digits();
    digits.resize(4, 0);
    Felt::from_raw_limbs([digits[0], digits[1], digits[2], digits[3]]).unwrap()
}

/// The edge values of the brief: 0, 1, 2, p−1, p−2, (p−1)/2, 2^64−1, 2^128, 2^192, 2^251 and
/// a few limb-boundary neighbours.
fn edge_values() -> Vec<BigUint> {
    let p = p();
    let one = BigUint::one();
    let mut v = vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u32),
        BigUint::from(3u32),
        &p - 1u32,
        &p - 2u32,
        (&p - 1u32) >> 1,
        ((&p - 1u32) >> 1) + 1u32,
        BigUint::from(u64::MAX),
        one.clone() << 64,
        one.clone() << 128,
        (one.clone() << 128) - 1u32,
        one.clone() << 192,
        (one.clone() << 192) - 1u32,
        one.clone() << 251,
        (one.clone() << 251) - 1u32,
        (one.clone() << 251) + 1u32,
    ];
    v.iter_mut().for_each(|x| *x = &*x % &p);
    v
}

fn felt_strategy() -> impl Strategy<Value = BigUint> {
    prop_oneof![
        4 => any::<[u64; 4]>().prop_map(|l| {
            let mut bytes = Vec::new();
            for x in l {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
            BigUint::from_bytes_le(&bytes) % p()
        }),
        1 => (0usize..17).prop_map(|i| edge_values()[i].clone()),
        1 => any::<u64>().prop_map(BigUint::from),
    ]
}

fn reference_inverse(a: &BigUint) -> BigUint {
    let p = p();
    a.modpow(&(&p - 2u32), &p)
}

/// The reference square root convention: the root r with r <= p − r, or None.
fn check_sqrt(a: &BigUint) {
    let p = p();
    let f = from_big(a);
    let got = f.sqrt();
    let is_square = a.is_zero() || a.modpow(&((&p - 1u32) >> 1), &p).is_one();
    match got {
        None => assert!(!is_square, "sqrt({a:x}) returned None for a square"),
        Some(r) => {
            assert!(is_square, "sqrt({a:x}) returned a root of a non-square");
            let rb = to_big(r);
            assert_eq!((&rb * &rb) % &p, *a, "sqrt({a:x}) is not a root");
            assert!(
                rb <= &p - &rb || rb.is_zero(),
                "sqrt({a:x}) is not the smaller root"
            );
        }
    }
}

#[test]
fn inverse_edges() {
    for a in edge_values() {
        let f = from_big(&a);
        match f.inverse() {
            None => {
                assert!(a.is_zero());
                assert_eq!(f.inverse_vartime(), None);
            }
            Some(inv) => {
                assert_eq!(to_big(inv), reference_inverse(&a), "inverse of {a:x}");
                assert_eq!(f * inv, Felt::ONE);
                assert_eq!(f.inverse_vartime(), Some(inv));
            }
        }
    }
}

#[test]
fn sqrt_edges() {
    for a in edge_values() {
        check_sqrt(&a);
        check_sqrt(&((&a * &a) % p()));
        check_sqrt(&((&a * &a * 3u32) % p()));
    }
}

#[test]
fn sqrt_of_squares_is_smaller_root() {
    let p = p();
    for a in edge_values() {
        let s = from_big(&((&a * &a) % &p));
        let expected = std::cmp::min(a.clone(), (&p - &a) % &p);
        assert_eq!(to_big(s.sqrt().unwrap()), expected);
    }
}

#[test]
fn batch_inverse_edges() {
    let edges = edge_values();
    let mut v: Vec<Felt> = edges.iter().map(from_big).collect();
    Felt::batch_inverse(&mut v);
    for (a, got) in edges.iter().zip(v) {
        if a.is_zero() {
            assert_eq!(got, Felt::ZERO);
        } else {
            assert_eq!(to_big(got), reference_inverse(a));
        }
    }
    // Empty, single zero, all zeros.
    Felt::batch_inverse(&mut []);
    let mut z = [Felt::ZERO; 3];
    Felt::batch_inverse(&mut z);
    assert_eq!(z, [Felt::ZERO; 3]);
}

proptest! {
    #[test]
    fn inverse_matches_bigint(a in felt_strategy()) {
        let f = from_big(&a);
        match f.inverse() {
            None => prop_assert!(a.is_zero()),
            Some(inv) => prop_assert_eq!(to_big(inv), reference_inverse(&a)),
        }
        prop_assert_eq!(f.inverse_vartime(), f.inverse());
    }

    #[test]
    fn sqrt_of_square_matches_bigint(a in felt_strategy()) {
        let p = p();
        let s = (&a * &a) % &p;
        let r = to_big(from_big(&s).sqrt().unwrap());
        prop_assert_eq!(r, std::cmp::min(a.clone(), (&p - &a) % &p));
    }

    #[test]
    fn sqrt_random_matches_euler(a in felt_strategy()) {
        check_sqrt(&a);
        // 3 is a non-residue mod p, so 3·a² is a non-square for a != 0.
        let n = (&a * &a * 3u32) % p();
        prop_assert_eq!(from_big(&n).sqrt().is_none(), !a.is_zero());
    }

    #[test]
    fn sqrt_existence_matches_pathfinder(l in any::<[u64; 4]>()) {
        let a = from_big(&{
            let mut bytes = Vec::new();
            for x in l { bytes.extend_from_slice(&x.to_le_bytes()); }
            BigUint::from_bytes_le(&bytes)
        });
        let pf = pathfinder_crypto::MontFelt::from_raw(a.to_montgomery_limbs());
        prop_assert_eq!(a.sqrt().is_some(), pf.sqrt().is_some());
    }

    #[test]
    fn batch_inverse_with_zeros(
        items in proptest::collection::vec((felt_strategy(), any::<bool>()), 0..40)
    ) {
        let values: Vec<BigUint> = items
            .iter()
            .map(|(a, z)| if *z { BigUint::zero() } else { a.clone() })
            .collect();
        let mut v: Vec<Felt> = values.iter().map(from_big).collect();
        Felt::batch_inverse(&mut v);
        for (a, got) in values.iter().zip(v) {
            if a.is_zero() {
                prop_assert_eq!(got, Felt::ZERO);
            } else {
                prop_assert_eq!(to_big(got), reference_inverse(a));
            }
        }
    }
}
