//! The `serde` feature: a Felt is a JSON string, `0x` + minimal lowercase hex (as
//! starknet-types-core writes it), and is read back from hex (`0x…`/`0X…`) or decimal strings.
//!
//! Run with `cargo test --features serde --test serde`.
#![cfg(feature = "serde")]

use num_bigint::BigUint;
use proptest::prelude::*;
use starkbatch::Felt;
use starknet_types_core::felt::Felt as TcFelt;

fn felt_strategy() -> impl Strategy<Value = Felt> {
    prop_oneof![
        any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)),
        any::<u64>().prop_map(Felt::from),
        prop::sample::select(vec![Felt::ZERO, Felt::ONE, Felt::MAX, -Felt::TWO]),
    ]
}

#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
struct Wrapper {
    value: Felt,
}

proptest! {
    #[test]
    fn json_round_trip_and_types_core_format(f in felt_strategy()) {
        let json = serde_json::to_string(&f).unwrap();
        let value = BigUint::from_bytes_be(&f.to_bytes_be());
        prop_assert_eq!(&json, &format!("\"0x{}\"", value.to_str_radix(16)));
        prop_assert_eq!(serde_json::from_str::<Felt>(&json).unwrap(), f);

        // Same JSON as starknet-types-core, and each reads the other's.
        let t = TcFelt::from_bytes_be(&f.to_bytes_be());
        prop_assert_eq!(&json, &serde_json::to_string(&t).unwrap());
        let t_back: TcFelt = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(t_back, t);

        // Decimal and upper-case hex strings are accepted too.
        let dec = format!("\"{}\"", value.to_str_radix(10));
        prop_assert_eq!(serde_json::from_str::<Felt>(&dec).unwrap(), f);
        let upper = format!("\"0X{}\"", value.to_str_radix(16).to_uppercase());
        prop_assert_eq!(serde_json::from_str::<Felt>(&upper).unwrap(), f);
    }

    #[test]
    fn json_vectors_round_trip(v in prop::collection::vec(felt_strategy(), 0..10)) {
        let json = serde_json::to_string(&v).unwrap();
        prop_assert_eq!(serde_json::from_str::<Vec<Felt>>(&json).unwrap(), v);
    }
}

#[test]
fn json_known_values() {
    assert_eq!(serde_json::to_string(&Felt::ZERO).unwrap(), "\"0x0\"");
    assert_eq!(
        serde_json::to_string(&Felt::from(255u64)).unwrap(),
        "\"0xff\""
    );
    assert_eq!(
        serde_json::to_string(&Felt::MAX).unwrap(),
        "\"0x800000000000011000000000000000000000000000000000000000000000000\""
    );
    let w: Wrapper = serde_json::from_str(r#"{"value": "1234"}"#).unwrap();
    assert_eq!(w.value, Felt::from(1234u64));
    let w: Wrapper = serde_json::from_str(r#"{"value": "0x4d2"}"#).unwrap();
    assert_eq!(w.value, Felt::from(1234u64));
}

#[test]
fn json_errors_name_the_input() {
    let p_hex = "0x800000000000011000000000000000000000000000000000000000000000001";
    for (json, needle) in [
        (r#""0x12g4""#, r#""0x12g4""#),
        (r#""""#, r#""""#),
        (r#""0x""#, r#""0x""#),
        (r#""-1""#, r#""-1""#),
        (r#""12 ""#, r#""12 ""#),
    ] {
        let err = serde_json::from_str::<Felt>(json).unwrap_err().to_string();
        assert!(err.contains(needle), "{json}: {err}");
        assert!(err.contains("invalid field element"), "{json}: {err}");
    }
    let err = serde_json::from_str::<Felt>(&format!("\"{p_hex}\""))
        .unwrap_err()
        .to_string();
    assert!(err.contains(p_hex) && err.contains("not below p"), "{err}");
    let long = format!("\"0x{}\"", "1".repeat(65));
    let err = serde_json::from_str::<Felt>(&long).unwrap_err().to_string();
    assert!(err.contains("too long"), "{err}");
    // Not a string: JSON numbers and other types are refused with serde's own message.
    for json in ["1234", "null", "[1]", "{}", "true"] {
        let err = serde_json::from_str::<Felt>(json).unwrap_err().to_string();
        assert!(err.contains("hex (0x…) or decimal string"), "{json}: {err}");
    }
    // The error points at the field in a struct.
    let err = serde_json::from_str::<Wrapper>(r#"{"value": "0xzz"}"#).unwrap_err();
    assert!(err.to_string().contains("\"0xzz\""), "{err}");
    assert_eq!(err.line(), 1);
}
