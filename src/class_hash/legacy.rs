//! The class hash of a Cairo 0 (legacy, "deprecated") contract class.
//!
//! Definition: cairo-lang `starknet/core/os/contract_class/deprecated_class_hash.py`
//! (`compute_deprecated_class_hash`, `compute_deprecated_hinted_class_hash`), with `H` the
//! Pedersen array hash (`compute_hash_on_elements`, [`crate::pedersen_hash_array`]):
//!
//! ```text
//! H([0, E(EXTERNAL), E(L1_HANDLER), E(CONSTRUCTOR), H(builtins), hinted_class_hash, H(program.data)])
//! E(entries) = H([selector_0, offset_0, selector_1, offset_1, …])   (file order)
//! builtins   = the names of program.builtins as Cairo short strings (no "_builtin" suffix)
//! ```
//!
//! `offset` is a hex string (compilers before 0.11) or an integer. `hinted_class_hash` is
//! `sn_keccak` of `json.dumps({"abi": abi, "program": program'}, sort_keys=True)` (CPython
//! defaults, see `tree`), where `abi` is the class's ABI as written (`null` when absent) and
//! `program'` is the program as cairo-lang's schema dumps it:
//!
//! - `debug_info` set to `null` (the key kept);
//! - `compiler_version` removed when absent or `null`;
//! - `attributes` removed when absent or empty; inside each attribute, `accessible_scopes`
//!   removed when empty and `flow_tracking_data` removed when `null`;
//! - `data` written as minimal lowercase hex (`0x0` for zero), `hints` keys sorted as
//!   integers;
//! - for programs without `compiler_version` (compilers before 0.10), every `cairo_type` and
//!   `value` string under `identifiers` and `reference_manager` written with named tuple members
//!   as `name : type` (cairo-lang's `add_backward_compatibility_space`): each `": "` not already
//!   preceded by a space becomes `" : "`.
//!
//! Everything else (`identifiers`, `reference_manager`, `main_scope`, `prime`, the ABI) is kept
//! as written, numbers digit for digit. starknet-core 0.16 differs on four points we follow
//! cairo-lang on: it pads `\u` escapes with spaces (wrong for U+0080..U+0FFF), leaves DEL
//! unescaped, does not re-space reference `value` strings of pre-0.10 programs, and rejects
//! `"abi": null`.

use super::encode::{short_string, sn_keccak};
use super::error::ClassHashError;
use super::tree::{self, Node};
use crate::{Felt, pedersen_hash_array};
use std::borrow::Cow;
use std::format;
use std::string::String;
use std::vec::Vec;

/// The class hash of a Cairo 0 contract class given as JSON (`abi`, `entry_points_by_type`,
/// `program` with `data`, `builtins`, `hints`, `identifiers`, …).
///
/// ```
/// use starkbatch::class_hash::legacy_class_hash;
/// // The smallest shape: no entry points, no builtins, no code.
/// let json = r#"{"abi": [], "entry_points_by_type": {"CONSTRUCTOR": [], "EXTERNAL": [],
///   "L1_HANDLER": []}, "program": {"builtins": [], "data": [], "hints": {},
///   "identifiers": {}, "main_scope": "__main__", "prime": "0x800000000000011000000000000000000000000000000000000000000000001",
///   "reference_manager": {"references": []}, "compiler_version": "0.12.1"}}"#;
/// assert!(legacy_class_hash(json).is_ok());
/// assert!(legacy_class_hash("{\"program\": 5}").is_err());
/// ```
///
/// # Errors
/// [`ClassHashError`] naming the JSON path: invalid JSON, a missing or mistyped field, a felt
/// that is malformed or not below p, a builtin name that is not a short string.
pub fn legacy_class_hash(json: &str) -> Result<Felt, ClassHashError> {
    let mut class = tree::parse(json)?;
    if !matches!(class, Node::Obj(_)) {
        return Err(wrong("", "an object", &class));
    }
    let eps = class
        .get("entry_points_by_type")
        .ok_or_else(|| missing("entry_points_by_type"))?;
    let external = entries_hash(eps, "EXTERNAL")?;
    let l1_handler = entries_hash(eps, "L1_HANDLER")?;
    let constructor = entries_hash(eps, "CONSTRUCTOR")?;

    let mut program = class.remove("program").ok_or_else(|| missing("program"))?;
    if !matches!(program, Node::Obj(_)) {
        return Err(wrong("program", "an object", &program));
    }
    let builtins = builtins_hash(&program)?;
    let data = felt_array(&program, "data")?;
    let abi = class.remove("abi").unwrap_or(Node::Null);

    prepare_program(&mut program, &data)?;
    let doc = Node::Obj(std::vec![
        (Cow::Borrowed("abi"), abi),
        (Cow::Borrowed("program"), program),
    ]);
    let mut text = Vec::with_capacity(json.len());
    tree::dumps_sorted(&doc, &mut text);
    let hinted = sn_keccak(&text);

    Ok(pedersen_hash_array(&[
        Felt::ZERO,
        external,
        l1_handler,
        constructor,
        builtins,
        hinted,
        pedersen_hash_array(&data),
    ]))
}

fn missing(field: &str) -> ClassHashError {
    ClassHashError::MissingField {
        field: field.into(),
        position: None,
    }
}

fn wrong(field: &str, expected: &'static str, found: &Node<'_>) -> ClassHashError {
    ClassHashError::WrongType {
        field: if field.is_empty() {
            "(the document)".into()
        } else {
            field.into()
        },
        expected,
        found: found.kind(),
        position: None,
    }
}

fn felt_of(node: &Node<'_>, field: &str) -> Result<Felt, ClassHashError> {
    match node {
        Node::Str(s) if s.starts_with("0x") || s.starts_with("0X") => {
            Felt::from_hex(s).map_err(|source| ClassHashError::InvalidFelt {
                field: field.into(),
                source,
                position: None,
            })
        }
        Node::Str(_) => Err(ClassHashError::InvalidValue {
            field: field.into(),
            reason: "expected a 0x-prefixed hex string".into(),
            position: None,
        }),
        other => Err(wrong(field, "a 0x-prefixed hex string", other)),
    }
}

fn felt_array(program: &Node<'_>, key: &str) -> Result<Vec<Felt>, ClassHashError> {
    let field = format!("program.{key}");
    match program.get(key) {
        None => Err(missing(&field)),
        Some(Node::Arr(items)) => items
            .iter()
            .enumerate()
            .map(|(i, x)| felt_of(x, &format!("{field}[{i}]")))
            .collect(),
        Some(other) => Err(wrong(&field, "an array of hex strings", other)),
    }
}

fn entries_hash(eps: &Node<'_>, kind: &str) -> Result<Felt, ClassHashError> {
    let field = format!("entry_points_by_type.{kind}");
    let list = match eps.get(kind) {
        None if matches!(eps, Node::Obj(_)) => return Err(missing(&field)),
        None => return Err(wrong("entry_points_by_type", "an object", eps)),
        Some(Node::Arr(items)) => items,
        Some(other) => return Err(wrong(&field, "an array", other)),
    };
    let mut flat = Vec::with_capacity(2 * list.len());
    for (i, e) in list.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let selector = e
            .get("selector")
            .ok_or_else(|| missing(&format!("{at}.selector")))?;
        flat.push(felt_of(selector, &format!("{at}.selector"))?);
        let offset_field = format!("{at}.offset");
        let offset = match e.get("offset") {
            None => return Err(missing(&offset_field)),
            Some(Node::Num(n)) => {
                n.parse::<u64>()
                    .map(Felt::from)
                    .map_err(|_| ClassHashError::InvalidValue {
                        field: offset_field.clone(),
                        reason: format!("expected a non-negative integer below 2^64, found {n}"),
                        position: None,
                    })?
            }
            Some(s @ Node::Str(_)) => felt_of(s, &offset_field)?,
            Some(other) => return Err(wrong(&offset_field, "an integer or a hex string", other)),
        };
        flat.push(offset);
    }
    Ok(pedersen_hash_array(&flat))
}

fn builtins_hash(program: &Node<'_>) -> Result<Felt, ClassHashError> {
    let list = match program.get("builtins") {
        None => return Err(missing("program.builtins")),
        Some(Node::Arr(items)) => items,
        Some(other) => return Err(wrong("program.builtins", "an array of strings", other)),
    };
    let mut names = Vec::with_capacity(list.len());
    for (i, b) in list.iter().enumerate() {
        let field = format!("program.builtins[{i}]");
        match b {
            Node::Str(s) => {
                names.push(short_string(s).map_err(|e| ClassHashError::InvalidValue {
                    field,
                    reason: e.describe(),
                    position: None,
                })?)
            }
            other => return Err(wrong(&field, "a string", other)),
        }
    }
    Ok(pedersen_hash_array(&names))
}

/// The program as cairo-lang's schema dumps it for the hinted class hash (module docs).
fn prepare_program(program: &mut Node<'_>, data: &[Felt]) -> Result<(), ClassHashError> {
    program.set("debug_info", Node::Null);
    let pre_0_10 = matches!(program.get("compiler_version"), None | Some(Node::Null));
    if pre_0_10 {
        program.remove("compiler_version");
    }
    match program.get_mut("attributes") {
        None => {}
        Some(Node::Arr(attrs)) if attrs.is_empty() => {
            program.remove("attributes");
        }
        Some(Node::Arr(attrs)) => {
            for a in attrs.iter_mut() {
                if matches!(a.get("accessible_scopes"), Some(Node::Arr(s)) if s.is_empty()) {
                    a.remove("accessible_scopes");
                }
                if matches!(a.get("flow_tracking_data"), Some(Node::Null)) {
                    a.remove("flow_tracking_data");
                }
            }
        }
        Some(other) => return Err(wrong("program.attributes", "an array", other)),
    }
    program.set(
        "data",
        Node::Arr(
            data.iter()
                .map(|x| Node::Str(Cow::Owned(x.to_string())))
                .collect(),
        ),
    );
    match program.remove("hints") {
        None => {}
        Some(Node::Obj(mut hints)) => {
            let mut keyed = Vec::with_capacity(hints.len());
            for (k, v) in hints.drain(..) {
                let pc = k.parse::<u64>().map_err(|_| ClassHashError::InvalidValue {
                    field: format!("program.hints.{k}"),
                    reason: "hint keys are program counters (non-negative integers)".into(),
                    position: None,
                })?;
                keyed.push((pc, k, v));
            }
            keyed.sort_by_key(|(pc, _, _)| *pc);
            let ordered = keyed.into_iter().map(|(_, k, v)| (k, v)).collect();
            program.set("hints", Node::Ordered(ordered));
        }
        Some(other) => return Err(wrong("program.hints", "an object", &other)),
    }
    if pre_0_10 {
        for key in ["identifiers", "reference_manager"] {
            if let Some(n) = program.get_mut(key) {
                respace(n, false);
            }
        }
    }
    Ok(())
}

/// Re-spaces every `cairo_type` or `value` string below `n` (`in_type`: `n` is one of them).
fn respace(n: &mut Node<'_>, in_type: bool) {
    match n {
        Node::Str(s) if in_type && s.contains(": ") => {
            *s = Cow::Owned(spaced(s));
        }
        Node::Arr(items) => items.iter_mut().for_each(|x| respace(x, false)),
        Node::Obj(m) | Node::Ordered(m) => {
            for (k, v) in m.iter_mut() {
                let t = k == "cairo_type" || k == "value";
                respace(v, t);
            }
        }
        _ => {}
    }
}

/// `": "` → `" : "` unless a space already precedes the colon.
fn spaced(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len() + 8);
    let mut last = 0;
    for i in 0..b.len().saturating_sub(1) {
        if b[i] == b':' && b[i + 1] == b' ' && (i == 0 || b[i - 1] != b' ') {
            out.push_str(&s[last..i]);
            out.push_str(" :");
            last = i + 1;
        }
    }
    out.push_str(&s[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn respacing_is_idempotent() {
        assert_eq!(spaced("(a: felt, b: felt*)"), "(a : felt, b : felt*)");
        assert_eq!(spaced("(a : felt, b: T)"), "(a : felt, b : T)");
        assert_eq!(spaced(&spaced("(x: (y: felt))")), "(x : (y : felt))");
        assert_eq!(spaced("no colon"), "no colon");
    }

    #[test]
    fn empty_lists_hash_to_the_published_empty_array_hash() {
        // compute_hash_on_elements([]) = pedersen(0, 0) (cairo-lang hash_state.py).
        assert_eq!(
            pedersen_hash_array(&[]).to_string(),
            "0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804"
        );
    }
}
