//! Class hashes: published vectors (starknet-rs test data), differential checks against
//! starknet-core (`SierraClass`, `FlattenedSierraClass`, `CompiledClass`), the ABI string/array
//! equivalence, and every error path.

use crate::common;

use proptest::prelude::*;
use serde_json::{Value, json};
use starkbatch::class_hash::{
    ClassHashError, ClassKind, class_hash, compiled_class_hash, sierra_class_hash, sn_keccak,
};
use starkbatch::{Felt, FeltError};
use starknet_core::types::contract::{CompiledClass, SierraClass};
use starknet_core::types::{EntryPointsByType, FlattenedSierraClass, SierraEntryPoint};

/// `shared/data/classes/NAME`.
fn class_file(name: &str) -> String {
    common::read_shared(&format!("data/classes/{name}"))
}

fn felt(s: &str) -> Felt {
    Felt::from_hex(s).unwrap()
}

/// starknet-core's Felt (starknet-types-core 0.2) as ours.
fn from_core(x: starknet_core::types::Felt) -> Felt {
    felt(&format!("{x:#x}"))
}

fn to_core(x: Felt) -> starknet_core::types::Felt {
    starknet_core::types::Felt::from_hex(&x.to_string()).unwrap()
}

const P_HEX: &str = "0x800000000000011000000000000000000000000000000000000000000000001";

// ---------------------------------------------------------------------------------------------
// Published vectors
// ---------------------------------------------------------------------------------------------

/// erc20.hashes.json: published with the artifacts in starknet-rs's test data
/// (starknet-core/test-data/contracts/cairo2/artifacts, commit 293fff9).
#[test]
fn erc20_published_hashes() {
    let hashes: Value = serde_json::from_str(&class_file("erc20.hashes.json")).unwrap();
    let want_sierra = felt(hashes["sierra_class_hash"].as_str().unwrap());
    let want_compiled = felt(hashes["compiled_class_hash"].as_str().unwrap());

    let sierra = class_file("erc20.contract_class.json");
    let casm = class_file("erc20.compiled_contract_class.json");
    assert_eq!(sierra_class_hash(&sierra).unwrap(), want_sierra);
    assert_eq!(compiled_class_hash(&casm).unwrap(), want_compiled);
    assert_eq!(
        class_hash(&sierra).unwrap(),
        (ClassKind::Sierra, want_sierra)
    );
    assert_eq!(
        class_hash(&casm).unwrap(),
        (ClassKind::Compiled, want_compiled)
    );
}

/// Key order and whitespace of the document do not matter (fields are found by name; the
/// ABI array's own key order is kept, as it is what gets hashed).
#[test]
fn top_level_key_order_and_whitespace_do_not_matter() {
    let hashes: Value = serde_json::from_str(&class_file("erc20.hashes.json")).unwrap();
    for (name, key) in [
        ("erc20.contract_class.json", "sierra_class_hash"),
        ("erc20.compiled_contract_class.json", "compiled_class_hash"),
    ] {
        let want = felt(hashes[key].as_str().unwrap());
        let v: Value = serde_json::from_str(&class_file(name)).unwrap();
        let mut reversed = serde_json::Map::new();
        for (k, x) in v.as_object().unwrap().iter().rev() {
            reversed.insert(k.clone(), x.clone());
        }
        let compact = Value::Object(reversed).to_string();
        assert_eq!(class_hash(&compact).unwrap().1, want, "{name}");
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        assert_eq!(class_hash(&pretty).unwrap().1, want, "{name}");
    }
}

/// spec/starknet.md (cairo-lang): sn_keccak("__execute__").
#[test]
fn sn_keccak_execute_vector() {
    assert_eq!(
        sn_keccak(b"__execute__"),
        felt("0x15d40a3d6ca2ac30f4031e42be28da9b056fef9bb7357ac5e85627ee876e5ad")
    );
    // The mask keeps 250 bits.
    for data in [&b""[..], b"a", b"transfer", &[0xffu8; 100]] {
        assert!(sn_keccak(data).bits() <= 250);
    }
}

// ---------------------------------------------------------------------------------------------
// Differential against starknet-core
// ---------------------------------------------------------------------------------------------

#[test]
fn sierra_classes_match_starknet_core_both_abi_forms() {
    for name in [
        "trivial.contract_class.json",
        "erc20_cairo2_6.contract_class.json",
        "erc20.contract_class.json",
    ] {
        let json = class_file(name);
        let class: SierraClass = serde_json::from_str(&json).unwrap();
        let want = from_core(class.class_hash().unwrap());
        // ABI as a JSON array (the compiled artifact).
        assert_eq!(sierra_class_hash(&json).unwrap(), want, "{name}");
        assert_eq!(
            class_hash(&json).unwrap(),
            (ClassKind::Sierra, want),
            "{name}"
        );

        // ABI as a string (the declare-transaction / RPC form), made by starknet-core.
        let flat = class.flatten().unwrap();
        assert_eq!(from_core(flat.class_hash()), want, "{name}");
        let flat_json = serde_json::to_string(&flat).unwrap();
        assert!(serde_json::from_str::<Value>(&flat_json).unwrap()["abi"].is_string());
        assert_eq!(sierra_class_hash(&flat_json).unwrap(), want, "{name}");
    }
}

#[test]
fn compiled_class_matches_starknet_core() {
    let json = class_file("erc20.compiled_contract_class.json");
    let class: CompiledClass = serde_json::from_str(&json).unwrap();
    assert_eq!(
        compiled_class_hash(&json).unwrap(),
        from_core(class.class_hash().unwrap())
    );
}

/// Direct transliteration of cairo-lang's `compiled_class_hash.py` bytecode hash
/// (`_create_bytecode_segment_structure_inner` + `BytecodeSegmentedNode.hash`), with the
/// offset passed by value as in Python, over starknet-crypto's Poseidon. Used for nested
/// segment lists, which starknet-core 0.16 mishandles (it shares one `&mut` offset between
/// levels and so advances it twice after a nested list).
fn reference_bytecode_hash(bytecode: &[Felt], lengths: &Value) -> Felt {
    use starknet_crypto::poseidon_hash_many as core_many;
    fn inner(bytecode: &[Felt], l: &Value, offset: usize) -> (Felt, usize) {
        match l {
            Value::Array(items) => {
                let mut flat = Vec::new();
                let mut off = offset;
                let mut total = 0;
                for item in items {
                    let (h, n) = inner(bytecode, item, off);
                    assert!(n > 0);
                    flat.push(to_core(Felt::from(n as u64)));
                    flat.push(to_core(h));
                    off += n;
                    total += n;
                }
                (from_core(core_many(&flat)) + Felt::ONE, total)
            }
            n => {
                let n = n.as_u64().unwrap() as usize;
                let data: Vec<_> = bytecode[offset..offset + n]
                    .iter()
                    .map(|x| to_core(*x))
                    .collect();
                (from_core(core_many(&data)), n)
            }
        }
    }
    let (h, total) = inner(bytecode, lengths, 0);
    assert_eq!(total, bytecode.len());
    h
}

/// The compiled class hash from its parts (spec formula), over starknet-crypto's Poseidon.
fn reference_compiled_hash(v: &Value) -> Felt {
    use starknet_crypto::poseidon_hash_many as core_many;
    let bytecode: Vec<Felt> = v["bytecode"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| felt(x.as_str().unwrap()))
        .collect();
    let bytecode_hash = match v.get("bytecode_segment_lengths") {
        Some(l) if !l.is_null() => reference_bytecode_hash(&bytecode, l),
        _ => from_core(core_many(
            &bytecode.iter().map(|x| to_core(*x)).collect::<Vec<_>>(),
        )),
    };
    let eps = |kind: &str| {
        let mut flat = Vec::new();
        for e in v["entry_points_by_type"][kind].as_array().unwrap() {
            flat.push(to_core(felt(e["selector"].as_str().unwrap())));
            flat.push(starknet_core::types::Felt::from(
                e["offset"].as_u64().unwrap(),
            ));
            let names: Vec<_> = e["builtins"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    starknet_core::utils::cairo_short_string_to_felt(b.as_str().unwrap()).unwrap()
                })
                .collect();
            flat.push(core_many(&names));
        }
        core_many(&flat)
    };
    let parts = [
        starknet_core::utils::cairo_short_string_to_felt("COMPILED_CLASS_V1").unwrap(),
        eps("EXTERNAL"),
        eps("L1_HANDLER"),
        eps("CONSTRUCTOR"),
        to_core(bytecode_hash),
    ];
    from_core(core_many(&parts))
}

fn is_flat(lengths: &Value) -> bool {
    match lengths {
        Value::Array(items) => items.iter().all(|x| !x.is_array()),
        _ => true,
    }
}

/// Sets `bytecode_segment_lengths` on the ERC-20 CASM class and compares with starknet-core
/// (flat lists) and with the cairo-lang transliteration (all).
#[test]
fn segmented_bytecode_matches_references() {
    let base: Value =
        serde_json::from_str(&class_file("erc20.compiled_contract_class.json")).unwrap();
    let n = base["bytecode"].as_array().unwrap().len() as u64;
    assert_eq!(
        compiled_class_hash(&base.to_string()).unwrap(),
        reference_compiled_hash(&base)
    );
    for lengths in [
        json!(n),
        json!([n]),
        json!([n - 1, 1]),
        json!([100, 200, 300, n - 600]),
        json!([100, [200, 300], n - 600]),
        json!([[1, [2, 3]], [[4]], n - 10]),
    ] {
        let mut v = base.clone();
        v["bytecode_segment_lengths"] = lengths.clone();
        let json = v.to_string();
        let ours = compiled_class_hash(&json).unwrap();
        assert_eq!(ours, reference_compiled_hash(&v), "{lengths}");
        if is_flat(&lengths) {
            let core: CompiledClass = serde_json::from_str(&json).unwrap();
            assert_eq!(ours, from_core(core.class_hash().unwrap()), "{lengths}");
        }
    }
    // Segmentation changes the hash; `null` is the same as none.
    let mut seg = base.clone();
    seg["bytecode_segment_lengths"] = json!([n]);
    assert_ne!(
        compiled_class_hash(&seg.to_string()).unwrap(),
        compiled_class_hash(&base.to_string()).unwrap()
    );
    let mut v = base.clone();
    v["bytecode_segment_lengths"] = Value::Null;
    assert_eq!(
        compiled_class_hash(&v.to_string()).unwrap(),
        compiled_class_hash(&base.to_string()).unwrap()
    );
}

/// A Sierra class whose ABI has non-ASCII and escaped characters: the ABI array and the string
/// CPython's `json.dumps` makes of it give the same hash, equal to starknet-core's hash of the
/// flattened class carrying that string.
#[test]
fn abi_array_and_cpython_string_agree() {
    let abi_array = json!([
        {"type": "function", "name": "grüße", "inputs": [{"name": "x", "type": "core::felt252"}],
         "outputs": [], "state_mutability": "external"},
        {"type": "event", "name": "ev\u{2603}😀\"q\\", "kind": "enum", "variants": []}
    ]);
    // Produced by CPython 3: json.dumps(abi) for the array above.
    let cpython = r#"[{"type": "function", "name": "gr\u00fc\u00dfe", "inputs": [{"name": "x", "type": "core::felt252"}], "outputs": [], "state_mutability": "external"}, {"type": "event", "name": "ev\u2603\ud83d\ude00\"q\\", "kind": "enum", "variants": []}]"#;
    let class = |abi: Value| {
        json!({
            "sierra_program": ["0x1", "0x2", "0x3"],
            "contract_class_version": "0.1.0",
            "entry_points_by_type": {
                "EXTERNAL": [{"selector": "0x5", "function_idx": 0}],
                "L1_HANDLER": [],
                "CONSTRUCTOR": [{"selector": "0x28ffe4ff0f226a9107253e17a904099aa4f63a02a5621de0576e5aa71bc5194", "function_idx": 1}]
            },
            "abi": abi
        })
        .to_string()
    };
    let from_array = sierra_class_hash(&class(abi_array)).unwrap();
    let from_string = sierra_class_hash(&class(Value::String(cpython.into()))).unwrap();
    assert_eq!(from_array, from_string);

    let flat = FlattenedSierraClass {
        sierra_program: [1u64, 2, 3].map(starknet_core::types::Felt::from).to_vec(),
        contract_class_version: "0.1.0".into(),
        entry_points_by_type: EntryPointsByType {
            constructor: vec![SierraEntryPoint {
                selector: to_core(felt(
                    "0x28ffe4ff0f226a9107253e17a904099aa4f63a02a5621de0576e5aa71bc5194",
                )),
                function_idx: 1,
            }],
            external: vec![SierraEntryPoint {
                selector: starknet_core::types::Felt::from(5u64),
                function_idx: 0,
            }],
            l1_handler: vec![],
        },
        abi: cpython.into(),
    };
    assert_eq!(from_core(flat.class_hash()), from_array);

    // A different ABI string changes the hash (the ABI is committed to).
    let other = sierra_class_hash(&class(Value::String(format!("{cpython} ")))).unwrap();
    assert_ne!(other, from_array);
}

fn arb_felt() -> impl Strategy<Value = Felt> {
    prop_oneof![
        Just(Felt::ZERO),
        Just(Felt::ONE),
        Just(Felt::ZERO - Felt::ONE),
        Just(felt(
            "0x7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
        )),
        Just(felt(
            "0x800000000000000ffffffffffffffffffffffffffffffffffffffffffffffff"
        )),
        any::<u64>().prop_map(Felt::from),
        any::<[u8; 32]>().prop_map(|b| Felt::from_bytes_be_reduced(&b)),
    ]
}

fn arb_sierra_entries() -> impl Strategy<Value = Vec<(Felt, u64)>> {
    prop::collection::vec((arb_felt(), any::<u64>()), 0..4)
}

fn core_entries(v: &[(Felt, u64)]) -> Vec<SierraEntryPoint> {
    v.iter()
        .map(|(s, i)| SierraEntryPoint {
            selector: to_core(*s),
            function_idx: *i,
        })
        .collect()
}

fn arb_builtin() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("pedersen".to_string()),
        Just("range_check".to_string()),
        Just(String::new()),
        "[ -~]{0,31}",
    ]
}

/// A nested `bytecode_segment_lengths` with positive lengths, and its total.
fn arb_lengths() -> impl Strategy<Value = Value> {
    let leaf = (1u64..6).prop_map(Value::from);
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop::collection::vec(inner, 1..4).prop_map(Value::Array)
    })
}

fn total(v: &Value) -> u64 {
    match v {
        Value::Array(items) => items.iter().map(total).sum(),
        v => v.as_u64().unwrap(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random flattened Sierra classes (felt edge values, any ABI string) against starknet-core.
    #[test]
    fn sierra_random_classes_match_starknet_core(
        program in prop::collection::vec(arb_felt(), 0..40),
        external in arb_sierra_entries(),
        l1 in arb_sierra_entries(),
        ctor in arb_sierra_entries(),
        abi in any::<String>(),
    ) {
        let flat = FlattenedSierraClass {
            sierra_program: program.iter().map(|x| to_core(*x)).collect(),
            contract_class_version: "0.1.0".into(),
            entry_points_by_type: EntryPointsByType {
                constructor: core_entries(&ctor),
                external: core_entries(&external),
                l1_handler: core_entries(&l1),
            },
            abi,
        };
        let json = serde_json::to_string(&flat).unwrap();
        prop_assert_eq!(sierra_class_hash(&json).unwrap(), from_core(flat.class_hash()));
        prop_assert_eq!(class_hash(&json).unwrap(), (ClassKind::Sierra, from_core(flat.class_hash())));
    }

    /// Random CASM classes, with and without nested segment lengths, against the cairo-lang
    /// transliteration and (without nesting) starknet-core.
    #[test]
    fn compiled_random_classes_match_references(
        lengths in prop::option::of(arb_lengths()),
        pad in 0usize..5,
        seed_felts in prop::collection::vec(arb_felt(), 40),
        entries in prop::collection::vec(
            (arb_felt(), any::<u64>(), prop::collection::vec(arb_builtin(), 0..4)), 0..4),
    ) {
        let len = match &lengths { Some(l) => total(l) as usize, None => pad * 7 };
        let bytecode: Vec<String> =
            seed_felts.iter().cycle().take(len).map(|x| x.to_string()).collect();
        let eps: Vec<Value> = entries.iter().map(|(s, o, b)| json!({
            "selector": s.to_string(), "offset": o, "builtins": b,
        })).collect();
        let mut v = json!({
            "prime": P_HEX,
            "compiler_version": "2.6.0",
            "bytecode": bytecode,
            "hints": [],
            "entry_points_by_type": {
                "EXTERNAL": eps, "L1_HANDLER": [], "CONSTRUCTOR": eps.iter().rev().cloned().collect::<Vec<_>>(),
            },
        });
        if let Some(l) = &lengths {
            v["bytecode_segment_lengths"] = l.clone();
        }
        let json = v.to_string();
        let want = reference_compiled_hash(&v);
        prop_assert_eq!(compiled_class_hash(&json).unwrap(), want);
        prop_assert_eq!(class_hash(&json).unwrap(), (ClassKind::Compiled, want));
        if lengths.as_ref().is_none_or(is_flat) {
            let core: CompiledClass = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(want, from_core(core.class_hash().unwrap()));
        }
    }

    /// Truncated or byte-mutated inputs never panic (they hash or return an error).
    #[test]
    fn mutated_inputs_never_panic(cut in 0usize..600, pos in 0usize..600, byte in any::<u8>()) {
        let base = class_file("trivial.contract_class.json");
        let mut bytes = base.into_bytes();
        let p = pos % bytes.len();
        bytes[p] = byte;
        bytes.truncate(cut.min(bytes.len()));
        let s = String::from_utf8_lossy(&bytes);
        let _ = sierra_class_hash(&s);
        let _ = compiled_class_hash(&s);
        let _ = class_hash(&s);
    }
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

fn trivial() -> Value {
    serde_json::from_str(&class_file("trivial.contract_class.json")).unwrap()
}

/// A small Sierra class with one entry point in each list.
fn small_sierra() -> Value {
    json!({
        "sierra_program": ["0x1", "0x2", "0x3", "0x4", "0x5", "0x6"],
        "contract_class_version": "0.1.0",
        "entry_points_by_type": {
            "EXTERNAL": [{"selector": "0x10", "function_idx": 0}],
            "L1_HANDLER": [{"selector": "0x11", "function_idx": 1}],
            "CONSTRUCTOR": [{"selector": "0x12", "function_idx": 2}]
        },
        "abi": "[]"
    })
}

fn small_casm() -> Value {
    json!({
        "prime": P_HEX,
        "compiler_version": "2.6.0",
        "bytecode": ["0x1", "0x2", "0x3", "0x4", "0x5", "0x6", "0x7", "0x8"],
        "hints": [],
        "entry_points_by_type": {
            "EXTERNAL": [{"selector": "0x10", "offset": 0, "builtins": ["range_check"]}],
            "L1_HANDLER": [],
            "CONSTRUCTOR": []
        }
    })
}

fn sierra_err(v: &Value) -> ClassHashError {
    sierra_class_hash(&v.to_string()).unwrap_err()
}

fn casm_err(v: &Value) -> ClassHashError {
    compiled_class_hash(&v.to_string()).unwrap_err()
}

#[test]
fn small_classes_hash() {
    // Sanity: the fixtures used below are valid.
    assert!(sierra_class_hash(&small_sierra().to_string()).is_ok());
    assert!(compiled_class_hash(&small_casm().to_string()).is_ok());
}

#[test]
fn invalid_json_reports_line_and_column() {
    let e = sierra_class_hash("{\n  \"sierra_program\": [\"0x1\",]\n}").unwrap_err();
    match &e {
        ClassHashError::InvalidJson { line, column, .. } => {
            assert_eq!(*line, 2);
            assert!(*column > 0);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(e.to_string().starts_with("invalid JSON"), "{e}");
    assert!(e.to_string().contains("line 2"), "{e}");

    for text in [
        "",
        "{",
        "nul",
        "{\"x\": [1, 2",
        "{\"a\": }",
        "{\"abi\": [1,]}",
    ] {
        assert!(
            matches!(
                sierra_class_hash(text),
                Err(ClassHashError::InvalidJson { .. })
            ),
            "{text:?}"
        );
        assert!(matches!(
            class_hash(text),
            Err(ClassHashError::InvalidJson { .. })
        ));
    }
    // Trailing characters after a valid class.
    let text = format!("{} x", small_sierra());
    assert!(matches!(
        sierra_class_hash(&text),
        Err(ClassHashError::InvalidJson { .. })
    ));
    // Nesting far deeper than serde_json's limit: an error, not a stack overflow.
    let mut v = small_casm();
    v["bytecode_segment_lengths"] = Value::Null;
    let deep = format!("{}8{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = v.to_string().replace(
        "\"bytecode_segment_lengths\":null",
        &format!("\"bytecode_segment_lengths\":{deep}"),
    );
    assert!(matches!(
        compiled_class_hash(&text),
        Err(ClassHashError::InvalidJson { .. })
    ));
}

fn assert_missing(e: ClassHashError, want: &str) {
    match &e {
        ClassHashError::MissingField { field, .. } => assert_eq!(field, want),
        other => panic!("expected missing {want}, got {other:?}"),
    }
    assert!(
        e.to_string().contains(&format!("missing field `{want}`")),
        "{e}"
    );
}

#[test]
fn missing_fields_are_named() {
    for key in [
        "sierra_program",
        "contract_class_version",
        "entry_points_by_type",
        "abi",
    ] {
        let mut v = small_sierra();
        v.as_object_mut().unwrap().remove(key);
        assert_missing(sierra_err(&v), key);
        // Detect mode still recognises the class and names the same field.
        if key != "sierra_program" {
            assert_missing(class_hash(&v.to_string()).unwrap_err(), key);
        }
    }
    for kind in ["EXTERNAL", "L1_HANDLER", "CONSTRUCTOR"] {
        let mut v = small_sierra();
        v["entry_points_by_type"]
            .as_object_mut()
            .unwrap()
            .remove(kind);
        let e = sierra_err(&v);
        assert!(
            matches!(
                &e,
                ClassHashError::MissingField {
                    position: Some(_),
                    ..
                }
            ),
            "{e:?}"
        );
        assert_missing(e, &format!("entry_points_by_type.{kind}"));
    }
    for key in ["selector", "function_idx"] {
        let mut v = small_sierra();
        v["entry_points_by_type"]["L1_HANDLER"][0]
            .as_object_mut()
            .unwrap()
            .remove(key);
        assert_missing(
            sierra_err(&v),
            &format!("entry_points_by_type.L1_HANDLER[0].{key}"),
        );
        assert_missing(
            class_hash(&v.to_string()).unwrap_err(),
            &format!("entry_points_by_type.L1_HANDLER[0].{key}"),
        );
    }
    for key in ["bytecode", "entry_points_by_type"] {
        let mut v = small_casm();
        v.as_object_mut().unwrap().remove(key);
        assert_missing(casm_err(&v), key);
    }
    for key in ["selector", "offset", "builtins"] {
        let mut v = small_casm();
        v["entry_points_by_type"]["EXTERNAL"][0]
            .as_object_mut()
            .unwrap()
            .remove(key);
        assert_missing(
            casm_err(&v),
            &format!("entry_points_by_type.EXTERNAL[0].{key}"),
        );
        assert_missing(
            class_hash(&v.to_string()).unwrap_err(),
            &format!("entry_points_by_type.EXTERNAL[0].{key}"),
        );
    }
}

/// An edit of a valid class, the field it breaks and the JSON kind found there.
type WrongTypeCase = (fn(&mut Value), &'static str, &'static str);

/// A bad felt string and a check of the felt error it must give.
type BadFeltCase = (String, fn(&FeltError) -> bool);

fn assert_wrong_type(e: ClassHashError, want_field: &str, want_found: &str) {
    match &e {
        ClassHashError::WrongType {
            field,
            found,
            position,
            ..
        } => {
            assert_eq!(field, want_field);
            assert_eq!(*found, want_found);
            assert!(position.is_some());
        }
        other => panic!("expected wrong type at {want_field}, got {other:?}"),
    }
}

#[test]
fn wrong_types_are_named() {
    let cases: Vec<WrongTypeCase> = vec![
        (
            |v| v["sierra_program"] = json!("0x1"),
            "sierra_program",
            "a string",
        ),
        (
            |v| v["sierra_program"][3] = json!(4),
            "sierra_program[3]",
            "a number",
        ),
        (
            |v| v["sierra_program"][0] = json!(null),
            "sierra_program[0]",
            "null",
        ),
        (|v| v["abi"] = json!(5), "abi", "a number"),
        (|v| v["abi"] = json!({"a": 1}), "abi", "an object"),
        (
            |v| v["contract_class_version"] = json!(1),
            "contract_class_version",
            "a number",
        ),
        (
            |v| v["entry_points_by_type"] = json!([]),
            "entry_points_by_type",
            "an array",
        ),
        (
            |v| v["entry_points_by_type"]["EXTERNAL"] = json!({}),
            "entry_points_by_type.EXTERNAL",
            "an object",
        ),
        (
            |v| v["entry_points_by_type"]["EXTERNAL"][0] = json!("x"),
            "entry_points_by_type.EXTERNAL[0]",
            "a string",
        ),
        (
            |v| v["entry_points_by_type"]["CONSTRUCTOR"][0]["selector"] = json!(18),
            "entry_points_by_type.CONSTRUCTOR[0].selector",
            "a number",
        ),
        (
            |v| v["entry_points_by_type"]["CONSTRUCTOR"][0]["function_idx"] = json!("0x2"),
            "entry_points_by_type.CONSTRUCTOR[0].function_idx",
            "a string",
        ),
        (
            |v| v["entry_points_by_type"]["CONSTRUCTOR"][0]["function_idx"] = json!(true),
            "entry_points_by_type.CONSTRUCTOR[0].function_idx",
            "a boolean",
        ),
    ];
    for (edit, field, found) in cases {
        let mut v = small_sierra();
        edit(&mut v);
        let e = sierra_err(&v);
        assert!(e.to_string().contains(&format!("`{field}`")), "{e}");
        assert_wrong_type(e, field, found);
    }
    // Top level.
    let e = sierra_class_hash("[1, 2]").unwrap_err();
    assert!(e.to_string().contains("the top-level value"), "{e}");
    assert_wrong_type(e, "", "an array");
    assert_wrong_type(class_hash("\"x\"").unwrap_err(), "", "a string");

    let cases: Vec<WrongTypeCase> = vec![
        (|v| v["bytecode"] = json!({}), "bytecode", "an object"),
        (
            |v| v["bytecode"][7] = json!(false),
            "bytecode[7]",
            "a boolean",
        ),
        (
            |v| v["entry_points_by_type"]["EXTERNAL"][0]["builtins"] = json!("range_check"),
            "entry_points_by_type.EXTERNAL[0].builtins",
            "a string",
        ),
        (
            |v| v["entry_points_by_type"]["EXTERNAL"][0]["builtins"][0] = json!(3),
            "entry_points_by_type.EXTERNAL[0].builtins[0]",
            "a number",
        ),
        (
            |v| v["entry_points_by_type"]["EXTERNAL"][0]["offset"] = json!("0x0"),
            "entry_points_by_type.EXTERNAL[0].offset",
            "a string",
        ),
        (
            |v| v["bytecode_segment_lengths"] = json!("8"),
            "bytecode_segment_lengths",
            "a string",
        ),
        (
            |v| v["bytecode_segment_lengths"] = json!([4, [null]]),
            "bytecode_segment_lengths[1][0]",
            "null",
        ),
    ];
    for (edit, field, found) in cases {
        let mut v = small_casm();
        edit(&mut v);
        assert_wrong_type(casm_err(&v), field, found);
        assert_wrong_type(class_hash(&v.to_string()).unwrap_err(), field, found);
    }
}

#[test]
fn bad_felts_name_field_and_index() {
    let p_plus_1 = "0x800000000000011000000000000000000000000000000000000000000000002";
    let too_long = format!("0x{}", "0".repeat(65));
    let cases: Vec<BadFeltCase> = vec![
        (P_HEX.into(), |e| {
            matches!(e, FeltError::NotBelowModulus { .. })
        }),
        (p_plus_1.into(), |e| {
            matches!(e, FeltError::NotBelowModulus { .. })
        }),
        (
            "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff".into(),
            |e| matches!(e, FeltError::NotBelowModulus { .. }),
        ),
        ("0x12g4".into(), |e| {
            matches!(e, FeltError::InvalidCharacter { character: 'g', .. })
        }),
        ("0x".into(), |e| matches!(e, FeltError::Empty { .. })),
        (too_long, |e| matches!(e, FeltError::TooLong { .. })),
    ];
    for (bad, check) in &cases {
        let mut v = small_sierra();
        v["sierra_program"][5] = json!(bad);
        match sierra_err(&v) {
            ClassHashError::InvalidFelt {
                field,
                source,
                position,
            } => {
                assert_eq!(field, "sierra_program[5]");
                assert!(check(&source), "{bad}: {source:?}");
                assert!(position.is_some());
            }
            other => panic!("{bad}: {other:?}"),
        }

        let mut v = small_sierra();
        v["entry_points_by_type"]["EXTERNAL"][0]["selector"] = json!(bad);
        let e = sierra_err(&v);
        assert!(
            e.to_string()
                .contains("`entry_points_by_type.EXTERNAL[0].selector`"),
            "{e}"
        );
        assert!(matches!(e, ClassHashError::InvalidFelt { .. }));

        let mut v = small_casm();
        v["bytecode"][2] = json!(bad);
        match casm_err(&v) {
            ClassHashError::InvalidFelt { field, .. } => assert_eq!(field, "bytecode[2]"),
            other => panic!("{bad}: {other:?}"),
        }
    }
    // p - 1 is fine.
    let mut v = small_sierra();
    v["sierra_program"][5] =
        json!("0x800000000000011000000000000000000000000000000000000000000000000");
    assert!(sierra_class_hash(&v.to_string()).is_ok());
    // Felts must be 0x-prefixed hex (a bare "12" would be decimal for Python's int(x, 0)).
    for bad in ["12", "", "x1"] {
        let mut v = small_sierra();
        v["sierra_program"][1] = json!(bad);
        match sierra_err(&v) {
            ClassHashError::InvalidValue { field, .. } => assert_eq!(field, "sierra_program[1]"),
            other => panic!("{bad}: {other:?}"),
        }
    }
    // Upper-case prefix and digits are accepted and mean the same value.
    let mut upper = small_sierra();
    upper["sierra_program"][0] = json!("0X1");
    upper["entry_points_by_type"]["EXTERNAL"][0]["selector"] = json!("0x0010");
    assert_eq!(
        sierra_class_hash(&upper.to_string()).unwrap(),
        sierra_class_hash(&small_sierra().to_string()).unwrap()
    );
}

fn assert_invalid_value(e: ClassHashError, want_field: &str) {
    match &e {
        ClassHashError::InvalidValue { field, .. } => assert_eq!(field, want_field),
        other => panic!("expected invalid value at {want_field}, got {other:?}"),
    }
}

#[test]
fn invalid_values_are_named() {
    let mut v = small_sierra();
    v["contract_class_version"] = json!("0.2.0");
    assert_invalid_value(sierra_err(&v), "contract_class_version");

    let mut v = small_sierra();
    v["entry_points_by_type"]["EXTERNAL"][0]["function_idx"] = json!(-1);
    assert_invalid_value(
        sierra_err(&v),
        "entry_points_by_type.EXTERNAL[0].function_idx",
    );
    let mut v = small_sierra();
    v["entry_points_by_type"]["EXTERNAL"][0]["function_idx"] = json!(1.5);
    assert_invalid_value(
        sierra_err(&v),
        "entry_points_by_type.EXTERNAL[0].function_idx",
    );
    // Beyond u64: serde_json reads it as a float.
    let text = small_sierra().to_string().replace(
        "\"function_idx\":0",
        "\"function_idx\":18446744073709551616",
    );
    assert_invalid_value(
        sierra_class_hash(&text).unwrap_err(),
        "entry_points_by_type.EXTERNAL[0].function_idx",
    );

    let mut v = small_casm();
    v["entry_points_by_type"]["EXTERNAL"][0]["offset"] = json!(-3);
    assert_invalid_value(casm_err(&v), "entry_points_by_type.EXTERNAL[0].offset");
    for bad in ["x".repeat(32), "bü".to_string()] {
        let mut v = small_casm();
        v["entry_points_by_type"]["EXTERNAL"][0]["builtins"] = json!(["pedersen", bad]);
        let e = casm_err(&v);
        assert!(e.to_string().contains("short string"), "{e}");
        assert_invalid_value(e, "entry_points_by_type.EXTERNAL[0].builtins[1]");
    }
    let mut v = small_casm();
    v["bytecode_segment_lengths"] = json!([4, -4]);
    assert_invalid_value(casm_err(&v), "bytecode_segment_lengths[1]");
}

#[test]
fn duplicate_fields_are_errors() {
    let text = small_sierra()
        .to_string()
        .replacen("{", "{\"abi\":\"[]\",", 1);
    match sierra_class_hash(&text).unwrap_err() {
        ClassHashError::DuplicateField { field, .. } => assert_eq!(field, "abi"),
        other => panic!("{other:?}"),
    }
    let text = small_sierra().to_string().replace(
        "\"function_idx\":0",
        "\"function_idx\":0,\"function_idx\":0",
    );
    match sierra_class_hash(&text).unwrap_err() {
        ClassHashError::DuplicateField { field, .. } => {
            assert_eq!(field, "entry_points_by_type.EXTERNAL[0].function_idx")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn segment_length_errors() {
    for lengths in [
        json!(7),
        json!(9),
        json!([4, 3]),
        json!([4, [2, 3]]),
        json!([]),
    ] {
        let mut v = small_casm();
        v["bytecode_segment_lengths"] = lengths.clone();
        let e = casm_err(&v);
        assert!(
            matches!(e, ClassHashError::InvalidSegmentLengths { .. }),
            "{lengths}: {e:?}"
        );
    }
    for lengths in [json!([4, 0, 4]), json!([4, [], 4]), json!([[0], 8])] {
        let mut v = small_casm();
        v["bytecode_segment_lengths"] = lengths.clone();
        let e = casm_err(&v);
        assert!(e.to_string().contains("empty"), "{lengths}: {e}");
    }
    // Lengths near u64::MAX do not overflow.
    let mut v = small_casm();
    v["bytecode_segment_lengths"] = json!([u64::MAX, u64::MAX]);
    assert!(matches!(
        casm_err(&v),
        ClassHashError::InvalidSegmentLengths { .. }
    ));
    // An empty bytecode with an empty top-level list or a 0 is valid.
    for lengths in [json!([]), json!(0)] {
        let mut v = small_casm();
        v["bytecode"] = json!([]);
        v["bytecode_segment_lengths"] = lengths;
        let json = v.to_string();
        let core: CompiledClass = serde_json::from_str(&json).unwrap();
        assert_eq!(
            compiled_class_hash(&json).unwrap(),
            from_core(core.class_hash().unwrap())
        );
    }
}

#[test]
fn class_kind_detection() {
    let mut both = small_sierra();
    both["bytecode"] = json!(["0x1"]);
    assert!(matches!(
        class_hash(&both.to_string()),
        Err(ClassHashError::UnknownClassKind { .. })
    ));
    // The explicit functions ignore the other kind's fields.
    assert!(sierra_class_hash(&both.to_string()).is_ok());

    // A document with `program` is a Cairo 0 class: hashed as one, so this one lacks a field.
    let e = class_hash(r#"{"program": {}, "abi": []}"#).unwrap_err();
    assert!(e.to_string().contains("entry_points_by_type"), "{e}");
    let e = class_hash(r#"{"abi": []}"#).unwrap_err();
    assert!(matches!(e, ClassHashError::UnknownClassKind { .. }));

    // Extra and unknown fields are ignored.
    let mut v = trivial();
    v["something_else"] = json!({"nested": [1, 2, {"x": null}]});
    assert_eq!(
        class_hash(&v.to_string()).unwrap(),
        class_hash(&trivial().to_string()).unwrap()
    );
}

#[test]
fn errors_are_std_errors_with_sources() {
    let mut v = small_sierra();
    v["sierra_program"][0] = json!(P_HEX);
    let e = sierra_err(&v);
    let dynerr: &dyn std::error::Error = &e;
    assert!(dynerr.source().is_some());
    assert!(e.to_string().contains("line 1"), "{e}");
}
