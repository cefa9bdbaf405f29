//! `starkbatch class-hash [FILE|DIR ...]`: the kind of class is detected from its content
//! (`sierra_program` → Sierra, `bytecode` → CASM). Prints `class_hash 0x...` for a Sierra class;
//! `compiled_class_hash_v1 0x...` and `compiled_class_hash_v2 0x...` for CASM (or the one that
//! `--hash-version` names). With several inputs, classes are hashed in parallel (rayon across
//! files; inside a class the batch kernels put segments side by side in lanes) and each output
//! line starts with the file's path, in input order. A failed class is reported on stderr as
//! `FILE: <the library's message, which names the JSON path and line/column>`; the rest are
//! still hashed, and the command then exits 2.

use crate::args::{ClassHashArgs, HashVersion};
use crate::error::{CliError, CliResult};
use crate::input::Input;
use crate::output::Output;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use starkbatch::Felt;
use starkbatch::class_hash::{
    ClassHashes as Hashes, CompiledClassHashes, class_hashes as hash_text,
};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The output fields for `h`: `label value` pairs.
fn fields(h: &Hashes, version: Option<HashVersion>) -> Vec<(&'static str, Felt)> {
    match (h, version) {
        (Hashes::Sierra(c) | Hashes::Legacy(c), _) => vec![("class_hash", *c)],
        (Hashes::Compiled(CompiledClassHashes { v1, .. }), Some(HashVersion::V1)) => {
            vec![("compiled_class_hash_v1", *v1)]
        }
        (Hashes::Compiled(CompiledClassHashes { v2, .. }), Some(HashVersion::V2)) => {
            vec![("compiled_class_hash_v2", *v2)]
        }
        (Hashes::Compiled(CompiledClassHashes { v1, v2 }), None) => vec![
            ("compiled_class_hash_v1", *v1),
            ("compiled_class_hash_v2", *v2),
        ],
    }
}

/// Every file named, directories walked recursively for `*.json` and `*.casm` in name order.
fn collect(paths: &[PathBuf]) -> CliResult<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> CliResult {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "casm")
            ) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

pub fn run(a: &ClassHashArgs) -> CliResult {
    let single = a.files.len() <= 1 && !a.files.first().is_some_and(|p| p.is_dir());
    if single {
        let (name, text) = Input::open(a.files.first().map(|p| p.as_path()))?.read_to_string()?;
        let h = hash_text(&text).map_err(|e| CliError::input(format!("{name}: {e}")))?;
        let mut out = Output::create(None)?;
        for (label, v) in fields(&h, a.hash_version) {
            out.line(format_args!("{label} {v}"))?;
        }
        return out.finish();
    }
    let files = collect(&a.files)?;
    let bar = (files.len() > 1 && std::io::stderr().is_terminal()).then(|| {
        let b = ProgressBar::new(files.len() as u64);
        b.set_style(
            ProgressStyle::with_template("class-hash [{bar:30}] {pos}/{len} classes ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        b
    });
    let results: Vec<Result<Hashes, String>> = files
        .par_iter()
        .map(|p| {
            let name = p.display().to_string();
            let r = std::fs::read_to_string(p)
                .map_err(|e| format!("{name}: {e}"))
                .and_then(|text| hash_text(&text).map_err(|e| format!("{name}: {e}")));
            if let Some(b) = &bar {
                b.inc(1);
            }
            r
        })
        .collect();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut out = Output::create(None)?;
    let mut failed = 0;
    for (p, r) in files.iter().zip(&results) {
        match r {
            Ok(h) => {
                let mut line = p.display().to_string();
                for (label, v) in fields(h, a.hash_version) {
                    line.push_str(&format!(" {label} {v}"));
                }
                out.line(line)?;
            }
            Err(e) => {
                eprintln!("starkbatch: {e}");
                failed += 1;
            }
        }
    }
    out.finish()?;
    if failed > 0 {
        return Err(CliError::input(format!(
            "{failed} of {} classes could not be hashed",
            files.len()
        )));
    }
    Ok(())
}
