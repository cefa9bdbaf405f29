//! Felt parsing from hex, decimal and bytes against a num-bigint reference, including the
//! exact error returned, and round trips through every output format.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use starkbatch::{Felt, FeltError};

fn p() -> BigUint {
    (BigUint::from(1u8) << 251u32) + (BigUint::from(17u8) << 192u32) + 1u8
}

fn big(f: &Felt) -> BigUint {
    BigUint::from_bytes_be(&f.to_bytes_be())
}

/// `s` after `skip` bytes must be digits of `radix`: the reference result.
fn reference(
    s: &str,
    skip: usize,
    radix: u32,
    max_digits: Option<usize>,
) -> Result<BigUint, FeltError> {
    let digits = &s[skip..];
    if digits.is_empty() {
        return Err(FeltError::Empty { input: s.into() });
    }
    if let Some((i, c)) = digits
        .char_indices()
        .find(|(_, c)| !c.is_digit(radix) || !c.is_ascii())
    {
        return Err(FeltError::InvalidCharacter {
            input: s.into(),
            character: c,
            position: skip + i,
        });
    }
    if let Some(max) = max_digits {
        if digits.len() > max {
            return Err(FeltError::TooLong {
                input: s.into(),
                digits: digits.len(),
                max,
            });
        }
    }
    let v = BigUint::parse_bytes(digits.as_bytes(), radix).expect("digits checked");
    if v < p() {
        Ok(v)
    } else {
        Err(FeltError::NotBelowModulus { input: s.into() })
    }
}

fn hex_prefix(s: &str) -> usize {
    if s.starts_with("0x") || s.starts_with("0X") {
        2
    } else {
        0
    }
}

fn check_str(s: &str) {
    let want_hex = reference(s, hex_prefix(s), 16, Some(64));
    let got_hex = Felt::from_hex(s);
    assert_eq!(
        got_hex.clone().map(|f| big(&f)),
        want_hex,
        "from_hex({s:?})"
    );

    let want_dec = reference(s, 0, 10, None);
    let got_dec = Felt::from_dec_str(s);
    assert_eq!(
        got_dec.clone().map(|f| big(&f)),
        want_dec,
        "from_dec_str({s:?})"
    );

    let got = s.parse::<Felt>();
    if hex_prefix(s) == 2 {
        assert_eq!(got, got_hex, "parse({s:?})");
    } else {
        assert_eq!(got, got_dec, "parse({s:?})");
    }
    // Error messages are bounded (inputs are shortened to 80 characters, each escaped to at
    // most 10, as in `\u{10ffff}`) and never empty.
    if let Err(e) = &got {
        let msg = e.to_string();
        assert!(!msg.is_empty() && msg.chars().count() < 1000, "{}", msg.len());
    }
    if let Ok(f) = got {
        round_trips(&f);
    }
}

fn round_trips(f: &Felt) {
    assert_eq!(Felt::from_hex(&f.to_string()).as_ref(), Ok(f));
    assert_eq!(Felt::from_hex(&format!("{f:x}")).as_ref(), Ok(f));
    assert_eq!(Felt::from_hex(&format!("{f:X}")).as_ref(), Ok(f));
    assert_eq!(Felt::from_hex(&f.to_fixed_hex_string()).as_ref(), Ok(f));
    assert_eq!(big(f).to_str_radix(10).parse::<Felt>().as_ref(), Ok(f));
    assert_eq!(Felt::from_bytes_le(&f.to_bytes_le()).as_ref(), Ok(f));
    assert_eq!(Felt::from_raw_limbs(f.to_raw_limbs()).as_ref(), Some(f));
}

fn check_bytes(b: &[u8; 32]) {
    let v = BigUint::from_bytes_be(b);
    let be = Felt::from_bytes_be(b);
    if v < p() {
        assert_eq!(be.clone().map(|f| big(&f)), Ok(v.clone()));
        assert_eq!(be.unwrap().to_bytes_be(), *b);
    } else {
        assert!(matches!(be, Err(FeltError::NotBelowModulus { .. })));
    }
    assert_eq!(big(&Felt::from_bytes_be_reduced(b)), &v % p());
    let mut le = *b;
    le.reverse();
    assert_eq!(Felt::from_bytes_le(&le), Felt::from_bytes_be(b));
    assert_eq!(
        Felt::from_bytes_le_reduced(&le),
        Felt::from_bytes_be_reduced(b)
    );
    round_trips(&Felt::from_bytes_be_reduced(b));
}

fuzz_target!(|data: &[u8]| {
    if data.len() >= 32 {
        check_bytes(data[..32].try_into().unwrap());
    }
    match std::str::from_utf8(data) {
        Ok(s) => check_str(s),
        Err(_) => {
            // A lossy version still exercises non-ASCII characters.
            check_str(&String::from_utf8_lossy(data));
        }
    }
});
