//! Cairo 0 (legacy) class hashes: published hashes of real classes (sources in
//! tests/data/cairo0/README.md), starknet-core's `LegacyContractClass::class_hash` on classes
//! it handles and on edited copies, and errors for bad input.

use starkbatch::class_hash::{ClassHashes, ClassKind, class_hash, class_hashes, legacy_class_hash};
use starknet_core::types::contract::legacy::LegacyContractClass;

fn class(name: &str) -> String {
    let path = format!("{}/tests/data/cairo0/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const PUBLISHED: &[(&str, &str)] = &[
    (
        "starknet-rs_oz_account.json",
        "0x4fda56652f3dfe9c59904dd0fdc0fa5965b1e560e1641a06e132fdf90a96424",
    ),
    (
        "starknet-rs_emoji.json",
        "0x35c753cbb572d7d0cbd6f725e4bc5f631d82003f3ac743160705b9ecd1befa7",
    ),
    (
        "starknet-rs_deployable.json",
        "0x24997ddda762743e224af8e71c69db5e04a26749bb35cc1cd930e086add000f",
    ),
    (
        "starknet-rs_event_example.json",
        "0x56fcc016a8ef4bd6310fa95de87c479a086fa1bf1934148c2bdf3b4cdbe4ac5",
    ),
    (
        "starknet-rs_pre-0.11.0_event_example.json",
        "0x1b6c687248594cc8b50568b17b70dd1e6626003ae2ef123b2ee587d6e595726",
    ),
    (
        "starknet-rs_pre-0.10.0_braavos_proxy.json",
        "0x3131fa018d520a037686ce3efddeab8f28895662f019ca3ca18a626650f7d1e",
    ),
    (
        "starknet-rust_pre-0.10.0_0x371b5f.json",
        "0x371b5f7c5517d84205365a87f02dcef230efa7b4dd91a9e4ba7e04c5b69d69b",
    ),
    (
        "starknet-rust_pre-0.10.0_0x6dc10e.json",
        "0x6dc10e7703c1b63e0b5a4e8e7842293d3255fd4e53d4e730adf435c3dffabb",
    ),
    (
        "starknet-rust_pre-0.10.0_0xa0cb53.json",
        "0xa0cb53aaa37a4d377736e7e98c1a96b5168d75e3705f30fb09e6d2cbd7d5e3",
    ),
    (
        "pathfinder_goerli-genesis.json",
        "0x10455c752b86932ce552f2b0fe81a880746649b9aee7e0d842bf3f52378f9f8",
    ),
    (
        "pathfinder_contract_definition.json",
        "0x50b2148c0d782914e0b12a1a32abe5e398930b7e914f82c65cb7afce0a0ab9b",
    ),
    (
        "pathfinder_cairo-0.8-new-attributes.json",
        "0x56b96c1d1bbfa01af44b465763d1b71150fa00c6c9d54c3947f57e979ff68c3",
    ),
    (
        "pathfinder_cairo-0.10-tuples-goerli.json",
        "0x66af14b94491ba4e2aea1117acf0a3155c53d92fdfd9c1f1dcac90dc2d30157",
    ),
    (
        "pathfinder_cairo-0.11.0-decimal-entry-point-offset.json",
        "0x484c163658bcce5f9916f486171ac60143a92897533aa7ff7ac800b16c63311",
    ),
    (
        "pathfinder_dummy_account.json",
        "0x791563da22895f1e398b689866718346106c0cc71207a4ada68e6687ce1badf",
    ),
];

#[test]
fn published_class_hashes() {
    for (name, want) in PUBLISHED {
        let json = class(name);
        assert_eq!(
            legacy_class_hash(&json).unwrap().to_string(),
            *want,
            "{name}"
        );
        let (kind, h) = class_hash(&json).unwrap();
        assert_eq!(
            (kind, h.to_string().as_str()),
            (ClassKind::Legacy, *want),
            "{name}"
        );
        assert!(
            matches!(class_hashes(&json).unwrap(), ClassHashes::Legacy(h) if h.to_string() == *want)
        );
    }
}

fn starknet_core(json: &str) -> String {
    let c: LegacyContractClass = serde_json::from_str(json).unwrap();
    format!("{:#x}", c.class_hash().unwrap())
}

/// Classes starknet-core hashes correctly (compiled by cairo-lang 0.10 and later, ASCII), and
/// edited copies of them: the ABI, a hint, an attribute value, a data felt.
#[test]
fn same_as_starknet_core() {
    for name in [
        "starknet-rs_oz_account.json",
        "starknet-rs_emoji.json",
        "starknet-rs_event_example.json",
        "starknet-rs_pre-0.11.0_event_example.json",
    ] {
        let json = class(name);
        assert_eq!(
            legacy_class_hash(&json).unwrap().to_string(),
            starknet_core(&json),
            "{name}"
        );
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let program = &mut v["program"];
        program["data"][3] = serde_json::json!("0x1234");
        if let Some(a) = program["attributes"].get_mut(0) {
            a["value"] = serde_json::json!("edited \"quoted\" \\ value");
        }
        if let Some(abi) = v["abi"].get_mut(0) {
            abi["name"] = serde_json::json!("renamed");
        }
        let edited = serde_json::to_string(&v).unwrap();
        let ours = legacy_class_hash(&edited).unwrap().to_string();
        assert_ne!(
            ours,
            legacy_class_hash(&json).unwrap().to_string(),
            "{name}"
        );
        assert_eq!(ours, starknet_core(&edited), "{name} (edited)");
    }
}

#[test]
fn bad_input_is_an_error_naming_the_path() {
    let json = class("starknet-rs_event_example.json");
    let json = json.trim_end();
    for cut in [0, 1, json.len() / 2, json.len() - 1] {
        assert!(
            legacy_class_hash(&json[..cut]).is_err(),
            "truncated at {cut}"
        );
    }
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["program"]["data"][2] = serde_json::json!(7);
    let e = legacy_class_hash(&v.to_string()).unwrap_err().to_string();
    assert!(e.contains("program.data[2]"), "{e}");
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["entry_points_by_type"]["CONSTRUCTOR"][0]["offset"] = serde_json::json!(-1);
    let e = legacy_class_hash(&v.to_string()).unwrap_err().to_string();
    assert!(
        e.contains("entry_points_by_type.CONSTRUCTOR[0].offset"),
        "{e}"
    );
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["program"]["builtins"][0] = serde_json::json!("x".repeat(32));
    let e = legacy_class_hash(&v.to_string()).unwrap_err().to_string();
    assert!(e.contains("program.builtins[0]"), "{e}");
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["program"]["data"][0] = serde_json::json!(format!("0x{}", "f".repeat(64)));
    let e = legacy_class_hash(&v.to_string()).unwrap_err().to_string();
    assert!(e.contains("program.data[0]"), "{e}");
}
