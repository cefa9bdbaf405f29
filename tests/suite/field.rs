//! Differential tests of [`Felt`] against a `num-bigint` reference model and against
//! `starknet-types-core`'s `Felt`.
//!
//! Every operation and conversion is checked on random values and on edge values (0, 1, p-1,
//! values at limb boundaries and near 2^251, values whose Montgomery limbs are extreme), and every
//! error path checks both the [`FeltError`] variant and that its message names the input.

// The reference forms (`&a + &b`) are exercised on purpose.
#![allow(clippy::op_ref)]

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use starkbatch::{Felt, FeltError, PackedFelt};
use starknet_types_core::felt::Felt as TcFelt;
use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::str::FromStr;

// ---------------------------------------------------------------------------------------------
// The reference model: integers modulo p as BigUint.
// ---------------------------------------------------------------------------------------------

/// p = 2^251 + 17·2^192 + 1 (the Starknet prime; /work/shared/spec/starknet.md).
fn p() -> BigUint {
    (BigUint::one() << 251u32) + (BigUint::from(17u32) << 192u32) + 1u32
}

fn pow2(k: u32) -> BigUint {
    BigUint::one() << k
}

fn limbs_to_big(l: [u64; 4]) -> BigUint {
    (0..4).fold(BigUint::zero(), |acc, i| {
        acc + (BigUint::from(l[i]) << (64 * i as u32))
    })
}

fn big_to_limbs(x: &BigUint) -> [u64; 4] {
    assert!(x.bits() <= 256);
    let mut l = [0u64; 4];
    for (i, d) in x.to_u64_digits().into_iter().enumerate() {
        l[i] = d;
    }
    l
}

fn big_to_be32(x: &BigUint) -> [u8; 32] {
    let b = x.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

/// The Felt with integer value `x < p`, built through `from_raw_limbs`.
fn felt(x: &BigUint) -> Felt {
    Felt::from_raw_limbs(big_to_limbs(x)).expect("model value below p")
}

/// The integer value of `f`, read through `to_raw_limbs`.
fn big(f: &Felt) -> BigUint {
    limbs_to_big(f.to_raw_limbs())
}

fn modpow(x: &BigUint, e: &BigUint) -> BigUint {
    x.modpow(e, &p())
}

fn model_inverse(x: &BigUint) -> Option<BigUint> {
    if x.is_zero() {
        None
    } else {
        Some(modpow(x, &(p() - 2u32)))
    }
}

fn is_square(x: &BigUint) -> bool {
    x.is_zero() || modpow(x, &((p() - 1u32) >> 1u32)).is_one()
}

/// 2^256 mod p and its inverse: the Montgomery radix.
fn r_mod_p() -> BigUint {
    pow2(256) % p()
}

fn r_inv() -> BigUint {
    model_inverse(&r_mod_p()).unwrap()
}

fn to_tc(f: &Felt) -> TcFelt {
    TcFelt::from_bytes_be(&f.to_bytes_be())
}

fn from_tc(t: &TcFelt) -> Felt {
    Felt::from_bytes_be(&t.to_bytes_be()).expect("types-core value below p")
}

/// Edge values below p.
fn edges() -> Vec<BigUint> {
    let p = p();
    let ri = r_inv();
    let mut v = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        BigUint::from(3u32),
        &p - 1u32,
        &p - 2u32,
        (&p - 1u32) >> 1u32,
        (&p + 1u32) >> 1u32,
        pow2(64) - 1u32,
        pow2(64),
        pow2(64) + 1u32,
        pow2(128) - 1u32,
        pow2(128),
        pow2(192) - 1u32,
        pow2(192),
        pow2(192) + 1u32,
        BigUint::from(17u32) << 192u32,
        pow2(251) - 1u32,
        pow2(251),
        pow2(251) + 1u32,
        &p - pow2(64),
        &p - pow2(192),
        // Limbs all ones except the top: [MAX, MAX, MAX, 0] and [MAX, 0, MAX, 0].
        limbs_to_big([u64::MAX, u64::MAX, u64::MAX, 0]),
        limbs_to_big([u64::MAX, 0, u64::MAX, 0]),
        limbs_to_big([0, u64::MAX, 0, 0x07ff_ffff_ffff_ffff]),
        // Values whose Montgomery limbs are extreme: limbs 1, p-1, 2^251-1, all-ones low limbs.
        &ri % &p,
        (&ri * (&p - 1u32)) % &p,
        (&ri * (pow2(251) - 1u32)) % &p,
        (&ri * limbs_to_big([u64::MAX, u64::MAX, u64::MAX, 0])) % &p,
    ];
    v.dedup();
    v
}

/// A value below p: uniform, below 2^251, an edge value, near a limb boundary or near p, or small.
fn value() -> impl Strategy<Value = BigUint> {
    prop_oneof![
        4 => any::<[u64; 4]>().prop_map(|l| limbs_to_big(l) % p()),
        1 => any::<[u64; 4]>().prop_map(|l| limbs_to_big([l[0], l[1], l[2], l[3] >> 5])),
        3 => prop::sample::select(edges()),
        1 => (0u32..6, -4i64..=4).prop_map(|(k, d)| {
            let base = match k {
                0..=3 => pow2(64 * k),
                4 => pow2(251),
                _ => p(),
            };
            let v = if d >= 0 { base + d as u64 } else { base + p() - (-d) as u64 };
            v % p()
        }),
        1 => any::<u64>().prop_map(BigUint::from),
    ]
}

/// A Felt together with its model value.
fn fv() -> impl Strategy<Value = (Felt, BigUint)> {
    value().prop_map(|x| (felt(&x), x))
}

// ---------------------------------------------------------------------------------------------
// Constants and representation
// ---------------------------------------------------------------------------------------------

#[test]
fn constants_have_their_values() {
    let p = p();
    assert_eq!(big(&Felt::ZERO), BigUint::zero());
    assert_eq!(big(&Felt::ONE), BigUint::one());
    assert_eq!(big(&Felt::TWO), BigUint::from(2u32));
    assert_eq!(big(&Felt::THREE), BigUint::from(3u32));
    assert_eq!(big(&Felt::MAX), &p - 1u32);
    assert_eq!(limbs_to_big(Felt::MODULUS_LIMBS), p);
    assert_eq!(Felt::default(), Felt::ZERO);
    assert_eq!(<Felt as bytemuck::Zeroable>::zeroed(), Felt::ZERO);
    // The Montgomery form of 1 is R = 2^256 mod p.
    assert_eq!(limbs_to_big(Felt::ONE.to_montgomery_limbs()), r_mod_p());
    const C: Felt = Felt::from_u64_const(12345);
    const H: Felt = Felt::from_hex_unchecked(
        "0x800000000000011000000000000000000000000000000000000000000000000",
    );
    assert_eq!(big(&C), BigUint::from(12345u32));
    assert_eq!(H, Felt::MAX);
}

#[test]
fn edge_values_are_below_p() {
    for e in edges() {
        assert!(e < p(), "{e:x}");
        assert_eq!(big(&felt(&e)), e);
    }
}

#[test]
fn from_raw_limbs_rejects_non_canonical() {
    let p = p();
    for x in [p.clone(), &p + 1u32, pow2(252), pow2(256) - 1u32] {
        assert_eq!(Felt::from_raw_limbs(big_to_limbs(&x)), None, "{x:x}");
        assert_eq!(Felt::from_montgomery_limbs(big_to_limbs(&x)), None, "{x:x}");
    }
}

// ---------------------------------------------------------------------------------------------
// Arithmetic against the model
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn add_sub_mul_neg_match_model((a, x) in fv(), (b, y) in fv()) {
        let p = p();
        let sum = (&x + &y) % &p;
        let diff = (&x + &p - &y) % &p;
        let prod = (&x * &y) % &p;
        let neg = (&p - &x) % &p;

        prop_assert_eq!(big(&(a + b)), sum.clone());
        prop_assert_eq!(big(&(a + &b)), sum.clone());
        prop_assert_eq!(big(&(&a + b)), sum.clone());
        prop_assert_eq!(big(&(&a + &b)), sum.clone());
        let mut s = a;
        s += b;
        prop_assert_eq!(big(&s), sum.clone());
        let mut s = a;
        s += &b;
        prop_assert_eq!(big(&s), sum);

        prop_assert_eq!(big(&(a - b)), diff.clone());
        prop_assert_eq!(big(&(a - &b)), diff.clone());
        prop_assert_eq!(big(&(&a - b)), diff.clone());
        prop_assert_eq!(big(&(&a - &b)), diff.clone());
        let mut d = a;
        d -= b;
        prop_assert_eq!(big(&d), diff.clone());
        let mut d = a;
        d -= &b;
        prop_assert_eq!(big(&d), diff);

        prop_assert_eq!(big(&(a * b)), prod.clone());
        prop_assert_eq!(big(&(a * &b)), prod.clone());
        prop_assert_eq!(big(&(&a * b)), prod.clone());
        prop_assert_eq!(big(&(&a * &b)), prod.clone());
        let mut m = a;
        m *= b;
        prop_assert_eq!(big(&m), prod.clone());
        let mut m = a;
        m *= &b;
        prop_assert_eq!(big(&m), prod);

        prop_assert_eq!(big(&(-a)), neg.clone());
        prop_assert_eq!(big(&(-&a)), neg);
    }

    #[test]
    fn double_square_match_model((a, x) in fv()) {
        let p = p();
        prop_assert_eq!(a.double(), a + a);
        prop_assert_eq!(big(&a.double()), (&x * 2u32) % &p);
        prop_assert_eq!(big(&a.square()), (&x * &x) % &p);
        prop_assert_eq!(a.square(), a * a);
        prop_assert_eq!(a.is_zero(), x.is_zero());
    }

    #[test]
    fn montgomery_limbs_are_value_times_r((a, x) in fv()) {
        let m = limbs_to_big(a.to_montgomery_limbs());
        prop_assert_eq!(m.clone(), (&x * r_mod_p()) % p());
        prop_assert_eq!(Felt::from_montgomery_limbs(a.to_montgomery_limbs()), Some(a));
        // Reading arbitrary canonical limbs as Montgomery form gives limbs·R^-1.
        let f = Felt::from_montgomery_limbs(big_to_limbs(&x)).unwrap();
        prop_assert_eq!(big(&f), (&x * r_inv()) % p());
        prop_assert_eq!(Felt::from_raw_limbs(a.to_raw_limbs()), Some(a));
    }

    #[test]
    fn pow_matches_model((a, x) in fv(), e in any::<u128>(), small in 0u128..8, (b, y) in fv()) {
        prop_assert_eq!(big(&a.pow(e)), modpow(&x, &BigUint::from(e)));
        prop_assert_eq!(big(&a.pow(small)), modpow(&x, &BigUint::from(small)));
        prop_assert_eq!(big(&a.pow_felt(&b)), modpow(&x, &y));
    }

    #[test]
    fn pow_limbs_matches_model((a, x) in fv(), exp in prop::collection::vec(any::<u64>(), 0..6)) {
        let e = exp.iter().rev().fold(BigUint::zero(), |acc, &l| (acc << 64u32) + l);
        prop_assert_eq!(big(&a.pow_limbs(&exp)), modpow(&x, &e));
    }

    #[test]
    fn inverse_matches_model((a, x) in fv()) {
        match model_inverse(&x) {
            None => prop_assert_eq!(a.inverse(), None),
            Some(inv) => {
                let i = a.inverse().unwrap();
                prop_assert_eq!(big(&i), inv);
                prop_assert_eq!(i * a, Felt::ONE);
            }
        }
    }

    #[test]
    fn sqrt_matches_model((a, x) in fv()) {
        let p = p();
        // Of a non-square: None. Of a square: the smaller root.
        match a.sqrt() {
            None => prop_assert!(!is_square(&x), "no root returned for the square {:x}", x),
            Some(r) => {
                prop_assert!(is_square(&x));
                let rv = big(&r);
                prop_assert_eq!((&rv * &rv) % &p, x.clone());
                prop_assert!(rv <= (&p - &rv) % &p, "root {:x} is not the smaller", rv);
            }
        }
        // Every square has a root, and it is the smaller of ±a.
        let sq = a.square();
        let r = sq.sqrt();
        let smaller = std::cmp::min(x.clone(), (&p - &x) % &p);
        prop_assert_eq!(r.map(|r| big(&r)), Some(smaller));
    }

    #[test]
    fn batch_inverse_matches_model(
        items in prop::collection::vec((fv(), any::<bool>()), 0..40)
    ) {
        // About half the time the element is replaced by zero, to mix zeros in.
        let values: Vec<(Felt, BigUint)> = items
            .into_iter()
            .map(|((f, x), zero)| if zero { (Felt::ZERO, BigUint::zero()) } else { (f, x) })
            .collect();
        let mut fs: Vec<Felt> = values.iter().map(|(f, _)| *f).collect();
        Felt::batch_inverse(&mut fs);
        for (got, (_, x)) in fs.iter().zip(values.iter()) {
            prop_assert_eq!(big(got), model_inverse(x).unwrap_or_default());
        }
    }

    #[test]
    fn sum_product_match_model(items in prop::collection::vec(fv(), 0..20)) {
        let p = p();
        let fs: Vec<Felt> = items.iter().map(|(f, _)| *f).collect();
        let s = items.iter().fold(BigUint::zero(), |acc, (_, x)| (acc + x) % &p);
        let m = items.iter().fold(BigUint::one(), |acc, (_, x)| (acc * x) % &p);
        prop_assert_eq!(big(&fs.iter().copied().sum::<Felt>()), s.clone());
        prop_assert_eq!(big(&fs.iter().sum::<Felt>()), s);
        prop_assert_eq!(big(&fs.iter().copied().product::<Felt>()), m.clone());
        prop_assert_eq!(big(&fs.iter().product::<Felt>()), m);
    }

    #[test]
    fn ord_and_bits_follow_canonical_value((a, x) in fv(), (b, y) in fv(), i in 0usize..260) {
        prop_assert_eq!(a.cmp(&b), x.cmp(&y));
        prop_assert_eq!(a.partial_cmp(&b), Some(x.cmp(&y)));
        prop_assert_eq!(a == b, x == y);
        prop_assert_eq!(a.bits(), x.bits() as usize);
        prop_assert_eq!(a.bit(i), x.bit(i as u64));
    }

    #[test]
    fn sorting_matches_model(items in prop::collection::vec(fv(), 0..30)) {
        let mut fs: Vec<Felt> = items.iter().map(|(f, _)| *f).collect();
        let mut xs: Vec<BigUint> = items.into_iter().map(|(_, x)| x).collect();
        fs.sort();
        xs.sort();
        prop_assert_eq!(fs.iter().map(big).collect::<Vec<_>>(), xs);
    }

    #[test]
    fn hash_is_consistent_with_eq((a, x) in fv(), (b, _) in fv()) {
        let h = BuildHasherDefault::<DefaultHasher>::default();
        // The same value reached by different routes hashes the same.
        let routes = [
            a,
            a + b - b,
            (a * Felt::TWO) - a,
            Felt::from_dec_str(&x.to_str_radix(10)).unwrap(),
            Felt::from_hex(&x.to_str_radix(16)).unwrap(),
            Felt::from_bytes_le_reduced(&{
                let mut le = big_to_be32(&(&x + p()));
                le.reverse();
                le
            }),
        ];
        for r in &routes {
            prop_assert_eq!(*r, a);
            prop_assert_eq!(h.hash_one(r), h.hash_one(a));
        }
        let set: HashSet<Felt> = routes.iter().copied().chain([b]).collect();
        prop_assert_eq!(set.len(), if a == b { 1 } else { 2 });
    }

    #[test]
    fn packed_felt_one_lane_matches_ops((a, _) in fv(), (b, _) in fv()) {
        let c = <Felt as PackedFelt>::prepare(b);
        prop_assert_eq!(<Felt as PackedFelt>::LANES, 1);
        prop_assert_eq!(PackedFelt::add(a, b), a + b);
        prop_assert_eq!(PackedFelt::sub(a, b), a - b);
        prop_assert_eq!(PackedFelt::mul(a, b), a * b);
        prop_assert_eq!(PackedFelt::square(a), a * a);
        prop_assert_eq!(PackedFelt::double(a), a + a);
        prop_assert_eq!(a.add_constant(&c), a + b);
        prop_assert_eq!(<Felt as PackedFelt>::zero(), Felt::ZERO);
        let mut out = [Felt::ZERO];
        <Felt as PackedFelt>::load(&[a]).store(&mut out);
        prop_assert_eq!(out[0], a);
    }
}

// ---------------------------------------------------------------------------------------------
// Against starknet-types-core
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arithmetic_matches_types_core((a, _) in fv(), (b, _) in fv(), e in any::<u128>()) {
        let (ta, tb) = (to_tc(&a), to_tc(&b));
        prop_assert_eq!(from_tc(&ta), a);
        prop_assert_eq!(a + b, from_tc(&(ta + tb)));
        prop_assert_eq!(a - b, from_tc(&(ta - tb)));
        prop_assert_eq!(a * b, from_tc(&(ta * tb)));
        prop_assert_eq!(-a, from_tc(&(-ta)));
        prop_assert_eq!(a.double(), from_tc(&ta.double()));
        prop_assert_eq!(a.square(), from_tc(&ta.square()));
        prop_assert_eq!(a.pow(e), from_tc(&ta.pow(e)));
        prop_assert_eq!(a.pow_felt(&b), from_tc(&ta.pow_felt(&tb)));
        prop_assert_eq!(a.inverse(), ta.inverse().map(|t| from_tc(&t)));
        prop_assert_eq!(a.sqrt(), ta.sqrt().map(|t| from_tc(&t)));
        prop_assert_eq!(a.cmp(&b), ta.cmp(&tb));
        prop_assert_eq!(a.bits(), ta.bits());
    }

    #[test]
    fn formatting_matches_types_core_and_bigint((a, x) in fv()) {
        let t = to_tc(&a);
        // Display is `0x` + minimal lowercase hex: types-core's `{:#x}` (its Display is decimal).
        prop_assert_eq!(a.to_string(), format!("{t:#x}"));
        prop_assert_eq!(a.to_string(), format!("0x{}", x.to_str_radix(16)));
        prop_assert_eq!(format!("{a:?}"), format!("Felt(0x{})", x.to_str_radix(16)));
        prop_assert_eq!(a.to_fixed_hex_string(), t.to_fixed_hex_string());
        prop_assert_eq!(a.to_fixed_hex_string(), format!("{x:#066x}"));
        prop_assert_eq!(a.to_fixed_hex_string().len(), 66);
        macro_rules! same_format {
            ($($fmt:literal),* $(,)?) => {$(
                let ours = format!($fmt, a);
                prop_assert_eq!(&ours, &format!($fmt, t), "format {} vs types-core", $fmt);
                prop_assert_eq!(&ours, &format!($fmt, x), "format {} vs BigUint", $fmt);
            )*};
        }
        same_format!(
            "{:x}", "{:#x}", "{:X}", "{:#X}", "{:066x}", "{:#066x}", "{:#066X}", "{:064x}",
            "{:>70x}", "{:<70x}", "{:^70x}", "{:*^70x}", "{:#>70X}", "{:5x}", "{:+x}", "{:+#x}",
            "{:#070X}", "{:0>66x}", "{:#3x}",
        );
        // Display pads like a string.
        prop_assert_eq!(format!("{a:>70}"), format!("{:>70}", format!("{x:#x}")));
        prop_assert_eq!(format!("{a:<70}"), format!("{:<70}", format!("{x:#x}")));
    }

    #[test]
    fn parsing_matches_types_core((_, x) in fv()) {
        let hex = format!("0x{}", x.to_str_radix(16));
        let dec = x.to_str_radix(10);
        let t = TcFelt::from_hex(&hex).unwrap();
        prop_assert_eq!(Felt::from_hex(&hex).unwrap(), from_tc(&t));
        prop_assert_eq!(Felt::from_dec_str(&dec).unwrap(), from_tc(&TcFelt::from_dec_str(&dec).unwrap()));
        prop_assert_eq!(Felt::from_str(&hex).unwrap(), from_tc(&TcFelt::from_str(&hex).unwrap()));
        prop_assert_eq!(Felt::from_str(&dec).unwrap(), from_tc(&TcFelt::from_str(&dec).unwrap()));
        prop_assert_eq!(felt(&x).to_bytes_be(), t.to_bytes_be());
        prop_assert_eq!(felt(&x).to_bytes_le(), t.to_bytes_le());
    }

    #[test]
    fn reduced_bytes_match_types_core(bytes in any::<[u8; 32]>()) {
        // types-core's from_bytes_* reduce modulo p.
        prop_assert_eq!(Felt::from_bytes_be_reduced(&bytes), from_tc(&TcFelt::from_bytes_be(&bytes)));
        prop_assert_eq!(Felt::from_bytes_le_reduced(&bytes), from_tc(&TcFelt::from_bytes_le(&bytes)));
    }
}

// ---------------------------------------------------------------------------------------------
// Conversions against the model
// ---------------------------------------------------------------------------------------------

/// Adds leading zeros so that there are `total` hex digits (when that is more than now).
fn zero_pad(digits: &str, total: usize) -> String {
    format!(
        "{}{}",
        "0".repeat(total.saturating_sub(digits.len())),
        digits
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn hex_parsing_matches_model((a, x) in fv(), pad in 0usize..=64, upper in any::<bool>(), prefix in 0u8..3) {
        let digits = x.to_str_radix(16);
        let digits = if upper { digits.to_uppercase() } else { digits };
        let digits = zero_pad(&digits, pad);
        let s = match prefix {
            0 => digits.clone(),
            1 => format!("0x{digits}"),
            _ => format!("0X{digits}"),
        };
        prop_assert_eq!(Felt::from_hex(&s), Ok(a));
        if prefix != 0 {
            prop_assert_eq!(Felt::from_str(&s), Ok(a));
        }
        // Round trips through every hex output.
        prop_assert_eq!(Felt::from_hex(&a.to_string()), Ok(a));
        prop_assert_eq!(Felt::from_hex(&format!("{a:x}")), Ok(a));
        prop_assert_eq!(Felt::from_hex(&format!("{a:#X}")), Ok(a));
        prop_assert_eq!(Felt::from_hex(&a.to_fixed_hex_string()), Ok(a));
        prop_assert_eq!(a.to_string().parse::<Felt>(), Ok(a));
    }

    #[test]
    fn decimal_parsing_matches_model((a, x) in fv(), zeros in 0usize..5) {
        let s = format!("{}{}", "0".repeat(zeros), x.to_str_radix(10));
        prop_assert_eq!(Felt::from_dec_str(&s), Ok(a));
        prop_assert_eq!(Felt::from_str(&s), Ok(a));
        prop_assert_eq!(s.parse::<Felt>(), Ok(a));
    }

    #[test]
    fn bytes_round_trip((a, x) in fv()) {
        let be = big_to_be32(&x);
        let mut le = be;
        le.reverse();
        prop_assert_eq!(a.to_bytes_be(), be);
        prop_assert_eq!(a.to_bytes_le(), le);
        prop_assert_eq!(Felt::from_bytes_be(&be), Ok(a));
        prop_assert_eq!(Felt::from_bytes_le(&le), Ok(a));
        prop_assert_eq!(Felt::from_bytes_be_reduced(&be), a);
        prop_assert_eq!(Felt::from_bytes_le_reduced(&le), a);
    }

    #[test]
    fn reduced_bytes_match_model(bytes in prop_oneof![
        3 => any::<[u8; 32]>(),
        1 => prop::sample::select(non_canonical()).prop_map(|x| big_to_be32(&x)),
    ]) {
        let v = BigUint::from_bytes_be(&bytes);
        let mut le = bytes;
        le.reverse();
        let want = &v % p();
        prop_assert_eq!(big(&Felt::from_bytes_be_reduced(&bytes)), want.clone());
        prop_assert_eq!(big(&Felt::from_bytes_le_reduced(&le)), want);
        // The strict forms accept exactly the canonical encodings.
        if v < p() {
            prop_assert_eq!(Felt::from_bytes_be(&bytes).map(|f| big(&f)), Ok(v.clone()));
            prop_assert_eq!(Felt::from_bytes_le(&le).map(|f| big(&f)), Ok(v));
        } else {
            let input = format!("0x{}", hex32(&bytes));
            let err = FeltError::NotBelowModulus { input };
            prop_assert_eq!(Felt::from_bytes_be(&bytes), Err(err.clone()));
            prop_assert_eq!(Felt::from_bytes_le(&le), Err(err));
        }
    }

    #[test]
    fn integer_conversions_match_model(v in any::<u128>(), w in any::<u64>(), (a, x) in fv()) {
        prop_assert_eq!(big(&Felt::from(v)), BigUint::from(v));
        prop_assert_eq!(big(&Felt::from(w)), BigUint::from(w));
        prop_assert_eq!(big(&Felt::from(w as u32)), BigUint::from(w as u32));
        prop_assert_eq!(big(&Felt::from(w as u16)), BigUint::from(w as u16));
        prop_assert_eq!(big(&Felt::from(w as u8)), BigUint::from(w as u8));
        prop_assert_eq!(big(&Felt::from(w as usize)), BigUint::from(w as usize));
        prop_assert_eq!(Felt::from(w), Felt::from(w as u128));
        prop_assert_eq!(u128::try_from(Felt::from(v)), Ok(v));
        prop_assert_eq!(u64::try_from(Felt::from(w)), Ok(w));
        // An arbitrary value fits exactly when the model says so.
        match u64::try_from(a) {
            Ok(n) => prop_assert_eq!(BigUint::from(n), x.clone()),
            Err(e) => {
                prop_assert!(x.bits() > 64);
                prop_assert_eq!(e.clone(), FeltError::DoesNotFit { value: a.to_string(), target: "u64" });
                let msg = e.to_string();
                prop_assert!(msg.contains(&a.to_string()) && msg.contains("u64"), "{}", msg);
            }
        }
        match u128::try_from(a) {
            Ok(n) => prop_assert_eq!(BigUint::from(n), x.clone()),
            Err(e) => {
                prop_assert!(x.bits() > 128);
                prop_assert_eq!(e, FeltError::DoesNotFit { value: a.to_string(), target: "u128" });
            }
        }
    }

    #[test]
    fn bytemuck_casts_are_the_montgomery_limbs(items in prop::collection::vec(fv(), 0..10)) {
        let fs: Vec<Felt> = items.iter().map(|(f, _)| *f).collect();
        let limbs: &[u64] = bytemuck::cast_slice(&fs);
        prop_assert_eq!(limbs.len(), 4 * fs.len());
        for (chunk, f) in limbs.chunks(4).zip(&fs) {
            prop_assert_eq!(chunk, &f.to_montgomery_limbs()[..]);
        }
        let bytes: &[u8] = bytemuck::cast_slice(&fs);
        prop_assert_eq!(bytes.len(), 32 * fs.len());
        let back: &[Felt] = bytemuck::cast_slice(limbs);
        prop_assert_eq!(back, &fs[..]);
        let owned: Vec<u64> = limbs.to_vec();
        let back: &[Felt] = bytemuck::try_cast_slice(&owned).unwrap();
        prop_assert_eq!(back, &fs[..]);
        for f in &fs {
            prop_assert_eq!(bytemuck::cast::<Felt, [u64; 4]>(*f), f.to_montgomery_limbs());
        }
    }
}

#[test]
fn bool_and_small_integers() {
    assert_eq!(Felt::from(false), Felt::ZERO);
    assert_eq!(Felt::from(true), Felt::ONE);
    assert_eq!(big(&Felt::from(u64::MAX)), pow2(64) - 1u32);
    assert_eq!(big(&Felt::from(u128::MAX)), pow2(128) - 1u32);
    assert_eq!(u64::try_from(Felt::from(u64::MAX)), Ok(u64::MAX));
    assert_eq!(u128::try_from(Felt::from(u128::MAX)), Ok(u128::MAX));
    assert!(u64::try_from(felt(&pow2(64))).is_err());
    assert!(u128::try_from(felt(&pow2(128))).is_err());
    assert!(u128::try_from(Felt::MAX).is_err());
}

// ---------------------------------------------------------------------------------------------
// Error paths
// ---------------------------------------------------------------------------------------------

fn hex32(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Values that are not below p but fit in 256 bits.
fn non_canonical() -> Vec<BigUint> {
    let p = p();
    vec![
        p.clone(),
        &p + 1u32,
        &p + pow2(64),
        pow2(252),
        pow2(255),
        pow2(256) - 1u32,
        &p * 2u32 - 1u32,
        &p * 31u32,
    ]
}

/// How a message names an input: quoted, and cut after 80 characters (marked `…`) so that an
/// error never prints megabytes.
fn named(input: &str) -> String {
    if input.chars().count() <= 80 {
        format!("{input:?}")
    } else {
        format!("{:?}", input.chars().take(80).collect::<String>() + "…")
    }
}

/// Checks the variant and that the message names the input.
fn assert_error(got: Result<Felt, FeltError>, want: FeltError, input: &str) {
    let err = got.expect_err(input);
    assert_eq!(err, want, "input {input:?}");
    let msg = err.to_string();
    assert!(
        msg.contains(&named(input)),
        "message {msg:?} does not name {input:?}"
    );
}

#[test]
fn hex_errors_name_the_input() {
    for s in ["", "0x", "0X"] {
        assert_error(Felt::from_hex(s), FeltError::Empty { input: s.into() }, s);
    }
    let bad = [
        ("0x12g4", 'g', 4),
        ("12g", 'g', 2),
        ("x12", 'x', 0),
        (" 0x1", ' ', 0),
        ("0x1 ", ' ', 3),
        ("0x-1", '-', 2),
        ("-0x1", '-', 0),
        ("0x0x1", 'x', 3),
        ("0x1é", 'é', 3),
        ("0xé1", 'é', 2),
    ];
    for (s, character, position) in bad {
        let want = FeltError::InvalidCharacter {
            input: s.into(),
            character,
            position,
        };
        assert_error(Felt::from_hex(s), want, s);
        let msg = Felt::from_hex(s).unwrap_err().to_string();
        assert!(
            msg.contains(&format!("{character:?}"))
                && msg.contains(&format!("position {position}")),
            "{msg}"
        );
    }
    // 65 digits is too long even when the value is small; a bad character is reported first.
    let long = format!("0x{}", "0".repeat(64) + "1");
    assert_error(
        Felt::from_hex(&long),
        FeltError::TooLong {
            input: long.clone(),
            digits: 65,
            max: 64,
        },
        &long,
    );
    let long_bad = format!("0x{}z", "0".repeat(70));
    assert_error(
        Felt::from_hex(&long_bad),
        FeltError::InvalidCharacter {
            input: long_bad.clone(),
            character: 'z',
            position: 72,
        },
        &long_bad,
    );
    for x in non_canonical() {
        for s in [
            format!("0x{x:x}"),
            format!("{x:X}"),
            format!("0x{}", zero_pad(&x.to_str_radix(16), 64)),
        ] {
            assert_error(
                Felt::from_hex(&s),
                FeltError::NotBelowModulus { input: s.clone() },
                &s,
            );
        }
    }
    // 64 digits of value p - 1 is fine.
    let max = format!("0x{}", zero_pad(&(p() - 1u32).to_str_radix(16), 64));
    assert_eq!(Felt::from_hex(&max), Ok(Felt::MAX));
}

#[test]
fn decimal_errors_name_the_input() {
    assert_error(
        Felt::from_dec_str(""),
        FeltError::Empty { input: "".into() },
        "",
    );
    assert_error(
        Felt::from_str(""),
        FeltError::Empty { input: "".into() },
        "",
    );
    assert_error(
        Felt::from_str("0x"),
        FeltError::Empty { input: "0x".into() },
        "0x",
    );
    for (s, character, position) in [
        ("12a", 'a', 2),
        ("-1", '-', 0),
        ("+1", '+', 0),
        ("1 ", ' ', 1),
        ("1_000", '_', 1),
        ("0b1", 'b', 1),
        ("٣", '٣', 0),
    ] {
        let want = FeltError::InvalidCharacter {
            input: s.into(),
            character,
            position,
        };
        assert_error(Felt::from_dec_str(s), want.clone(), s);
        assert_error(Felt::from_str(s), want, s);
    }
    for x in non_canonical() {
        let s = x.to_str_radix(10);
        assert_error(
            Felt::from_dec_str(&s),
            FeltError::NotBelowModulus { input: s.clone() },
            &s,
        );
        let padded = format!("000{s}");
        assert_error(
            Felt::from_dec_str(&padded),
            FeltError::NotBelowModulus {
                input: padded.clone(),
            },
            &padded,
        );
    }
    // p - 1 with leading zeros is fine; 2^256 overflows four limbs.
    assert_eq!(
        Felt::from_dec_str(&format!("0000{}", p() - 1u32)),
        Ok(Felt::MAX)
    );
    let s = pow2(256).to_str_radix(10);
    assert_error(
        Felt::from_dec_str(&s),
        FeltError::NotBelowModulus { input: s.clone() },
        &s,
    );
}

#[test]
fn huge_inputs_give_short_messages_that_start_with_the_input() {
    let huge = "9".repeat(100_000);
    let err = Felt::from_dec_str(&huge).unwrap_err();
    assert_eq!(
        err,
        FeltError::NotBelowModulus {
            input: huge.clone()
        }
    );
    let msg = err.to_string();
    assert!(msg.len() < 300, "message is {} bytes", msg.len());
    assert!(msg.contains(&"9".repeat(80)) && msg.contains('…'), "{msg}");

    let huge_hex = format!("0x{}", "f".repeat(100_000));
    let err = Felt::from_hex(&huge_hex).unwrap_err();
    assert_eq!(
        err,
        FeltError::TooLong {
            input: huge_hex.clone(),
            digits: 100_000,
            max: 64
        }
    );
    let msg = err.to_string();
    assert!(
        msg.len() < 300 && msg.contains("0xffff") && msg.contains("100000"),
        "{msg}"
    );
}

#[test]
fn byte_errors_name_the_value() {
    for x in non_canonical() {
        let be = big_to_be32(&x);
        let mut le = be;
        le.reverse();
        let input = format!("0x{}", hex32(&be));
        assert_error(
            Felt::from_bytes_be(&be),
            FeltError::NotBelowModulus {
                input: input.clone(),
            },
            &input,
        );
        assert_error(
            Felt::from_bytes_le(&le),
            FeltError::NotBelowModulus {
                input: input.clone(),
            },
            &input,
        );
        assert_eq!(big(&Felt::from_bytes_be_reduced(&be)), &x % p());
        assert_eq!(big(&Felt::from_bytes_le_reduced(&le)), &x % p());
    }
}

/// The documented parsing rules, written out independently: the expected outcome of
/// `Felt::from_hex(s)`.
fn hex_model(s: &str) -> Result<BigUint, FeltError> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    let offset = s.len() - digits.len();
    if digits.is_empty() {
        return Err(FeltError::Empty { input: s.into() });
    }
    if let Some((i, c)) = digits.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(FeltError::InvalidCharacter {
            input: s.into(),
            character: c,
            position: offset + i,
        });
    }
    if digits.len() > 64 {
        return Err(FeltError::TooLong {
            input: s.into(),
            digits: digits.len(),
            max: 64,
        });
    }
    let v = BigUint::parse_bytes(digits.as_bytes(), 16).unwrap();
    if v < p() {
        Ok(v)
    } else {
        Err(FeltError::NotBelowModulus { input: s.into() })
    }
}

fn dec_model(s: &str) -> Result<BigUint, FeltError> {
    if s.is_empty() {
        return Err(FeltError::Empty { input: s.into() });
    }
    if let Some((i, c)) = s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        return Err(FeltError::InvalidCharacter {
            input: s.into(),
            character: c,
            position: i,
        });
    }
    let v = BigUint::parse_bytes(s.as_bytes(), 10).unwrap();
    if v < p() {
        Ok(v)
    } else {
        Err(FeltError::NotBelowModulus { input: s.into() })
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn hex_parsing_of_arbitrary_strings_matches_rules(
        s in prop_oneof![
            "(0[xX])?[0-9a-fA-F]{0,70}",
            "(0[xX])?[0-9a-fA-Fg xé-]{0,70}",
            "(0[xX])?0{0,4}8[0-9a-f]{62}",
            "(0[xX])?[0-9]{60,66}",
        ]
    ) {
        let got = Felt::from_hex(&s).map(|f| big(&f));
        prop_assert_eq!(&got, &hex_model(&s));
        if let Err(e) = got {
            prop_assert!(e.to_string().contains(&named(&s)), "{} does not name {:?}", e, s);
        }
    }

    #[test]
    fn decimal_parsing_of_arbitrary_strings_matches_rules(
        s in prop_oneof!["[0-9]{0,80}", "[0-9a +-]{0,80}", "0*36[0-9]{74}"]
    ) {
        let got = Felt::from_dec_str(&s).map(|f| big(&f));
        prop_assert_eq!(&got, &dec_model(&s));
        let via_from_str = Felt::from_str(&s).map(|f| big(&f));
        prop_assert_eq!(&via_from_str, &got);
        if let Err(e) = got {
            prop_assert!(e.to_string().contains(&named(&s)), "{} does not name {:?}", e, s);
        }
    }
}

/// The example in README.md, kept here so that it keeps compiling and passing.
#[test]
fn readme_example() {
    let a = Felt::from_hex("0x1234").unwrap();
    let b: Felt = "5678".parse().unwrap(); // decimal, or hex with 0x
    let c = a * b + a.double() - Felt::ONE;
    assert_eq!(a.double(), a + a);
    assert_eq!(c * c.inverse().unwrap(), Felt::ONE);
    assert_eq!(Felt::from_bytes_be(&c.to_bytes_be()).unwrap(), c);
    println!("{c} {c:#066x}"); // 0x-prefixed minimal hex, then 64 zero-padded digits

    // Bad input is an error that names it: `invalid field element "0x12g4": bad character 'g' at position 4`
    let err = Felt::from_hex("0x12g4").unwrap_err();
    assert!(err.to_string().contains("\"0x12g4\""));
    assert_eq!(
        err.to_string(),
        "invalid field element \"0x12g4\": bad character 'g' at position 4"
    );
    assert_eq!(
        c,
        felt(&((BigUint::from(0x1234u32) * 5678u32 + 2u32 * 0x1234u32 - 1u32) % p()))
    );
}
