//! Python-style JSON text: what CPython's `json.dumps(value)` writes with its defaults.
//!
//! cairo-lang turns a compiled artifact's ABI (a JSON array) into the string a declare
//! transaction carries with `json.dumps(abi)`, and the class hash commits to the Keccak of that
//! string. The defaults are: separators `", "` and `": "`, no indentation, keys in the order of
//! the parsed dict (insertion order; a repeated key keeps its first position and its last value,
//! which is exactly what serde_json's `preserve_order` map does), and `ensure_ascii=True`:
//!
//! - `"` `\` and the controls `\b \f \n \r \t` get their short escapes;
//! - every other character outside `' '..='~'` (other controls, DEL, all non-ASCII) is written
//!   `\uXXXX` with four lowercase hex digits, characters above U+FFFF as a UTF-16 surrogate pair.
//!
//! Numbers: integers print in decimal; floats as Python's `repr` does (shortest round-trip
//! digits, fixed notation when the decimal exponent is in `-4 <= e < 16`, otherwise
//! `d.ddde+XX`). Limitation: serde_json (without `arbitrary_precision`) reads an integer literal
//! outside the 64-bit range as a float, which Python would keep as an integer; Starknet ABIs
//! contain no numbers.
//!
//! starknet-rs (`serde_json_pythonic`) differs on two rare points: it writes `\u` escapes
//! space-padded (`\u  e9` for `é`) instead of zero-padded, and leaves DEL unescaped. We follow
//! CPython.

use serde_json::Value;
use std::vec::Vec;

/// Appends `json.dumps(v)` to `out`.
pub(crate) fn dumps(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                out.extend_from_slice(u.to_string().as_bytes());
            } else if let Some(i) = n.as_i64() {
                out.extend_from_slice(i.to_string().as_bytes());
            } else if let Some(f) = n.as_f64() {
                out.extend_from_slice(float_repr(f).as_bytes());
            }
        }
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                dumps(item, out);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            out.push(b'{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                string(k, out);
                out.extend_from_slice(b": ");
                dumps(item, out);
            }
            out.push(b'}');
        }
    }
}

/// A JSON string literal with `ensure_ascii` escaping.
pub(crate) fn string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // Fast path: copy runs of printable ASCII other than `"` and `\`.
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let plain = matches!(c, ' '..='~') && c != '"' && c != '\\';
        if plain {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        start = i + c.len_utf8();
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{:04x}", u).as_bytes());
                }
            }
        }
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Python's `repr(f)` for a finite float (JSON has no infinities or NaN).
fn float_repr(f: f64) -> std::string::String {
    if !f.is_finite() {
        // Unreachable from parsed JSON; Python would write these.
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    // Rust's `{:e}` gives the shortest round-trip digits, e.g. "-1.25e-7", "1e16", "0e0".
    let sci = format!("{:e}", f);
    let (neg, rest) = match sci.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, sci.as_str()),
    };
    let (mantissa, exp) = rest.split_once('e').unwrap_or((rest, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: std::string::String = mantissa.chars().filter(|c| *c != '.').collect();
    // Position of the decimal point relative to the digits, as CPython's `decpt`.
    let decpt = exp + 1;
    let mut s = std::string::String::new();
    if neg {
        s.push('-');
    }
    if decpt <= -4 || decpt > 16 {
        s.push_str(&digits[..1]);
        if digits.len() > 1 {
            s.push('.');
            s.push_str(&digits[1..]);
        }
        let e = decpt - 1;
        s.push_str(&format!("e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()));
    } else if decpt <= 0 {
        s.push_str("0.");
        for _ in 0..(-decpt) {
            s.push('0');
        }
        s.push_str(&digits);
    } else {
        let d = decpt as usize;
        if digits.len() <= d {
            s.push_str(&digits);
            for _ in digits.len()..d {
                s.push('0');
            }
            s.push_str(".0");
        } else {
            s.push_str(&digits[..d]);
            s.push('.');
            s.push_str(&digits[d..]);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py(json: &str) -> std::string::String {
        let v: Value = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        dumps(&v, &mut out);
        std::string::String::from_utf8(out).unwrap()
    }

    // Expected strings below were produced by CPython 3 `json.dumps(json.loads(input))`.
    #[test]
    fn matches_cpython_json_dumps() {
        assert_eq!(
            py(
                r#"[{"type":"function","name":"f","inputs":[],"outputs":[{"type":"core::felt252"}],"state_mutability":"view"}]"#
            ),
            r#"[{"type": "function", "name": "f", "inputs": [], "outputs": [{"type": "core::felt252"}], "state_mutability": "view"}]"#
        );
        assert_eq!(py(r#"{"b":1,"a":{}}"#), r#"{"b": 1, "a": {}}"#);
        assert_eq!(py(r#"{"a":1,"b":2,"a":3}"#), r#"{"a": 3, "b": 2}"#);
        assert_eq!(
            py(r#"["é", "😀", "\u007f", "\u0001", "a\"b\\c/d\n\r\t\b\f"]"#),
            r#"["\u00e9", "\ud83d\ude00", "\u007f", "\u0001", "a\"b\\c/d\n\r\t\b\f"]"#
        );
        assert_eq!(
            py("[null, true, false, -5, 18446744073709551615]"),
            "[null, true, false, -5, 18446744073709551615]"
        );
    }

    #[test]
    fn floats_like_python_repr() {
        for (input, want) in [
            ("1.0", "1.0"),
            ("0.5", "0.5"),
            ("-2.5", "-2.5"),
            ("1e16", "1e+16"),
            ("1e15", "1000000000000000.0"),
            ("123456789012345678.0", "1.2345678901234568e+17"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("1.5e-7", "1.5e-07"),
            ("-0.0", "-0.0"),
            ("0.1", "0.1"),
            ("1e300", "1e+300"),
            ("12.345", "12.345"),
        ] {
            let f: f64 = input.parse().unwrap();
            assert_eq!(float_repr(f), want, "{input}");
        }
    }
}
