//! Compiled class hashes v2 (Blake2s, Starknet 0.14.1) of published classes, and v1 beside
//! them; sources in tests/data/casm/README.md.

use starkbatch::class_hash::{
    ClassKind, class_hash, compiled_class_hash, compiled_class_hash_v2, compiled_class_hashes,
};

fn casm(name: &str) -> String {
    let path = format!("{}/tests/data/casm/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// (file, published v1 if any, published v2).
const VECTORS: &[(&str, Option<&str>, &str)] = &[
    (
        "starknetpy_minimal_contract_compiled_v2_1.casm.json",
        Some("0x186f6c4ca3af40dbcbf3f08f828ab0ee072938aaaedccc74ef3b9840cbd9fb3"),
        "0x195cfeec43b384e0f0ec83937149a1a4d88571772b2806ed7e4f41a1ecb4c74",
    ),
    (
        "starknetpy_minimal_contract_compiled_v2_5_4.casm.json",
        Some("0x1d055a90aa90db474fa08a931d5e63753c6f762fa3e9597b26c8d4b003a2de6"),
        "0x5ac03c50c46fc7b374d4e11d15693ae0d21e13f61c1704700294d1f378980f7",
    ),
    (
        "starknetpy_starknet_contract_v2_6.casm.json",
        Some("0x603dd72504d8b0bc54df4f1102fdcf87fc3b2b94750a9083a5876913eec08e4"),
        "0xf8c27dd667e50ba127e5e0e469381606ffece27d8c5148548b6bbc4cacf717",
    ),
    (
        "starknet_rs_cairo2_6_trivial.casm.json",
        Some("0x317d3ac2cf840e487b6d0014a75f0cf507dff0bc143c710388e323487089bfa"),
        "0x6ee46561691e785d643a8296b9bf08008e432df405a1a4beb6ed784541b571c",
    ),
    (
        "starknet_rs_cairo2_6_erc20.casm.json",
        Some("0x5adc857416202a5902c01168542e188c3aa6380f57c911ae98cf20bc52be367"),
        "0x2b58f66af5fb4a7786d0421ac013dce33787d8b48eaa96a5fac5ddb8e518216",
    ),
    (
        "sequencer_erc20.casm.json",
        Some("0x266f53b3f6cc2367c334b75ea86aff748ca27aa321019778af81be69d549159"),
        "0x75a59a0cd1985dd66a3fd9d634f0e0287916cd8e0fff3f2bd80d69498b09367",
    ),
    (
        "sequencer_apollo_storage_openzeppelin_account.casm.json",
        None,
        "0x26e3f2fc41569e5db5be048a6b020b87fe45a00ae74b302f8ba83b4653feb61",
    ),
];

#[test]
fn published_v2_and_v1_hashes() {
    for (name, v1, v2) in VECTORS {
        let json = casm(name);
        assert_eq!(
            compiled_class_hash_v2(&json).unwrap().to_string(),
            *v2,
            "{name} v2"
        );
        let both = compiled_class_hashes(&json).unwrap();
        assert_eq!(both.v2.to_string(), *v2, "{name} v2 (both)");
        assert_eq!(
            both.v1,
            compiled_class_hash(&json).unwrap(),
            "{name} v1 (both)"
        );
        if let Some(v1) = v1 {
            assert_eq!(both.v1.to_string(), *v1, "{name} v1");
        }
        assert_eq!(class_hash(&json).unwrap(), (ClassKind::Compiled, both.v1));
    }
}

/// v2 on every backend: the segment leaves go through the batch kernels, so each backend
/// (forced through STARKBATCH_BACKEND in scripts/cross-test.sh) must give the published value.
#[test]
fn v2_is_the_same_with_every_thread_count() {
    let json = casm("sequencer_erc20.casm.json");
    let want = "0x75a59a0cd1985dd66a3fd9d634f0e0287916cd8e0fff3f2bd80d69498b09367";
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let got = pool.install(|| compiled_class_hash_v2(&json).unwrap());
        assert_eq!(got.to_string(), want, "{threads} threads");
    }
}

#[test]
fn bad_input_is_an_error_naming_the_path() {
    let json = casm("starknetpy_minimal_contract_compiled_v2_1.casm.json");
    let broken = json.replacen("\"selector\": \"0x", "\"selector\": \"0xzz", 1);
    if broken != json {
        let e = compiled_class_hash_v2(&broken).unwrap_err().to_string();
        assert!(e.contains("selector"), "{e}");
    }
    for cut in [0, 1, json.len() / 3, json.len() - 1] {
        assert!(
            compiled_class_hash_v2(&json[..cut]).is_err(),
            "truncated at {cut}"
        );
    }
}
