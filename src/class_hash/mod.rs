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
//! **Compiled class hash v2** (Starknet 0.14.1 and later; the class trie's leaves): the same
//! structure, prefix `short_string("COMPILED_CLASS_V1")` included, with every
//! `poseidon_hash_many` replaced by [`blake2s_hash_many`] (Blake2s
//! over the felts' 32-bit word encoding, `crate::blake2s`). Source: the sequencer's
//! `starknet_api/src/contract_class/compiled_class_hash.rs` (`HashVersion::V2`) and the OS's
//! `blake_compiled_class_hash.cairo`. The leaves of a segmented bytecode are hashed side by side
//! in SIMD lanes ([`blake2s_hash_many_batch`](crate::batch::blake2s_hash_many_batch)).
//!
//! **Cairo 0 (legacy) class hash** (`program` + `abi` + `entry_points_by_type`): Pedersen array
//! hashes over the entry points, the builtins and the program data, and the Keccak of the class
//! as cairo-lang serialises it; see [`legacy_class_hash`] and `legacy.rs`.
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
mod legacy;
mod parse;
mod pyjson;
mod segments;
mod tree;

pub use encode::sn_keccak;
pub use error::{ClassHashError, Position};
pub use legacy::legacy_class_hash;

use crate::{Backend, Felt, blake2s_hash_many, poseidon_hash_many};
use encode::normalize_address;
use parse::{Abi, Entry, Mode, RawClass};
use std::string::String;
use std::vec::Vec;

/// `short_string("CONTRACT_CLASS_V0.1.0")` (checked in the tests against the encoding).
const CONTRACT_CLASS_V0_1_0: Felt =
    Felt::from_hex_unchecked("0x434f4e54524143545f434c4153535f56302e312e30");
/// `short_string("COMPILED_CLASS_V1")` (checked in the tests against the encoding).
const COMPILED_CLASS_V1: Felt = Felt::from_hex_unchecked("0x434f4d50494c45445f434c4153535f5631");

/// The hash function of a compiled class hash version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// v1: Poseidon.
    Poseidon,
    /// v2: Blake2s over felts.
    Blake2s,
}

impl Flavor {
    fn hash(self, felts: &[Felt]) -> Felt {
        match self {
            Flavor::Poseidon => poseidon_hash_many(felts),
            Flavor::Blake2s => blake2s_hash_many(felts),
        }
    }

    /// Every message at once on the current backend, on the rayon pool when `par`.
    fn hash_batch(self, messages: &[&[Felt]], out: &mut [Felt], par: bool) {
        let b = Backend::current();
        match (self, par) {
            (Flavor::Poseidon, false) => b.poseidon_hash_many_batch(messages, out),
            (Flavor::Poseidon, true) => b.poseidon_hash_many_batch_par(messages, out),
            (Flavor::Blake2s, false) => b.blake2s_hash_many_batch(messages, out),
            (Flavor::Blake2s, true) => b.blake2s_hash_many_batch_par(messages, out),
        }
    }
}

/// Both compiled class hashes of one CASM class, from one parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompiledClassHashes {
    /// v1 (Poseidon), as declared before Starknet 0.14.1.
    pub v1: Felt,
    /// v2 (Blake2s), the class trie's leaves from Starknet 0.14.1.
    pub v2: Felt,
}

/// Which kind of class a JSON document holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassKind {
    /// A Sierra contract class (`sierra_program`, `abi`): hashed by [`sierra_class_hash`].
    Sierra,
    /// A compiled CASM class (`bytecode`): hashed by [`compiled_class_hash`].
    Compiled,
    /// A Cairo 0 (legacy) class (`program`): hashed by [`legacy_class_hash`].
    Legacy,
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
    compiled_from_raw(&parse::parse(json, Mode::Compiled)?, Flavor::Poseidon)
}

/// The compiled class hash v2 (Blake2s; Starknet 0.14.1 and later) of a CASM class given as
/// JSON: the hash the class trie's leaves carry (see the module docs).
///
/// ```
/// use starkbatch::class_hash::compiled_class_hash_v2;
/// // A class with no bytecode and no entry points. Its v2 hash is the one pathfinder's table
/// // of migrated mainnet classes (crates/casm-hashes) gives for such classes.
/// let json = r#"{"prime": "0x800000000000011000000000000000000000000000000000000000000000001",
///   "compiler_version": "2.6.2", "bytecode": [], "bytecode_segment_lengths": 0, "hints": [],
///   "entry_points_by_type": {"EXTERNAL": [], "L1_HANDLER": [], "CONSTRUCTOR": []}}"#;
/// assert_eq!(
///     compiled_class_hash_v2(json).unwrap().to_string(),
///     "0x6ee46561691e785d643a8296b9bf08008e432df405a1a4beb6ed784541b571c"
/// );
/// ```
///
/// # Errors
/// As [`compiled_class_hash`].
pub fn compiled_class_hash_v2(json: &str) -> Result<Felt, ClassHashError> {
    compiled_from_raw(&parse::parse(json, Mode::Compiled)?, Flavor::Blake2s)
}

/// Both compiled class hashes, v1 and v2, of a CASM class given as JSON, parsing it once.
///
/// ```
/// use starkbatch::class_hash::{compiled_class_hash, compiled_class_hash_v2, compiled_class_hashes};
/// let json = r#"{"bytecode": ["0x1", "0x2"], "entry_points_by_type": {"EXTERNAL": [],
///   "L1_HANDLER": [], "CONSTRUCTOR": [{"selector": "0x5", "offset": 0, "builtins": ["range_check"]}]}}"#;
/// let both = compiled_class_hashes(json).unwrap();
/// assert_eq!(both.v1, compiled_class_hash(json).unwrap());
/// assert_eq!(both.v2, compiled_class_hash_v2(json).unwrap());
/// ```
///
/// # Errors
/// As [`compiled_class_hash`].
pub fn compiled_class_hashes(json: &str) -> Result<CompiledClassHashes, ClassHashError> {
    let raw = parse::parse(json, Mode::Compiled)?;
    let (v1, v2) = rayon::join(
        || compiled_from_raw(&raw, Flavor::Poseidon),
        || compiled_from_raw(&raw, Flavor::Blake2s),
    );
    Ok(CompiledClassHashes { v1: v1?, v2: v2? })
}

/// Recognises the kind of class from its content (`sierra_program` → Sierra, `bytecode` →
/// compiled v1, `program` → Cairo 0) and returns it with the matching hash.
///
/// # Errors
/// As [`sierra_class_hash`] / [`compiled_class_hash`] / [`legacy_class_hash`], and
/// [`ClassHashError::UnknownClassKind`] when the document has both `sierra_program` and
/// `bytecode`, or none of the three.
pub fn class_hash(json: &str) -> Result<(ClassKind, Felt), ClassHashError> {
    let raw = match parse::parse(json, Mode::Detect) {
        Ok(raw) => raw,
        Err(e) => return legacy_or(json, e).map(|h| (ClassKind::Legacy, h)),
    };
    match detect(&raw)? {
        ClassKind::Sierra => Ok((ClassKind::Sierra, sierra_from_raw(raw)?)),
        ClassKind::Compiled => Ok((
            ClassKind::Compiled,
            compiled_from_raw(&raw, Flavor::Poseidon)?,
        )),
        ClassKind::Legacy => Ok((ClassKind::Legacy, legacy_class_hash(json)?)),
    }
}

/// Every hash of a class whose kind is detected from its content: what [`class_hashes`]
/// returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassHashes {
    /// A Sierra class: its class hash.
    Sierra(Felt),
    /// A CASM class: both compiled class hashes.
    Compiled(CompiledClassHashes),
    /// A Cairo 0 (legacy) class: its class hash.
    Legacy(Felt),
}

/// As [`class_hash`], with both compiled class hash versions for a CASM class, from one parse.
///
/// ```
/// use starkbatch::class_hash::{class_hashes, compiled_class_hashes, ClassHashes};
/// let json = r#"{"bytecode": ["0x1"], "entry_points_by_type": {"EXTERNAL": [],
///   "L1_HANDLER": [], "CONSTRUCTOR": []}}"#;
/// assert_eq!(
///     class_hashes(json).unwrap(),
///     ClassHashes::Compiled(compiled_class_hashes(json).unwrap())
/// );
/// ```
///
/// # Errors
/// As [`class_hash`].
pub fn class_hashes(json: &str) -> Result<ClassHashes, ClassHashError> {
    let raw = match parse::parse(json, Mode::Detect) {
        Ok(raw) => raw,
        Err(e) => return legacy_or(json, e).map(ClassHashes::Legacy),
    };
    match detect(&raw)? {
        ClassKind::Sierra => Ok(ClassHashes::Sierra(sierra_from_raw(raw)?)),
        ClassKind::Compiled => {
            let (v1, v2) = rayon::join(
                || compiled_from_raw(&raw, Flavor::Poseidon),
                || compiled_from_raw(&raw, Flavor::Blake2s),
            );
            Ok(ClassHashes::Compiled(CompiledClassHashes {
                v1: v1?,
                v2: v2?,
            }))
        }
        ClassKind::Legacy => Ok(ClassHashes::Legacy(legacy_class_hash(json)?)),
    }
}

/// The reader of Sierra and CASM classes rejects a Cairo 0 class's entry points (hex-string
/// offsets) before it sees `program`: when it fails on a document that is a Cairo 0 class
/// (`program` at the top, neither `sierra_program` nor `bytecode`), hash that instead;
/// otherwise return the reader's error.
fn legacy_or(json: &str, e: ClassHashError) -> Result<Felt, ClassHashError> {
    match tree::parse(json) {
        Ok(doc)
            if doc.get("program").is_some()
                && doc.get("sierra_program").is_none()
                && doc.get("bytecode").is_none() =>
        {
            legacy_class_hash(json)
        }
        _ => Err(e),
    }
}

fn detect(raw: &RawClass<'_>) -> Result<ClassKind, ClassHashError> {
    match (raw.sierra_program.is_some(), raw.bytecode.is_some()) {
        (true, false) => Ok(ClassKind::Sierra),
        (false, true) => Ok(ClassKind::Compiled),
        (true, true) => Err(ClassHashError::UnknownClassKind {
            reason: "it has both `sierra_program` and `bytecode`",
        }),
        (false, false) if raw.saw_program => Ok(ClassKind::Legacy),
        (false, false) => Err(ClassHashError::UnknownClassKind {
            reason: "it has none of `sierra_program`, `bytecode` and `program`",
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

fn compiled_entries_hash(h: Flavor, entries: &[Entry], kind: &str) -> Result<Felt, ClassHashError> {
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
        flat.push(h.hash(builtins));
    }
    Ok(h.hash(&flat))
}

fn compiled_from_raw(raw: &RawClass<'_>, h: Flavor) -> Result<Felt, ClassHashError> {
    let bytecode = raw.bytecode.as_ref().ok_or_else(|| missing("bytecode"))?;
    let eps = raw
        .entry_points
        .as_ref()
        .ok_or_else(|| missing("entry_points_by_type"))?;
    let external = compiled_entries_hash(h, &eps.external, "EXTERNAL")?;
    let l1_handler = compiled_entries_hash(h, &eps.l1_handler, "L1_HANDLER")?;
    let constructor = compiled_entries_hash(h, &eps.constructor, "CONSTRUCTOR")?;
    let bytecode_hash = segments::bytecode_hash(h, bytecode, raw.segment_lengths.as_ref())?;
    Ok(h.hash(&[
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
