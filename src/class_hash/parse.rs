//! One-pass reader of contract class JSON into the few values a class hash needs.
//!
//! The document is read with serde_json's streaming deserializer and hand-written visitors:
//! felts are parsed straight from the borrowed hex strings into [`Felt`]s, everything the hash
//! does not use (`hints`, `sierra_program_debug_info`, `compiler_version`, unknown fields) is
//! skipped without allocation, and each visitor knows its path in the document, so that an error
//! names the field (`entry_points_by_type.EXTERNAL[3].selector`). The first error is kept in
//! [`Ctx`] as a [`ClassHashError`]; serde_json only carries it out (and adds the position).

use super::encode::short_string;
use super::error::{ClassHashError, Position};
use crate::Felt;
use core::cell::RefCell;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::string::{String, ToString};
use std::vec::Vec;

/// Which class the caller wants; fields of the other kind are skipped unread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Sierra,
    Compiled,
    Detect,
}

/// A field's place in the document, as a linked list on the stack (no allocation unless an
/// error is reported).
#[derive(Clone, Copy)]
pub(crate) enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'static str),
    Index(&'p Path<'p>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, k) => f.write_str(k),
            Path::Key(p, k) => write!(f, "{p}.{k}"),
            Path::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// Holds the first error found by a visitor.
#[derive(Default)]
pub(crate) struct Ctx {
    err: RefCell<Option<ClassHashError>>,
}

impl Ctx {
    fn fail<E: de::Error>(&self, e: ClassHashError) -> E {
        let msg = e.to_string();
        let mut slot = self.err.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
        E::custom(msg)
    }
}

/// Shortens a user string for an error message.
fn shown(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head:?}…")
    }
}

/// The ABI as found: a string (declare transaction form) or a JSON array (compiled artifact).
pub(crate) enum Abi<'de> {
    Str(Cow<'de, str>),
    Json(Value),
}

/// An entry point with the fields of both kinds; which are required depends on the kind.
pub(crate) struct Entry {
    pub selector: Felt,
    pub function_idx: Option<u64>,
    pub offset: Option<u64>,
    pub builtins: Option<Vec<Felt>>,
}

/// `entry_points_by_type`.
pub(crate) struct EntryPoints {
    pub external: Vec<Entry>,
    pub l1_handler: Vec<Entry>,
    pub constructor: Vec<Entry>,
}

/// `bytecode_segment_lengths`: a length or a list of nested lengths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lengths {
    Leaf(u64),
    Node(Vec<Lengths>),
}

/// What the top level held.
#[derive(Default)]
pub(crate) struct RawClass<'de> {
    pub sierra_program: Option<Vec<Felt>>,
    pub contract_class_version: Option<Cow<'de, str>>,
    pub entry_points: Option<EntryPoints>,
    pub abi: Option<Abi<'de>>,
    pub bytecode: Option<Vec<Felt>>,
    pub segment_lengths: Option<Lengths>,
    pub saw_program: bool,
}

/// Reads `json`; fields not needed for `mode` are skipped.
pub(crate) fn parse(json: &str, mode: Mode) -> Result<RawClass<'_>, ClassHashError> {
    let ctx = Ctx::default();
    let mut de = serde_json::Deserializer::from_str(json);
    let seed: S<'_, '_, Top> = S::new(&ctx, &Path::Root, mode);
    let res = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    res.map_err(|e| {
        let pos = Position {
            line: e.line(),
            column: e.column(),
        };
        match ctx.err.into_inner() {
            Some(err) => err.with_position(pos),
            None => {
                let full = e.to_string();
                let suffix = format!(" at line {} column {}", e.line(), e.column());
                let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
                ClassHashError::InvalidJson {
                    message,
                    line: e.line(),
                    column: e.column(),
                }
            }
        }
    })
}

/// A seed and visitor for one kind `K` of value at `path`.
struct S<'c, 'p, K> {
    ctx: &'c Ctx,
    path: &'p Path<'p>,
    mode: Mode,
    _k: PhantomData<K>,
}

impl<'c, 'p, K: Kind> S<'c, 'p, K> {
    fn new(ctx: &'c Ctx, path: &'p Path<'p>, mode: Mode) -> Self {
        S {
            ctx,
            path,
            mode,
            _k: PhantomData,
        }
    }

    /// A seed for a child value of another kind.
    fn child<'q, J: Kind>(&self, path: &'q Path<'q>) -> S<'c, 'q, J> {
        S::new(self.ctx, path, self.mode)
    }

    fn wrong<E: de::Error>(&self, found: &'static str) -> E {
        self.ctx.fail(ClassHashError::WrongType {
            field: self.path.to_string(),
            expected: K::EXPECTED,
            found,
            position: None,
        })
    }

    fn invalid<E: de::Error>(&self, reason: String) -> E {
        self.ctx.fail(ClassHashError::InvalidValue {
            field: self.path.to_string(),
            reason,
            position: None,
        })
    }

    fn missing<E: de::Error>(&self, key: &'static str) -> E {
        self.ctx.fail(ClassHashError::MissingField {
            field: Path::Key(self.path, key).to_string(),
            position: None,
        })
    }

    fn duplicate<E: de::Error>(&self, key: &'static str) -> E {
        self.ctx.fail(ClassHashError::DuplicateField {
            field: Path::Key(self.path, key).to_string(),
            position: None,
        })
    }
}

/// What a kind of value is expected to be, for messages.
trait Kind {
    const EXPECTED: &'static str;
}

macro_rules! kinds {
    ($($name:ident => $expected:expr;)*) => {
        $(
            struct $name;
            impl Kind for $name {
                const EXPECTED: &'static str = $expected;
            }
        )*
    };
}

kinds! {
    Top => "an object (a contract class)";
    FeltK => "a 0x-prefixed hex string";
    FeltArray => "an array of 0x-prefixed hex strings";
    StrK => "a string";
    U64K => "a non-negative integer";
    EntryPointsK => "an object with EXTERNAL, L1_HANDLER and CONSTRUCTOR";
    EntryList => "an array of entry points";
    EntryK => "an object (an entry point)";
    Builtins => "an array of strings";
    AbiK => "a string or an array";
    LengthsK => "a non-negative integer or an array of them";
    OptLengthsK => "a non-negative integer, an array of them, or null";
}

/// Rejects the listed JSON kinds as wrong types.
macro_rules! reject {
    (bool) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Err(self.wrong("a boolean"))
        }
    };
    (num) => {
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Err(self.wrong("a number"))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Err(self.wrong("a number"))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Err(self.wrong("a number"))
        }
    };
    (str) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Err(self.wrong("a string"))
        }
    };
    (null) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(self.wrong("null"))
        }
    };
    (seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(self.wrong("an array"))
        }
    };
    (map) => {
        fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(self.wrong("an object"))
        }
    };
    ($($k:tt),+) => {
        $(reject!($k);)+
    };
}

/// Every seed reads with `deserialize_any`, so that a wrong JSON type reaches our visitor
/// (which names the field) rather than serde_json's generic message.
macro_rules! seed_any {
    ($($k:ty),*) => {
        $(
            impl<'de> DeserializeSeed<'de> for S<'_, '_, $k> {
                type Value = <Self as Visitor<'de>>::Value;
                fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                    d.deserialize_any(self)
                }
            }
        )*
    };
}

seed_any!(
    Top,
    FeltK,
    FeltArray,
    StrK,
    U64K,
    EntryPointsK,
    EntryList,
    EntryK,
    Builtins,
    AbiK,
    LengthsK,
    OptLengthsK
);

/// A map key, turned into a small enum without allocating.
struct KeySeed<T>(fn(&str) -> T);

impl<'de, T> DeserializeSeed<'de> for KeySeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, T> Visitor<'de> for KeySeed<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<T, E> {
        Ok((self.0)(s))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TopKey {
    SierraProgram,
    ContractClassVersion,
    EntryPointsByType,
    Abi,
    Bytecode,
    BytecodeSegmentLengths,
    Program,
    Other,
}

fn top_key(s: &str) -> TopKey {
    match s {
        "sierra_program" => TopKey::SierraProgram,
        "contract_class_version" => TopKey::ContractClassVersion,
        "entry_points_by_type" => TopKey::EntryPointsByType,
        "abi" => TopKey::Abi,
        "bytecode" => TopKey::Bytecode,
        "bytecode_segment_lengths" => TopKey::BytecodeSegmentLengths,
        "program" => TopKey::Program,
        _ => TopKey::Other,
    }
}

impl<'de> Visitor<'de> for S<'_, '_, Top> {
    type Value = RawClass<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Top::EXPECTED)
    }
    reject!(bool, num, str, null, seq);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = RawClass::default();
        let sierra = self.mode != Mode::Compiled;
        let compiled = self.mode != Mode::Sierra;
        let mut seen_segments = false;
        while let Some(key) = map.next_key_seed(KeySeed(top_key))? {
            match key {
                TopKey::SierraProgram if sierra => {
                    let p = Path::Key(self.path, "sierra_program");
                    if out.sierra_program.is_some() {
                        return Err(self.duplicate("sierra_program"));
                    }
                    out.sierra_program = Some(map.next_value_seed(self.child::<FeltArray>(&p))?);
                }
                TopKey::ContractClassVersion if sierra => {
                    let p = Path::Key(self.path, "contract_class_version");
                    if out.contract_class_version.is_some() {
                        return Err(self.duplicate("contract_class_version"));
                    }
                    out.contract_class_version = Some(map.next_value_seed(self.child::<StrK>(&p))?);
                }
                TopKey::EntryPointsByType => {
                    let p = Path::Key(self.path, "entry_points_by_type");
                    if out.entry_points.is_some() {
                        return Err(self.duplicate("entry_points_by_type"));
                    }
                    out.entry_points = Some(map.next_value_seed(self.child::<EntryPointsK>(&p))?);
                }
                TopKey::Abi if sierra => {
                    let p = Path::Key(self.path, "abi");
                    if out.abi.is_some() {
                        return Err(self.duplicate("abi"));
                    }
                    out.abi = Some(map.next_value_seed(self.child::<AbiK>(&p))?);
                }
                TopKey::Bytecode if compiled => {
                    let p = Path::Key(self.path, "bytecode");
                    if out.bytecode.is_some() {
                        return Err(self.duplicate("bytecode"));
                    }
                    out.bytecode = Some(map.next_value_seed(self.child::<FeltArray>(&p))?);
                }
                TopKey::BytecodeSegmentLengths if compiled => {
                    let p = Path::Key(self.path, "bytecode_segment_lengths");
                    if seen_segments {
                        return Err(self.duplicate("bytecode_segment_lengths"));
                    }
                    seen_segments = true;
                    out.segment_lengths = map.next_value_seed(self.child::<OptLengthsK>(&p))?;
                }
                TopKey::Program => {
                    out.saw_program = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        // Required fields of the requested kind (Detect mode checks after deciding the kind).
        match self.mode {
            Mode::Sierra => {
                for (present, key) in [
                    (out.sierra_program.is_some(), "sierra_program"),
                    (
                        out.contract_class_version.is_some(),
                        "contract_class_version",
                    ),
                    (out.entry_points.is_some(), "entry_points_by_type"),
                    (out.abi.is_some(), "abi"),
                ] {
                    if !present {
                        return Err(self.missing(key));
                    }
                }
            }
            Mode::Compiled => {
                for (present, key) in [
                    (out.bytecode.is_some(), "bytecode"),
                    (out.entry_points.is_some(), "entry_points_by_type"),
                ] {
                    if !present {
                        return Err(self.missing(key));
                    }
                }
            }
            Mode::Detect => {}
        }
        Ok(out)
    }
}

impl<'de> Visitor<'de> for S<'_, '_, FeltArray> {
    type Value = Vec<Felt>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(FeltArray::EXPECTED)
    }
    reject!(bool, num, str, null, map);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
        loop {
            let p = Path::Index(self.path, out.len());
            match seq.next_element_seed(self.child::<FeltK>(&p))? {
                Some(x) => out.push(x),
                None => return Ok(out),
            }
        }
    }
}

impl<'de> Visitor<'de> for S<'_, '_, FeltK> {
    type Value = Felt;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(FeltK::EXPECTED)
    }
    reject!(bool, num, null, seq, map);

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Felt, E> {
        let b = s.as_bytes();
        if b.len() < 2 || b[0] != b'0' || (b[1] != b'x' && b[1] != b'X') {
            return Err(self.invalid(format!(
                "expected a 0x-prefixed hex string, found {}",
                shown(s)
            )));
        }
        if let Some(x) = fast_hex(&b[2..]) {
            return Ok(x);
        }
        // Slow path, only to build the precise error (or for inputs `fast_hex` declines).
        Felt::from_hex(s).map_err(|source| {
            self.ctx.fail(ClassHashError::InvalidFelt {
                field: self.path.to_string(),
                source,
                position: None,
            })
        })
    }
}

/// Hex digit values; 0x80 marks a non-digit.
const HEX: [u8; 256] = {
    let mut t = [0x80u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// Hex digits (no prefix) to a felt: table lookups, 16 digits per limb, one error check at
/// the end. `None` for an empty string, more than 64 digits, a non-digit or a value `>= p`;
/// the caller then asks [`Felt::from_hex`] for the precise error.
#[inline]
fn fast_hex(digits: &[u8]) -> Option<Felt> {
    if digits.is_empty() || digits.len() > 64 {
        return None;
    }
    let mut limbs = [0u64; 4];
    let mut bad = 0u8;
    let mut end = digits.len();
    let mut limb = 0;
    while end > 0 {
        let start = end.saturating_sub(16);
        let mut acc = 0u64;
        for &c in &digits[start..end] {
            let v = HEX[c as usize];
            bad |= v;
            acc = (acc << 4) | u64::from(v & 0x0f);
        }
        limbs[limb] = acc;
        limb += 1;
        end = start;
    }
    if bad & 0x80 != 0 {
        return None;
    }
    Felt::from_raw_limbs(limbs)
}

impl<'de> Visitor<'de> for S<'_, '_, StrK> {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(StrK::EXPECTED)
    }
    reject!(bool, num, null, seq, map);

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s.to_string()))
    }
}

impl<'de> Visitor<'de> for S<'_, '_, U64K> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(U64K::EXPECTED)
    }
    reject!(bool, str, null, seq, map);

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        Ok(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        u64::try_from(v).map_err(|_| self.invalid(format!("must not be negative, found {v}")))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        Err(self.invalid(format!(
            "must be an integer below 2^64, found the number {v}"
        )))
    }
}

#[derive(Clone, Copy)]
enum EpKey {
    External,
    L1Handler,
    Constructor,
    Other,
}

fn ep_key(s: &str) -> EpKey {
    match s {
        "EXTERNAL" => EpKey::External,
        "L1_HANDLER" => EpKey::L1Handler,
        "CONSTRUCTOR" => EpKey::Constructor,
        _ => EpKey::Other,
    }
}

impl<'de> Visitor<'de> for S<'_, '_, EntryPointsK> {
    type Value = EntryPoints;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EntryPointsK::EXPECTED)
    }
    reject!(bool, num, str, null, seq);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut lists: [Option<Vec<Entry>>; 3] = [None, None, None];
        const NAMES: [&str; 3] = ["EXTERNAL", "L1_HANDLER", "CONSTRUCTOR"];
        while let Some(key) = map.next_key_seed(KeySeed(ep_key))? {
            let i = match key {
                EpKey::External => 0,
                EpKey::L1Handler => 1,
                EpKey::Constructor => 2,
                EpKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            if lists[i].is_some() {
                return Err(self.duplicate(NAMES[i]));
            }
            let p = Path::Key(self.path, NAMES[i]);
            lists[i] = Some(map.next_value_seed(self.child::<EntryList>(&p))?);
        }
        let [external, l1_handler, constructor] = lists;
        match (external, l1_handler, constructor) {
            (Some(external), Some(l1_handler), Some(constructor)) => Ok(EntryPoints {
                external,
                l1_handler,
                constructor,
            }),
            (None, _, _) => Err(self.missing(NAMES[0])),
            (_, None, _) => Err(self.missing(NAMES[1])),
            (_, _, None) => Err(self.missing(NAMES[2])),
        }
    }
}

impl<'de> Visitor<'de> for S<'_, '_, EntryList> {
    type Value = Vec<Entry>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EntryList::EXPECTED)
    }
    reject!(bool, num, str, null, map);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        loop {
            let p = Path::Index(self.path, out.len());
            match seq.next_element_seed(self.child::<EntryK>(&p))? {
                Some(x) => out.push(x),
                None => return Ok(out),
            }
        }
    }
}

#[derive(Clone, Copy)]
enum EntryKey {
    Selector,
    FunctionIdx,
    Offset,
    Builtins,
    Other,
}

fn entry_key(s: &str) -> EntryKey {
    match s {
        "selector" => EntryKey::Selector,
        "function_idx" => EntryKey::FunctionIdx,
        "offset" => EntryKey::Offset,
        "builtins" => EntryKey::Builtins,
        _ => EntryKey::Other,
    }
}

impl<'de> Visitor<'de> for S<'_, '_, EntryK> {
    type Value = Entry;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EntryK::EXPECTED)
    }
    reject!(bool, num, str, null, seq);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut selector = None;
        let mut function_idx = None;
        let mut offset = None;
        let mut builtins = None;
        while let Some(key) = map.next_key_seed(KeySeed(entry_key))? {
            match key {
                EntryKey::Selector => {
                    if selector.is_some() {
                        return Err(self.duplicate("selector"));
                    }
                    let p = Path::Key(self.path, "selector");
                    selector = Some(map.next_value_seed(self.child::<FeltK>(&p))?);
                }
                EntryKey::FunctionIdx => {
                    if function_idx.is_some() {
                        return Err(self.duplicate("function_idx"));
                    }
                    let p = Path::Key(self.path, "function_idx");
                    function_idx = Some(map.next_value_seed(self.child::<U64K>(&p))?);
                }
                EntryKey::Offset => {
                    if offset.is_some() {
                        return Err(self.duplicate("offset"));
                    }
                    let p = Path::Key(self.path, "offset");
                    offset = Some(map.next_value_seed(self.child::<U64K>(&p))?);
                }
                EntryKey::Builtins => {
                    if builtins.is_some() {
                        return Err(self.duplicate("builtins"));
                    }
                    let p = Path::Key(self.path, "builtins");
                    builtins = Some(map.next_value_seed(self.child::<Builtins>(&p))?);
                }
                EntryKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let Some(selector) = selector else {
            return Err(self.missing("selector"));
        };
        match self.mode {
            Mode::Sierra if function_idx.is_none() => return Err(self.missing("function_idx")),
            Mode::Compiled if offset.is_none() => return Err(self.missing("offset")),
            Mode::Compiled if builtins.is_none() => return Err(self.missing("builtins")),
            _ => {}
        }
        Ok(Entry {
            selector,
            function_idx,
            offset,
            builtins,
        })
    }
}

impl<'de> Visitor<'de> for S<'_, '_, Builtins> {
    type Value = Vec<Felt>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Builtins::EXPECTED)
    }
    reject!(bool, num, str, null, map);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        loop {
            let p = Path::Index(self.path, out.len());
            let item = self.child::<StrK>(&p);
            match seq.next_element_seed(item)? {
                Some(name) => match short_string(&name) {
                    Ok(x) => out.push(x),
                    Err(e) => {
                        let at: S<'_, '_, StrK> = self.child(&p);
                        return Err(at.invalid(format!(
                            "builtin name {} is not a Cairo short string: {}",
                            shown(&name),
                            e.describe()
                        )));
                    }
                },
                None => return Ok(out),
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for S<'_, '_, AbiValue> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
}

/// Marker for an element of an ABI array (any JSON value).
struct AbiValue;
impl Kind for AbiValue {
    const EXPECTED: &'static str = "a JSON value";
}

impl<'de> Visitor<'de> for S<'_, '_, AbiK> {
    type Value = Abi<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(AbiK::EXPECTED)
    }
    reject!(bool, num, null, map);

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Abi::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Abi::Str(Cow::Owned(s.to_string())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let p = Path::Index(self.path, items.len());
            match seq.next_element_seed(self.child::<AbiValue>(&p))? {
                Some(v) => items.push(v),
                None => return Ok(Abi::Json(Value::Array(items))),
            }
        }
    }
}

use serde::Deserialize as _;

impl<'de> Visitor<'de> for S<'_, '_, OptLengthsK> {
    type Value = Option<Lengths>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(OptLengthsK::EXPECTED)
    }
    reject!(bool, str, map);

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.child::<LengthsK>(self.path).visit_u64(v).map(Some)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.child::<LengthsK>(self.path).visit_i64(v).map(Some)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.child::<LengthsK>(self.path).visit_f64(v).map(Some)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.child::<LengthsK>(self.path).visit_seq(seq).map(Some)
    }
}

impl<'de> Visitor<'de> for S<'_, '_, LengthsK> {
    type Value = Lengths;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(LengthsK::EXPECTED)
    }
    reject!(bool, str, null, map);

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Lengths, E> {
        Ok(Lengths::Leaf(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Lengths, E> {
        match u64::try_from(v) {
            Ok(v) => Ok(Lengths::Leaf(v)),
            Err(_) => {
                Err(self.invalid(format!("a segment length must not be negative, found {v}")))
            }
        }
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Lengths, E> {
        Err(self.invalid(format!(
            "a segment length must be an integer below 2^64, found the number {v}"
        )))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Lengths, A::Error> {
        let mut items = Vec::new();
        loop {
            let p = Path::Index(self.path, items.len());
            match seq.next_element_seed(self.child::<LengthsK>(&p))? {
                Some(v) => items.push(v),
                None => return Ok(Lengths::Node(items)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(digits: &str) {
        let slow = Felt::from_hex(&format!("0x{digits}")).ok();
        assert_eq!(fast_hex(digits.as_bytes()), slow, "{digits:?}");
    }

    #[test]
    fn fast_hex_edges() {
        for d in [
            "",
            "0",
            "f",
            "F",
            "g",
            "0x1",
            "ffffffffffffffff",
            "10000000000000000",
            "800000000000011000000000000000000000000000000000000000000000000",
            "800000000000011000000000000000000000000000000000000000000000001",
            "0800000000000011000000000000000000000000000000000000000000000000",
            "00800000000000011000000000000000000000000000000000000000000000000",
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "12 4",
            "é",
        ] {
            check(d);
        }
    }

    proptest! {
        #[test]
        fn fast_hex_matches_from_hex(d in "[0-9a-fA-F]{0,66}") {
            check(&d);
        }

        #[test]
        fn fast_hex_matches_from_hex_any(d in "[0-9a-gA-G x]{0,66}") {
            check(&d);
        }
    }
}
