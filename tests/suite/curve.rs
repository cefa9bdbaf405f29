//! The STARK curve against starknet-types-core's (lambdaworks) implementation, the curve
//! `starknet-crypto` 0.8 uses: add, double, mul, from_x on random and edge inputs.

use proptest::prelude::*;
use starkbatch::Felt;
use starkbatch::curve::{
    AffinePoint, BETA, CurveError, EC_ORDER, EC_ORDER_LIMBS, GENERATOR, ProjectivePoint,
    double_scalar_mul_vartime, mul_generator_ct,
};
use starknet_types_core::curve as rc;
use starknet_types_core::felt::Felt as RFelt;

fn to_ref(f: &Felt) -> RFelt {
    RFelt::from_bytes_be(&f.to_bytes_be())
}

fn from_ref(f: &RFelt) -> Felt {
    Felt::from_bytes_be(&f.to_bytes_be()).unwrap()
}

fn ref_point(p: &AffinePoint) -> rc::ProjectivePoint {
    if p.infinity {
        rc::ProjectivePoint::identity()
    } else {
        rc::ProjectivePoint::from_affine(to_ref(&p.x), to_ref(&p.y)).unwrap()
    }
}

fn from_ref_point(p: &rc::ProjectivePoint) -> AffinePoint {
    if p.is_identity() {
        AffinePoint::INFINITY
    } else {
        let a = p.to_affine().unwrap();
        AffinePoint::new(from_ref(&a.x()), from_ref(&a.y())).unwrap()
    }
}

fn felt_from_limbs_reduced(l: [u64; 4]) -> Felt {
    let mut b = [0u8; 32];
    for i in 0..4 {
        b[24 - 8 * i..32 - 8 * i].copy_from_slice(&l[i].to_be_bytes());
    }
    Felt::from_bytes_be_reduced(&b)
}

/// A pseudo-random point k·G computed by the reference.
fn point(k: &Felt) -> AffinePoint {
    let g = ref_point(&GENERATOR);
    from_ref_point(&(&g * to_ref(k)))
}

fn felt_strategy() -> impl Strategy<Value = Felt> {
    prop_oneof![
        4 => any::<[u64; 4]>().prop_map(felt_from_limbs_reduced),
        1 => prop_oneof![
            Just(Felt::ZERO),
            Just(Felt::ONE),
            Just(Felt::MAX),
            Just(EC_ORDER),
            Just(EC_ORDER - Felt::ONE),
            Just(EC_ORDER + Felt::ONE),
            Just(Felt::from_hex("0x800000000000000000000000000000000000000000000000000000000000000").unwrap()),
        ],
    ]
}

#[test]
fn constants_match_reference() {
    let g = rc::AffinePoint::generator();
    assert_eq!(from_ref(&g.x()), GENERATOR.x);
    assert_eq!(from_ref(&g.y()), GENERATOR.y);
    assert_eq!(
        EC_ORDER,
        from_ref(&RFelt::from_hex_unwrap(
            "0x0800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2f"
        ))
    );
    assert!(GENERATOR.is_on_curve());
    assert_eq!(
        BETA,
        from_ref(&RFelt::from_hex_unwrap(
            "0x06f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89"
        ))
    );
}

#[test]
fn group_order_times_generator_is_infinity() {
    let g = ProjectivePoint::from_affine(&GENERATOR);
    assert!(g.mul_vartime(&EC_ORDER_LIMBS).is_infinity());
    assert!(mul_generator_ct(&EC_ORDER_LIMBS).is_infinity());
    assert!(double_scalar_mul_vartime(&EC_ORDER_LIMBS, &[0; 4], &GENERATOR).is_infinity());
    // (n - 1)·G = -G, (n + 1)·G = G.
    let nm1 = (EC_ORDER - Felt::ONE).to_raw_limbs();
    let np1 = (EC_ORDER + Felt::ONE).to_raw_limbs();
    assert_eq!(g.mul_vartime(&nm1).to_affine(), GENERATOR.neg());
    assert_eq!(mul_generator_ct(&nm1).to_affine(), GENERATOR.neg());
    assert_eq!(g.mul_vartime(&np1).to_affine(), GENERATOR);
    assert_eq!(mul_generator_ct(&np1).to_affine(), GENERATOR);
}

#[test]
fn infinity_cases() {
    let p = point(&Felt::from(12345u64));
    let pp = ProjectivePoint::from_affine(&p);
    let inf = ProjectivePoint::INFINITY;
    assert!(pp.add(&pp.neg()).is_infinity());
    assert!(pp.add_affine(&p.neg()).is_infinity());
    assert_eq!(pp.add(&inf), pp);
    assert_eq!(inf.add(&pp), pp);
    assert_eq!(inf.add_affine(&p), pp);
    assert_eq!(pp.add_affine(&AffinePoint::INFINITY), pp);
    assert!(inf.double().is_infinity());
    assert!(inf.is_identity() && !pp.is_identity());
    assert!(AffinePoint::identity().is_identity() && !p.is_identity());
    assert_eq!(AffinePoint::generator(), GENERATOR);
    assert!(inf.add(&inf).is_infinity());
    assert_eq!(inf.to_affine(), AffinePoint::INFINITY);
    assert_eq!(pp.add(&pp), pp.double());
    assert_eq!(pp.add_affine(&p), pp.double());
    // A non-normalised P + P: same point, different Z.
    let p3 = pp.double().add(&pp);
    let p3b = pp.add(&pp.double());
    assert_eq!(p3.add(&p3b), p3.double());
    assert!(p3.add(&p3b.neg()).is_infinity());
    assert!(pp.mul_vartime(&[0; 4]).is_infinity());
    assert!(inf.mul_vartime(&[5, 0, 0, 0]).is_infinity());
    assert!(mul_generator_ct(&[0; 4]).is_infinity());
    assert_eq!(AffinePoint::INFINITY + p, p);
    assert_eq!(p + p.neg(), AffinePoint::INFINITY);
    assert_eq!(p + p, p.double());
    assert_eq!(p - p, AffinePoint::INFINITY);
}

#[test]
fn from_x_rejects_x_off_the_curve() {
    // From the spec: a public key that is not on the curve.
    let x = Felt::from_hex("0x3ee9bffffffffff26ffffffff60ffffffffffffffffffffffffffff004accff")
        .unwrap();
    let err = AffinePoint::from_x(x).unwrap_err();
    assert_eq!(err, CurveError::NotOnCurveX { x });
    let e: &dyn std::error::Error = &err;
    assert!(e.to_string().contains("not a square"));
    let bad = AffinePoint::new(GENERATOR.x, GENERATOR.y + Felt::ONE).unwrap_err();
    assert_eq!(
        bad,
        CurveError::NotOnCurve {
            x: GENERATOR.x,
            y: GENERATOR.y + Felt::ONE
        }
    );
    assert!(bad.to_string().contains("is not on the STARK curve"));
    assert_eq!(
        AffinePoint::INFINITY.coordinates(),
        Err(CurveError::Infinity)
    );
    assert!(CurveError::Infinity.to_string().contains("infinity"));
    assert_eq!(GENERATOR.coordinates(), Ok((GENERATOR.x, GENERATOR.y)));
}

#[test]
fn from_x_generator_picks_reference_root() {
    let p = AffinePoint::from_x(GENERATOR.x).unwrap();
    let rhs = to_ref(&AffinePoint::rhs(&GENERATOR.x));
    assert_eq!(p.y, from_ref(&rhs.sqrt().unwrap()));
    assert!(p == GENERATOR || p == GENERATOR.neg());
}

/// A small scalar-multiplication oracle independent of the wNAF code: double-and-add.
fn naive_mul(p: &ProjectivePoint, k: &[u64; 4]) -> ProjectivePoint {
    let mut acc = ProjectivePoint::INFINITY;
    for i in (0..256).rev() {
        acc = acc.double();
        if (k[i / 64] >> (i % 64)) & 1 == 1 {
            acc = acc.add(p);
        }
    }
    acc
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn add_and_double_match_reference(a in felt_strategy(), b in felt_strategy()) {
        let pa = point(&a);
        let pb = point(&b);
        let ra = ref_point(&pa);
        let rb = ref_point(&pb);
        let ja = ProjectivePoint::from_affine(&pa);
        let jb = ProjectivePoint::from_affine(&pb);
        prop_assert_eq!(ja.add(&jb).to_affine(), from_ref_point(&(&ra + &rb)));
        prop_assert_eq!(ja.add_affine(&pb).to_affine(), from_ref_point(&(&ra + &rb)));
        prop_assert_eq!(ja.double().to_affine(), from_ref_point(&ra.double()));
        prop_assert_eq!(pa - pb, from_ref_point(&(&ra - &rb)));
        // Non-normalised inputs (Z != 1).
        let ja2 = ja.double().add(&ja);
        let jb2 = jb.double().add(&jb.neg());
        prop_assert_eq!(jb2, jb);
        let r3a = &ra.double() + &ra;
        prop_assert_eq!(ja2.add(&jb2).to_affine(), from_ref_point(&(&r3a + &rb)));
        prop_assert_eq!(ja2.double().to_affine(), from_ref_point(&r3a.double()));
        prop_assert!(ja2.is_on_curve());
    }

    #[test]
    fn mul_matches_reference(a in felt_strategy(), k in felt_strategy()) {
        let pa = point(&a);
        let expect = from_ref_point(&(&ref_point(&pa) * to_ref(&k)));
        let limbs = k.to_raw_limbs();
        prop_assert_eq!(pa.mul_vartime(&limbs).to_affine(), expect);
        let expect_g = from_ref_point(&(&ref_point(&GENERATOR) * to_ref(&k)));
        prop_assert_eq!(mul_generator_ct(&limbs).to_affine(), expect_g);
        // a·G + b·Q with b = a (reusing k).
        let both = double_scalar_mul_vartime(&limbs, &limbs, &pa).to_affine();
        let rsum = &(&ref_point(&GENERATOR) * to_ref(&k)) + &(&ref_point(&pa) * to_ref(&k));
        prop_assert_eq!(both, from_ref_point(&rsum));
    }

    #[test]
    fn mul_full_256_bit_scalars(l in any::<[u64; 4]>(), a in felt_strategy()) {
        let pa = ProjectivePoint::from_affine(&point(&a));
        let g = ProjectivePoint::from_affine(&GENERATOR);
        let naive = naive_mul(&pa, &l);
        prop_assert_eq!(pa.mul_vartime(&l), naive);
        prop_assert_eq!(mul_generator_ct(&l), naive_mul(&g, &l));
        let l2 = [l[3], l[2], l[1], l[0]];
        prop_assert_eq!(
            double_scalar_mul_vartime(&l, &l2, &pa.to_affine()),
            naive_mul(&g, &l).add(&naive_mul(&pa, &l2))
        );
    }

    #[test]
    fn from_x_matches_reference_root(x in felt_strategy()) {
        let rx = to_ref(&x);
        let rhs = rx * rx * rx + rx + to_ref(&BETA);
        match rhs.sqrt() {
            Some(y) => {
                let p = AffinePoint::from_x(x).unwrap();
                for parity in [false, true] {
                    let ours = AffinePoint::new_from_x(&x, parity).unwrap();
                    let theirs = rc::AffinePoint::new_from_x(&rx, parity).unwrap();
                    prop_assert_eq!(ours.y, from_ref(&theirs.y()));
                    prop_assert_eq!(ours.y.bit(0), parity);
                }
                prop_assert_eq!(p.y, from_ref(&y));
                prop_assert!(p.is_on_curve());
                // The same root starknet-types-core's AffinePoint accepts.
                prop_assert!(rc::AffinePoint::new(rx, y).is_ok());
            }
            None => {
                prop_assert_eq!(AffinePoint::from_x(x), Err(CurveError::NotOnCurveX { x }));
                prop_assert_eq!(AffinePoint::new_from_x(&x, true), None);
            }
        }
    }
}
