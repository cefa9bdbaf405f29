//! The command-line tool's line parser (`starkbatch::input::parse_line`) on arbitrary bytes,
//! against a straightforward re-statement of the syntax.
#![no_main]

use libfuzzer_sys::fuzz_target;
use starkbatch::input::{parse_line, LineError, LineItem};
use starkbatch::Felt;

fuzz_target!(|data: &[u8]| {
    let mut out = vec![Felt::from(7u64)];
    let got = parse_line(data, &mut out);
    let Ok(text) = std::str::from_utf8(data) else {
        let err = std::str::from_utf8(data).unwrap_err();
        assert_eq!(
            got,
            Err(LineError::NotUtf8 {
                byte: err.valid_up_to() + 1
            })
        );
        assert_eq!(out.len(), 1);
        return;
    };
    let data = text.split('#').next().unwrap().trim();
    let tokens: Vec<&str> = if data == "-" {
        vec![]
    } else {
        data.split(|c: char| c.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .collect()
    };
    let mut want = vec![Felt::from(7u64)];
    let mut want_result = Ok(if data.is_empty() {
        LineItem::Skip
    } else {
        LineItem::Item
    });
    for t in &tokens {
        match t.parse::<Felt>() {
            Ok(f) => want.push(f),
            Err(e) => {
                want_result = Err(LineError::Felt(e));
                break;
            }
        }
    }
    assert_eq!(got, want_result, "{text:?}");
    assert_eq!(out, want, "{text:?}");
    if let Err(e) = got {
        assert!(!e.to_string().is_empty());
    }
});
