//! End-to-end tests of the `starkbatch` command, run through the built binary.
//!
//! Every result is compared with the library function it must equal (never a hard-coded
//! hash, except the published class hashes of `shared/data/classes/erc20.hashes.json`).

use crate::common;

use starkbatch::hash::PairHash;
use starkbatch::merkle::{self, MerkleProof};
use starkbatch::{
    Felt, Pedersen, Poseidon, pedersen_hash, pedersen_hash_array, poseidon_hash,
    poseidon_hash_many, poseidon_hash_single,
};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_starkbatch");

/// p - 1, the largest felt.
const P_MINUS_1: &str = "0x800000000000011000000000000000000000000000000000000000000000000";
/// p itself: not a felt.
const P: &str = "0x800000000000011000000000000000000000000000000000000000000000001";

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_env(args, stdin, &[])
}

fn run_env(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("STARKBATCH_BACKEND");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn starkbatch");
    if let Some(data) = stdin {
        let mut w = child.stdin.take().expect("stdin");
        w.write_all(data).expect("write stdin");
    }
    child.wait_with_output().expect("wait starkbatch")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts success and returns stdout.
fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}, stderr: {}",
        o.status.code(),
        stderr(o)
    );
    stdout(o)
}

/// Asserts exit code 2 and that stderr contains `needle`; returns stderr.
fn bad(o: &Output, needle: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {e}");
    assert!(e.contains(needle), "stderr {e:?} lacks {needle:?}");
    e
}

fn felts_of(out: &str) -> Vec<Felt> {
    out.lines()
        .map(|l| Felt::from_hex(l).unwrap_or_else(|e| panic!("output line {l:?}: {e}")))
        .collect()
}

/// Deterministic values covering edge cases and all limbs.
fn values(n: usize) -> Vec<Felt> {
    let edges = [
        Felt::ZERO,
        Felt::ONE,
        Felt::MAX,
        Felt::from_hex(P_MINUS_1).unwrap(),
        Felt::TWO.pow(251) - Felt::ONE,
        Felt::TWO.pow(64),
        Felt::TWO.pow(192) - Felt::ONE,
    ];
    let mut x = Felt::from(0x1234_5678_9abc_def1u64);
    (0..n)
        .map(|i| {
            if i < edges.len() {
                edges[i]
            } else {
                x = x * x + Felt::from(i as u64);
                x
            }
        })
        .collect()
}

/// Alternates hex and decimal spellings (decimal through the big-integer-free route of the
/// library's own parser: Display is hex, so decimal is produced by num-bigint).
fn spell(f: &Felt, i: usize) -> String {
    if i.is_multiple_of(2) {
        f.to_string()
    } else {
        num_bigint::BigUint::from_bytes_be(&f.to_bytes_be()).to_string()
    }
}

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn shared_data(rel: &str) -> PathBuf {
    common::shared_path(&format!("data/{rel}"))
}

#[test]
fn hash_poseidon_pairs_from_file_across_chunks() {
    let d = dir();
    // More than one 4096-line chunk, with comments, blank lines and CRLF line ends.
    let v = values(2 * 4100 + 2);
    let mut text = String::from("# pairs\n\n");
    let mut want = Vec::new();
    for (i, p) in v.chunks(2).enumerate() {
        text.push_str(&format!("{}\t {}", spell(&p[0], i), spell(&p[1], i + 1)));
        text.push_str(if i % 7 == 0 { "  # note\r\n" } else { "\n" });
        if i % 1000 == 0 {
            text.push_str("   \n# comment\n");
        }
        want.push(poseidon_hash(p[0], p[1]));
    }
    let input = write(d.path(), "pairs.txt", &text);
    let got = felts_of(&ok(&run(
        &["hash", "poseidon", input.to_str().unwrap()],
        None,
    )));
    assert_eq!(got, want);
    // Output is minimal 0x hex, one per line.
    let out = ok(&run(&["hash", "poseidon", input.to_str().unwrap()], None));
    for (line, f) in out.lines().zip(&want) {
        assert_eq!(line, f.to_string());
    }
}

#[test]
fn hash_poseidon_single_and_many_from_stdin() {
    let v = values(300);
    let text: String = v
        .iter()
        .enumerate()
        .map(|(i, f)| spell(f, i) + "\n")
        .collect();
    let got = felts_of(&ok(&run(
        &["hash", "poseidon-single"],
        Some(text.as_bytes()),
    )));
    let want: Vec<Felt> = v.iter().map(|x| poseidon_hash_single(*x)).collect();
    assert_eq!(got, want);

    // Messages of lengths 0..=20 (`-` is the empty message); `-` as FILE means stdin too.
    let mut text = String::new();
    let mut want = Vec::new();
    let mut k = 0;
    for len in (0..=20).chain([1, 2, 3, 0, 64]) {
        let m = &v[k..k + len];
        k = (k + len) % 200;
        if m.is_empty() {
            text.push_str("-\n");
        } else {
            let words: Vec<String> = m.iter().enumerate().map(|(i, f)| spell(f, i)).collect();
            text.push_str(&words.join(" "));
            text.push('\n');
        }
        want.push(poseidon_hash_many(m));
    }
    let got = felts_of(&ok(&run(
        &["hash", "poseidon-many", "-"],
        Some(text.as_bytes()),
    )));
    assert_eq!(got, want);
}

#[test]
fn hash_pedersen_and_pedersen_array() {
    let v = values(24);
    let text: String = v
        .chunks(2)
        .map(|p| format!("{} {}\n", p[0], p[1]))
        .collect();
    let got = felts_of(&ok(&run(&["hash", "pedersen"], Some(text.as_bytes()))));
    let want: Vec<Felt> = v.chunks(2).map(|p| pedersen_hash(&p[0], &p[1])).collect();
    assert_eq!(got, want);

    let mut text = String::from("-\n");
    let mut want = vec![pedersen_hash_array(&[])];
    for len in 1..6 {
        let m = &v[len..2 * len];
        let words: Vec<String> = m.iter().map(|f| f.to_string()).collect();
        text.push_str(&words.join(" "));
        text.push('\n');
        want.push(pedersen_hash_array(m));
    }
    let got = felts_of(&ok(&run(
        &["hash", "pedersen-array"],
        Some(text.as_bytes()),
    )));
    assert_eq!(got, want);
}

#[test]
fn hash_to_output_file_and_empty_input() {
    let d = dir();
    let input = write(d.path(), "in.txt", "1 2\n3 4\n");
    let out = d.path().join("out.txt");
    let o = run(
        &[
            "hash",
            "poseidon",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(ok(&o), "", "nothing on stdout with -o");
    let want = [
        poseidon_hash(Felt::from(1u64), Felt::from(2u64)),
        poseidon_hash(Felt::from(3u64), Felt::from(4u64)),
    ];
    assert_eq!(felts_of(&fs::read_to_string(&out).unwrap()), want);
    assert_eq!(
        entries(d.path()),
        ["in.txt", "out.txt"],
        "no temporary file left"
    );

    // Empty input (or only comments): valid, no output lines.
    for text in ["", "# nothing\n\n  \n"] {
        let o = run(&["hash", "poseidon"], Some(text.as_bytes()));
        assert_eq!(ok(&o), "");
    }
}

#[test]
fn bad_input_names_file_and_line_and_leaves_no_partial_output() {
    let d = dir();
    // A bad value after more than one chunk of good lines: output was already produced for
    // the first chunk when the error is found.
    let mut text = String::new();
    for i in 0..5000u64 {
        text.push_str(&format!("{i} {}\n", i + 1));
    }
    text.push_str(&format!("1 {P}\n"));
    let input = write(d.path(), "input.txt", &text);
    let out = d.path().join("out.txt");
    let args = [
        "hash",
        "poseidon",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let e = bad(&run(&args, None), "input.txt:5001: ");
    assert!(e.contains("not below p"), "{e}");
    assert!(!out.exists(), "no output file after a failure");
    assert_eq!(entries(d.path()), ["input.txt"], "no temporary file left");

    // An existing output file keeps its content when the command fails.
    fs::write(&out, "old\n").unwrap();
    bad(&run(&args, None), "input.txt:5001: ");
    assert_eq!(fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(entries(d.path()), ["input.txt", "out.txt"]);

    // Other mistakes, each with its line number.
    let cases: &[(&str, &str, &str)] = &[
        ("poseidon", "1 2\n\n# c\n0x12g4 5\n", "x.txt:4: "),
        (
            "poseidon",
            "1 2\n3\n",
            "x.txt:2: expected 2 field elements on the line, found 1",
        ),
        (
            "poseidon",
            "1 2 3\n",
            "x.txt:1: expected 2 field elements on the line, found 3",
        ),
        (
            "poseidon-single",
            "1\n2 3\n",
            "x.txt:2: expected 1 field element on the line, found 2",
        ),
        (
            "poseidon-single",
            "-\n",
            "x.txt:1: expected 1 field element on the line, found 0",
        ),
        ("pedersen", "-5 1\n", "x.txt:1: "),
        (
            "poseidon-many",
            "1\n2\n0x1000000000000000000000000000000000000000000000000000000000000000000\n",
            "x.txt:3: ",
        ),
    ];
    for (kind, text, needle) in cases {
        let p = write(d.path(), "x.txt", text);
        let e = bad(&run(&["hash", kind, p.to_str().unwrap()], None), needle);
        assert!(e.contains("x.txt:"), "{e}");
    }
    let e = bad(
        &run(&["hash", "poseidon-single"], Some(b"1\n0x12g4\n")),
        "<stdin>:2: ",
    );
    assert!(e.contains("bad character 'g'"), "{e}");
    bad(
        &run(&["hash", "poseidon-single"], Some(b"1\n\xff\xfe\n")),
        "<stdin>:2: not valid UTF-8",
    );
    bad(
        &run(&["hash", "poseidon", "/nonexistent/in.txt"], None),
        "cannot read /nonexistent/in.txt",
    );
}

#[test]
fn merkle_roots_and_proofs() {
    let d = dir();
    for n in [0usize, 1, 2, 3, 5, 8, 13] {
        let leaves = values(n);
        let text: String = leaves.iter().map(|f| format!("{f}\n")).collect();
        let file = write(d.path(), "leaves.txt", &text);
        let f = file.to_str().unwrap();
        let o = ok(&run(&["merkle", "--hash", "poseidon", f], None));
        assert_eq!(o, format!("root {}\n", merkle::root::<Poseidon>(&leaves)));
        let o = ok(&run(
            &["merkle", "--hash", "pedersen"],
            Some(text.as_bytes()),
        ));
        assert_eq!(o, format!("root {}\n", merkle::root::<Pedersen>(&leaves)));
        if n == 0 {
            assert_eq!(o, "root 0x0\n", "the empty tree's root is 0");
        }
        for index in 0..n {
            let o = ok(&run(&["merkle", f, "--proof", &index.to_string()], None));
            check_proof::<Poseidon>(&o, &leaves, index);
        }
        let e = bad(
            &run(&["merkle", f, "--proof", &n.to_string()], None),
            "out of range",
        );
        assert!(e.contains("leaves.txt"), "{e}");
    }
    let file = write(d.path(), "bad.txt", "1\n2 3\n");
    bad(
        &run(&["merkle", file.to_str().unwrap()], None),
        "bad.txt:2: ",
    );
}

fn check_proof<H: PairHash>(out: &str, leaves: &[Felt], index: usize) {
    let mut root = None;
    let mut leaf = None;
    let mut count = None;
    let mut siblings = Vec::new();
    for line in out.lines() {
        let (k, v) = line.split_once(' ').expect("key value");
        match k {
            "root" => root = Some(Felt::from_hex(v).unwrap()),
            "leaf" => leaf = Some(Felt::from_hex(v).unwrap()),
            "leaf_count" => count = Some(v.parse::<usize>().unwrap()),
            "index" => assert_eq!(v, index.to_string()),
            "sibling" => siblings.push(Felt::from_hex(v).unwrap()),
            other => panic!("unexpected key {other}"),
        }
    }
    let root = root.expect("root");
    assert_eq!(root, merkle::root::<H>(leaves));
    assert_eq!(leaf, Some(leaves[index]));
    assert_eq!(count, Some(leaves.len()));
    let proof = MerkleProof {
        leaf_count: leaves.len(),
        siblings,
    };
    assert!(merkle::verify_proof::<H>(
        &root,
        &leaves[index],
        index,
        &proof
    ));
}

/// A directory of classes: one line per file in name order, a bad class reported with its
/// file and JSON path while the others are still hashed, exit 2.
#[test]
fn class_hash_of_a_directory_reports_every_file() {
    let d = dir();
    let casm_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/casm");
    let mut names: Vec<String> = fs::read_dir(&casm_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let sub = d.path().join("sub");
    fs::create_dir(&sub).unwrap();
    for n in &names {
        fs::copy(casm_dir.join(n), sub.join(n)).unwrap();
    }
    write(d.path(), "notes.txt", "not a class");
    let o = ok(&run(&["class-hash", d.path().to_str().unwrap()], None));
    let lines: Vec<&str> = o.lines().collect();
    assert_eq!(lines.len(), names.len());
    for (line, n) in lines.iter().zip(&names) {
        let text = fs::read_to_string(casm_dir.join(n)).unwrap();
        let both = starkbatch::class_hash::compiled_class_hashes(&text).unwrap();
        let path = sub.join(n);
        assert_eq!(
            *line,
            format!(
                "{} compiled_class_hash_v1 {} compiled_class_hash_v2 {}",
                path.display(),
                both.v1,
                both.v2
            )
        );
    }
    // One malformed class among good ones.
    write(
        &sub,
        "a_bad.json",
        "{\"bytecode\": [\"0x1\"], \"entry_points_by_type\": {\"EXTERNAL\": [{\"selector\": 5}]}}",
    );
    let o = run(
        &[
            "class-hash",
            "--hash-version",
            "v2",
            d.path().to_str().unwrap(),
        ],
        None,
    );
    let e = bad(&o, "a_bad.json: ");
    assert!(
        e.contains("entry_points_by_type.EXTERNAL[0].selector"),
        "{e}"
    );
    assert!(
        e.contains(&format!("1 of {} classes", names.len() + 1)),
        "{e}"
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), names.len(), "{out}");
    assert!(
        out.lines()
            .all(|l| l.contains(" compiled_class_hash_v2 0x"))
    );
}

#[test]
fn class_hash_detects_sierra_and_casm() {
    let hashes: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(shared_data("classes/erc20.hashes.json")).unwrap(),
    )
    .unwrap();
    let sierra = shared_data("classes/erc20.contract_class.json");
    let casm = shared_data("classes/erc20.compiled_contract_class.json");
    let o = ok(&run(&["class-hash", sierra.to_str().unwrap()], None));
    let lib =
        starkbatch::class_hash::sierra_class_hash(&fs::read_to_string(&sierra).unwrap()).unwrap();
    assert_eq!(o, format!("class_hash {lib}\n"));
    assert_eq!(
        lib,
        Felt::from_hex(hashes["sierra_class_hash"].as_str().unwrap()).unwrap()
    );
    // From stdin too.
    let text = fs::read(&casm).unwrap();
    let o = ok(&run(&["class-hash"], Some(&text)));
    let both =
        starkbatch::class_hash::compiled_class_hashes(std::str::from_utf8(&text).unwrap()).unwrap();
    let lib = both.v1;
    assert_eq!(
        o,
        format!(
            "compiled_class_hash_v1 {}\ncompiled_class_hash_v2 {}\n",
            both.v1, both.v2
        )
    );
    let o = ok(&run(&["class-hash", "--hash-version", "v2"], Some(&text)));
    assert_eq!(o, format!("compiled_class_hash_v2 {}\n", both.v2));
    let o = ok(&run(&["class-hash", "--hash-version", "v1"], Some(&text)));
    assert_eq!(o, format!("compiled_class_hash_v1 {}\n", both.v1));
    assert_eq!(
        lib,
        Felt::from_hex(hashes["compiled_class_hash"].as_str().unwrap()).unwrap()
    );

    let d = dir();
    let p = write(
        d.path(),
        "broken.json",
        "{\"sierra_program\": [\"0x1\",\n  oops]}",
    );
    let e = bad(
        &run(&["class-hash", p.to_str().unwrap()], None),
        "broken.json: ",
    );
    assert!(e.contains("line 2"), "{e}");
    let p = write(d.path(), "neither.json", "{\"abi\": []}");
    bad(
        &run(&["class-hash", p.to_str().unwrap()], None),
        "neither.json: ",
    );
    bad(&run(&["class-hash"], Some(b"")), "<stdin>: ");
}

#[test]
fn state_root_matches_state_commitment() {
    use starkbatch::state::{ContractState, DeclaredClass, StateRootRule, state_commitment};
    let v = values(40);
    // Keys below 2^251 (the top limb of the test values can exceed it).
    let key = |f: &Felt| {
        Felt::from_bytes_be(&{
            let mut b = f.to_bytes_be();
            b[0] &= 0x07;
            b
        })
        .unwrap()
    };
    let contracts: Vec<ContractState> = (0..4)
        .map(|i| ContractState {
            address: key(&v[i + 7]),
            class_hash: v[i + 8],
            nonce: Felt::from(i as u64),
            storage: (0..i)
                .map(|j| (key(&v[10 + 3 * j + i]), v[20 + j]))
                .chain([(Felt::from(5u64), Felt::ZERO)])
                .collect(),
        })
        .collect();
    let classes = vec![
        DeclaredClass {
            class_hash: key(&v[30]),
            compiled_class_hash: v[31],
        },
        DeclaredClass {
            class_hash: Felt::from(7u64),
            compiled_class_hash: v[32],
        },
    ];
    let json = serde_json::json!({
        "contracts": contracts.iter().enumerate().map(|(i, c)| {
            let storage: serde_json::Map<String, serde_json::Value> = c.storage.iter()
                .map(|(k, v)| (k.to_string(), serde_json::Value::String(spell(v, i))))
                .collect();
            serde_json::json!({
                "address": c.address.to_string(),
                "class_hash": c.class_hash.to_string(),
                "nonce": i,
                "storage": storage,
            })
        }).collect::<Vec<_>>(),
        "declared_classes": classes.iter().map(|c| serde_json::json!({
            "class_hash": c.class_hash.to_string(),
            "compiled_class_hash": c.compiled_class_hash.to_string(),
        })).collect::<Vec<_>>(),
    });
    let d = dir();
    let f = write(d.path(), "state.json", &json.to_string());
    for (flag, rule) in [
        ("from-0.14", StateRootRule::From0_14_0),
        ("before-0.14", StateRootRule::Before0_14_0),
    ] {
        let want = state_commitment(&contracts, &classes, rule).unwrap();
        let o = ok(&run(
            &["state-root", f.to_str().unwrap(), "--rule", flag],
            None,
        ));
        let mut expect = format!(
            "state_root {}\ncontract_root {}\nclass_root {}\n",
            want.state_root, want.contract_root, want.class_root
        );
        for (c, r) in contracts.iter().zip(&want.storage_roots) {
            expect.push_str(&format!("storage_root {} {r}\n", c.address));
        }
        assert_eq!(o, expect);
    }
    // No classes: the two rules differ.
    let no_classes = serde_json::json!({"contracts": json["contracts"].clone()}).to_string();
    let a = ok(&run(&["state-root"], Some(no_classes.as_bytes())));
    let b = ok(&run(
        &["state-root", "--rule", "before-0.14"],
        Some(no_classes.as_bytes()),
    ));
    let want = state_commitment(&contracts, &[], StateRootRule::Before0_14_0).unwrap();
    assert!(b.starts_with(&format!("state_root {}\n", want.contract_root)));
    assert_ne!(a.lines().next(), b.lines().next());

    // The empty state: every root 0.
    let o = ok(&run(&["state-root"], Some(b"{}")));
    assert_eq!(o, "state_root 0x0\ncontract_root 0x0\nclass_root 0x0\n");

    // Errors name the file and the place.
    let cases: &[(&str, &str)] = &[
        (
            "{\"contracts\": [{\"address\": \"0x1\"}]}",
            "contracts[0]: missing field \"class_hash\"",
        ),
        (
            "{\"contracts\": [{\"address\": \"0x1\", \"class_hash\": 2, \"storag\": {}}]}",
            "unknown field \"storag\"",
        ),
        (
            "{\"contracts\": [{\"address\": \"0x1\", \"class_hash\": 2, \"storage\": {\"0x5\": \"0xzz\"}}]}",
            "contracts[0].storage[\"0x5\"]: invalid field element",
        ),
        (
            "{\"declared_classes\": [{\"class_hash\": true, \"compiled_class_hash\": 1}]}",
            "declared_classes[0].class_hash: expected a felt",
        ),
        (
            "{\"contracts\": [{\"address\": \"0x800000000000000000000000000000000000000000000000000000000000000\", \"class_hash\": 2}]}",
            "must be below 2^251",
        ),
        ("[]", "expected an object"),
    ];
    for (text, needle) in cases {
        let f = write(d.path(), "bad.json", text);
        let e = bad(&run(&["state-root", f.to_str().unwrap()], None), needle);
        assert!(e.contains("bad.json: "), "{e}");
    }
    let f = write(d.path(), "syntax.json", "{\"contracts\":\n[1,]}");
    bad(
        &run(&["state-root", f.to_str().unwrap()], None),
        "syntax.json:2:4: invalid JSON: trailing comma",
    );
}

#[test]
fn info_reports_backends_and_honours_env() {
    let o = ok(&run(&["info"], None));
    for key in [
        "cpu: ",
        "cores: ",
        "backends available: ",
        "backend chosen: ",
    ] {
        assert!(o.contains(key), "{o}");
    }
    let chosen = starkbatch::Backend::detect();
    assert!(
        o.contains(&format!("backend chosen: {}", chosen.name())),
        "{o}"
    );
    let o = ok(&run_env(
        &["info"],
        None,
        &[("STARKBATCH_BACKEND", "portable")],
    ));
    assert!(
        o.contains("backend chosen: portable: forced by STARKBATCH_BACKEND=portable"),
        "{o}"
    );
    bad(
        &run_env(&["info"], None, &[("STARKBATCH_BACKEND", "bogus")]),
        "STARKBATCH_BACKEND",
    );
    // The forced backend gives the same hashes.
    let text = b"1 2\n3 4\n5 6\n7 8\n9 10\n";
    let a = ok(&run(&["hash", "poseidon"], Some(text)));
    let b = ok(&run_env(
        &["hash", "poseidon"],
        Some(text),
        &[("STARKBATCH_BACKEND", "portable")],
    ));
    assert_eq!(a, b);
}

#[test]
fn bench_quick_writes_json_and_svg() {
    let d = dir();
    let json = d.path().join("bench.json");
    let svg = d.path().join("bench.svg");
    let o = run(
        &[
            "bench",
            "--quick",
            "--max-threads",
            "2",
            "--json",
            json.to_str().unwrap(),
            "--plot",
            svg.to_str().unwrap(),
        ],
        None,
    );
    let table = ok(&o);
    assert!(table.starts_with("workload"), "{table}");
    let doc: serde_json::Value = serde_json::from_str(&fs::read_to_string(&json).unwrap())
        .expect("bench --json writes JSON");
    let results = doc["results"].as_array().expect("results array");
    let workloads = [
        "poseidon_hash",
        "poseidon_single",
        "poseidon_many8",
        "pedersen_hash",
        "merkle_poseidon",
        "state_commitment",
    ];
    for w in workloads {
        let rows: Vec<&serde_json::Value> = results.iter().filter(|r| r["workload"] == w).collect();
        let scalar: Vec<_> = rows.iter().filter(|r| r["path"] == "scalar").collect();
        assert_eq!(scalar.len(), 1, "{w}");
        assert_eq!(scalar[0]["speedup_vs_scalar"].as_f64(), Some(1.0));
        for t in [1, 2] {
            assert!(
                rows.iter()
                    .any(|r| r["path"] == "batch" && r["threads"] == t),
                "{w} has no batch row for {t} threads"
            );
        }
        for r in &rows {
            assert!(r["per_second"].as_f64().unwrap() > 0.0);
            assert!(r["items"].as_u64().unwrap() > 0);
            assert!(table.contains(w));
        }
    }
    let names: Vec<&str> = doc["backends_available"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    let want: Vec<&str> = starkbatch::Backend::available()
        .iter()
        .map(|b| b.name())
        .collect();
    assert_eq!(names, want);
    for b in &names {
        assert!(
            results
                .iter()
                .any(|r| r["workload"] == "poseidon_hash" && r["backend"] == *b),
            "poseidon_hash not measured on {b}"
        );
    }
    let svg = fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for w in workloads {
        assert!(svg.contains(w), "plot lacks {w}");
    }

    bad(&run(&["bench", "--duration", "0"], None), "--duration");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["frobnicate"], None).status.code(), Some(2));
    assert_eq!(run(&["hash", "sha256"], None).status.code(), Some(2));
    assert!(ok(&run(&["--version"], None)).starts_with("starkbatch "));
}

fn updates_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/state-updates")
        .join(name)
}

/// The published mainnet blocks 0..=9 as JSON values (each carries its block number and roots).
fn mainnet_updates() -> Vec<serde_json::Value> {
    fs::read_to_string(updates_file("mainnet-0-9.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn db_arg(d: &Path) -> String {
    d.display().to_string()
}

/// `commit --check` replays published blocks (printing each published root), `roots`, `proof`
/// (equal to the library's proof of the same store), `revert`; bad input exits 2 naming the
/// file, block and item and changes nothing; a differing root exits 1 and leaves the block
/// uncommitted.
#[test]
fn store_commit_check_roots_proof_revert() {
    let ups = mainnet_updates();
    let t = dir();
    let db = t.path().join("db");
    let dbs = db_arg(&db);
    let jsonl = updates_file("mainnet-0-9.jsonl");
    // Blocks 0..=7 from one file, 8 and 9 from a second (a JSON array).
    let first: String = ups[..8].iter().map(|u| format!("{u}\n")).collect();
    let f1 = write(t.path(), "first.jsonl", &first);
    let f2 = write(
        t.path(),
        "rest.json",
        &serde_json::Value::Array(ups[8..].to_vec()).to_string(),
    );
    let out = ok(&run(
        &[
            "commit",
            "--db",
            &dbs,
            "--check",
            "--rule",
            "before-0.14",
            f1.to_str().unwrap(),
            f2.to_str().unwrap(),
        ],
        None,
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    for (b, (l, u)) in lines.iter().zip(&ups).enumerate() {
        let root = Felt::from_hex(u["new_root"].as_str().unwrap()).unwrap();
        assert_eq!(*l, format!("block {b} state_root {root}"));
    }
    let roots = |db: &str| ok(&run(&["roots", "--db", db], None));
    let at9 = roots(&dbs);
    assert!(at9.starts_with("block 9\nstate_root "), "{at9}");
    assert!(at9.contains("rule before-0.14\n"), "{at9}");

    // proof: the library's proof of the same store, as JSON.
    let contract = "0x31c9cdb9b00cb35cf31c05855c0ec3ecf6f7952a1ce6e3c53c3455fcd75a280";
    let (k1, k2) = ("0x5", "0x1234");
    let cli_proof: serde_json::Value = serde_json::from_str(&ok(&run(
        &[
            "proof",
            "--db",
            &dbs,
            "--contract",
            contract,
            "--key",
            k1,
            "--key",
            k2,
        ],
        None,
    )))
    .unwrap();
    {
        use starkbatch::store::{ContractStorageKeys, ProofRequest, Store};
        let store = Store::open(&db).unwrap();
        let c = Felt::from_hex(contract).unwrap();
        let req = ProofRequest {
            contract_addresses: vec![c],
            contracts_storage_keys: vec![ContractStorageKeys {
                contract_address: c,
                storage_keys: vec![Felt::from_hex(k1).unwrap(), Felt::from_hex(k2).unwrap()],
            }],
            ..ProofRequest::default()
        };
        let view = store.view().unwrap();
        let proof = view.storage_proof(&req).unwrap();
        let state_root = view.block().unwrap().roots.state_root;
        proof
            .verify(
                &req,
                &state_root,
                starkbatch::state::StateRootRule::Before0_14_0,
            )
            .unwrap();
        assert_eq!(cli_proof, proof.to_json());
    }
    bad(
        &run(&["proof", "--db", &dbs, "--contract", P], None),
        "--contract",
    );
    bad(
        &run(
            &[
                "proof",
                "--db",
                &dbs,
                "--contract",
                "0x1",
                "--key",
                P_MINUS_1,
            ],
            None,
        ),
        "--key",
    );

    // Bad input: nothing written, the roots as they were.
    let bad_key = {
        let mut u = ups[9].clone();
        u["block_number"] = 11.into();
        let diffs = u["state_diff"]["storage_diffs"].as_object_mut().unwrap();
        let (_, entries) = diffs.iter_mut().next().unwrap();
        entries
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"key": P_MINUS_1, "value": "0x1"}));
        u
    };
    let good10 = {
        let mut u = ups[9].clone();
        u["block_number"] = 10.into();
        u
    };
    let mixed = write(t.path(), "mixed.jsonl", &format!("{good10}\n{bad_key}\n"));
    let e = bad(
        &run(&["commit", "--db", &dbs, mixed.to_str().unwrap()], None),
        "mixed.jsonl: block 11: state_diff.storage_diffs",
    );
    assert!(e.contains("not below 2^251"), "{e}");
    assert_eq!(roots(&dbs), at9);
    let broken = write(
        t.path(),
        "broken.json",
        "{\"state_diff\": {\"storage_diffs\": [}",
    );
    bad(
        &run(&["commit", "--db", &dbs, broken.to_str().unwrap()], None),
        "broken.json:1:",
    );
    let unknown = write(
        t.path(),
        "unknown.json",
        r#"{"state_diff": {"storage_diffs": [], "surprise": []}}"#,
    );
    bad(
        &run(&["commit", "--db", &dbs, unknown.to_str().unwrap()], None),
        "surprise",
    );
    bad(
        &run(&["commit", "--db", &dbs, jsonl.to_str().unwrap()], None),
        "block 0: the store expects block 10 next",
    );
    assert_eq!(roots(&dbs), at9);

    // A differing old_root or new_root under --check: exit 1, the block not committed.
    let mut wrong_old = good10.clone();
    wrong_old["old_root"] = "0x1".into();
    let f = write(t.path(), "old.json", &wrong_old.to_string());
    let o = run(
        &["commit", "--db", &dbs, "--check", f.to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("block 10: old_root 0x1 differs"),
        "{}",
        stderr(&o)
    );
    let mut wrong_new = good10.clone();
    wrong_new["old_root"] = ups[9]["new_root"].clone();
    wrong_new["new_root"] = "0x2".into();
    let f = write(t.path(), "new.json", &wrong_new.to_string());
    let o = run(
        &["commit", "--db", &dbs, "--check", f.to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("differs from new_root 0x2; the block was reverted"));
    assert_eq!(roots(&dbs), at9);

    // revert, then the same blocks again.
    let root7 = Felt::from_hex(ups[7]["new_root"].as_str().unwrap()).unwrap();
    assert_eq!(
        ok(&run(&["revert", "--db", &dbs, "--to", "7"], None)),
        format!("block 7 state_root {root7}\n")
    );
    assert!(roots(&dbs).starts_with(&format!("block 7\nstate_root {root7}\n")));
    bad(&run(&["revert", "--db", &dbs, "--to", "8"], None), "");
    ok(&run(
        &[
            "commit",
            "--db",
            &dbs,
            "--check",
            "--rule",
            "before-0.14",
            f2.to_str().unwrap(),
        ],
        None,
    ));
    assert_eq!(roots(&dbs), at9);
    bad(
        &run(&["roots", "--db", &db_arg(&t.path().join("none"))], None),
        "no store here",
    );
    assert!(!t.path().join("none").exists());
}

/// `import` of a state JSON gives `state-root`'s roots; it refuses a directory that holds a
/// store; bad input leaves nothing behind.
#[test]
fn store_import() {
    let t = dir();
    let state = write(
        t.path(),
        "state.json",
        r#"{"contracts": [
              {"address": "0x10", "class_hash": "0x7", "nonce": "0x2", "storage": {"0x5": "0x64", "0x6": "0x0"}},
              {"address": "0x11", "class_hash": "0x7", "storage": {"0x1": "0x1", "0x2": "0x2"}}],
            "declared_classes": [{"class_hash": "0x7", "compiled_class_hash": "0x99"}]}"#,
    );
    let want = ok(&run(&["state-root", state.to_str().unwrap()], None));
    let root = want
        .lines()
        .next()
        .unwrap()
        .strip_prefix("state_root ")
        .unwrap();
    let db = t.path().join("db");
    let dbs = db_arg(&db);
    assert_eq!(
        ok(&run(
            &[
                "import",
                "--db",
                &dbs,
                "--block",
                "42",
                state.to_str().unwrap()
            ],
            None
        )),
        format!("block 42 state_root {root}\n")
    );
    let r = ok(&run(&["roots", "--db", &dbs, "--contract", "0x10"], None));
    assert!(
        r.starts_with(&format!("block 42\nstate_root {root}\n")),
        "{r}"
    );
    assert!(r.contains("contract 0x10 storage_root "), "{r}");
    assert!(r.contains(" class_hash 0x7 nonce 0x2\n"), "{r}");
    bad(
        &run(&["import", "--db", &dbs, state.to_str().unwrap()], None),
        "already holds a store",
    );
    let bad_state = write(
        t.path(),
        "bad.json",
        &format!(r#"{{"contracts": [{{"address": "{P_MINUS_1}", "class_hash": "0x7"}}]}}"#),
    );
    let db2 = t.path().join("db2");
    bad(
        &run(
            &["import", "--db", &db_arg(&db2), bad_state.to_str().unwrap()],
            None,
        ),
        "bad.json: ",
    );
    assert!(!db2.exists(), "a failed import left {}", db2.display());
}
