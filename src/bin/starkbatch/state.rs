//! `starkbatch state-root STATE.json [--rule from-0.14|before-0.14]`: every root of a full
//! state through the library's `state::state_commitment`.
//!
//! # Input format
//! ```json
//! {
//!   "contracts": [
//!     {
//!       "address": "0x1234",
//!       "class_hash": "0x5678",
//!       "nonce": "0x1",
//!       "storage": { "0x5": "0x64", "0x6": "200" }
//!     }
//!   ],
//!   "declared_classes": [
//!     { "class_hash": "0xabc", "compiled_class_hash": "0xdef" }
//!   ]
//! }
//! ```
//! - A felt is a string, `0x` hex or decimal (as in the line formats), or a JSON integer.
//! - `contracts` and `declared_classes` may be absent (empty); in a contract `nonce` defaults
//!   to 0 and `storage` to `{}`; `address` and `class_hash` are required. Unknown fields are
//!   an error (they are most likely typos).
//! - Storage keys, addresses and class hashes must be below 2^251; a storage value of 0 is a
//!   deleted key; a contract or class given twice: the last one wins in its trie.
//! - The state is complete (not a diff): the roots are those of exactly these contracts and
//!   classes. Cairo 0 classes do not belong in `declared_classes` (they are not in the
//!   class trie).
//!
//! # Output
//! `state_root`, `contract_root`, `class_root`, then one `storage_root <address> <root>` line
//! per contract in input order. An empty state has every root `0x0`.
//!
//! Errors name the file and the JSON path (`state.json: contracts[2].storage["0x5"]: ...`),
//! or the line and column for a JSON syntax error; exit code 2.

use crate::args::{StateRootArgs, StateRule};
use crate::error::{CliError, CliResult};
use crate::input::Input;
use crate::output::Output;
use serde_json::{Map, Value};
use starkbatch::Felt;
use starkbatch::state::{ContractState, DeclaredClass, StateRootRule, state_commitment};
use std::path::Path;

pub fn run(a: &StateRootArgs) -> CliResult {
    // A bad STARKBATCH_BACKEND is a usage error here too, before the library sees it.
    crate::backend::choose()?;
    let (name, contracts, classes) = read_state(a.file.as_deref())?;
    let c = state_commitment(&contracts, &classes, a.rule.rule())
        .map_err(|e| CliError::input(format!("{name}: {e}")))?;
    let mut out = Output::create(None)?;
    out.line(format_args!("state_root {}", c.state_root))?;
    out.line(format_args!("contract_root {}", c.contract_root))?;
    out.line(format_args!("class_root {}", c.class_root))?;
    for (contract, root) in contracts.iter().zip(&c.storage_roots) {
        out.line(format_args!("storage_root {} {root}", contract.address))?;
    }
    out.finish()
}

impl StateRule {
    /// The library's rule.
    pub fn rule(self) -> StateRootRule {
        match self {
            StateRule::From0_14 => StateRootRule::From0_14_0,
            StateRule::Before0_14 => StateRootRule::Before0_14_0,
        }
    }
}

/// Reads and parses a state document (the format above): its name for messages, the
/// contracts and the declared classes. Errors name the file and the JSON path (exit 2).
pub fn read_state(
    file: Option<&Path>,
) -> CliResult<(String, Vec<ContractState>, Vec<DeclaredClass>)> {
    let (name, text) = Input::open(file)?.read_to_string()?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| {
        // serde_json's message ends with " at line L column C": say it once, as FILE:L:C.
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let msg = full.strip_suffix(&suffix).unwrap_or(&full);
        CliError::input(format!(
            "{name}:{}:{}: invalid JSON: {msg}",
            e.line(),
            e.column()
        ))
    })?;
    let (contracts, classes) = parse(&doc).map_err(|m| CliError::input(format!("{name}: {m}")))?;
    Ok((name, contracts, classes))
}

type Parsed = (Vec<ContractState>, Vec<DeclaredClass>);

fn parse(doc: &Value) -> Result<Parsed, String> {
    let top = object(doc, "the document")?;
    only(top, "", &["contracts", "declared_classes"])?;
    let mut contracts = Vec::new();
    for (i, c) in array(top.get("contracts"), "contracts")?.iter().enumerate() {
        let path = format!("contracts[{i}]");
        let o = object(c, &path)?;
        only(o, &path, &["address", "class_hash", "nonce", "storage"])?;
        let mut storage = Vec::new();
        if let Some(s) = o.get("storage") {
            let s = object(s, &format!("{path}.storage"))?;
            for (k, v) in s {
                let key = k
                    .parse::<Felt>()
                    .map_err(|e| format!("{path}.storage: key {k:?}: {e}"))?;
                storage.push((key, felt(v, &format!("{path}.storage[{k:?}]"))?));
            }
        }
        contracts.push(ContractState {
            address: required(o, &path, "address")?,
            class_hash: required(o, &path, "class_hash")?,
            nonce: match o.get("nonce") {
                Some(v) => felt(v, &format!("{path}.nonce"))?,
                None => Felt::ZERO,
            },
            storage,
        });
    }
    let mut classes = Vec::new();
    for (i, c) in array(top.get("declared_classes"), "declared_classes")?
        .iter()
        .enumerate()
    {
        let path = format!("declared_classes[{i}]");
        let o = object(c, &path)?;
        only(o, &path, &["class_hash", "compiled_class_hash"])?;
        classes.push(DeclaredClass {
            class_hash: required(o, &path, "class_hash")?,
            compiled_class_hash: required(o, &path, "compiled_class_hash")?,
        });
    }
    Ok((contracts, classes))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("{path}: expected an object, found {}", kind(v)))
}

fn array<'a>(v: Option<&'a Value>, path: &str) -> Result<&'a [Value], String> {
    match v {
        None => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(format!("{path}: expected an array, found {}", kind(other))),
    }
}

fn only(o: &Map<String, Value>, path: &str, allowed: &[&str]) -> Result<(), String> {
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => Err(format!(
            "{}unknown field {k:?} (expected {})",
            if path.is_empty() {
                String::new()
            } else {
                format!("{path}: ")
            },
            allowed.join(", ")
        )),
    }
}

fn required(o: &Map<String, Value>, path: &str, field: &str) -> Result<Felt, String> {
    match o.get(field) {
        Some(v) => felt(v, &format!("{path}.{field}")),
        None => Err(format!("{path}: missing field {field:?}")),
    }
}

fn felt(v: &Value, path: &str) -> Result<Felt, String> {
    match v {
        Value::String(s) => s.parse::<Felt>().map_err(|e| format!("{path}: {e}")),
        Value::Number(n) => match n.as_u64() {
            Some(u) => Ok(Felt::from(u)),
            None => Err(format!(
                "{path}: the number {n} is not an integer in 0..2^64 (write large felts as strings)"
            )),
        },
        other => Err(format!(
            "{path}: expected a felt (a string or an integer), found {}",
            kind(other)
        )),
    }
}
