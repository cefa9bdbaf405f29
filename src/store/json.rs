//! State updates as nodes publish them: the JSON-RPC `starknet_getStateUpdate` result and the
//! feeder gateway's `get_state_update`, parsed into [`StateUpdate`].
//!
//! Both forms are read by the same parser, which looks at the shape of each field:
//!
//! | field | JSON-RPC | feeder gateway |
//! | --- | --- | --- |
//! | `storage_diffs` | `[{address, storage_entries: [{key, value}]}]` | `{address: [{key, value}]}` |
//! | `nonces` | `[{contract_address, nonce}]` | `{address: nonce}` |
//! | `deployed_contracts` | `[{address, class_hash}]` | the same |
//! | `replaced_classes` | `[{contract_address, class_hash}]` | `[{address, class_hash}]` |
//! | `declared_classes`, `migrated_compiled_classes` | `[{class_hash, compiled_class_hash}]` | the same |
//! | Cairo 0 declarations | `deprecated_declared_classes` | `old_declared_contracts` (`declared_contracts` before 0.11) |
//!
//! A document may be an update itself, a JSON-RPC response (`{"result": …}`), or the feeder
//! gateway's `{"block": …, "state_update": …}` (the block number is then taken from the block).
//! Felts are `0x` hex strings, decimal strings or JSON integers; `block_hash`, `old_root` and
//! `new_root` may also be 64 hex digits without `0x`, as some published updates write them.
//! A field the store does not know inside `state_diff` is an error (it may carry state); other
//! unknown top-level fields are ignored. Every error names the JSON path of the item.

use super::diff::{ContractClass, NonceUpdate, StateDiff, StorageDiff, StorageEntry};
use crate::Felt;
use crate::state::DeclaredClass;
use serde_json::{Map, Value};
use std::fmt;

/// One block's state update.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateUpdate {
    /// The block number, when the document says it (`block_number`, or the feeder gateway's
    /// `block.block_number`).
    pub block_number: Option<u64>,
    /// The block hash (absent in pending updates).
    pub block_hash: Option<Felt>,
    /// The state root before the block.
    pub old_root: Option<Felt>,
    /// The state root after the block (absent in pending updates).
    pub new_root: Option<Felt>,
    /// What the block changes.
    pub state_diff: StateDiff,
}

/// Why a state-update document could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpdateParseError {
    /// Which update of the text (0-based), for an array or JSON lines.
    pub index: usize,
    /// The line (1-based) the update starts on, or of the syntax error.
    pub line: usize,
    /// The JSON path of the item at fault (empty for a syntax error).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for UpdateParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for UpdateParseError {}

type R<T> = Result<T, (String, String)>;

fn err<T>(path: &str, message: impl Into<String>) -> R<T> {
    Err((path.to_string(), message.into()))
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

fn object<'a>(v: &'a Value, path: &str) -> R<&'a Map<String, Value>> {
    match v.as_object() {
        Some(o) => Ok(o),
        None => err(path, format!("expected an object, found {}", kind(v))),
    }
}

fn array<'a>(v: &'a Value, path: &str) -> R<&'a [Value]> {
    match v {
        Value::Array(a) => Ok(a),
        other => err(path, format!("expected an array, found {}", kind(other))),
    }
}

fn felt_str(s: &str, path: &str, bare_hex: bool) -> R<Felt> {
    let parsed = if bare_hex && s.len() == 64 && !s.starts_with("0x") {
        Felt::from_hex(&format!("0x{s}"))
    } else {
        s.parse::<Felt>()
    };
    parsed.map_err(|e| (path.to_string(), e.to_string()))
}

fn felt_value(v: &Value, path: &str, bare_hex: bool) -> R<Felt> {
    match v {
        Value::String(s) => felt_str(s, path, bare_hex),
        Value::Number(n) => match n.as_u64() {
            Some(u) => Ok(Felt::from(u)),
            None => err(
                path,
                format!(
                    "the number {n} is not an integer in 0..2^64 (write large felts as strings)"
                ),
            ),
        },
        other => err(
            path,
            format!(
                "expected a felt (a string or an integer), found {}",
                kind(other)
            ),
        ),
    }
}

fn field<'a>(o: &'a Map<String, Value>, path: &str, name: &str) -> R<&'a Value> {
    match o.get(name) {
        Some(v) => Ok(v),
        None => err(path, format!("missing field {name:?}")),
    }
}

fn felt_field(o: &Map<String, Value>, path: &str, name: &str) -> R<Felt> {
    felt_value(field(o, path, name)?, &format!("{path}.{name}"), false)
}

fn only(o: &Map<String, Value>, path: &str, allowed: &[&str]) -> R<()> {
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => err(
            path,
            format!("unknown field {k:?} (expected {})", allowed.join(", ")),
        ),
    }
}

fn entries(v: &Value, path: &str) -> R<Vec<StorageEntry>> {
    let mut out = Vec::new();
    for (j, e) in array(v, path)?.iter().enumerate() {
        let p = format!("{path}[{j}]");
        let o = object(e, &p)?;
        only(o, &p, &["key", "value"])?;
        out.push(StorageEntry {
            key: felt_field(o, &p, "key")?,
            value: felt_field(o, &p, "value")?,
        });
    }
    Ok(out)
}

fn contract_classes(v: &Value, path: &str, address_names: &[&str]) -> R<Vec<ContractClass>> {
    let mut out = Vec::new();
    for (i, e) in array(v, path)?.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let o = object(e, &p)?;
        let name = address_names
            .iter()
            .find(|n| o.contains_key(**n))
            .copied()
            .unwrap_or(address_names[0]);
        only(o, &p, &[name, "class_hash"])?;
        out.push(ContractClass {
            address: felt_field(o, &p, name)?,
            class_hash: felt_field(o, &p, "class_hash")?,
        });
    }
    Ok(out)
}

fn declared(v: &Value, path: &str) -> R<Vec<DeclaredClass>> {
    let mut out = Vec::new();
    for (i, e) in array(v, path)?.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let o = object(e, &p)?;
        only(o, &p, &["class_hash", "compiled_class_hash"])?;
        out.push(DeclaredClass {
            class_hash: felt_field(o, &p, "class_hash")?,
            compiled_class_hash: felt_field(o, &p, "compiled_class_hash")?,
        });
    }
    Ok(out)
}

fn state_diff(v: &Value, path: &str) -> R<StateDiff> {
    let o = object(v, path)?;
    only(
        o,
        path,
        &[
            "storage_diffs",
            "nonces",
            "deployed_contracts",
            "replaced_classes",
            "declared_classes",
            "migrated_compiled_classes",
            "deprecated_declared_classes",
            "old_declared_contracts",
            "declared_contracts",
        ],
    )?;
    let mut d = StateDiff::default();
    if let Some(v) = o.get("storage_diffs") {
        let p = format!("{path}.storage_diffs");
        match v {
            // Feeder gateway: {address: [{key, value}]}.
            Value::Object(m) => {
                for (a, list) in m {
                    let ap = format!("{p}[{a:?}]");
                    d.storage_diffs.push(StorageDiff {
                        address: felt_str(a, &ap, false)?,
                        storage_entries: entries(list, &ap)?,
                    });
                }
            }
            // JSON-RPC: [{address, storage_entries}].
            Value::Array(list) => {
                for (i, e) in list.iter().enumerate() {
                    let ep = format!("{p}[{i}]");
                    let eo = object(e, &ep)?;
                    only(eo, &ep, &["address", "storage_entries"])?;
                    d.storage_diffs.push(StorageDiff {
                        address: felt_field(eo, &ep, "address")?,
                        storage_entries: entries(
                            field(eo, &ep, "storage_entries")?,
                            &format!("{ep}.storage_entries"),
                        )?,
                    });
                }
            }
            other => {
                return err(
                    &p,
                    format!("expected an array or an object, found {}", kind(other)),
                );
            }
        }
    }
    if let Some(v) = o.get("nonces") {
        let p = format!("{path}.nonces");
        match v {
            Value::Object(m) => {
                for (a, n) in m {
                    let ap = format!("{p}[{a:?}]");
                    d.nonces.push(NonceUpdate {
                        contract_address: felt_str(a, &ap, false)?,
                        nonce: felt_value(n, &ap, false)?,
                    });
                }
            }
            Value::Array(list) => {
                for (i, e) in list.iter().enumerate() {
                    let ep = format!("{p}[{i}]");
                    let eo = object(e, &ep)?;
                    only(eo, &ep, &["contract_address", "nonce"])?;
                    d.nonces.push(NonceUpdate {
                        contract_address: felt_field(eo, &ep, "contract_address")?,
                        nonce: felt_field(eo, &ep, "nonce")?,
                    });
                }
            }
            other => {
                return err(
                    &p,
                    format!("expected an array or an object, found {}", kind(other)),
                );
            }
        }
    }
    if let Some(v) = o.get("deployed_contracts") {
        d.deployed_contracts =
            contract_classes(v, &format!("{path}.deployed_contracts"), &["address"])?;
    }
    if let Some(v) = o.get("replaced_classes") {
        d.replaced_classes = contract_classes(
            v,
            &format!("{path}.replaced_classes"),
            &["contract_address", "address"],
        )?;
    }
    if let Some(v) = o.get("declared_classes") {
        d.declared_classes = declared(v, &format!("{path}.declared_classes"))?;
    }
    if let Some(v) = o.get("migrated_compiled_classes") {
        d.migrated_compiled_classes = declared(v, &format!("{path}.migrated_compiled_classes"))?;
    }
    for name in [
        "deprecated_declared_classes",
        "old_declared_contracts",
        "declared_contracts",
    ] {
        if let Some(v) = o.get(name) {
            let p = format!("{path}.{name}");
            for (i, e) in array(v, &p)?.iter().enumerate() {
                d.deprecated_declared_classes
                    .push(felt_value(e, &format!("{p}[{i}]"), false)?);
            }
        }
    }
    Ok(d)
}

fn optional_root(o: &Map<String, Value>, name: &str) -> R<Option<Felt>> {
    match o.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => felt_value(v, name, true).map(Some),
    }
}

fn update(v: &Value) -> R<StateUpdate> {
    let top = object(v, "the document")?;
    // {"jsonrpc": "2.0", "result": {...}} and {"block": {...}, "state_update": {...}}.
    if let Some(r) = top.get("result") {
        return update(r).map_err(|(p, m)| (format!("result.{p}"), m));
    }
    let mut block_number = None;
    let (o, prefix) = if let Some(su) = top.get("state_update") {
        if let Some(b) = top.get("block") {
            let bo = object(b, "block")?;
            if let Some(n) = bo.get("block_number") {
                block_number = Some(n.as_u64().ok_or_else(|| {
                    (
                        "block.block_number".to_string(),
                        format!("expected an integer, found {}", kind(n)),
                    )
                })?);
            }
        }
        (object(su, "state_update")?, "state_update.")
    } else {
        (top, "")
    };
    let with = |r: R<StateUpdate>| r.map_err(|(p, m)| (format!("{prefix}{p}"), m));
    with((|| {
        if let Some(n) = o.get("block_number") {
            block_number = Some(n.as_u64().ok_or_else(|| {
                (
                    "block_number".to_string(),
                    format!("expected an integer, found {}", kind(n)),
                )
            })?);
        }
        Ok(StateUpdate {
            block_number,
            block_hash: optional_root(o, "block_hash")?,
            old_root: optional_root(o, "old_root")?,
            new_root: optional_root(o, "new_root")?,
            state_diff: state_diff(field(o, "", "state_diff")?, "state_diff")?,
        })
    })())
}

/// Parses one state-update document (any of the forms in the module docs).
///
/// ```
/// use starkbatch::store::parse_state_update;
/// use starkbatch::Felt;
/// let u = parse_state_update(&serde_json::json!({"result": {
///     "block_number": 7,
///     "state_diff": {"nonces": [{"contract_address": "0x10", "nonce": "0x2"}]}
/// }}))
/// .unwrap();
/// assert_eq!((u.block_number, u.state_diff.nonces[0].nonce), (Some(7), Felt::TWO));
/// let bad = serde_json::json!({"state_diff": {"nonces": {"0x10": "0xg"}}});
/// assert_eq!(parse_state_update(&bad).unwrap_err().path, r#"state_diff.nonces["0x10"]"#);
/// ```
///
/// # Errors
/// [`UpdateParseError`] naming the JSON path of the first bad item.
pub fn parse_state_update(doc: &Value) -> Result<StateUpdate, UpdateParseError> {
    update(doc).map_err(|(path, message)| UpdateParseError {
        index: 0,
        line: 1,
        path: path.trim_start_matches('.').to_string(),
        message,
    })
}

/// Parses a text holding one update, a JSON array of updates, or JSON lines (one update per
/// line; blank lines skipped).
///
/// ```
/// use starkbatch::store::parse_state_updates;
/// let text = r#"{"block_number": 0, "state_diff": {}}
/// {"block_number": 1, "state_diff": {"nonces": {"0x1": "0x1"}}}"#;
/// let updates = parse_state_updates(text).unwrap(); // JSON lines
/// assert_eq!(updates.len(), 2);
/// assert_eq!(updates[1].block_number, Some(1));
/// let e = parse_state_updates(r#"[{"state_diff": {}}, {"state_diff": 5}]"#).unwrap_err();
/// assert_eq!((e.index, e.path.as_str()), (1, "state_diff"));
/// ```
///
/// # Errors
/// [`UpdateParseError`] with the index and line of the update at fault and the JSON path in it,
/// or the line of a syntax error.
pub fn parse_state_updates(text: &str) -> Result<Vec<StateUpdate>, UpdateParseError> {
    let syntax = |e: serde_json::Error, index: usize, line0: usize| UpdateParseError {
        index,
        line: line0 + e.line(),
        path: String::new(),
        message: {
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            format!(
                "invalid JSON at column {}: {}",
                e.column(),
                full.strip_suffix(&suffix).unwrap_or(&full)
            )
        },
    };
    let one = |v: &Value, index: usize, line: usize| {
        parse_state_update(v).map_err(|e| UpdateParseError { index, line, ..e })
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(list)) => list.iter().enumerate().map(|(i, v)| one(v, i, 1)).collect(),
        Ok(v) => Ok(vec![one(&v, 0, 1)?]),
        Err(e) => {
            // JSON lines: one document per non-blank line.
            let mut out = Vec::new();
            let lines: Vec<(usize, &str)> = text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .collect();
            // Only when the first line is a whole document; otherwise the error is the
            // document's own.
            let first_is_whole = lines
                .first()
                .is_some_and(|(_, l)| serde_json::from_str::<Value>(l).is_ok());
            if lines.len() < 2 || !first_is_whole {
                return Err(syntax(e, 0, 0));
            }
            for (i, (n, l)) in lines.into_iter().enumerate() {
                let v: Value = serde_json::from_str(l).map_err(|e| syntax(e, i, n))?;
                out.push(one(&v, i, n + 1)?);
            }
            Ok(out)
        }
    }
}
