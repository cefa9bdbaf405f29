//! Starknet class hashes from the contract class JSON that Starknet tooling writes.
//!
//! Definitions (cairo-lang `starknet/core/os/contract_class/contract_class.cairo`,
//! `compiled_class_hash.py`, `compiled_class_hash_objects.py`; spec/starknet.md):
//!
//! **Sierra class hash** (a contract class, `sierra_program` + `abi`):
//! ```text
//! normalize_address(poseidon_hash_many([
//!     short_string("CONTRACT_CLASS_V0.1.0"),
//!     E(EXTERNAL), E(L1_HANDLER), E(CONSTRUCTOR),
//!     sn_keccak(abi_string),
//!     poseidon_hash_many(sierra_program),
//! ]))
//! E(entry points) = poseidon_hash_many([selector_0, function_idx_0, selector_1, ...])
//! ```
//! `normalize_address(x) = x mod (2^251 - 256)`: cairo-lang's `finalize_class_hash` applies it
//! (and so does starknet-rs). It only changes the roughly 2^-55 of outputs that fall in
//! `[2^251 - 256, p)`, so the published vectors cannot tell; we follow the Cairo source.
//! `abi_string` is the ABI exactly as a declare transaction carries it when `abi` is a JSON
//! string; when `abi` is a JSON array (a compiled artifact) it is first serialised as CPython's
//! `json.dumps` does (see *ABI serialisation* below: separators `", "`/`": "`, input key order,
//! `ensure_ascii`). `contract_class_version` must be `"0.1.0"`.
//!
//! **Compiled class hash** (CASM, v1; `bytecode` + `entry_points_by_type` with offsets):
//! ```text
//! poseidon_hash_many([
//!     short_string("COMPILED_CLASS_V1"),
//!     E'(EXTERNAL), E'(L1_HANDLER), E'(CONSTRUCTOR),
//!     bytecode_hash,
//! ])
//! E'(entry points) = poseidon_hash_many([selector_0, offset_0, B_0, selector_1, ...]),
//! B_i = poseidon_hash_many(builtin names of entry i as short strings)
//! ```
//! `bytecode_hash` is described in `segments.rs`: `poseidon_hash_many(bytecode)` without
//! `bytecode_segment_lengths`, otherwise a tree of segment hashes where each list node hashes
//! to `1 + poseidon_hash_many([len_0, hash_0, ...])`.
//!
//! **Sizes and inputs.** Felts are `0x`-prefixed hex strings below p (anything else is an
//! error naming the field and index); `function_idx` and `offset` are JSON integers below 2^64;
//! builtin names are ASCII of at most 31 characters. Fields the hashes do not use (`hints`,
//! `sierra_program_debug_info`, `compiler_version`, `prime`, unknown keys) are skipped unread.
//!
//! **Errors.** [`ClassHashError`] names the field by its path
//! (`entry_points_by_type.EXTERNAL[3].selector`) and the line and column; invalid JSON carries
//! serde_json's message and position. No input makes these functions panic.
//!
//! # ABI serialisation
//! CPython `json.dumps` defaults: `", "` and `": "` separators, keys in input order (a repeated
//! key keeps its first place and last value), `"`/`\`/`\b\f\n\r\t` short-escaped and every
//! other character outside `' '..='~'` written `\uXXXX` (lowercase hex, UTF-16 surrogate pairs
//! above U+FFFF), floats as Python's `repr`. starknet-rs differs only for non-ASCII characters
//! below U+1000 (it pads `\u` escapes with spaces) and DEL (unescaped there).

mod encode;
mod error;
mod parse;
mod pyjson;
mod segments;

pub use encode::sn_keccak;
pub use error::{ClassHashError, Position};

use crate::{poseidon_hash_many, Felt};
use encode::normalize_address;
use parse::{Abi, Entry, Mode, RawClass};
use std::string::String;
use std::vec::Vec;

/// `short_string("CONTRACT_CLASS_V0.1.0")` (checked in the tests against the encoding).
const CONTRACT_CLASS_V0_1_0: Felt =
    Felt::from_hex_unchecked("0x434f4e54524143545f434c4153535f56302e312e30");
/// `short_string("COMPILED_CLASS_V1")` (checked in the tests against the encoding).
const COMPILED_CLASS_V1: Felt = Felt::from_hex_unchecked("0x434f4d50494c45445f434c4153535f5631");

/// Which kind of class a JSON document holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassKind {
    /// A Sierra contract class (`sierra_program`, `abi`): hashed by [`sierra_class_hash`].
    Sierra,
    /// A compiled CASM class (`bytecode`): hashed by [`compiled_class_hash`].
    Compiled,
}

/// The class hash of a Sierra contract class given as JSON: a compiled artifact
/// (`*.contract_class.json`, ABI as an array) or the class of a declare transaction / RPC
/// (ABI as a string).
///
/// # Errors
/// [`ClassHashError`] for invalid JSON, a missing or mistyped field, a felt that is malformed or
/// not below p, or a `contract_class_version` other than `0.1.0`.
pub fn sierra_class_hash(json: &str) -> Result<Felt, ClassHashError> {
    sierra_from_raw(parse::parse(json, Mode::Sierra)?)
}

/// The compiled class hash (v1, Poseidon) of a CASM class given as JSON
/// (`*.compiled_contract_class.json`).
///
/// # Errors
/// [`ClassHashError`] for invalid JSON, a missing or mistyped field, a felt that is malformed or
/// not below p, a builtin name that is not a short string, or `bytecode_segment_lengths` that do
/// not fit the bytecode.
pub fn compiled_class_hash(json: &str) -> Result<Felt, ClassHashError> {
    compiled_from_raw(parse::parse(json, Mode::Compiled)?)
}

/// Recognises the kind of class from its content (`sierra_program` → Sierra, `bytecode` →
/// compiled) and returns it with the matching hash.
///
/// # Errors
/// As [`sierra_class_hash`] / [`compiled_class_hash`], and
/// [`ClassHashError::UnknownClassKind`] when the document has both or neither of those fields
/// (a legacy Cairo 0 class, with `program`, is reported as such).
pub fn class_hash(json: &str) -> Result<(ClassKind, Felt), ClassHashError> {
    let raw = parse::parse(json, Mode::Detect)?;
    match (raw.sierra_program.is_some(), raw.bytecode.is_some()) {
        (true, false) => Ok((ClassKind::Sierra, sierra_from_raw(raw)?)),
        (false, true) => Ok((ClassKind::Compiled, compiled_from_raw(raw)?)),
        (true, true) => Err(ClassHashError::UnknownClassKind {
            reason: "it has both `sierra_program` and `bytecode`",
        }),
        (false, false) if raw.saw_program => Err(ClassHashError::UnknownClassKind {
            reason: "it has `program`: a legacy (Cairo 0) class, which is not supported",
        }),
        (false, false) => Err(ClassHashError::UnknownClassKind {
            reason: "it has neither `sierra_program` nor `bytecode`",
        }),
    }
}

fn missing(field: &str) -> ClassHashError {
    ClassHashError::MissingField {
        field: field.into(),
        position: None,
    }
}

fn sierra_from_raw(raw: RawClass<'_>) -> Result<Felt, ClassHashError> {
    let version = raw
        .contract_class_version
        .ok_or_else(|| missing("contract_class_version"))?;
    if version != "0.1.0" {
        return Err(ClassHashError::InvalidValue {
            field: "contract_class_version".into(),
            reason: format!("only \"0.1.0\" is defined, found {:?}", version),
            position: None,
        });
    }
    let program = raw
        .sierra_program
        .ok_or_else(|| missing("sierra_program"))?;
    let eps = raw
        .entry_points
        .ok_or_else(|| missing("entry_points_by_type"))?;
    let abi = raw.abi.ok_or_else(|| missing("abi"))?;

    let external = sierra_entries_hash(&eps.external, "EXTERNAL")?;
    let l1_handler = sierra_entries_hash(&eps.l1_handler, "L1_HANDLER")?;
    let constructor = sierra_entries_hash(&eps.constructor, "CONSTRUCTOR")?;
    let abi_hash = match abi {
        Abi::Str(s) => sn_keccak(s.as_bytes()),
        Abi::Json(v) => {
            let mut buf = Vec::with_capacity(8192);
            pyjson::dumps(&v, &mut buf);
            sn_keccak(&buf)
        }
    };
    let program_hash = poseidon_hash_many(&program);
    let h = poseidon_hash_many(&[
        CONTRACT_CLASS_V0_1_0,
        external,
        l1_handler,
        constructor,
        abi_hash,
        program_hash,
    ]);
    Ok(normalize_address(h))
}

fn entry_field(kind: &str, i: usize, field: &str) -> String {
    format!("entry_points_by_type.{kind}[{i}].{field}")
}

fn sierra_entries_hash(entries: &[Entry], kind: &str) -> Result<Felt, ClassHashError> {
    let mut flat = Vec::with_capacity(2 * entries.len());
    for (i, e) in entries.iter().enumerate() {
        let idx = e
            .function_idx
            .ok_or_else(|| missing(&entry_field(kind, i, "function_idx")))?;
        flat.push(e.selector);
        flat.push(Felt::from(idx));
    }
    Ok(poseidon_hash_many(&flat))
}

fn compiled_entries_hash(entries: &[Entry], kind: &str) -> Result<Felt, ClassHashError> {
    let mut flat = Vec::with_capacity(3 * entries.len());
    for (i, e) in entries.iter().enumerate() {
        let offset = e
            .offset
            .ok_or_else(|| missing(&entry_field(kind, i, "offset")))?;
        let builtins = e
            .builtins
            .as_ref()
            .ok_or_else(|| missing(&entry_field(kind, i, "builtins")))?;
        flat.push(e.selector);
        flat.push(Felt::from(offset));
        flat.push(poseidon_hash_many(builtins));
    }
    Ok(poseidon_hash_many(&flat))
}

fn compiled_from_raw(raw: RawClass<'_>) -> Result<Felt, ClassHashError> {
    let bytecode = raw.bytecode.ok_or_else(|| missing("bytecode"))?;
    let eps = raw
        .entry_points
        .ok_or_else(|| missing("entry_points_by_type"))?;
    let external = compiled_entries_hash(&eps.external, "EXTERNAL")?;
    let l1_handler = compiled_entries_hash(&eps.l1_handler, "L1_HANDLER")?;
    let constructor = compiled_entries_hash(&eps.constructor, "CONSTRUCTOR")?;
    let bytecode_hash = segments::bytecode_hash(&bytecode, raw.segment_lengths.as_ref())?;
    Ok(poseidon_hash_many(&[
        COMPILED_CLASS_V1,
        external,
        l1_handler,
        constructor,
        bytecode_hash,
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_the_short_strings() {
        assert_eq!(
            encode::short_string("CONTRACT_CLASS_V0.1.0"),
            Ok(CONTRACT_CLASS_V0_1_0)
        );
        assert_eq!(
            encode::short_string("COMPILED_CLASS_V1"),
            Ok(COMPILED_CLASS_V1)
        );
    }
}
