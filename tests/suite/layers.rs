//! The layers of `src/` point one way (docs/README.md draws them).
//!
//! Every `crate::` path in the library's sources (code, not comments) is an edge from the file's
//! top-level module to the module the path names. An edge must point to a module of a lower layer,
//! or within the module; and within a module, no two files may name each other (a parent `mod.rs`
//! declaring and re-exporting its children is not counted). `scripts/layers.sh` prints the edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may name modules of its own layer's lower neighbours only:
/// anything listed in an earlier entry.
const LAYERS: &[&[&str]] = &[
    &["sync"],
    &["field"],
    &["backend"],
    &["poseidon", "curve", "blake2s"],
    &["pedersen", "ecdsa"],
    &["batch"],
    &["hash", "input", "interop"],
    &["merkle", "class_hash", "prover"],
    &["state"],
    &["store"],
];

/// The module that a path's first segment names: a module, or one of the few crate-root
/// re-exports the library uses internally (any other root path is reported under its own name,
/// which is in no layer: name the module instead).
fn resolve(first: &str, modules: &BTreeSet<String>) -> String {
    match first {
        "Felt" | "FeltError" | "PackedFelt" => "field".to_string(),
        "Backend" | "BackendError" | "BACKEND_ENV" => "backend".to_string(),
        m if modules.contains(m) => m.to_string(),
        f if f.contains("_batch") => "batch".to_string(),
        f if f.starts_with("poseidon_") => "poseidon".to_string(),
        f if f.starts_with("pedersen_") => "pedersen".to_string(),
        f if f.starts_with("blake2s_") => "blake2s".to_string(),
        other => format!("crate::{other}"),
    }
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The source with comments and string literals blanked, so only code is scanned.
fn code_only(src: &str) -> String {
    let bytes = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if bytes[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            let ch = src[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// `code` without its test modules (`#[cfg(test)]` or `#[cfg(all(test, ..))]` followed by a
/// `mod name { .. }`): tests may instantiate every sibling lane type, so they do not count
/// for the file-to-file check (they still count for the layers).
fn without_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    loop {
        let at = [rest.find("#[cfg(test)]"), rest.find("#[cfg(all(test")]
            .into_iter()
            .flatten()
            .min();
        let Some(at) = at else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let attr_end = after.find(']').map_or(after.len(), |i| i + 1);
        let body = after[attr_end..].trim_start();
        if (body.starts_with("mod ") || body.starts_with("pub(crate) mod "))
            && let Some(open) = body.find('{').filter(|&o| !body[..o].contains(';'))
        {
            let mut depth = 0;
            let mut end = body.len();
            for (i, c) in body[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = open + i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &body[end..];
            continue;
        }
        out.push_str(&after[..attr_end]);
        rest = &after[attr_end..];
    }
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The path segments right after each `prefix` in `code`: `crate::a::b` gives `[a, b]`, and
/// `crate::{a::b, c}` gives `[a, b]` and `[c]`.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        collect_tree(rest.trim_start(), &mut Vec::new(), &mut found);
    }
    found
}

/// Expands one use tree (`a::b`, `a::{b, c::d}`, `{a, b}`) starting at `s` into its paths.
fn collect_tree(s: &str, stem: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if let Some(group) = s.strip_prefix('{') {
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    let item = group[start..i].trim();
                    if !item.is_empty() {
                        collect_tree(item, &mut stem.clone(), out);
                    }
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    let item = group[start..i].trim();
                    if !item.is_empty() {
                        collect_tree(item, &mut stem.clone(), out);
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let id = ident_at(s);
    if id.is_empty() {
        if !stem.is_empty() {
            out.push(stem.clone());
        }
        return;
    }
    stem.push(id.to_string());
    let after = s[id.len()..].trim_start();
    if let Some(next) = after.strip_prefix("::") {
        collect_tree(next.trim_start(), stem, out);
    } else {
        out.push(stem.clone());
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(top-level module, file within it)` of a library source: `src/backend/avx2.rs` is
/// `("backend", "avx2")`, `src/backend/mod.rs` is `("backend", "mod")`, `src/hash.rs` is
/// `("hash", "mod")`, `src/lib.rs` is `("lib", "mod")`.
fn place(src: &Path, file: &Path) -> (String, String) {
    let rel = file.strip_prefix(src).unwrap();
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    match parts.as_slice() {
        [one] => (one.clone(), "mod".to_string()),
        [module, file] => (module.clone(), file.clone()),
        _ => panic!("{}: sources nest one folder deep at most", rel.display()),
    }
}

struct Edges {
    /// (from module, to module) → the files that make the edge.
    modules: BTreeMap<(String, String), BTreeSet<String>>,
    /// Within one module: (from file, to file).
    files: BTreeSet<(String, String, String)>,
}

fn scan() -> Edges {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| !f.starts_with(src.join("bin")));
    files.sort();
    let known: BTreeSet<(String, String)> = files.iter().map(|f| place(&src, f)).collect();
    let modules: BTreeSet<String> = known.iter().map(|(m, _)| m.clone()).collect();
    let mut edges = Edges {
        modules: BTreeMap::new(),
        files: BTreeSet::new(),
    };
    for file in &files {
        let (module, name) = place(&src, file);
        let code = code_only(&std::fs::read_to_string(file).unwrap());
        let shown = file.strip_prefix(&src).unwrap().display().to_string();
        for path in paths_after(&code, "crate::") {
            let to = &resolve(&path[0], &modules);
            if *to != module {
                edges
                    .modules
                    .entry((module.clone(), to.clone()))
                    .or_default()
                    .insert(shown.clone());
            }
        }
        let code = without_test_modules(&code);
        let mut siblings: Vec<String> = paths_after(&code, "crate::")
            .into_iter()
            .filter(|p| p[0] == module && p.len() > 1)
            .map(|p| p[1].clone())
            .collect();
        if name != "mod" {
            siblings.extend(
                paths_after(&code, "super::")
                    .into_iter()
                    .map(|p| p[0].clone()),
            );
            for sub in siblings {
                if sub != name && known.contains(&(module.clone(), sub.clone())) {
                    edges.files.insert((module.clone(), name.clone(), sub));
                }
            }
        }
    }
    edges
}

#[test]
fn every_module_is_in_a_layer() {
    let edges = scan();
    for (from, to) in edges.modules.keys() {
        for m in [from, to] {
            assert!(
                m == "lib" || layer_of(m).is_some(),
                "module `{m}` is in no layer: add it to LAYERS in tests/suite/layers.rs and to docs/README.md"
            );
        }
    }
}

#[test]
fn imports_point_down() {
    let edges = scan();
    let mut up = Vec::new();
    for ((from, to), files) in &edges.modules {
        if from == "lib" {
            continue;
        }
        let (Some(f), Some(t)) = (layer_of(from), layer_of(to)) else {
            continue;
        };
        if t >= f {
            up.push(format!(
                "{from} (layer {f}) -> {to} (layer {t}) in {files:?}"
            ));
        }
    }
    assert!(
        up.is_empty(),
        "imports that do not point down:\n{}",
        up.join("\n")
    );
}

#[test]
fn no_two_files_name_each_other() {
    let edges = scan();
    let mut pairs = Vec::new();
    for (module, a, b) in &edges.files {
        if a < b
            && edges
                .files
                .contains(&(module.clone(), b.clone(), a.clone()))
        {
            pairs.push(format!("src/{module}/{a}.rs <-> src/{module}/{b}.rs"));
        }
    }
    assert!(
        pairs.is_empty(),
        "files that import each other:\n{}",
        pairs.join("\n")
    );
}

/// `cargo test --test layers -- --ignored --nocapture` (or `scripts/layers.sh`) prints every edge.
#[test]
#[ignore]
fn print_edges() {
    let edges = scan();
    for ((from, to), files) in &edges.modules {
        println!(
            "{from} -> {to}: {}",
            files.iter().cloned().collect::<Vec<_>>().join(" ")
        );
    }
    for (module, a, b) in &edges.files {
        println!("  {module}: {a} -> {b}");
    }
}

#[test]
fn the_scanner_reads_use_trees() {
    let code = code_only(
        "use crate::{a::b, c::{d, e}}; // crate::zzz\nlet x = crate::f::g(\"crate::h\");",
    );
    let paths = paths_after(&code, "crate::");
    let firsts: Vec<&str> = paths.iter().map(|p| p[0].as_str()).collect();
    assert_eq!(firsts, ["a", "c", "c", "f"]);
    assert_eq!(paths[2], ["c", "e"]);
}
